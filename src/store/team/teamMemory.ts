// Team memory for one workspace folder with its sync: the local side (./teamLink.ts: outbox, cached
// team view) plus the push of the outbox and the pull of the view, in the background or from
// `failure-memory sync`, and team recall.

import { markResolved } from '../../core/memory';
import { createLexicalScorer, dot, type Scorer, type TextEmbedder } from '../../core/recall';
import { clearedByTeam, type OutboxEntry, type TeamApproach, type TeamView } from '../../core/rules/team';
import type { MemoryData } from '../../core/types';
import type { MemoryStorePort } from '../memoryStore';
import type { TeamConnection } from './config';
import { TeamDatabase, TeamDatabaseError, classifyDatabaseError, type RecallCandidate, type SharedVector, type TeamDatabaseOptions, type VectorMode } from './database';
import { RETENTION_EVERY_MS, type RetentionResult } from './retention';
import { TeamLocal, type TeamLinkOptions } from './teamLink';

export type { TeamLink } from './teamLink';

export interface TeamMemoryOptions extends TeamLinkOptions {
  connection: TeamConnection;
  /** Told once per database how team recall scores (pgvector or the client). */
  onInfo?: (message: string) => void;
  database?: TeamDatabaseOptions;
  /**
   * The embedder of the vectors pushed with shared records and of team recall's queries, created on
   * the first push or recall (never on the record or check path). The front doors give the offline
   * embedder (src/embeddings: teamRecallParts); none or false: no vectors, recall by words.
   */
  embedder?: (() => TextEmbedder) | false;
  /** Team recall's fused scorer over the candidates, with their stored vectors (src/embeddings: createTeamRecallScorer). Default: words only. */
  recallScorer?: (embedder: TextEmbedder | undefined, vectors: ReadonlyMap<string, Float32Array>) => Scorer;
}

/** One team recall hit: from the team database, with how it was found and scored. */
export interface TeamRecallHit {
  from: 'team';
  kind: RecallCandidate['kind'];
  key: string | null;
  text: string;
  machine: string;
  /** The fused score (local recall's formula), in [0, 1]. */
  score: number;
  /** PostgreSQL's full-text rank; 0 when only the vector found it. */
  rank: number;
  /** Cosine similarity of the stored vector; null when the record has none of this embedder. */
  similarity: number | null;
}

export interface TeamRecall {
  hits: TeamRecallHit[];
  scoring: {
    /** pgvector: the database found the nearest vectors; client: this machine compared the project's most recent ones; full-text: no vectors. */
    mode: VectorMode | 'full-text';
    model?: string;
    dim?: number;
    /** How many documents were compared. */
    candidates: number;
  };
}

export interface SyncResult {
  pushed: number;
  /** Rows the database did not have yet (pushed minus retries of already-stored records). */
  inserted: number;
  waiting: number;
  pulled: boolean;
  /** Keys of local approaches cleared because they succeeded elsewhere in the team. */
  cleared: string[];
  /** The same approaches as people name them (`npm test`, `pytest in api`). */
  clearedLabels: string[];
  /** What retention deleted, when it was due; or why it could not run. */
  retention?: RetentionResult | { error: string };
  error?: TeamDatabaseError;
}

const PUSH_BATCH = 500;

/**
 * Team recall drops hits scored below this: "nothing similar" rather than unrelated failures. Chosen on
 * the labelled recall sets (bench/team-recall-cut.mjs, BENCHMARKS.md).
 */
export const TEAM_RECALL_MIN_SCORE = 0.12;

export class TeamMemory extends TeamLocal {
  readonly db: TeamDatabase;
  private pushing: Promise<SyncResult> | undefined;
  private embedderMade: { embedder?: TextEmbedder } | undefined;

  constructor(override readonly options: TeamMemoryOptions) {
    super(options);
    this.db = new TeamDatabase(options.connection, { onWarning: this.warn, ...(options.onInfo ? { onInfo: options.onInfo } : {}), ...options.database });
  }

  /**
   * Pushes everything in the outbox, in batches, oldest first. Each acknowledged batch leaves the
   * outbox; a failure stops the push (the rest waits for the next try) and marks the team offline.
   * One push at a time per process.
   */
  push(): Promise<SyncResult> {
    if (!this.pushing) {
      this.pushing = this.pushNow().finally(() => (this.pushing = undefined));
    }
    return this.pushing;
  }

