// Recall of similar past failures. The lexical scorer here needs no model; the embeddings
// module plugs a semantic scorer into the same `recall()` through `Scorer`.

import { conceptIds } from './text/errorConcepts';
import { fixLessonText } from './rules/ledger';
import { describeApproach } from './memory';
import { errorTextOf, readableSignature } from './text/shownText';
import type { Approach, MemoryData } from './types';

export interface RecallHit {
  command: string;
  key: string;
  label: string;
  cwd: string;
  errorSignature: string;
  /** The approach's last error as the output printed it (what a person is shown; the signature is for matching). Absent in hits stored by older versions. */
  errorText?: string;
  score: number;
  status: Approach['status'];
  attempts: number;
  lesson?: string;
}

/**
 * Turns texts into unit-length vectors of one space (src/embeddings implements it as `Embedder`);
 * two vectors compare only when their embedders' ids and dimensions are equal.
 */
export interface TextEmbedder {
  readonly id: string;
  readonly dim: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Dot product: the cosine similarity of two unit-length vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Scores how similar each document is to the query, in [0, 1]. */
export interface Scorer {
  readonly id: string;
  score(query: string, documents: readonly string[]): Promise<number[]> | number[];
}

/** The text recall compares for an approach: what was run and how it failed. */
export function approachDocument(a: Approach): string {
  const sigs = new Set<string>();
  if (a.lastErrorSignature) sigs.add(a.lastErrorSignature);
  for (const t of a.attempts) if (t.errorSignature) sigs.add(t.errorSignature);
  return `${a.label}\n${[...sigs].join('\n')}`;
}

/** Hits scoring below this are not "similar": a few shared words give 3–10%. */
export const SIMILAR_MIN_SCORE = 0.15;

/** An approach's last error as a person reads it: the real line of its latest failure still in the window. */
function lastErrorText(a: Approach): string {
  for (let i = a.attempts.length - 1; i >= 0; i--) {
    const t = a.attempts[i];
    if (t.outcome === 'failure' && (t.output || t.errorSignature)) return errorTextOf(t);
  }
  return readableSignature(a.lastErrorSignature);
}

/** The best lesson memory holds for an approach: a learning tied to it, a learned fact, or how it ended. */
export function lessonFor(data: MemoryData, a: Approach): string | undefined {
  for (let i = data.learnings.length - 1; i >= 0; i--) {
    const l = data.learnings[i];
    if (l.key === a.key) return l.text;
  }
  if (a.fix) return fixLessonText(a.fix);
  if (a.learnedFacts.length) return a.learnedFacts[a.learnedFacts.length - 1];
  if (a.status === 'resolved' && a.resolvedBy === 'success' && a.lastSuccess) {
    return `“${a.command}” later succeeded (${a.lastSuccess.slice(0, 10)}) — see what changed before that run.`;
  }
  if (a.status === 'resolved' && a.resolvedBy === 'manual') return 'Marked resolved by hand.';
  return undefined;
}

/**
 * The k approaches most similar to the query (score > 0), best first; equal scores (to 3 decimals)
 * by key. Memory that cannot change (deep-frozen, as the store hands it out) keeps its list of
 * documents between queries, and so do the scorers' indexes over it (they key on that list).
 */
export async function recall(data: MemoryData, query: string, k = 5, scorer: Scorer = lexicalScorer): Promise<RecallHit[]> {
  const { approaches, documents } = recallable(data);
  if (!query.trim() || approaches.length === 0) return [];
  const scores = await scorer.score(query, documents);
  return topK(approaches, scores, Math.max(1, k)).map(({ a, score }) => ({
    command: a.command,
    key: a.key,
    label: describeApproach(a),
    cwd: a.cwd,
    errorSignature: a.lastErrorSignature,
    errorText: lastErrorText(a),
    score,
    status: a.status,
    attempts: a.totalAttempts,
    lesson: lessonFor(data, a),
  }));
}

interface Recallable {
  readonly approaches: readonly Approach[];
  /** approachDocument of each approach; frozen when kept (the scorers key their indexes on it). */
  readonly documents: readonly string[];
}

const recallableCache = new WeakMap<object, Recallable>();

/** The approaches recall compares (those that failed) and their documents, kept for a frozen memory. */
function recallable(data: MemoryData): Recallable {
  const frozen = Object.isFrozen(data.approaches);
  const known = frozen ? recallableCache.get(data.approaches) : undefined;
  if (known) return known;
  const approaches = Object.values(data.approaches).filter(a => a.failures > 0 || a.lastErrorSignature);
  const documents = approaches.map(approachDocument);
  if (!frozen) return { approaches, documents };
  const r: Recallable = { approaches, documents: Object.freeze(documents) };
  recallableCache.set(data.approaches, r);
  return r;
}

/**
 * The k best (score rounded to 3 decimals, > 0) by score, then key: what sorting every hit would
 * give, in one pass that keeps k candidates (hits are built for those only).
 */
function topK(approaches: readonly Approach[], scores: readonly number[], k: number): { a: Approach; score: number }[] {
  const best: { a: Approach; score: number }[] = [];
  const before = (x: { a: Approach; score: number }, y: { a: Approach; score: number }) => x.score > y.score || (x.score === y.score && x.a.key.localeCompare(y.a.key) < 0);
  for (let i = 0; i < approaches.length; i++) {
    const score = Math.round(scores[i] * 1000) / 1000;
    if (!(score > 0)) continue;
    if (best.length === k && score < best[k - 1].score) continue; // the common case: no string compare
    const c = { a: approaches[i], score };
    if (best.length === k && !before(c, best[k - 1])) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && before(c, best[at - 1])) at--;
    best.splice(at, 0, c);
    if (best.length > k) best.pop();
  }
  return best;
}

