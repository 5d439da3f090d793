// One workspace folder's memory: the engine's decisions applied to the store.
// The CLI and the extension host both go through this class: one behaviour, tested once.

import { approachKey, normalizeCwd } from '../core/approach';
import { addLearnings, extractLearnings } from '../core/learnings';
import { applyRun, type RunOutcome, type RunRecord } from '../core/journal';
import type { CheckResult } from '../core/rules/check';
import { mergeSettings } from '../core/config';
import { addDecision } from '../core/rules/decisions';
import { addEdits, addStart, editPath, type EditInput } from '../core/rules/edits';
import {
  allowOnce,
  applyAttempt,
  distrustReportedSuccess,
  findApproach,
  hasWorkspaceEffects,
  markResolved,
  newId,
  prepareAttempt,
  summarize,
  type MemorySummary,
} from '../core/memory';
import { recall, type RecallHit, type Scorer, lexicalScorer } from '../core/recall';
import { createRedactor, type Redactor, type RedactorOptions } from '../core/text/redact';
import { buildReflection, storeReflection, type ReflectionRecord } from '../core/reflection';
import {
  emptyMemory,
  type Approach,
  type Attempt,
  type AttemptInput,
  type Decision,
  type DecisionRecord,
  type EditEvent,
  type EngineSettings,
  type GitState,
  type Learning,
  type LearningType,
  type MemoryData,
} from '../core/types';
import { buildBrief } from '../core/prompts/brief';
import { readGitState, type GitOptions } from '../store/gitContext';
import { MemoryStore, memoryDirFor, type MemoryStorePort, type StoreOptions } from '../store/memoryStore';
import type { TeamLink } from '../store/team/teamMemory';
import { VectorStore } from '../store/vectorStore';
import { addGitContext, recordRun } from './recordRun';
import { decideGate, type GateAnswer, type GateCheck } from './gate';

export interface WorkspaceMemoryOptions extends StoreOptions {
  settings?: Partial<EngineSettings>;
  /** Where memory.json lives; default <workspace>/.vscode/failure-memory. */
  dir?: string;
  /** Scorer for recall; default lexical. The embeddings module provides a semantic one. */
  scorer?: Scorer;
  /**
   * Git context of each remembered run (HEAD, branch, changed files): false for none, or options
   * (timeout). Default on, read with `git` after the run, bounded (see gitContext.ts).
   */
  git?: false | GitOptions;
  /** The store to use instead of memory.json under `dir` (InMemoryStore for replay and tests). */
  store?: MemoryStorePort;
  /** Team memory: told about every write (its outbox), consulted by check (its cached view). */
  team?: TeamLink;
  /**
   * Record runs into the journal beside memory.json instead of rewriting it (a hook: one run per
   * process, where rewriting the whole memory is most of the cost); the next full write folds it in.
   */
  journal?: boolean;
  /** The time of each record, edit and check; default the system clock (replay gives each event its own time). */
  clock?: () => Date;
}

/** What recording a run did, with the learnings it added (LEARNING[type]: lines of its output, the fix lesson). */
export type RecordOutcome = RunOutcome;

export class WorkspaceMemory {
  readonly store: MemoryStorePort;
  private _settings: EngineSettings;
  private redactor: Redactor;
  private readonly redactorOptions: RedactorOptions;
  private readonly git: false | GitOptions;
  scorer: Scorer;
  readonly team: TeamLink | undefined;
  private readonly journal: boolean;
  private readonly clock: () => Date;

  constructor(
    readonly workspaceFolder: string,
    options: WorkspaceMemoryOptions = {},
  ) {
    this.store =
      options.store ??
      new MemoryStore(options.dir ?? memoryDirFor(workspaceFolder), { ...options, root: options.root ?? (options.dir ? undefined : workspaceFolder), redact: t => this.redact(t) });
    this._settings = mergeSettings(options.settings);
    // a user pattern over its time budget: the text it did not scan is dropped, and the reason said
    this.redactorOptions = { onOverBudget: (m: string) => options.onWarning?.(`redaction: ${m}`) };
    this.redactor = createRedactor(this._settings.extraRedactionPatterns, this.redactorOptions);
    this.scorer = options.scorer ?? lexicalScorer;
    this.git = options.git ?? {};
    this.team = options.team;
    this.journal = options.journal === true;
    this.clock = options.clock ?? (() => new Date());
  }

  get settings(): EngineSettings {
    return this._settings;
  }

