// One workspace folder's memory: the engine's decisions applied to the store.
// The CLI and the extension host both go through this class: one behaviour, tested once.

import { addLearnings, extractLearnings } from '../core/learnings';
import {
  allowOnce,
  applyAttempt,
  checkCommand,
  findApproach,
  markResolved,
  newId,
  prepareAttempt,
  summarize,
  type CheckResult,
  type MemorySummary,
  type RecordResult,
} from '../core/memory';
import { recall, type RecallHit, type Scorer, lexicalScorer } from '../core/recall';
import { createRedactor, type Redactor } from '../core/redact';
import { buildReflection, storeReflection, type ReflectionRecord } from '../core/reflection';
import {
  DEFAULT_SETTINGS,
  emptyMemory,
  type Approach,
  type AttemptInput,
  type EngineSettings,
  type Learning,
  type LearningType,
  type MemoryData,
} from '../core/types';
import { MemoryStore, memoryDirFor, type StoreOptions } from './memoryStore';
import { VectorStore } from './vectorStore';

export interface WorkspaceMemoryOptions extends StoreOptions {
  settings?: Partial<EngineSettings>;
  /** Where memory.json lives; default <workspace>/.vscode/failure-memory. */
  dir?: string;
  /** Scorer for recall; default lexical. The embeddings module provides a semantic one. */
  scorer?: Scorer;
}

export interface RecordOutcome extends RecordResult {
  /** Learnings found in the output as LEARNING[type]: lines. */
  learnings: Learning[];
}

export class WorkspaceMemory {
  readonly store: MemoryStore;
  private _settings: EngineSettings;
  private redactor: Redactor;
  scorer: Scorer;

  constructor(
    readonly workspaceFolder: string,
    options: WorkspaceMemoryOptions = {},
  ) {
    this.store = new MemoryStore(options.dir ?? memoryDirFor(workspaceFolder), { ...options, root: options.root ?? (options.dir ? undefined : workspaceFolder) });
    this._settings = mergeSettings(options.settings);
    this.redactor = createRedactor(this._settings.extraRedactionPatterns);
    this.scorer = options.scorer ?? lexicalScorer;
  }

  get settings(): EngineSettings {
    return this._settings;
  }

  /** Applies new settings (throws RedactionPatternError for an invalid extra pattern, keeping the old ones). */
  setSettings(s: Partial<EngineSettings>): void {
    const next = mergeSettings(s);
    this.redactor = createRedactor(next.extraRedactionPatterns);
    this._settings = next;
  }

  redact(text: string): string {
    return this.redactor.redact(text).text;
  }

  read(): Promise<MemoryData> {
    return this.store.read();
  }

  /** Records one finished command. Redaction and parsing happen before the lock is taken. */
  async record(input: AttemptInput): Promise<RecordOutcome> {
    const attempt = prepareAttempt(input, this._settings, this.redactor);
    const found = extractLearnings(attempt.output);
    if (!found.length && (attempt.outcome === 'success' || attempt.outcome === 'interrupted')) {
      // Most commands succeed and were never remembered: answer from a lock-free read and write
      // nothing, so `ls` and `git status` cost one read, not a lock and a rewrite of the file.
      const current = await this.store.read();
      if (!current.approaches[attempt.key]) return { ...applyAttempt(current, attempt, this._settings), learnings: [] };
    }
    return this.store.update(data => {
      const result = applyAttempt(data, attempt, this._settings);
      const learnings = found.length
        ? addLearnings(data.learnings, found, { source: 'output', key: attempt.key, now: attempt.timestamp, newId: () => newId() })
        : [];
      return { ...result, learnings };
    });
  }

  async check(command: string, cwd?: string): Promise<CheckResult> {
    return checkCommand(await this.store.read(), this.redact(command), cwd, this._settings);
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
    await this.store.update(data => {
      storeReflection(data, record, this._settings.limits.maxReflections);
      const found = extractLearnings(text);
      if (found.length) addLearnings(data.learnings, found, { source: 'reflection', key: record.failure_memory.key, now: record.timestamp, newId: () => newId() });
    });
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
    return this.store.update(data => markResolved(data, key));
  }

  async allowOnce(key: string): Promise<Approach | undefined> {
    return this.store.update(data => allowOnce(data, key));
  }

  async addLearning(type: LearningType, text: string, opts: { key?: string; source?: Learning['source'] } = {}): Promise<Learning> {
    const clean = this.redact(text).trim().slice(0, 2000);
    if (!clean) throw new Error('A learning needs some text.');
    return this.store.update(data => {
      const now = new Date().toISOString();
      const l: Learning = { id: newId(), type, text: clean, source: opts.source ?? 'user', createdAt: now };
      if (opts.key) l.key = opts.key;
      data.learnings.push(l);
      if (data.learnings.length > this._settings.limits.maxLearnings) data.learnings.shift();
      return l;
    });
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

export function mergeSettings(s: Partial<EngineSettings> = {}): EngineSettings {
  return {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)),
    limits: { ...DEFAULT_SETTINGS.limits, ...(s.limits ?? {}) },
  } as EngineSettings;
}

/** The approach a reflection is about by default: the most recently failed exhausted or failing one. */
export function defaultReflectionTarget(data: MemoryData): Approach | undefined {
  const { exhausted, failing } = summarize(data);
  const candidates = [...exhausted, ...failing].sort((a, b) => ((b.lastFailure ?? '') > (a.lastFailure ?? '') ? 1 : -1));
  return candidates[0];
}
