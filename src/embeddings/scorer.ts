// A recall Scorer backed by an Embedder, with a vector cache so that documents are embedded once:
// in memory always, and in <memoryDir>/vectors.bin when a memory folder is given. A document's id is
// a hash of its text, so a document that changes (a new error signature) gets a new vector, and the
// store keeps only the ids recall still asks about (the JSON store's evictions are followed).

import { createHash } from 'node:crypto';
import { lexicalScorer, type Scorer } from '../core/recall';
import { VectorStore, type VectorEntry, type VectorSnapshot } from '../store/vectorStore';
import { dot, type Embedder, type ProgressCallback } from './types';

export interface EmbeddingScorerOptions {
  embedder: Embedder;
  /** Folder of memory.json: vectors are cached in vectors.bin/vectors.json there. None: in memory only. */
  memoryDir?: string;
  /**
   * Whether this scorer may replace a vector file that holds another embedder's vectors. The
   * extension claims it (its embedder is the one to keep); the CLI does not, so that a CLI run
   * with the offline embedder never throws away the transformer's vectors. Default true.
   */
  claim?: boolean;
  /** Similarities below this count as unrelated (score 0, so recall leaves them out). Default 0. */
  minScore?: number;
  /** Answers while documents are embedded in the background, and if the embedder fails. Default lexical. */
  fallback?: Scorer;
  /**
   * At most this many missing documents are embedded before answering; with more, they are
   * embedded in the background (progress through onProgress) and the fallback answers meanwhile.
   * Default: no limit (right for the offline embedder, ~10 µs a document).
   */
  inlineLimit?: number;
  batchSize?: number;
  /** After the embedder fails, use the fallback for this long before trying it again. Default 60 s. */
  retryAfterMs?: number;
  onProgress?: ProgressCallback;
  onWarning?: (message: string) => void;
}

const MEMO_LIMIT = 20000;

/**
 * How one list of documents is scored over one snapshot of the stored vectors: the documents' ids,
 * the stored row of each (-1 when not stored) and, for the others, the vector embedded in this
 * process. Kept for a frozen list (recall's documents of an unchanged memory) while the snapshot is
 * the same, so that a query costs one pass of the kernel over the rows plus a lookup per document.
 */
interface ScoringPlan {
  readonly snapshot: VectorSnapshot | undefined;
  readonly ids: readonly string[];
  readonly rows: Int32Array;
  readonly vectors: readonly (Float32Array | undefined)[];
  readonly anyStored: boolean;
}

export class EmbeddingScorer implements Scorer {
  readonly id: string;
  readonly embedder: Embedder;
  readonly store: VectorStore | undefined;
  private readonly memo = new Map<string, Float32Array>();
  private readonly ids = new Map<string, string>();
  private readonly plans = new WeakMap<readonly string[], ScoringPlan>();
  private readonly opts: Required<Omit<EmbeddingScorerOptions, 'embedder' | 'memoryDir' | 'onProgress' | 'onWarning'>> &
    Pick<EmbeddingScorerOptions, 'onProgress' | 'onWarning'>;
  private background: Promise<void> | undefined;
  private storeBroken = false;
  private lastQuery: { text: string; vector: Float32Array } | undefined;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(options: EmbeddingScorerOptions) {
    this.embedder = options.embedder;
    this.id = `embedding:${options.embedder.id}`;
    this.store = options.memoryDir ? new VectorStore(options.memoryDir, { onWarning: options.onWarning }) : undefined;
    this.opts = {
      claim: options.claim ?? true,
      minScore: options.minScore ?? 0,
      fallback: options.fallback ?? lexicalScorer,
      inlineLimit: options.inlineLimit ?? Number.POSITIVE_INFINITY,
      batchSize: options.batchSize ?? 32,
      retryAfterMs: options.retryAfterMs ?? 60_000,
      onProgress: options.onProgress,
      onWarning: options.onWarning,
    };
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    if (!documents.length) return [];
    // a model that just failed (damaged, out of memory) is not restarted for every query
    if (Date.now() - this.failedAt < this.opts.retryAfterMs) return this.opts.fallback.score(query, documents);
    try {
      const snapshot = await this.snapshot();
      const plan = await this.plan(documents, snapshot);
      if (!plan) return await this.opts.fallback.score(query, documents);
      const q = await this.embedQuery(query);
      // the stored rows are scored in one pass over one typed array (the SIMD kernel); the rest from the memo
      const all = plan.anyStored ? plan.snapshot!.scoreRows(q) : undefined;
      const out = new Array<number>(plan.ids.length);
      for (let i = 0; i < out.length; i++) {
        const r = plan.rows[i];
        const v = plan.vectors[i];
        const s = r >= 0 ? all![r] : v ? dot(q, v) : 0;
        out[i] = s < this.opts.minScore ? 0 : Math.min(1, s);
      }
      return out;
    } catch (err) {
      this.failedAt = Date.now();
      this.warn(`semantic recall failed (${(err as Error).message}); using ${this.opts.fallback.id} for now.`);
      return this.opts.fallback.score(query, documents);
    }
  }