// ---- lexical scorer: TF-IDF cosine over words and character trigrams ----

const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'is', 'and', 'or', 'for', 'on', 'at', 'by', 'with', 'error', 'n', 'tmp', 'hex', 'time', 'dur']);

export function lexicalFeatures(text: string): Map<string, number> {
  const f = new Map<string, number>();
  const words = text.toLowerCase().match(/[a-z0-9_@./-]+/g) ?? [];
  for (const raw of words.slice(0, 2000)) {
    for (const w of raw.split(/[./-]+/).filter(Boolean).concat(raw.includes('/') || raw.includes('.') ? [raw] : [])) {
      if (w.length < 2 || STOP.has(w)) continue;
      f.set(`w:${w}`, (f.get(`w:${w}`) ?? 0) + 1);
      const padded = ` ${w} `;
      for (let i = 0; i + 3 <= padded.length; i++) {
        const g = `g:${padded.slice(i, i + 3)}`;
        f.set(g, (f.get(g) ?? 0) + 0.25);
      }
    }
  }
  // the kind of failure, whatever the wording (./errorConcepts.ts): one rare feature per concept
  for (const id of conceptIds(text)) f.set(`c:${id}`, CONCEPT_WEIGHT);
  return f;
}

/** Count given to a concept feature (a word seen this many times). */
const CONCEPT_WEIGHT = 2;

/**
 * TF-IDF cosine between a query and each document. The index of the documents (their terms, the
 * document frequencies, the weighted and normalised rows, the postings per term) is kept between
 * queries and rebuilt only when the list of documents changes; each document's own features are
 * memoised by its text (as term ids and counts), so a rebuild after one new failure does not
 * re-tokenise the others and is a few passes over typed arrays. A query then costs its own features
 * plus one pass over the postings of its terms. A frozen list (recall's, for memory the store handed
 * out) is recognised by identity, and keeps its own index for as long as it lives: two workspace
 * folders recalled in turn do not rebuild each other's.
 */