  /** Applies new settings (throws RedactionPatternError for an invalid extra pattern, keeping the old ones). */
  setSettings(s: Partial<EngineSettings>): void {
    const next = mergeSettings(s);
    this.redactor = createRedactor(next.extraRedactionPatterns, this.redactorOptions);
    this._settings = next;
  }

  redact(text: string): string {
    return this.redactor.redact(text).text;
  }

  read(): Promise<MemoryData> {
    return this.store.read();
  }

  /** Memory as its files hold it, without what the gate's copy puts back (doctor, the notification's check). */
  readAsIs(): Promise<MemoryData> {
    return this.store.readAsIs?.() ?? this.store.read();
  }

  /** Records one finished command. Redaction and parsing happen before the lock is taken. */
  async record(input: AttemptInput): Promise<RecordOutcome> {
    const attempt = prepareAttempt(input, this._settings, this.redactor, this.clock());
    const found = extractLearnings(attempt.output);
    // a run whose reported success must be witnessed is judged against memory under the lock: the store writes it
    const journaled = input.witnessRequired ? undefined : await this.recordIntoJournal(attempt, found);
    if (journaled) return journaled;
    let current: MemoryData | undefined;
    if (!found.length && (attempt.outcome === 'success' || attempt.outcome === 'interrupted') && !hasWorkspaceEffects(attempt.command, attempt.outcome)) {
      // Most commands succeed and were never remembered: answer from a lock-free read and write
      // nothing, so `ls` and `git status` cost one read, not a lock, no git and no rewrite of the file.
      current = await this.store.read();
      if (!current.approaches[attempt.key]) {
        const r = { ...applyAttempt(current, attempt, this._settings), learnings: [] };
        await this.team?.afterRecord(r);
        return r;
      }
    }
    // [ledger] the git state after the run, before the lock (git is bounded; the lock is not held meanwhile)
    if (this.git !== false && attempt.outcome !== 'interrupted') {
      const before = (current ?? (await this.store.read().catch(() => undefined)))?.approaches[attempt.key];
      await addGitContext(this.workspaceFolder, attempt, before, this.git);
    }
    const r = await this.store.update(data => {
      if (input.witnessRequired) distrustReportedSuccess(data, attempt);
      return applyRun(data, attempt, found, this._settings, { redact: t => this.redact(t), newId: () => newId() });
    });
    await this.tellTeam(r);
    return r;
  }

  /**
   * Journal mode (a hook): the run appended to the journal instead of a rewrite of memory.json
   * (app/recordRun.ts), folded in once the journal is long. undefined: not in journal mode, or
   * memory.json needs a full write.
   */
  private async recordIntoJournal(attempt: Attempt, found: RunRecord['learnings']): Promise<RecordOutcome | undefined> {
    const { readFor, readApproach, appendRecord } = this.store;
    if (!this.journal || !readFor || !readApproach || !appendRecord) return undefined;
    const store = { readFor: readFor.bind(this.store), readApproach: readApproach.bind(this.store), appendRecord: appendRecord.bind(this.store) };
    const run = await recordRun(attempt, found, { workspace: this.workspaceFolder, store, settings: this._settings, redact: t => this.redact(t), git: this.git, tell: this.team ? 'exact' : 'view' });
    if (!run?.outcome) return undefined;
    // the journal is long enough: fold it into memory.json now (the run is safe in the journal either way)
    if (run.fold) await (this.store.foldJournal ? this.store.foldJournal() : this.store.update(() => undefined)).catch(() => undefined);
    if (run.journaled) await this.tellTeam(run.outcome);
    else await this.team?.afterRecord(run.outcome);
    return run.outcome;
  }

  private async tellTeam(r: RecordOutcome): Promise<void> {
    if (!this.team) return;
    await this.team.afterRecord(r);
    for (const l of r.learnings) await this.team.afterLearning(l);
  }

  /**
   * May this command run? The gate's one decision (./gate.ts): local memory decides, the cached team view
   * (never the network) adds `team`, and a deny is only given after git confirms nothing changed since the
   * last failure (one bounded `git status`, only then): an edit no hook reported must never be denied as
   * "nothing changed". The deciding step's check; `gate` has every step.
   */
  async check(command: string, cwd?: string): Promise<GateCheck> {
    return (await this.gate(command, cwd)).check;
  }

  /** The gate's whole answer for a command line (every step it judged). */
  async gate(command: string, cwd?: string): Promise<GateAnswer> {
    const data = await this.store.read();
    const team = this.team ? await this.team.merger() : undefined;
    const view = { data, settings: this._settings, redact: (t: string) => this.redact(t), now: this.clock() };
    return decideGate(command, cwd, view, { ...(team ? { team } : {}), ...(this.git !== false ? { git: () => this.gitState() } : {}) });
  }