  private async pushNow(): Promise<SyncResult> {
    const result: SyncResult = { pushed: 0, inserted: 0, waiting: 0, pulled: false, cleared: [], clearedLabels: [] };
    let entries = await this.outbox.readAll();
    while (entries.length) {
      const batch = entries.slice(0, PUSH_BATCH);
      try {
        result.inserted += await this.db.push(this.project, batch, await this.vectorsFor(batch));
      } catch (e) {
        result.error = classifyDatabaseError(e, this.db.target);
        break;
      }
      await this.outbox.remove(new Set(batch.map(b => b.id)));
      result.pushed += batch.length;
      entries = entries.slice(PUSH_BATCH);
    }
    result.waiting = await this.outbox.count();
    await this.noteState(result.error);
    return result;
  }

  /** Pulls the team view into the cache file, and clears locally what succeeded elsewhere. */
  async pull(store?: MemoryStorePort): Promise<SyncResult> {
    const result: SyncResult = { pushed: 0, inserted: 0, waiting: await this.outbox.count(), pulled: false, cleared: [], clearedLabels: [] };
    let view: TeamView;
    try {
      view = await this.db.pull(this.project);
    } catch (e) {
      result.error = classifyDatabaseError(e, this.db.target);
      await this.noteState(result.error);
      return result;
    }
    const before = await this.views.read();
    await this.views.write({ version: 1, view, state: 'online', checkedAt: new Date().toISOString(), ...(before.retainedAt ? { retainedAt: before.retainedAt } : {}) });
    result.pulled = true;
    if (store) {
      result.cleared = await applyTeamClearings(store, view);
      result.clearedLabels = result.cleared.map(k => describeTeamApproach(view.approaches[k]));
    }
    return result;
  }

  /** Push, retention when it is due, then pull (`failure-memory sync`, the background sync, window focus). */
  async sync(store?: MemoryStorePort): Promise<SyncResult> {
    const pushed = await this.push();
    if (pushed.error) return pushed;
    const retention = await this.retainIfDue();
    const pulled = await this.pull(store);
    return { ...pulled, pushed: pushed.pushed, inserted: pushed.inserted, ...(retention ? { retention } : {}) };
  }

  /**
   * Applies the retention settings to this project's rows, at most every RETENTION_EVERY_MS from
   * this machine. A role without DELETE is told (once per run) and the sync goes on.
   */
  async retainIfDue(now: Date = new Date()): Promise<SyncResult['retention']> {
    const { retentionDays: days, maxRowsPerProject: maxRows } = this.options.settings;
    if (!days && !maxRows) return undefined;
    const file = await this.views.read();
    if (file.retainedAt && now.getTime() - Date.parse(file.retainedAt) < RETENTION_EVERY_MS) return undefined;
    let result: SyncResult['retention'];
    try {
      result = await this.db.retain(this.project, { days, maxRows }, now);
    } catch (e) {
      const err = classifyDatabaseError(e, this.db.target);
      this.warn(`team memory: retention could not run (${err.message})`);
      result = { error: err.message };
    }
    // a refusal is not retried at every sync either: the next try comes with the next period
    await this.views.write({ ...(await this.views.read()), retainedAt: now.toISOString() }).catch(() => undefined);
    return result;
  }

  /** The team embedder, created once on first need; undefined (with one warning) when it cannot be. */
  embedder(): TextEmbedder | undefined {
    if (!this.embedderMade) {
      const make = this.options.embedder;
      try {
        this.embedderMade = { embedder: make ? make() : undefined };
      } catch (e) {
        this.embedderMade = {};
        this.warn(`team memory: records are shared without vectors, and team recall uses words only (${(e as Error).message}).`);
      }
    }
    return this.embedderMade.embedder;
  }