  /** Embeds (and stores) every document not embedded yet. For a background re-embedding with progress. */
  async index(documents: readonly string[], onProgress: ProgressCallback | undefined = this.opts.onProgress): Promise<void> {
    const ids = documents.map(d => this.idOf(d));
    const snapshot = await this.snapshot();
    await this.embedAndKeep(this.missing(ids, documents, snapshot), onProgress);
  }

  /** Resolves when no background embedding is running. */
  async idle(): Promise<void> {
    while (this.background) await this.background;
  }

  async dispose(): Promise<void> {
    await this.idle().catch(() => undefined);
    await this.embedder.dispose?.();
  }

  // -------------------------------------------------------------------------------------------

  /**
   * The scoring plan of `documents` over `snapshot`, after embedding (and storing) the documents not
   * embedded yet and deleting stored vectors no document uses any more; undefined when too many are
   * missing to embed now (they are embedded in the background; the fallback answers meanwhile).
   */
  private async plan(documents: readonly string[], snapshot: VectorSnapshot | undefined): Promise<ScoringPlan | undefined> {
    const frozen = Object.isFrozen(documents);
    const known = frozen ? this.plans.get(documents) : undefined;
    if (known && known.snapshot === snapshot) return known;
    const ids = known?.ids ?? documents.map(d => this.idOf(d));
    const missing = this.missing(ids, documents, snapshot);
    if (missing.length > this.opts.inlineLimit) {
      this.indexInBackground(missing);
      return undefined;
    }
    if (missing.length) await this.embedAndKeep(missing);
    await this.prune(ids, snapshot);
    const rows = snapshot ? snapshot.rowsOf(ids) : new Int32Array(ids.length).fill(-1);
    const vectors = ids.map((id, i) => (rows[i] < 0 ? this.memo.get(id) : undefined));
    const plan: ScoringPlan = { snapshot, ids, rows, vectors, anyStored: rows.some(r => r >= 0) };
    if (frozen) this.plans.set(documents, plan);
    return plan;
  }

  /** The stored vectors if they are this embedder's, else undefined. */
  private async snapshot(): Promise<VectorSnapshot | undefined> {
    if (!this.store || this.storeBroken) return undefined;
    try {
      const s = await this.store.load();
      return s.embedder === this.embedder.id && s.dim === this.embedder.dim ? s : undefined;
    } catch (err) {
      this.storeFailed(err);
      return undefined;
    }
  }

