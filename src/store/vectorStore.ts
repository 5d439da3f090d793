// Embedding vectors of a workspace memory, beside memory.json:
//   vectors.bin  — a 32-byte header, then float32 rows of `dim` values, contiguous (little-endian)
//   vectors.json — the index: embedder id, dim, generation, one id per row (null = deleted), and a
//                  CRC-32 per appended segment of rows
//
// It is a cache: everything in it can be recomputed from memory.json, so on any doubt it is dropped
// rather than repaired by hand. Crash safety:
//  - append: the new rows are written and fsync'ed at the end of vectors.bin before the index that
//    counts them is renamed into place; rows past the index's count are a torn tail, ignored by
//    readers and cut off by the next writer. The last segment's CRC is checked on every load.
//  - rewrite (compaction, a new embedder): a new bin is written under a temporary name with a new
//    generation, then the new index as vectors.json.next, then bin and index are renamed in that
//    order. A bin whose generation differs from the index's is matched against vectors.json.next
//    (the rename is rolled forward); with no match the files are treated as empty.
// Writers serialize on vectors.json.lock (the same lock protocol as memory.json); readers never lock.
// Vectors of different embedders are never mixed: the file belongs to one embedder id, and writing
// vectors of another one replaces it.

import { mkdir, open, readFile, rename, stat, truncate, unlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import * as path from 'node:path';
import { assertInsideWithoutLinks, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STALE_LOCK_MS, removeStaleTemps, workspaceRootOf, writeFileAtomic } from './fsx';
import { acquireLock, errnoCode, serialize, type HeldLock, randomHex } from './lock';
import { readVectorFile, WasmRows } from './vectorKernel';

const MAGIC = 'FMVEC001';
const HEADER_BYTES = 32;
const INDEX_VERSION = 1;
const SEGMENT_ROWS = 4096;

export interface VectorIndex {
  version: number;
  embedder: string;
  dim: number;
  dtype: 'float32';
  /** Random hex, also in the bin's header: tells which bin this index describes. */
  generation: string;
  /** One per row of vectors.bin; null for a deleted row (dropped at the next compaction). */
  ids: (string | null)[];
  /** Consecutive runs of rows as appended: [rows, crc32 of their bytes]. Their rows sum to ids.length. */
  segments: [number, number][];
  updatedAt: string;
}

/** Below this many stored values (64 KiB of rows) search stays in JS: the wasm instance is not worth it. */
const KERNEL_MIN_VALUES = 16384;

/** What a reader sees: rows, ids and where each live id is. */
export class VectorSnapshot {
  readonly positions = new Map<string, number>();
  readonly live: number;
  /** ids.length × dim values, row after row (in WebAssembly memory when the SIMD kernel is used). */
  readonly vectors: Float32Array;
  /** The SIMD kernel holding the rows, or undefined: search runs the JS loop. */
  private readonly kernel: WasmRows | undefined;

  constructor(
    readonly embedder: string,
    readonly dim: number,
    readonly ids: readonly (string | null)[],
    /** ids.length × dim values, row after row. Copied into WebAssembly memory when the kernel is used. */
    vectors: Float32Array,
    /** 'auto' (default): the WebAssembly SIMD kernel when available and worth it, else JS. */
    options: { kernel?: 'auto' | 'wasm' | 'js' } = {},
  ) {
    ids.forEach((id, i) => {
      if (id !== null) this.positions.set(id, i);
    });
    this.live = this.positions.size;
    const mode = options.kernel ?? 'auto';
    const worth = mode === 'wasm' || (mode === 'auto' && ids.length * dim >= KERNEL_MIN_VALUES);
    // the wasm memory becomes the storage: the caller's array is not kept (one copy of the rows)
    this.kernel = worth ? WasmRows.from(vectors, ids.length, dim) : undefined;
    this.vectors = this.kernel?.vectors ?? vectors;
  }

  /** Which loop search runs: 'wasm' (SIMD kernel) or 'js'. */
  get kernelKind(): 'wasm' | 'js' {
    return this.kernel ? 'wasm' : 'js';
  }

  static empty(embedder = '', dim = 0): VectorSnapshot {
    return new VectorSnapshot(embedder, dim, [], new Float32Array(0));
  }

  get rows(): number {
    return this.ids.length;
  }

  get dead(): number {
    return this.ids.length - this.live;
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** The stored vector (a view, do not modify), or undefined. */
  get(id: string): Float32Array | undefined {
    const i = this.positions.get(id);
    return i === undefined ? undefined : this.vectors.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /** Dot product of `query` with each id's vector (cosine for unit vectors); NaN for an id not stored. */
  scoreIds(query: Float32Array, ids: readonly string[]): number[] {
    return ids.map(id => {
      const i = this.positions.get(id);
      return i === undefined ? Number.NaN : dotRow(this.vectors, i * this.dim, query, this.dim);
    });
  }

  /**
   * The row of each id (-1 when not stored): computed once by a caller that scores the same ids
   * again and again (recall over an unchanged memory), then scoreRows + a lookup per id.
   */
  rowsOf(ids: readonly string[]): Int32Array {
    const rows = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) rows[i] = this.positions.get(ids[i]) ?? -1;
    return rows;
  }

  /**
   * The dot product of `query` with every row, dead rows included, in one pass over the contiguous
   * rows (the SIMD kernel when there is one). The kernel's buffer is reused by the next call: read it
   * before scoring again.
   */
  scoreRows(query: Float32Array): Float32Array {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} values, the store holds ${this.dim}-d vectors`);
    if (this.kernel) return this.kernel.score(query);
    const n = this.ids.length;
    const out = new Float32Array(n);
    for (let r = 0; r < n; r++) out[r] = dotRow(this.vectors, r * this.dim, query, this.dim);
    return out;
  }

  /** The k live rows most similar to `query` (brute force over the contiguous rows). */
  search(query: Float32Array, k: number): { id: string; score: number }[] {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} values, the store holds ${this.dim}-d vectors`);
    const n = this.ids.length;
    const topIdx: number[] = [];
    const topScore: number[] = [];
    const scores = this.kernel?.score(query);
    for (let r = 0; r < n; r++) {
      if (this.ids[r] === null) continue;
      const s = scores ? scores[r] : dotRow(this.vectors, r * this.dim, query, this.dim);
      if (topIdx.length < k) {
        insertSorted(topIdx, topScore, r, s);
      } else if (s > topScore[topScore.length - 1]) {
        topIdx.pop();
        topScore.pop();
        insertSorted(topIdx, topScore, r, s);
      }
    }
    return topIdx.map((r, i) => ({ id: this.ids[r]!, score: topScore[i] }));
  }
}