  /** The workspace's git state now (bounded; undefined without git, or when git context is off). */
  async gitState(): Promise<GitState | undefined> {
    if (this.git === false) return undefined;
    return readGitState(this.workspaceFolder, this.git).catch(() => undefined);
  }

  /** Records edit events (an editor save, an agent's edit tool, `failure-memory edit`): redacted, bounded. */
  async recordEdits(edits: readonly EditInput[]): Promise<EditEvent[]> {
    if (!edits.length) return [];
    const now = this.clock().toISOString();
    const clean = edits.map(e => ({ ...e, path: this.redact(editPath(e.path, this.workspaceFolder)) }));
    return this.store.update(data => {
      const added = addEdits(data, clean, now);
      if (added.length) data.updatedAt = now;
      return added;
    });
  }

  /** Records a background job or service started (the terminal tells at its start: it may never end). */
  async recordStart(command: string): Promise<void> {
    const now = this.clock().toISOString();
    const clean = this.redact(command);
    await this.store.update(data => void addStart(data, clean, now));
  }

  /**
   * Records a gate decision worth reading later: every ask and deny the policy gave, also the ones the
   * strongest-answer setting turned into a warning (shadow mode). Others are not written. `answered`: what the
   * caller really did, when it differs from the check (the terminal lets a run go on after a change).
   */
  async recordDecision(c: CheckResult, via: string, answered: Decision = c.decision): Promise<DecisionRecord | undefined> {
    if (c.policyDecision !== 'ask' && c.policyDecision !== 'deny') return undefined;
    const record: DecisionRecord = { at: this.clock().toISOString(), command: c.command.slice(0, 2000), key: c.key, label: c.label, cwd: c.cwd, decision: answered, policy: c.policyDecision, code: c.code, reason: c.reason.slice(0, 2000), via };
    await this.store.update(data => void addDecision(data, record));
    return record;
  }

  async summary(): Promise<MemorySummary> {
    return summarize(await this.store.read());
  }

  async recall(query: string, k = 5): Promise<RecallHit[]> {
    return recall(await this.store.read(), this.redact(query), k, this.scorer);
  }

  /** Finds an approach by command line (+cwd) or by its key. */
  async find(commandOrKey: string, cwd?: string): Promise<Approach | undefined> {
    return findApproach(await this.store.read(), this.redact(commandOrKey), cwd);
  }

  /**
   * The key of a command's approach, remembered here or not: a lesson about a command that only
   * failed on other machines (the team's) keeps its approach, so it reaches `check` everywhere.
   */
  async keyOf(commandOrKey: string, cwd?: string): Promise<string> {
    const clean = this.redact(commandOrKey);
    return findApproach(await this.store.read(), clean, cwd)?.key ?? approachKey(clean, normalizeCwd(cwd));
  }

  /** What was learned about an approach: here (learnings linked to it), then the team's lessons, without repeats. */
  async lessonsFor(key: string): Promise<Array<{ type: string; text: string; from: 'local' | 'team'; machine?: string; source?: Learning['source'] }>> {
    const local = (await this.store.read()).learnings.filter(l => l.key === key).map(l => ({ type: l.type, text: l.text, from: 'local' as const, source: l.source }));
    const team = this.team ? await this.team.lessons(key).catch(() => []) : [];
    const seen = new Set(local.map(l => l.text));
    return [...local, ...team.filter(l => !seen.has(l.text) && seen.add(l.text)).map(l => ({ type: l.type, text: l.text, from: 'team' as const, machine: l.machine }))];
  }

  /**
   * Builds, stores and returns a reflection for an approach (default: the most recent failing or
   * exhausted one). undefined when memory holds nothing to reflect on.
   */
  async reflect(commandOrKey?: string, cwd?: string, opts: { omega?: number; store?: boolean } = {}): Promise<ReflectionRecord | undefined> {
    const data = await this.store.read();
    const approach = commandOrKey ? findApproach(data, this.redact(commandOrKey), cwd) : defaultReflectionTarget(data);
    if (!approach) return undefined;
    const similar = await recall(data, `${approach.label}\n${approach.lastErrorSignature}`, 6, this.scorer);
    const record = buildReflection({ data, approach, threshold: this._settings.threshold, similar, omega: opts.omega, id: newId() });
    if (opts.store !== false) await this.saveReflection(record);
    return record;
  }

