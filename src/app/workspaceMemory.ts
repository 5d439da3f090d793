// One workspace folder's memory: the engine's decisions applied to the store.
// The CLI and the extension host both go through this class: one behaviour, tested once.

import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { normalizeCwd } from '../core/approach';
import { resolveLine, type ScriptTables } from '../core/approach/scripts';
import { addLearnings, extractLearnings } from '../core/learnings';
import { applyRun, type RunEffect, type RunRecord } from '../core/journal';
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
  touchesPatterns,
  newId,
  prepareAttempt,
  preparedCommand,
  summarize,
  type MemorySummary,
} from '../core/memory';
import { recall, type RecallHit, type Scorer, lexicalScorer } from '../core/recall';
import { lastFix } from '../core/rules/patternRecords';
import { createRedactor, type Redactor, type RedactorOptions } from '../core/text/redact';
import { buildReflection, storeReflection, type ReflectionRecord } from '../core/reflection';
import {
  emptyMemory,
  type Approach,
  type Attempt,
  type RunInput,
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
import { fileHash, readGitState, type GitOptions } from '../store/gitContext';
import { scriptReader, type ScriptReader } from '../store/scriptTables';
import { scriptTablesFor } from './scripts';
import type { MemoryStorePort, StoreOptions } from '../store/memoryStore';
import { openMemoryStore } from './stores';
import type { TeamLink } from '../store/team/teamMemory';
import { VectorStore } from '../store/vectorStore';
import { addGitContext, journalRun } from './journalRun';
import { keepAgentRulesCurrent } from './agentRules';
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
  /**
   * false: the workspace folder is not on this disk (a replay of recorded histories): no manifest is
   * read for its scripts and no edited file is hashed. Default: both are read, bounded.
   */
  workspaceFiles?: false;
}

/** Files hashed per report of edits, at most. */
const MAX_HASHED_EDITS = 32;

/**
 * What recording a run did, with the learnings it added (LEARNING[type]: lines of its output, the fix
 * lesson), and the fix the team knows for the cause of a failure that has none here.
 */
