// Recall of similar past failures. The lexical scorer here needs no model; the embeddings
// module plugs a semantic scorer into the same `recall()` through `Scorer`.

import { conceptIds } from './errorConcepts';
import { fixLessonText } from './ledger';
import { describeApproach } from './memory';
import type { Approach, MemoryData } from './types';

export interface RecallHit {
  command: string;
  key: string;
  label: string;
  cwd: string;
  errorSignature: string;
  score: number;
  status: Approach['status'];
  attempts: number;
  lesson?: string;
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

/** The best lesson memory holds for an approach: a learning tied to it, a learned fact, or how it ended. */
export function lessonFor(data: MemoryData, a: Approach): string | undefined {
  for (let i = data.learnings.length - 1; i >= 0; i--) {
    const l = data.learnings[i];
    if (l.key === a.key) return l.text;
  }
  if (a.fix) return fixLessonText(a.fix);
  if (a.learnedFacts.length) return a.learnedFacts[a.learnedFacts.length - 1];
  if (a.status === 'resolved' && a.resolvedBy === 'success' && a.lastSuccess) {
    return `\`${a.command}\` later succeeded (${a.lastSuccess.slice(0, 10)}) — see what changed before that run.`;
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
 * memoised by its text, so a rebuild after one new failure does not re-tokenise the others. A query
 * then costs its own features plus one pass over the postings of its terms. A frozen list (recall's,
 * for memory the store handed out) is recognised by identity, and keeps its own index for as long as
 * it lives: two workspace folders recalled in turn do not rebuild each other's.
 */
export function createLexicalScorer(): Scorer {
  const featureMemo = new Map<string, Map<string, number>>();
  let index: LexicalIndex | undefined;
  const byList = new WeakMap<readonly string[], LexicalIndex>();

  const features = (text: string): Map<string, number> => {
    let f = featureMemo.get(text);
    if (!f) {
      f = lexicalFeatures(text);
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
        index = buildLexicalIndex(documents.slice(), features);
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

function sameDocuments(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface LexicalIndex {
  readonly documents: readonly string[];
  score(query: string): number[];
}

function buildLexicalIndex(documents: readonly string[], features: (text: string) => Map<string, number>): LexicalIndex {
  const docs = documents.map(features);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length + 1;
  const idf = (t: string) => Math.log(1 + n / (1 + (df.get(t) ?? 0)));
  const idfOf = new Map<string, number>();
  for (const t of df.keys()) idfOf.set(t, idf(t));
  // postings: for each term, the documents holding it and the term's weight there
  const postings = new Map<string, { doc: number[]; weight: number[] }>();
  const norms = new Float64Array(docs.length);
  docs.forEach((d, i) => {
    let norm = 0;
    for (const [t, c] of d) {
      const w = (1 + Math.log(c + 1)) * idfOf.get(t)!;
      let p = postings.get(t);
      if (!p) postings.set(t, (p = { doc: [], weight: [] }));
      p.doc.push(i);
      p.weight.push(w);
      norm += w * w;
    }
    norms[i] = Math.sqrt(norm) || 1;
  });
  return {
    documents,
    score(query: string): number[] {
      const dot = new Float64Array(docs.length);
      let qNorm = 0;
      // the same sums, in the same order, as comparing the query with each document in turn
      for (const [t, c] of lexicalFeatures(query)) {
        const w = (1 + Math.log(c + 1)) * (idfOf.get(t) ?? idf(t));
        qNorm += w * w;
        const p = postings.get(t);
        if (!p) continue;
        for (let j = 0; j < p.doc.length; j++) dot[p.doc[j]] += w * p.weight[j];
      }
      const q = Math.sqrt(qNorm) || 1;
      return Array.from(dot, (x, i) => x / (q * norms[i]));
    },
  };
}

/** The lexical scorer recall uses by default (one shared index cache). */
export const lexicalScorer: Scorer = createLexicalScorer();
