// Recall of similar past failures. The lexical scorer here needs no model; the embeddings
// module plugs a semantic scorer into the same `recall()` through `Scorer`.

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
  if (a.learnedFacts.length) return a.learnedFacts[a.learnedFacts.length - 1];
  if (a.status === 'resolved' && a.resolvedBy === 'success' && a.lastSuccess) {
    return `\`${a.command}\` later succeeded (${a.lastSuccess.slice(0, 10)}) — see what changed before that run.`;
  }
  if (a.status === 'resolved' && a.resolvedBy === 'manual') return 'Marked resolved by hand.';
  return undefined;
}

export async function recall(data: MemoryData, query: string, k = 5, scorer: Scorer = lexicalScorer): Promise<RecallHit[]> {
  const approaches = Object.values(data.approaches).filter(a => a.failures > 0 || a.lastErrorSignature);
  if (!query.trim() || approaches.length === 0) return [];
  const scores = await scorer.score(query, approaches.map(approachDocument));
  const hits: RecallHit[] = approaches.map((a, i) => ({
    command: a.command,
    key: a.key,
    label: describeApproach(a),
    cwd: a.cwd,
    errorSignature: a.lastErrorSignature,
    score: Math.round(scores[i] * 1000) / 1000,
    status: a.status,
    attempts: a.totalAttempts,
    lesson: lessonFor(data, a),
  }));
  return hits
    .filter(h => h.score > 0)
    .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
    .slice(0, Math.max(1, k));
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
  return f;
}

export const lexicalScorer: Scorer = {
  id: 'lexical-tfidf-v1',
  score(query: string, documents: readonly string[]): number[] {
    const docs = documents.map(lexicalFeatures);
    const q = lexicalFeatures(query);
    const df = new Map<string, number>();
    for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const n = docs.length + 1;
    const idf = (t: string) => Math.log(1 + n / (1 + (df.get(t) ?? 0)));
    const weigh = (m: Map<string, number>) => {
      const v = new Map<string, number>();
      let norm = 0;
      for (const [t, c] of m) {
        const w = (1 + Math.log(c + 1)) * idf(t);
        v.set(t, w);
        norm += w * w;
      }
      return { v, norm: Math.sqrt(norm) || 1 };
    };
    const qv = weigh(q);
    return docs.map(d => {
      const dv = weigh(d);
      let dot = 0;
      for (const [t, w] of qv.v) {
        const x = dv.v.get(t);
        if (x) dot += w * x;
      }
      return dot / (qv.norm * dv.norm);
    });
  },
};