export function createLexicalScorer(): Scorer {
  let terms = new TermTable();
  const featureMemo = new Map<string, DocFeatures>();
  let index: LexicalIndex | undefined;
  const byList = new WeakMap<readonly string[], LexicalIndex>();

  const features = (text: string): DocFeatures => {
    let f = featureMemo.get(text);
    if (!f) {
      f = terms.encode(lexicalFeatures(text));
      if (featureMemo.size >= FEATURE_MEMO_LIMIT) featureMemo.delete(featureMemo.keys().next().value as string);
      featureMemo.set(text, f);
    }
    return f;
  };

  return {
    id: 'lexical-tfidf-v1',
    score(query: string, documents: readonly string[]): number[] {
      const frozen = Object.isFrozen(documents);
      const kept = frozen ? byList.get(documents) : undefined;
      if (kept) return kept.score(query);
      if (!index || !sameDocuments(index.documents, documents)) {
        // a vocabulary grown far past what is live starts a new table (rare); indexes kept for other
        // lists keep the table their ids come from
        if (terms.size > TERM_TABLE_LIMIT) {
          terms = new TermTable();
          featureMemo.clear();
        }
        index = buildLexicalIndex(documents.slice(), features, terms);
        // the memo keeps only what the current documents use (plus room for the next changes)
        if (featureMemo.size > documents.length * 2 + 1024) {
          const live = new Set(documents);
          for (const text of featureMemo.keys()) if (!live.has(text)) featureMemo.delete(text);
        }
      }
      if (frozen) byList.set(documents, index);
      return index.score(query);
    },
  };
}

const FEATURE_MEMO_LIMIT = 50_000;
const TERM_TABLE_LIMIT = 2_000_000;

/** A document's features as ids into the scorer's term table, with their counts, in the order lexicalFeatures gave them. */
interface DocFeatures {
  readonly ids: Int32Array;
  readonly counts: Float64Array;
}

/** Terms (words, trigrams, concepts) numbered in the order first seen. */
class TermTable {
  private readonly ids = new Map<string, number>();
  get size(): number {
    return this.ids.size;
  }
  encode(f: Map<string, number>): DocFeatures {
    const ids = new Int32Array(f.size);
    const counts = new Float64Array(f.size);
    let i = 0;
    for (const [t, c] of f) {
      let id = this.ids.get(t);
      if (id === undefined) this.ids.set(t, (id = this.ids.size));
      ids[i] = id;
      counts[i++] = c;
    }
    return { ids, counts };
  }
  get(term: string): number | undefined {
    return this.ids.get(term);
  }
}

function sameDocuments(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface LexicalIndex {
  readonly documents: readonly string[];
  score(query: string): number[];
}

function buildLexicalIndex(documents: readonly string[], features: (text: string) => DocFeatures, terms: TermTable): LexicalIndex {
  const docs = documents.map(features);
  const size = terms.size; // after features(): every term of these documents has an id below it
  const df = new Int32Array(size);
  let total = 0;
  for (const d of docs) {
    for (let j = 0; j < d.ids.length; j++) df[d.ids[j]]++;
    total += d.ids.length;
  }
  const n = docs.length + 1;
  const idfOf = new Float64Array(size);
  for (let t = 0; t < size; t++) if (df[t] > 0) idfOf[t] = Math.log(1 + n / (1 + df[t]));
  // postings, term after term in one pair of arrays (CSR): for each term, the documents holding it
  // (in document order) and the term's weight there
  const start = new Int32Array(size + 1);
  for (let t = 0; t < size; t++) start[t + 1] = start[t] + df[t];
  const fill = start.slice(0, size);
  const postDoc = new Int32Array(total);
  const postWeight = new Float64Array(total);
  const norms = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const { ids, counts } = docs[i];
    let norm = 0;
    for (let j = 0; j < ids.length; j++) {
      const t = ids[j];
      const w = (1 + Math.log(counts[j] + 1)) * idfOf[t];
      const at = fill[t]++;
      postDoc[at] = i;
      postWeight[at] = w;
      norm += w * w;
    }
    norms[i] = Math.sqrt(norm) || 1;
  }
  return {
    documents,
    score(query: string): number[] {
      const dot = new Float64Array(docs.length);
      let qNorm = 0;
      // the same sums, in the same order, as comparing the query with each document in turn
      for (const [term, c] of lexicalFeatures(query)) {
        const t = terms.get(term);
        const known = t !== undefined && t < size && df[t] > 0;
        const w = (1 + Math.log(c + 1)) * (known ? idfOf[t] : Math.log(1 + n / 1));
        qNorm += w * w;
        if (!known) continue;
        for (let j = start[t], end = start[t + 1]; j < end; j++) dot[postDoc[j]] += w * postWeight[j];
      }
      const q = Math.sqrt(qNorm) || 1;
      return Array.from(dot, (x, i) => x / (q * norms[i]));
    },
  };
}

/** The lexical scorer recall uses by default (one shared index cache). */
export const lexicalScorer: Scorer = createLexicalScorer();