export interface VectorStoreOptions {
  /** File names: <name>.bin and <name>.json. Default 'vectors'. */
  name?: string;
  lockTimeoutMs?: number;
  staleLockMs?: number;
  /** Compact when deleted rows exceed this share of all rows (and at least 64 rows). Default 0.25. */
  compactRatio?: number;
  onWarning?: (message: string) => void;
  /** The workspace folder the vectors must stay inside (default: the folder above .vscode/failure-memory). */
  root?: string;
}

export interface VectorEntry {
  id: string;
  vector: Float32Array;
}

export class VectorStore {
  readonly dir: string;
  readonly binFile: string;
  readonly indexFile: string;
  private readonly nextIndexFile: string;
  private readonly lockFile: string;
  private readonly options: Required<Omit<VectorStoreOptions, 'name' | 'onWarning' | 'root'>>;
  private readonly root: string | undefined;
  private readonly warnSink: (message: string) => void;
  private cache: { key: string; snapshot: VectorSnapshot } | undefined;

  constructor(dir: string, options: VectorStoreOptions = {}) {
    if (endianness() !== 'LE') throw new Error('The vector store needs a little-endian machine.');
    this.dir = path.resolve(dir);
    const name = options.name ?? 'vectors';
    this.binFile = path.join(this.dir, `${name}.bin`);
    this.indexFile = path.join(this.dir, `${name}.json`);
    this.nextIndexFile = `${this.indexFile}.next`;
    this.lockFile = `${this.indexFile}.lock`;
    this.root = options.root !== undefined ? path.resolve(options.root) : workspaceRootOf(this.dir);
    this.options = {
      lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      staleLockMs: options.staleLockMs ?? DEFAULT_STALE_LOCK_MS,
      compactRatio: options.compactRatio ?? 0.25,
    };
    this.warnSink = options.onWarning ?? (m => process.emitWarning(m, 'FailureMemoryWarning'));
  }