export type RunReport = RunEffect & { teamFix?: { command: string; worked: number; machine: string } };

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
  /** The workspace folder's files are on this disk (not a replay): manifests and edited files are read. */
  private readonly files: boolean;
  /** The project's script tables (package.json's scripts, Makefile targets…); undefined: not read. */
  readonly scripts: ScriptReader | undefined;

  constructor(
    readonly workspaceFolder: string,
    options: WorkspaceMemoryOptions = {},
  ) {
    this.store =
      options.store ??
      openMemoryStore(workspaceFolder, { cache: true, ...options, redact: (t: string) => this.redact(t) });
    this._settings = mergeSettings(options.settings);
    // a user pattern over its time budget: the text it did not scan is dropped, and the reason said
    this.redactorOptions = { onOverBudget: (m: string) => options.onWarning?.(`redaction: ${m}`) };
    this.redactor = createRedactor(this._settings['redaction.extraPatterns'], this.redactorOptions);
    this.scorer = options.scorer ?? lexicalScorer;
    this.git = options.git ?? {};
    this.team = options.team;
    this.journal = options.journal === true;
    this.clock = options.clock ?? (() => new Date());
    this.files = options.workspaceFiles !== false;
    this.scripts = this.files ? scriptReader(workspaceFolder) : undefined;
  }

  /** The script tables a command line needs (none read when it runs no script). */
  private tablesFor(command: string, cwd: string | undefined): ScriptTables | undefined {
    return this.scripts ? scriptTablesFor(preparedCommand(command, this.redactor), cwd, this.scripts, t => this.redact(t)) : undefined;
  }

  /** The key of a command line's approach, its scripts resolved. */
  private resolvedKey(command: string, cwd: string | undefined): string {
    return resolveLine(command, normalizeCwd(cwd), this.tablesFor(command, cwd)).key;
  }

  /** The approach a command line (or a key) names: its scripts resolved, else as written. */
  private findIn(data: MemoryData, commandOrKey: string, cwd: string | undefined): Approach | undefined {
    const own = (key: string) => (Object.prototype.hasOwnProperty.call(data.approaches, key) ? data.approaches[key] : undefined);
    return (this.scripts ? own(this.resolvedKey(commandOrKey, cwd)) : undefined) ?? findApproach(data, commandOrKey, cwd);
  }

  get settings(): EngineSettings {
    return this._settings;
  }

  /** Applies new settings (throws RedactionPatternError for an invalid extra pattern, keeping the old ones). */
  setSettings(s: Partial<EngineSettings>): void {
    const next = mergeSettings(s);
    this.redactor = createRedactor(next['redaction.extraPatterns'], this.redactorOptions);
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
  async record(input: RunInput): Promise<RunReport> {
    const attempt = prepareAttempt(input, this._settings, this.redactor, this.clock(), this.tablesFor(input.command, input.cwd));
    const found = extractLearnings(attempt.output);
    // a run whose reported success must be witnessed is judged against memory under the lock: the store writes it
    const journaled = input.witnessRequired ? undefined : await this.recordIntoJournal(attempt, found);
    if (journaled) return this.withTeamFix(journaled);
    let current: MemoryData | undefined;
    if (!found.length && (attempt.outcome === 'success' || attempt.outcome === 'interrupted') && !hasWorkspaceEffects(attempt.command, attempt.outcome)) {
      // Most commands succeed and were never remembered: answer from a lock-free read and write
      // nothing, so `ls` and `git status` cost one read, not a lock, no git and no rewrite of the file.
      current = await this.store.read();
      // …unless it answers for a pattern record (the database answered) or may fix one: then it is written
      if (!current.approaches[attempt.key] && !touchesPatterns(current, attempt)) {
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
    await this.rulesChanged();
    return this.withTeamFix(r);
  }

  /** [patterns] A failure whose cause has no fix here: the one the team knows, from its cached view (never the network). */
  private async withTeamFix(r: RunReport): Promise<RunReport> {
    if (!r.pattern || !this.team || lastFix(r.pattern)) return r;
    const fix = await this.team.patternFix(r.pattern.id).catch(() => undefined);
    return fix ? { ...r, teamFix: fix } : r;
  }

  /**
   * Journal mode (a hook): the run appended to the journal instead of a rewrite of memory.json
   * (app/journalRun.ts), folded in once the journal is long. undefined: not in journal mode, or
   * memory.json needs a full write.
   */
  private async recordIntoJournal(attempt: Attempt, found: RunRecord['learnings']): Promise<RunReport | undefined> {
    const { readFor, readApproach, appendRecord } = this.store;
    if (!this.journal || !readFor || !readApproach || !appendRecord) return undefined;
    // the first record of a folder writes memory.json whole (with the .gitignore that keeps the folder out of commits)
    if (!existsSync(this.store.file)) return undefined;
    const store = { readFor: readFor.bind(this.store), readApproach: readApproach.bind(this.store), appendRecord: appendRecord.bind(this.store) };
    const run = await journalRun(attempt, found, { workspace: this.workspaceFolder, store, settings: this._settings, redact: t => this.redact(t), git: this.git, tell: this.team ? 'exact' : 'view' });
    if (!run?.outcome) return undefined;
    // the journal is long enough: fold it into memory.json now (the run is safe in the journal either way)
    if (run.fold) await (this.store.foldJournal ? this.store.foldJournal() : this.store.update(() => undefined)).catch(() => undefined);
    if (run.journaled) await this.tellTeam(run.outcome);
    else await this.team?.afterRecord(run.outcome);
    if (run.journaled) await this.rulesChanged();
    return run.outcome;
  }

  private async tellTeam(r: RunReport): Promise<void> {
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
    const view = { data, settings: this._settings, redact: (t: string) => this.redact(t), now: this.clock(), ...(this.scripts ? { scripts: this.scripts } : {}) };
    return decideGate(command, cwd, view, { ...(team ? { team } : {}), ...(this.git !== false ? { git: () => this.gitState() } : {}) });
  }

  /** The workspace's git state now (bounded; undefined without git, or when git context is off). */
  async gitState(): Promise<GitState | undefined> {
    if (this.git === false) return undefined;
    return readGitState(this.workspaceFolder, this.git).catch(() => undefined);
  }

  /**
   * Records edit events (an editor save, an agent's edit tool, `failure-memory edit`): redacted, bounded,
   * each with a hash of the file as it is now (the same bytes as at the last failure is no change;
   * `hash: false`: the edit is not applied yet, nothing to read), stamped after everything memory holds.
   */
  async recordEdits(edits: ReadonlyArray<Omit<EditInput, 'hash'> & { hash?: string | false }>): Promise<EditEvent[]> {
    if (!edits.length) return [];
    const now = this.clock().toISOString();
    let hashed = 0;
    const clean = edits.map(({ hash, ...e }) => {
      const path = editPath(e.path, this.workspaceFolder);
      // a bounded number of files read per report (a checkout saving hundreds of files counts as changes)
      const read = hash === undefined && e.ok !== false && this.files && hashed++ < MAX_HASHED_EDITS;
      // a file that is not there names no content (a path the harness gave relative to elsewhere): no hash
      const found = read ? fileHash(isAbsolute(path) ? path : join(this.workspaceFolder, path)) : hash || undefined;
      const own = found === 'deleted' || found === 'not-a-file' ? undefined : found;
      return { ...e, path: this.redact(path), ...(own ? { hash: own } : {}) };
    });
    return this.store.update(data => {
      const added = addEdits(data, clean, now, true);
      if (added.length && now > data.updatedAt) data.updatedAt = now;
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
    return this.findIn(await this.store.read(), this.redact(commandOrKey), cwd);
  }

  /**
   * The key of a command's approach, remembered here or not: a lesson about a command that only
   * failed on other machines (the team's) keeps its approach, so it reaches `check` everywhere.
   */
  async keyOf(commandOrKey: string, cwd?: string): Promise<string> {
    const clean = this.redact(commandOrKey);
    return this.findIn(await this.store.read(), clean, cwd)?.key ?? this.resolvedKey(clean, cwd);
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
  async reflect(commandOrKey?: string, cwd?: string, opts: { store?: boolean; similarWithinMs?: number } = {}): Promise<ReflectionRecord | undefined> {
    const data = await this.store.read();
    const approach = commandOrKey ? this.findIn(data, this.redact(commandOrKey), cwd) : defaultReflectionTarget(data);
    if (!approach) return undefined;
    const similar = await this.similarWithin(data, `${approach.label}\n${approach.lastErrorSignature}`, 6, opts.similarWithinMs);
    const record = buildReflection({ data, approach, threshold: this._settings.threshold, similar, earlierReflections: this._settings['reflection.earlierReflections'], id: newId() });
    if (opts.store !== false) await this.saveReflection(record);
    return record;
  }

  /**
   * Recall for a reflection's "similar failures", within `budgetMs` when given: the first recall of a
   * window embeds every approach (a second or more at 500), which a person waiting for a reflection
   * should not wait for. Past the budget the words decide this once; the embedding goes on and serves
   * the next recall.
   */
  private async similarWithin(data: MemoryData, query: string, k: number, budgetMs?: number): Promise<RecallHit[]> {
    const semantic = recall(data, query, k, this.scorer);
    if (budgetMs === undefined || this.scorer === lexicalScorer) return semantic;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>(resolve => (timer = setTimeout(() => resolve(undefined), budgetMs)));
    const first = await Promise.race([semantic.catch(() => undefined), late]);
    clearTimeout(timer);
    // past the budget: the semantic recall finishes in the background (its vectors are kept for the next one)
    return first ?? recall(data, query, k, lexicalScorer);
  }

  /** Stores a reflection (possibly rewritten by a language model) and the learnings in its text. */
  async saveReflection(record: ReflectionRecord): Promise<void> {
    const text = [record.self_reflection.reflection_text, ...record.self_reflection.lessons_learned].join('\n');
    const learned = await this.store.update(data => {
      storeReflection(data, record, this._settings.limits.maxReflections);
      const found = extractLearnings(text);
      return found.length ? addLearnings(data.learnings, found, { source: 'reflection', key: record.failure_memory.key, now: record.timestamp, newId: () => newId() }) : [];
    });
    if (learned.length) await this.rulesChanged();
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
    const approach = commandOrKey ? this.findIn(data, this.redact(commandOrKey), cwd) : defaultReflectionTarget(data);
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
    if (!this.findIn(await this.store.read(), wanted, cwd)) return undefined;
    const a = await this.store.update(data => {
      const found = this.findIn(data, wanted, cwd);
      if (!found) return undefined;
      return how === 'resolve' ? markResolved(data, found.key) : allowOnce(data, found.key);
    });
    if (a && how === 'resolve') await this.rulesChanged();
    return a;
  }

  async resolve(key: string): Promise<Approach | undefined> {
    const a = await this.store.update(data => markResolved(data, key));
    if (a) await this.team?.afterResolve(a);
    if (a) await this.rulesChanged();
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
    await this.rulesChanged();
    return learning;
  }

  async updateLearning(id: string, patch: { type?: LearningType; text?: string }): Promise<Learning | undefined> {
    return this.afterRules(this.store.update(data => {
      const l = data.learnings.find(x => x.id === id);
      if (!l) return undefined;
      if (patch.type) l.type = patch.type;
      if (patch.text !== undefined) {
        const clean = this.redact(patch.text).trim().slice(0, 2000);
        if (clean) l.text = clean;
      }
      l.updatedAt = new Date().toISOString();
      return l;
    }));
  }

  async deleteLearning(id: string): Promise<boolean> {
    return this.afterRules(this.store.update(data => {
      const i = data.learnings.findIndex(x => x.id === id);
      if (i < 0) return false;
      data.learnings.splice(i, 1);
      return true;
    }));
  }

  async clear(): Promise<void> {
    await this.store.replace(emptyMemory());
    // the recall vectors are derived from the memory: forgetting it forgets them too
    await new VectorStore(this.store.dir).clear();
    await this.rulesChanged();
  }

  /**
   * A write changed what the failure summary says: a harness's rules file (Cline's), when the workspace
   * has one, says it now too, whoever wrote (the terminal, the CLI, MCP, any harness's hooks).
   */
  private rulesChanged(): Promise<void> {
    return keepAgentRulesCurrent(this.workspaceFolder, this._settings.threshold, () => this.store.read());
  }

  private async afterRules<T>(write: Promise<T>): Promise<T> {
    const r = await write;
    if (r) await this.rulesChanged();
    return r;
  }
}

/** The approach a reflection is about by default: the most recently failed exhausted or failing one. */
export function defaultReflectionTarget(data: MemoryData): Approach | undefined {
  const { exhausted, failing } = summarize(data);
  const candidates = [...exhausted, ...failing].sort((a, b) => ((b.lastFailure ?? '') > (a.lastFailure ?? '') ? 1 : -1));
  return candidates[0];
}
