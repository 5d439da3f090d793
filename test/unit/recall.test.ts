import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLexicalScorer, lexicalFeatures } from '../../src/core/recall';

/** The TF-IDF cosine computed the plain way, document by document, with nothing kept between calls. */
function reference(query: string, documents: readonly string[]): number[] {
  const docs = documents.map(lexicalFeatures);
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
  const q = weigh(lexicalFeatures(query));
  return docs.map(d => {
    const dv = weigh(d);
    let dot = 0;
    for (const [t, w] of q.v) dot += w * (dv.v.get(t) ?? 0);
    return dot / (q.norm * dv.norm);
  });
}

const DOCS = [
  "python train.py\nModuleNotFoundError: No module named 'numpy'",
  'npm start\nError: listen EADDRINUSE: address already in use :::3000',
  "tsc -p .\nsrc/a.ts(3,7): error TS2307: Cannot find module 'lib7' or its corresponding type declarations.",
  'cargo build\nerror[E0425]: cannot find value `v` in this scope',
  'prisma generate\nError: Cannot find module @prisma/client',
];

describe('lexical scorer: the index kept between queries', () => {
  test('gives the scores of comparing the query with each document in turn', () => {
    const scorer = createLexicalScorer();
    for (const query of ['No module named numpy', 'cannot find module lib7', 'address already in use 3000', 'something else entirely', '']) {
      assert.deepEqual(scorer.score(query, DOCS), reference(query, DOCS), query);
    }
  });

  test('follows the documents when they change: added, removed, edited, reordered', async () => {
    const scorer = createLexicalScorer();
    const query = 'Cannot find module prisma client';
    const versions = [
      DOCS,
      [...DOCS, 'go test ./...\n--- FAIL: TestPrismaClient (0.00s) cannot find module'],
      DOCS.slice(1),
      DOCS.map((d, i) => (i === 4 ? 'prisma generate\nError: P1001 cannot reach database' : d)),
      [...DOCS].reverse(),
      [],
    ];
    for (const docs of versions) assert.deepEqual(await scorer.score(query, docs), reference(query, docs), JSON.stringify(docs.length));
  });

  test('a caller that changes its array after a query is not served stale scores', () => {
    const scorer = createLexicalScorer();
    const docs = [...DOCS];
    const before = scorer.score('numpy', docs) as number[];
    assert.ok(before[0] > 0);
    docs[0] = 'npm test\nTests: 1 failed, 1 total';
    assert.deepEqual(scorer.score('numpy', docs), reference('numpy', docs));
    assert.equal((scorer.score('numpy', docs) as number[])[0], 0);
  });
});
