// Recall quality on a labelled set (test/fixtures/recall-set.json): the failures are recorded through
// the engine (so documents are real labels + error signatures), then every query is recalled and
// the rank of the first expected failure is noted. Used by the unit test and by `npm run bench`.

import { applyAttempt, prepareAttempt } from '../core/memory';
import { recall, type Scorer } from '../core/recall';
import { createRedactor } from '../core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../core/types';

export interface RecallSet {
  failures: { id: string; command: string; output: string; cwd?: string }[];
  queries: { query: string; expect: string[]; kind?: string; split?: string }[];
}

export interface QueryResult {
  query: string;
  kind: string;
  split: string;
  expect: string[];
  /** 1-based rank of the best-placed expected failure; Infinity when not returned. */
  rank: number;
  top: string[];
  /** Score of the best expected failure, and of the best failure that is not expected. */
  hitScore: number;
  missScore: number;
}

export interface RecallReport {
  scorer: string;
  queries: number;
  top1: number;
  top3: number;
  mrr: number;
  byKind: Record<string, { queries: number; top1: number; top3: number }>;
  bySplit: Record<string, { queries: number; top1: number; top3: number; mrr: number }>;
  results: QueryResult[];
  /** Mean time per query, ms (including embedding the documents on the first query). */
  msPerQuery: number;
}

/** Records every failure of the set into a fresh memory; returns it and the approach key of each failure id. */
export function buildRecallMemory(set: RecallSet): { data: MemoryData; keyOf: Map<string, string>; idOf: Map<string, string> } {
  const data = emptyMemory();
  const redactor = createRedactor();
  const keyOf = new Map<string, string>();
  const idOf = new Map<string, string>();
  for (const f of set.failures) {
    const attempt = prepareAttempt({ command: f.command, cwd: f.cwd ?? '.', exitCode: 1, source: 'cli', output: f.output }, DEFAULT_SETTINGS, redactor);
    if (idOf.has(attempt.key)) throw new Error(`recall set: ${f.id} and ${idOf.get(attempt.key)} share the approach ${attempt.key}`);
    applyAttempt(data, attempt, DEFAULT_SETTINGS);
    keyOf.set(f.id, attempt.key);
    idOf.set(attempt.key, f.id);
  }
  return { data, keyOf, idOf };
}

export async function evaluateRecall(set: RecallSet, scorer: Scorer): Promise<RecallReport> {
  const { data, keyOf, idOf } = buildRecallMemory(set);
  const redactor = createRedactor();
  const results: QueryResult[] = [];
  const started = performance.now();
  for (const q of set.queries) {
    const hits = await recall(data, redactor.redact(q.query).text, set.failures.length, scorer);
    const expectKeys = new Set(q.expect.map(id => keyOf.get(id)));
    const rankIdx = hits.findIndex(h => expectKeys.has(h.key));
    results.push({
      query: q.query,
      kind: q.kind ?? 'query',
      split: q.split ?? 'all',
      expect: q.expect,
      rank: rankIdx < 0 ? Number.POSITIVE_INFINITY : rankIdx + 1,
      top: hits.slice(0, 3).map(h => idOf.get(h.key) ?? h.key),
      hitScore: rankIdx < 0 ? 0 : hits[rankIdx].score,
      missScore: hits.find(h => !expectKeys.has(h.key))?.score ?? 0,
    });
  }
  const msPerQuery = (performance.now() - started) / Math.max(1, set.queries.length);
  const share = (rs: QueryResult[], k: number) => rs.filter(r => r.rank <= k).length / Math.max(1, rs.length);
  const byKind: RecallReport['byKind'] = {};
  for (const kind of new Set(results.map(r => r.kind))) {
    const rs = results.filter(r => r.kind === kind);
    byKind[kind] = { queries: rs.length, top1: share(rs, 1), top3: share(rs, 3) };
  }
  const mrr = (rs: QueryResult[]) => rs.reduce((s, r) => s + (Number.isFinite(r.rank) ? 1 / r.rank : 0), 0) / Math.max(1, rs.length);
  const bySplit: RecallReport['bySplit'] = {};
  for (const split of new Set(results.map(r => r.split))) {
    const rs = results.filter(r => r.split === split);
    bySplit[split] = { queries: rs.length, top1: share(rs, 1), top3: share(rs, 3), mrr: mrr(rs) };
  }
  return {
    scorer: scorer.id,
    queries: results.length,
    top1: share(results, 1),
    top3: share(results, 3),
    mrr: mrr(results),
    byKind,
    bySplit,
    results,
    msPerQuery,
  };
}