  /**
   * The current vectors. Cheap when nothing changed on disk (two stats); otherwise reads both files.
   * Missing files: an empty snapshot. Inconsistent files: an empty snapshot and a warning.
   */
  async load(): Promise<VectorSnapshot> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const key = await this.statKey();
      if (!key) return VectorSnapshot.empty();
      if (this.cache?.key === key) return this.cache.snapshot;
      const read = await this.readFiles();
      if (read === 'retry') continue; // a writer swapped the files between our two reads
      if (read.problem) this.warn(`${this.binFile}: ${read.problem}; the vectors will be recomputed.`);
      this.cache = { key, snapshot: read.snapshot };
      return read.snapshot;
    }
    return VectorSnapshot.empty();
  }

  /**
   * Appends vectors (ids already stored are skipped). Vectors of another embedder than the file's
   * replace the file. Every vector must have `dim` values.
   */
  async append(embedder: string, dim: number, entries: readonly VectorEntry[]): Promise<void> {
    if (!entries.length) return;
    for (const e of entries) if (e.vector.length !== dim) throw new Error(`vector for ${e.id} has ${e.vector.length} values, expected ${dim}`);
    await this.locked(async lock => {
      const { snapshot, index } = await this.loadLocked();
      if (!index || index.embedder !== embedder || index.dim !== dim) {
        await this.rewrite(lock, embedder, dim, dedupe(entries));
        return;
      }
      const fresh = dedupe(entries).filter(e => !snapshot.has(e.id));
      if (!fresh.length) return;
      const rows = packRows(fresh, dim);
      const expected = HEADER_BYTES + snapshot.rows * dim * 4;
      const handle = await open(this.binFile, 'r+');
      try {
        const st = await handle.stat();
        if (st.size !== expected) await handle.truncate(expected); // a torn tail from a crashed writer
        await handle.write(rows, 0, rows.length, expected);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const next: VectorIndex = {
        ...index,
        ids: [...index.ids, ...fresh.map(e => e.id)],
        segments: [...index.segments, [fresh.length, crc32(rows)]],
        updatedAt: new Date().toISOString(),
      };
      await this.writeIndex(next, this.indexFile, lock);
    });
  }

  /**
   * Keeps the vectors of `liveIds` and deletes the rest (the memory evicted or changed those
   * documents). Compacts when enough rows are dead. Returns how many were deleted.
   */
  async retain(liveIds: Iterable<string>): Promise<number> {
    const live = new Set(liveIds);
    const current = await this.load();
    if (![...current.positions.keys()].some(id => !live.has(id))) return 0;
    return this.locked(async lock => {
      const { snapshot, index } = await this.loadLocked();
      if (!index) return 0;
      let removed = 0;
      const ids = index.ids.map(id => {
        if (id !== null && !live.has(id)) {
          removed++;
          return null;
        }
        return id;
      });
      if (!removed) return 0;
      const dead = ids.filter(id => id === null).length;
      if (dead >= 64 && dead > ids.length * this.options.compactRatio) {
        const keep = ids.flatMap((id, i) => (id === null ? [] : [{ id, vector: snapshot.vectors.subarray(i * index.dim, (i + 1) * index.dim) }]));
        await this.rewrite(lock, index.embedder, index.dim, keep);
      } else {
        await this.writeIndex({ ...index, ids, updatedAt: new Date().toISOString() }, this.indexFile, lock);
      }
      return removed;
    });
  }

  /** Rewrites the files with the live rows only. */
  async compact(): Promise<void> {
    await this.locked(async lock => {
      const { snapshot, index } = await this.loadLocked();
      if (!index) return;
      const keep = index.ids.flatMap((id, i) => (id === null ? [] : [{ id, vector: snapshot.vectors.subarray(i * index.dim, (i + 1) * index.dim) }]));
      await this.rewrite(lock, index.embedder, index.dim, keep);
    });
  }

  /** Replaces everything with these vectors (a re-embedding with a new embedder). */
  async replaceAll(embedder: string, dim: number, entries: readonly VectorEntry[]): Promise<void> {
    for (const e of entries) if (e.vector.length !== dim) throw new Error(`vector for ${e.id} has ${e.vector.length} values, expected ${dim}`);
    await this.locked(lock => this.rewrite(lock, embedder, dim, dedupe(entries)));
  }

  /** Deletes both files (memory cleared). */
  async clear(): Promise<void> {
    await this.locked(async () => {
      for (const f of [this.indexFile, this.nextIndexFile, this.binFile]) await unlink(f).catch(e => ignoreMissing(e));
      this.cache = undefined;
    });
  }

  // -------------------------------------------------------------------------------------------

  private async statKey(): Promise<string | undefined> {
    try {
      const [i, b] = await Promise.all([stat(this.indexFile), stat(this.binFile)]);
      return `${i.mtimeMs}:${i.size}:${i.ino}:${b.mtimeMs}:${b.size}:${b.ino}`;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') {
        // a rewrite may be between its two renames: vectors.json.next tells
        return (await exists(this.nextIndexFile)) && (await exists(this.binFile)) ? `next:${Date.now()}` : undefined;
      }
      throw err;
    }
  }

  /** Reads index and bin; rolls a half-done rewrite forward in memory; verifies the last segment. */
  private async readFiles(): Promise<{ snapshot: VectorSnapshot; index?: VectorIndex; problem?: string } | 'retry'> {
    let index = await readIndex(this.indexFile);
    let bin: Buffer;
    try {
      bin = await readVectorFile(this.binFile, index?.dim); // into wasm memory: the search kernel's storage
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return index ? 'retry' : { snapshot: VectorSnapshot.empty() };
      throw err;
    }
    const generation = readHeader(bin);
    if (!generation) return { snapshot: VectorSnapshot.empty(), problem: 'the file header is damaged' };
    if (!index || index.generation !== generation) {
      const next = await readIndex(this.nextIndexFile);
      if (next && next.generation === generation) index = next; // interrupted rewrite: roll forward
      else if (index) return 'retry';
      else return { snapshot: VectorSnapshot.empty(), problem: 'no index matches the vectors' };
    }
    const rowBytes = index.dim * 4;
    let rows = index.ids.length;
    let segments = index.segments;
    const available = Math.floor((bin.length - HEADER_BYTES) / rowBytes);
    let problem: string | undefined;
    if (available < rows) {
      // the index counts rows the file does not have (a file system that reordered writes)
      problem = `the vectors end after ${available} of ${rows} rows`;
      ({ rows, segments } = cutSegments(segments, available));
    }
    if (segments.length) {
      const [last, crc] = segments[segments.length - 1];
      const start = HEADER_BYTES + (rows - last) * rowBytes;
      if (crc32(bin.subarray(start, start + last * rowBytes)) !== crc) {
        problem = `the last ${last} rows fail their checksum`;
        rows -= last;
        segments = segments.slice(0, -1);
      }
    }
    const byteOffset = bin.byteOffset + HEADER_BYTES;
    const vectors =
      byteOffset % 4 === 0
        ? new Float32Array(bin.buffer, byteOffset, rows * index.dim)
        : new Float32Array(bin.buffer.slice(byteOffset, byteOffset + rows * rowBytes));
    const ids = index.ids.length === rows ? index.ids : index.ids.slice(0, rows);
    return { snapshot: new VectorSnapshot(index.embedder, index.dim, ids, vectors), index: { ...index, ids, segments }, problem };
  }

  /** Inside the lock: the state to build on, with the torn tail and stale temp files cleaned. */
  private async loadLocked(): Promise<{ snapshot: VectorSnapshot; index?: VectorIndex }> {
    const read = await this.readFiles();
    if (read === 'retry') {
      // inside the lock nobody else writes: an index without its bin is a leftover
      return { snapshot: VectorSnapshot.empty() };
    }
    if (read.problem) this.warn(`${this.binFile}: ${read.problem}; dropping those vectors.`);
    if (read.index && (await readIndex(this.indexFile))?.generation !== read.index.generation) {
      await rename(this.nextIndexFile, this.indexFile); // finish the interrupted rewrite for real
    }
    if (read.problem && read.index) {
      await truncate(this.binFile, HEADER_BYTES + read.index.ids.length * read.index.dim * 4);
      await this.writeIndex({ ...read.index, updatedAt: new Date().toISOString() }, this.indexFile);
    }
    return { snapshot: read.snapshot, index: read.index };
  }

  private async rewrite(lock: HeldLock, embedder: string, dim: number, entries: readonly VectorEntry[]): Promise<void> {
    const generation = randomHex(8);
    const rows = packRows(entries, dim);
    const temp = `${this.binFile}.tmp-${process.pid}-${randomHex(4)}`;
    await this.removeStaleTemps();
    try {
      const handle = await open(temp, 'wx');
      try {
        await handle.write(header(generation, dim), 0, HEADER_BYTES, 0);
        await handle.write(rows, 0, rows.length, HEADER_BYTES);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const index: VectorIndex = {
        version: INDEX_VERSION,
        embedder,
        dim,
        dtype: 'float32',
        generation,
        ids: entries.map(e => e.id),
        segments: segmentsOf(rows, entries.length, dim),
        updatedAt: new Date().toISOString(),
      };
      await this.writeIndex(index, this.nextIndexFile, lock);
      await rename(temp, this.binFile);
      await rename(this.nextIndexFile, this.indexFile);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  }

  /** Atomic write of an index file (temp, fsync, rename), checking the lock is still ours. */
  private async writeIndex(index: VectorIndex, target: string, lock?: HeldLock): Promise<void> {
    await writeFileAtomic(target, JSON.stringify(index), async () => {
      if (lock && !(await lock.stillHeld().catch(() => false))) {
        throw new Error(`${this.lockFile} was taken over by another process; vectors not written.`);
      }
    });
  }

  private async removeStaleTemps(): Promise<void> {
    // inside the lock no other writer is running: every temp file is left over from a crash
    await removeStaleTemps(this.dir, [this.indexFile, this.nextIndexFile], [`${path.basename(this.binFile)}.tmp-`]);
  }

  private locked<T>(fn: (lock: HeldLock) => Promise<T>): Promise<T> {
    return serialize(this.lockFile, async () => {
      if (this.root) await assertInsideWithoutLinks(this.root, this.dir);
      await mkdir(this.dir, { recursive: true });
      const lock = await acquireLock(this.lockFile, {
        timeoutMs: this.options.lockTimeoutMs,
        staleMs: this.options.staleLockMs,
        onWarning: m => this.warn(m),
      });
      try {
        await this.removeStaleTemps();
        return await fn(lock);
      } finally {
        this.cache = undefined;
        await lock.release();
      }
    });
  }

  private warn(message: string): void {
    try {
      this.warnSink(message);
    } catch {
      // a failing warning sink must never break the store
    }
  }
}

// ---------------------------------------------------------------------------------------------

function header(generation: string, dim: number): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write(MAGIC, 0, 'latin1');
  Buffer.from(generation, 'hex').copy(h, 8);
  h.writeUInt32LE(dim, 16);
  h.writeUInt32LE(1, 20); // dtype: 1 = float32
  return h;
}

