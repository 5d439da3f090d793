// Team memory's local side for one workspace folder: the outbox every write goes to and the cached
// team view that check reads. No network and no database driver: every door (the post hook too)
// carries this link; TeamMemory (./teamMemory.ts) adds the sync on top of it.

import { hostname } from 'node:os';
import type { CheckResult } from '../../core/rules/check';
import { newId, type AttemptEffect } from '../../core/memory';
import type { ReflectionRecord } from '../../core/reflection';
import { machineIdentity, mergeTeamCheck, sharedAttempt, shouldShare, SHARED_LIMITS, type OutboxEntry, type TeamCheck, type TeamView } from '../../core/rules/team';
import { teamLessons, type TeamLesson } from '../../core/prompts/teamContext';
import type { Approach, Learning } from '../../core/types';
import { sharedPattern, teamFixFor, worthSharing, type TeamPattern } from '../../core/rules/teamPatterns';
import type { TeamSettings } from './config';
import { Outbox } from './outbox';
import { teamCheckOptions } from './checkOptions';
import { ViewCache, type TeamViewFile } from './viewCache';


/** What WorkspaceMemory calls on its writes and checks. Never throws, never touches the network. */
export interface TeamLink {
  afterRecord(result: AttemptEffect): Promise<void>;
  afterLearning(learning: Learning): Promise<void>;
  afterReflection(record: ReflectionRecord): Promise<void>;
  afterResolve(approach: Approach): Promise<void>;
  /** Reads the cached view (and the outbox's count) once: the merge of a check into it then reads nothing. */
  merger(): Promise<(check: CheckResult, approach: Approach | undefined) => CheckResult & { team?: TeamCheck }>;
  /** From the view already in memory: no disk, no network (the guard). */
  mergeCheckCached(check: CheckResult, approach: Approach | undefined): CheckResult & { team?: TeamCheck };
  /** The team's lessons about an approach, from the cached view (newest first). */
  lessons(key: string): Promise<TeamLesson[]>;
  /** The fix the team knows for a cause (a pattern id), from the cached view. */
  patternFix(id: string): Promise<TeamPattern['fix'] | undefined>;
}

export interface TeamLinkOptions {
  /** The folder's memory dir (outbox and team view live beside memory.json). */
  memoryDir: string;
  project: string;
  settings: TeamSettings;
  threshold: () => number;
  env?: Record<string, string | undefined>;
  onWarning?: (message: string) => void;
  /** Told after a record was queued for the team (the doors outside VS Code start a background push). */
  onQueued?: () => void;
  /** Told what the cached view file holds whenever it is read (a background pull when it is old). */
  onViewRead?: (file: TeamViewFile) => void;
}

export class TeamLocal implements TeamLink {
  readonly outbox: Outbox;
  readonly views: ViewCache;
  readonly machine: string;
  readonly ci: boolean;
  protected readonly warn: (message: string) => void;

  constructor(readonly options: TeamLinkOptions) {
    this.warn = options.onWarning ?? (m => process.emitWarning(m, 'FailureMemoryWarning'));
    this.outbox = new Outbox(options.memoryDir, options.settings.maxOutbox, this.warn);
    this.views = new ViewCache(options.memoryDir);
    const id = machineIdentity(options.env ?? process.env, hostname(), options.settings.machineName);
    this.machine = id.machine;
    this.ci = id.ci;
  }

  get project(): string {
    return this.options.project;
  }

  private entry<K extends OutboxEntry['kind']>(kind: K, id: string, body: Record<string, unknown>): OutboxEntry {
    return { kind, id, queuedAt: new Date().toISOString(), machine: this.machine, ci: this.ci, ...body } as OutboxEntry;
  }

  protected async enqueue(entries: OutboxEntry[], replaces?: (waiting: OutboxEntry) => boolean): Promise<void> {
    try {
      await this.outbox.append(entries, replaces);
    } catch (e) {
      this.warn(`team memory: could not queue a record for the team (${(e as Error).message}); local memory has it.`);
      return;
    }
    this.options.onQueued?.();
  }

  /** The team view of this project from the cache file, if it is this project's. */
  async view(): Promise<{ file: TeamViewFile; view?: TeamView }> {
    const file = await this.views.read();
    this.options.onViewRead?.(file);
    return { file, view: file.view?.project === this.project ? file.view : undefined };
  }