  /**
   * Vectors of what a batch shares, computed here in the background push (never on the record
   * path) from the entries' text, which was redacted before it reached the outbox: failures (their
   * label and error signature), learnings, reflections.
   */
  private async vectorsFor(batch: readonly OutboxEntry[]): Promise<SharedVector[]> {
    const docs: Array<Omit<SharedVector, 'model' | 'dim' | 'vector'> & { text: string }> = [];
    for (const e of batch) {
      if (e.kind === 'attempt' && e.attempt.outcome === 'failure') docs.push({ kind: 'attempt', ref: e.attempt.key, at: e.attempt.endedAt, text: teamDocument(e.attempt.label, e.attempt.errorSignature) });
      else if (e.kind === 'learning') docs.push({ kind: 'learning', ref: e.learning.id, at: e.learning.createdAt, text: e.learning.text });
      else if (e.kind === 'reflection') docs.push({ kind: 'reflection', ref: e.reflection.id, at: e.reflection.createdAt, text: e.reflection.text });
    }
    const embedder = docs.length ? this.embedder() : undefined;
    if (!embedder) return [];
    try {
      const vectors = await embedder.embed(docs.map(d => d.text));
      return docs.map((d, i) => ({ kind: d.kind, ref: d.ref, at: d.at, model: embedder.id, dim: embedder.dim, vector: vectors[i] }));
    } catch (e) {
      this.warn(`team memory: could not compute vectors for the team (${(e as Error).message}); the records go without them.`);
      return [];
    }
  }

  /**
   * Team recall: the team database's full-text matches and vector neighbours (same embedder only),
   * scored on this machine with local recall's fusion. The query should already be redacted.
   */
  async recall(query: string, k = 5): Promise<TeamRecall> {
    const embedder = this.embedder();
    const q = embedder ? (await embedder.embed([query]))[0] : undefined;
    const { candidates, mode } = await this.db.recallCandidates(this.project, query, embedder && q ? { model: embedder.id, dim: embedder.dim, vector: q } : undefined);
    const vectors = new Map<string, Float32Array>();
    for (const c of candidates) if (c.vector) vectors.set(c.text, c.vector);
    const scorer = this.options.recallScorer?.(mode === 'full-text' ? undefined : embedder, vectors) ?? createLexicalScorer();
    const scores = candidates.length ? await scorer.score(query, candidates.map(c => c.text)) : [];
    const hits: TeamRecallHit[] = candidates.map((c, i) => ({
      from: 'team',
      kind: c.kind,
      key: c.key,
      text: c.text,
      machine: c.machine,
      score: Math.round(scores[i] * 1000) / 1000,
      rank: Math.round(c.rank * 1e4) / 1e4,
      similarity: c.vector && q && c.vector.length === q.length ? Math.round(dot(q, c.vector) * 1000) / 1000 : null,
    }));
    return {
      hits: hits
        .filter(h => h.score >= TEAM_RECALL_MIN_SCORE)
        .sort((a, b) => b.score - a.score || a.text.localeCompare(b.text))
        .slice(0, Math.max(1, k)),
      scoring: { mode, ...(embedder && mode !== 'full-text' ? { model: embedder.id, dim: embedder.dim } : {}), candidates: candidates.length },
    };
  }

  /** Records online/offline in the view file (the tooltip and `check --json` read it). */
  private async noteState(error: TeamDatabaseError | undefined): Promise<void> {
    try {
      const current = await this.views.read();
      const state = error ? 'offline' : 'online';
      // an offline attempt is always noted: its time spaces out the background retries
      if (!error && current.state === state && current.error === undefined) return;
      await this.views.write({ ...current, version: 1, state, ...(error ? { error: error.message } : { error: undefined }), checkedAt: new Date().toISOString() });
    } catch {
      // the view file is a cache: failing to note the state loses nothing
    }
  }

  async close(): Promise<void> {
    await this.pushing?.catch(() => undefined);
    await this.db.close();
  }
}

/** An approach of the team view as people name it: its label, and its folder when not the root. */
export function describeTeamApproach(a: Pick<TeamApproach, 'label' | 'cwd' | 'key'> | undefined): string {
  if (!a) return '';
  const label = a.label || a.key.replace(/^.*?::/, '');
  return a.cwd && a.cwd !== '.' ? `${label} (in ${a.cwd})` : label;
}

/** The text of a shared failure that team recall compares (and its vector is computed from). */
export function teamDocument(label: string, errorSignature: string): string {
  return `${label}\n${errorSignature}`;
}

/** Resolves local approaches that succeeded (or were resolved) elsewhere after their last local failure. */
export async function applyTeamClearings(store: MemoryStorePort, view: TeamView): Promise<string[]> {
  const current = await store.read();
  if (!clearedByTeam(current, view).length) return [];
  return store.update((data: MemoryData) => {
    const keys = clearedByTeam(data, view);
    for (const key of keys) {
      const a = markResolved(data, key, view.approaches[key].lastCleared);
      if (a) a.resolvedBy = 'success';
    }
    return keys;
  });
}