function readHeader(bin: Buffer): string | undefined {
  if (bin.length < HEADER_BYTES || bin.toString('latin1', 0, 8) !== MAGIC) return undefined;
  return bin.subarray(8, 16).toString('hex');
}

async function readIndex(file: string): Promise<VectorIndex | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    ignoreMissing(err);
    return undefined;
  }
  try {
    const v = JSON.parse(text) as Partial<VectorIndex>;
    const ok =
      v.version === INDEX_VERSION &&
      typeof v.embedder === 'string' &&
      Number.isInteger(v.dim) &&
      (v.dim as number) > 0 &&
      typeof v.generation === 'string' &&
      Array.isArray(v.ids) &&
      Array.isArray(v.segments) &&
      v.segments.reduce((s, seg) => s + (Array.isArray(seg) ? Number(seg[0]) : Number.NaN), 0) === v.ids.length;
    return ok ? (v as VectorIndex) : undefined;
  } catch {
    return undefined;
  }
}

/** A rewrite's rows in segments of at most SEGMENT_ROWS, so that a load checks a bounded tail. */
function segmentsOf(rows: Buffer, count: number, dim: number): [number, number][] {
  const out: [number, number][] = [];
  for (let start = 0; start < count; start += SEGMENT_ROWS) {
    const n = Math.min(SEGMENT_ROWS, count - start);
    out.push([n, crc32(rows.subarray(start * dim * 4, (start + n) * dim * 4))]);
  }
  return out;
}

