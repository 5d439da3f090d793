// The offline embedder's word-vector table (media/offline-embedder.bin, built by
// scripts/build-offline-embedder.mjs): a few thousand words with int8 GloVe vectors (one float scale
// per word), a weight per word, and the common component to remove from sentence vectors.
//
// Layout, little-endian, every section 4-byte aligned:
//   "FMWT" | u32 version | u32 count | u32 dim | u32 metaLength | meta JSON (utf8)
//   u32 wordsLength | words joined by '\n' (utf8)
//   u32 ranks[count] | f32 domainShare[count] | f32 scales[count] | f32 commonComponent[dim]
//   i8 vectors[count × dim]
// ranks: GloVe frequency rank (0 = most frequent English word); domainShare: share of the build
// corpus' error lines that contain the word. The embedder turns both into a weight at run time.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export const WORD_TABLE_FILE = 'offline-embedder.bin';
const MAGIC = 0x54574d46; // "FMWT"
const VERSION = 1;

/** Size of GloVe 6B's vocabulary: ranks are out of this many words. */
export const GLOVE_VOCABULARY = 400000;

export interface WordTableData {
  words: string[];
  dim: number;
  ranks: Uint32Array;
  domainShare: Float32Array;
  scales: Float32Array;
  vectors: Int8Array;
  commonComponent: Float32Array;
  meta: Record<string, unknown>;
}

export class WordTable {
  private readonly index = new Map<string, number>();
  /** First 16 hex digits of the file's sha256: part of the embedder id. */
  readonly hash: string;
  readonly byteLength: number;

  constructor(
    readonly data: WordTableData,
    bytes?: Uint8Array,
  ) {
    data.words.forEach((w, i) => this.index.set(w, i));
    this.hash = bytes ? createHash('sha256').update(bytes).digest('hex').slice(0, 16) : 'memory';
    this.byteLength = bytes?.length ?? 0;
  }

  get size(): number {
    return this.data.words.length;
  }

  get dim(): number {
    return this.data.dim;
  }

  /** Index of a word, or -1. */
  lookup(word: string): number {
    return this.index.get(word) ?? -1;
  }

  rank(i: number): number {
    return this.data.ranks[i];
  }

  domainShare(i: number): number {
    return this.data.domainShare[i];
  }

  /** Adds `factor` × the word's (dequantized) vector to `out`. */
  addTo(out: Float32Array, i: number, factor: number): void {
    const { vectors, dim } = this.data;
    const f = factor * this.data.scales[i];
    const o = i * dim;
    for (let d = 0; d < dim; d++) out[d] += f * vectors[o + d];
  }

  /** The dequantized vector of a word (for tests and tools). */
  vector(word: string): Float32Array | undefined {
    const i = this.lookup(word);
    if (i < 0) return undefined;
    const v = new Float32Array(this.data.dim);
    this.addTo(v, i, 1);
    return v;
  }
}

export function encodeWordTable(t: WordTableData): Uint8Array {
  const enc = new TextEncoder();
  const meta = enc.encode(JSON.stringify(t.meta));
  const words = enc.encode(t.words.join('\n'));
  const count = t.words.length;
  const pad = (n: number) => (n + 3) & ~3;
  const size = 20 + pad(meta.length) + 4 + pad(words.length) + 4 * count * 3 + 4 * t.dim + pad(count * t.dim);
  const buf = new Uint8Array(size);
  const view = new DataView(buf.buffer);
  let o = 0;
  const u32 = (x: number) => {
    view.setUint32(o, x, true);
    o += 4;
  };
  const f32s = (a: Float32Array) => {
    for (const x of a) {
      view.setFloat32(o, x, true);
      o += 4;
    }
  };
  const u32s = (a: Uint32Array) => {
    for (const x of a) u32(x);
  };
  u32(MAGIC);
  u32(VERSION);
  u32(count);
  u32(t.dim);
  u32(meta.length);
  buf.set(meta, o);
  o = pad(o + meta.length);
  u32(words.length);
  buf.set(words, o);
  o = pad(o + words.length);
  u32s(t.ranks);
  f32s(t.domainShare);
  f32s(t.scales);
  f32s(t.commonComponent);
  buf.set(new Uint8Array(t.vectors.buffer, t.vectors.byteOffset, t.vectors.byteLength), o);
  return buf;
}

export function decodeWordTable(bytes: Uint8Array): WordTableData {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string) => new Error(`The offline embedder's word table is damaged (${why}).`);
  if (bytes.length < 20 || view.getUint32(0, true) !== MAGIC) throw fail('bad magic');
  if (view.getUint32(4, true) !== VERSION) throw fail(`unknown version ${view.getUint32(4, true)}`);
  const count = view.getUint32(8, true);
  const dim = view.getUint32(12, true);
  const metaLength = view.getUint32(16, true);
  const pad = (n: number) => (n + 3) & ~3;
  const dec = new TextDecoder();
  let o = 20;
  const meta = JSON.parse(dec.decode(bytes.subarray(o, o + metaLength))) as Record<string, unknown>;
  o = pad(o + metaLength);
  const wordsLength = view.getUint32(o, true);
  o += 4;
  const words = dec.decode(bytes.subarray(o, o + wordsLength)).split('\n');
  o = pad(o + wordsLength);
  if (words.length !== count) throw fail(`${words.length} words for ${count} entries`);
  const f32s = (n: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++, o += 4) a[i] = view.getFloat32(o, true);
    return a;
  };
  const ranks = new Uint32Array(count);
  for (let i = 0; i < count; i++, o += 4) ranks[i] = view.getUint32(o, true);
  const domainShare = f32s(count);
  const scales = f32s(count);
  const commonComponent = f32s(dim);
  if (o + count * dim > bytes.length) throw fail('truncated');
  const vectors = new Int8Array(count * dim);
  vectors.set(new Int8Array(bytes.buffer, bytes.byteOffset + o, count * dim));
  return { words, dim, ranks, domainShare, scales, vectors, commonComponent, meta };
}

/** Where the table may be: media/ beside dist/ (the bundles) or beside src/ (tests, tsx). */
export function wordTableCandidates(baseDir: string = path.dirname(__filename)): string[] {
  return [path.join(baseDir, '..', 'media', WORD_TABLE_FILE), path.join(baseDir, '..', '..', 'media', WORD_TABLE_FILE)];
}

let cached: WordTable | undefined;

/** Loads (once) the table shipped with the extension. Throws when it is missing or damaged. */
export function loadWordTable(file?: string): WordTable {
  if (!file && cached) return cached;
  const where = file ? [file] : wordTableCandidates();
  const found = where.find(p => existsSync(p));
  if (!found) throw new Error(`The offline embedder's word table (${WORD_TABLE_FILE}) was not found in ${where.join(' or ')}.`);
  const bytes = readFileSync(found);
  const table = new WordTable(decodeWordTable(bytes), bytes);
  if (!file) cached = table;
  return table;
}