  private missing(ids: readonly string[], documents: readonly string[], snapshot: VectorSnapshot | undefined): { id: string; text: string }[] {
    const out: { id: string; text: string }[] = [];
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id) || this.memo.has(id) || snapshot?.has(id)) return;
      seen.add(id);
      out.push({ id, text: documents[i] });
    });
    return out;
  }

  private async embedAndKeep(docs: { id: string; text: string }[], onProgress?: ProgressCallback): Promise<void> {
    if (!docs.length) return;
    const entries: VectorEntry[] = [];
    for (let i = 0; i < docs.length; i += this.opts.batchSize) {
      // between batches the process serves what waits (an embedder that answers at once would
      // otherwise hold a long-lived process for the whole memory: a second and more at 500 approaches)
      if (i > 0) await new Promise<void>(resolve => setImmediate(resolve));
      const batch = docs.slice(i, i + this.opts.batchSize);
      const vectors = await this.embedder.embed(batch.map(d => d.text));
      batch.forEach((d, j) => {
        this.remember(d.id, vectors[j]);
        entries.push({ id: d.id, vector: vectors[j] });
      });
      onProgress?.({ message: `Embedding past failures (${this.embedder.id})`, done: Math.min(i + batch.length, docs.length), total: docs.length });
    }
    await this.persist(entries);
  }

  private indexInBackground(docs: { id: string; text: string }[]): void {
    if (this.background) return;
    this.background = this.embedAndKeep(docs, this.opts.onProgress)
      .catch(err => this.warn(`embedding past failures failed: ${(err as Error).message}`))
      .finally(() => {
        this.background = undefined;
      });
  }

  private async persist(entries: VectorEntry[]): Promise<void> {
    if (!this.store || this.storeBroken || !entries.length) return;
    try {
      const current = await this.store.load();
      const ours = current.rows === 0 || current.embedder === this.embedder.id;
      if (!ours && !this.opts.claim) return;
      await this.store.append(this.embedder.id, this.embedder.dim, entries);
    } catch (err) {
      this.storeFailed(err);
    }
  }

  /** Deletes stored vectors of documents recall no longer has (evicted or changed approaches). */
  private async prune(ids: readonly string[], snapshot: VectorSnapshot | undefined): Promise<void> {
    if (!this.store || !snapshot || this.storeBroken) return;
    const live = new Set(ids);
    let stale = false;
    for (const id of snapshot.positions.keys()) {
      if (!live.has(id)) {
        stale = true;
        break;
      }
    }
    if (!stale) return;
    try {
      await this.store.retain(live);
    } catch (err) {
      this.storeFailed(err);
    }
  }

  private async embedQuery(query: string): Promise<Float32Array> {
    if (this.lastQuery?.text === query) return this.lastQuery.vector;
    const [vector] = await this.embedder.embed([query]);
    this.lastQuery = { text: query, vector };
    return vector;
  }

  /** documentId, memoised by text: a recall over 10,000 documents would otherwise hash them all each time. */
  private idOf(text: string): string {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = documentId(text);
      if (this.ids.size >= MEMO_LIMIT) this.ids.delete(this.ids.keys().next().value as string);
      this.ids.set(text, id);
    }
    return id;
  }

  private remember(id: string, v: Float32Array): void {
    if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(id, v);
  }

  private storeFailed(err: unknown): void {
    this.storeBroken = true; // e.g. a read-only workspace: keep working from memory, warn once
    this.warn(`the vector cache cannot be used (${(err as Error).message}); vectors are kept in memory only.`);
  }

  private warn(message: string): void {
    try {
      this.opts.onWarning?.(message);
    } catch {
      // never let a warning sink break recall
    }
  }
}

/**
 * Scores documents by vectors given with them (team recall: the vectors stored in the team
 * database), against the query embedded by the same embedder. A document without a vector scores 0:
 * a vector of another embedder is never given (the database is asked for this embedder's only).
 */
export class StoredVectorScorer implements Scorer {
  readonly id: string;
  private lastQuery: { text: string; vector: Float32Array } | undefined;

  constructor(
    readonly embedder: Embedder,
    /** Vector per document text. */
    private readonly vectors: ReadonlyMap<string, Float32Array>,
  ) {
    this.id = `stored-embedding:${embedder.id}`;
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    if (this.lastQuery?.text !== query) this.lastQuery = { text: query, vector: (await this.embedder.embed([query]))[0] };
    const q = this.lastQuery.vector;
    return documents.map(d => {
      const v = this.vectors.get(d);
      return v && v.length === q.length ? Math.min(1, Math.max(0, dot(q, v))) : 0;
    });
  }
}

/** Stable id of a document's text (the same text → the same vector, whatever approach it belongs to). */
export function documentId(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 20);
}

/**
 * Weighted sum of two scorers: `weight`·a + (1 − weight)·b. Recall uses it to fuse the lexical TF-IDF
 * scorer (exact identifiers, weighted by how rare they are in this memory) with an embedding scorer
 * (synonyms and rewordings); measured in BENCHMARKS.md.
 */
export class HybridScorer implements Scorer {
  readonly id: string;

  constructor(
    readonly a: Scorer,
    readonly b: Scorer,
    readonly weight = 0.5,
  ) {
    this.id = `hybrid(${a.id}*${weight},${b.id}*${Math.round((1 - weight) * 100) / 100})`;
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    const [x, y] = await Promise.all([this.a.score(query, documents), this.b.score(query, documents)]);
    return x.map((v, i) => this.weight * Math.max(0, v) + (1 - this.weight) * Math.max(0, y[i]));
  }
}