function cutSegments(segments: [number, number][], rows: number): { rows: number; segments: [number, number][] } {
  const kept: [number, number][] = [];
  let total = 0;
  for (const s of segments) {
    if (total + s[0] > rows) break;
    kept.push(s);
    total += s[0];
  }
  return { rows: total, segments: kept };
}

function packRows(entries: readonly VectorEntry[], dim: number): Buffer {
  const out = Buffer.alloc(entries.length * dim * 4);
  const f = new Float32Array(out.buffer, out.byteOffset, entries.length * dim);
  entries.forEach((e, i) => f.set(e.vector, i * dim));
  return out;
}

function dedupe(entries: readonly VectorEntry[]): VectorEntry[] {
  const seen = new Set<string>();
  return entries.filter(e => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

/** Dot product of one row with the query: four independent sums (the CPU overlaps them), then the rest. */
function dotRow(rows: Float32Array, offset: number, q: Float32Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (const end = dim - 3; d < end; d += 4) {
    const o = offset + d;
    s0 += rows[o] * q[d];
    s1 += rows[o + 1] * q[d + 1];
    s2 += rows[o + 2] * q[d + 2];
    s3 += rows[o + 3] * q[d + 3];
  }
  for (; d < dim; d++) s0 += rows[offset + d] * q[d];
  return s0 + s1 + (s2 + s3);
}

function insertSorted(idx: number[], score: number[], r: number, s: number): void {
  let i = score.length;
  while (i > 0 && score[i - 1] < s) i--;
  idx.splice(i, 0, r);
  score.splice(i, 0, s);
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

function ignoreMissing(err: unknown): void {
  if (errnoCode(err) !== 'ENOENT') throw err;
}