  /** Stores a reflection (possibly rewritten by a language model) and the learnings in its text. */
  async saveReflection(record: ReflectionRecord): Promise<void> {
    const text = [record.self_reflection.reflection_text, ...record.self_reflection.lessons_learned].join('\n');
    const learned = await this.store.update(data => {
      storeReflection(data, record, this._settings.limits.maxReflections);
      const found = extractLearnings(text);
      return found.length ? addLearnings(data.learnings, found, { source: 'reflection', key: record.failure_memory.key, now: record.timestamp, newId: () => newId() }) : [];
    });
    if (this.team) {
      await this.team.afterReflection(record);
      for (const l of learned) await this.team.afterLearning(l);
    }
  }

  /**
   * A redacted markdown brief of an approach (default: the most recent failing or exhausted one) for a
   * chat or an issue, with what fixed similar failures before. undefined when there is nothing to brief.
   */
  async brief(commandOrKey?: string, cwd?: string): Promise<string | undefined> {
    const data = await this.store.read();
    const approach = commandOrKey ? findApproach(data, this.redact(commandOrKey), cwd) : defaultReflectionTarget(data);
    if (!approach) return undefined;
    const similar = await recall(data, `${approach.label}\n${approach.lastErrorSignature}`, 8, this.scorer);
    return buildBrief({ approach, threshold: this._settings.threshold, similar, redact: t => this.redact(t) });
  }

  /**
   * Marks the approach of a command line (or key) resolved, or lets it run once. The lookup happens
   * inside the lock, on the data being written: a `clear` racing it cannot pull the approach away
   * between finding and marking it. undefined when memory holds no such approach.
   */
  async markByCommand(how: 'resolve' | 'allow', commandOrKey: string, cwd?: string): Promise<Approach | undefined> {
    const wanted = this.redact(commandOrKey);
    // nothing to mark: answer from a lock-free read and write nothing (no folder created)
    if (!findApproach(await this.store.read(), wanted, cwd)) return undefined;
    return this.store.update(data => {
      const a = findApproach(data, wanted, cwd);
      if (!a) return undefined;
      return how === 'resolve' ? markResolved(data, a.key) : allowOnce(data, a.key);
    });
  }

  async resolve(key: string): Promise<Approach | undefined> {
    const a = await this.store.update(data => markResolved(data, key));
    if (a) await this.team?.afterResolve(a);
    return a;
  }

  async allowOnce(key: string): Promise<Approach | undefined> {
    return this.store.update(data => allowOnce(data, key));
  }

  async addLearning(type: LearningType, text: string, opts: { key?: string; source?: Learning['source'] } = {}): Promise<Learning> {
    const clean = this.redact(text).trim().slice(0, 2000);
    if (!clean) throw new Error('A learning needs some text.');
    const learning = await this.store.update(data => {
      const now = new Date().toISOString();
      const l: Learning = { id: newId(), type, text: clean, source: opts.source ?? 'user', createdAt: now };
      if (opts.key) l.key = opts.key;
      data.learnings.push(l);
      if (data.learnings.length > this._settings.limits.maxLearnings) data.learnings.shift();
      return l;
    });
    await this.team?.afterLearning(learning);
    return learning;
  }

  async updateLearning(id: string, patch: { type?: LearningType; text?: string }): Promise<Learning | undefined> {
    return this.store.update(data => {
      const l = data.learnings.find(x => x.id === id);
      if (!l) return undefined;
      if (patch.type) l.type = patch.type;
      if (patch.text !== undefined) {
        const clean = this.redact(patch.text).trim().slice(0, 2000);
        if (clean) l.text = clean;
      }
      l.updatedAt = new Date().toISOString();
      return l;
    });
  }

  async deleteLearning(id: string): Promise<boolean> {
    return this.store.update(data => {
      const i = data.learnings.findIndex(x => x.id === id);
      if (i < 0) return false;
      data.learnings.splice(i, 1);
      return true;
    });
  }

  async clear(): Promise<void> {
    await this.store.replace(emptyMemory());
    // the recall vectors are derived from the memory: forgetting it forgets them too
    await new VectorStore(this.store.dir).clear();
  }
}

/** The approach a reflection is about by default: the most recently failed exhausted or failing one. */
export function defaultReflectionTarget(data: MemoryData): Approach | undefined {
  const { exhausted, failing } = summarize(data);
  const candidates = [...exhausted, ...failing].sort((a, b) => ((b.lastFailure ?? '') > (a.lastFailure ?? '') ? 1 : -1));
  return candidates[0];
}