  async afterRecord(r: AttemptEffect): Promise<void> {
    const success = r.attempt.outcome === 'success';
    const key = r.attempt.key;
    // a success that did not clear anything here: does the team know the approach failing? (undefined: no view yet)
    let teamKnows: boolean | undefined = false;
    if (success && !r.stored) {
      const { view } = await this.view();
      teamKnows = view ? !!view.approaches[key]?.failures : undefined;
    }
    await this.sharePatterns(r);
    if (!shouldShare(r.attempt, r.stored, teamKnows)) return;
    const entry = this.entry('attempt', r.attempt.id, { attempt: sharedAttempt(r.attempt, r.approach.label, this.options.settings.shareOutput) });
    // shared because the view is unknown: the latest success of the approach is enough to clear it
    const replaces = teamKnows === undefined ? (e: OutboxEntry) => e.kind === 'attempt' && e.attempt.key === key && e.attempt.outcome === 'success' : undefined;
    await this.enqueue([entry], replaces);
  }

  /**
   * The patterns a run changed, as the team shares them: the cause a failure joined (once it spans
   * commands, is systemic or has a fix) and those a success resolved. A newer snapshot of a pattern
   * replaces one still waiting.
   */
  private async sharePatterns(r: AttemptEffect): Promise<void> {
    const changed = [...(r.pattern ? [r.pattern] : []), ...r.resolvedPatterns].filter(worthSharing);
    if (!changed.length) return;
    const at = r.attempt.timestamp;
    const ids = new Set(changed.map(p => p.id));
    await this.enqueue(
      changed.map(p => this.entry('pattern', newId(), { pattern: sharedPattern(p, at) })),
      e => e.kind === 'pattern' && ids.has(e.pattern.id),
    );
  }

  async patternFix(id: string): Promise<TeamPattern['fix'] | undefined> {
    return teamFixFor((await this.view()).view?.patterns, id);
  }

  async afterLearning(l: Learning): Promise<void> {
    await this.enqueue([this.entry('learning', l.id, { learning: { id: l.id, ...(l.key ? { key: l.key } : {}), type: l.type, text: l.text.slice(0, SHARED_LIMITS.text), createdAt: l.createdAt } })]);
  }

  async afterReflection(r: ReflectionRecord): Promise<void> {
    const id = r.failure_memory.id;
    const text = r.self_reflection.reflection_text.slice(0, SHARED_LIMITS.text);
    const lessons = r.self_reflection.lessons_learned.slice(0, SHARED_LIMITS.lessons).map(l => l.slice(0, 500));
    await this.enqueue([this.entry('reflection', id, { reflection: { id, key: r.failure_memory.key, text, lessons, createdAt: r.timestamp } })]);
  }

  async afterResolve(a: Approach): Promise<void> {
    const id = newId();
    await this.enqueue([this.entry('resolve', id, { resolve: { id, key: a.key, label: a.label, cwd: a.cwd, at: a.resolvedAt ?? new Date().toISOString() } })]);
  }

  async lessons(key: string): Promise<TeamLesson[]> {
    return teamLessons((await this.view()).view, key);
  }

  /** The team's part of a check, from the cached view only (read once here). */
  async merger(): Promise<(check: CheckResult, approach: Approach | undefined) => CheckResult & { team: TeamCheck }> {
    const { file, view } = await this.view();
    const waiting = await this.outbox.count().catch(() => 0);
    return (check, approach) => this.merge(check, approach, file, view, waiting);
  }

  /** The team's part of a check from what is already in memory (the guard: no disk, no network). */
  mergeCheckCached(check: CheckResult, approach: Approach | undefined, waiting = 0): CheckResult & { team?: TeamCheck } {
    const file = this.views.peek();
    if (!file) return check;
    return this.merge(check, approach, file, file.view?.project === this.project ? file.view : undefined, waiting);
  }

  private merge(check: CheckResult, approach: Approach | undefined, file: TeamViewFile, view: TeamView | undefined, waiting: number): CheckResult & { team: TeamCheck } {
    return mergeTeamCheck(check, view?.approaches[check.key], approach, teamCheckOptions(this.options, file, view, waiting));
  }
}
