// Recall on reworded error families: a past failure and a differently worded error of the
// same kind (TS2322 vs an earlier TS2345, "Cannot use import statement outside a module" vs
// ERR_REQUIRE_ESM, "Disk quota exceeded" vs ENOSPC, psql "could not connect" vs ECONNREFUSED…).
// The other failures of the set are the distractors. Prints a markdown table (and misses with --misses).
//   node --import tsx bench/recall-families.mjs [--misses]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicalScorer } from '../src/core/recall.ts';
import { createOfflineScorer } from '../src/embeddings/index.ts';
import { evaluateRecall } from '../src/embeddings/recallEval.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const set = JSON.parse(fs.readFileSync(path.join(root, 'bench/recall-families.json'), 'utf8'));
const misses = process.argv.includes('--misses');
const splits = [...new Set(set.queries.map(q => q.split ?? 'all'))];

console.log(`${set.failures.length} past failures, ${set.queries.length} reworded queries (${splits.map(s => `${set.queries.filter(q => (q.split ?? 'all') === s).length} ${s}`).join(', ')}).`);
console.log('');
console.log(`| scorer | top-1 | top-3 | MRR | ${splits.map(s => `${s} top-1`).join(' | ')} |`);
console.log(`|---|---|---|---|${splits.map(() => '---').join('|')}|`);
for (const [name, scorer] of [['lexical TF-IDF', lexicalScorer], ['TF-IDF ⊕ offline embedder (shipped)', createOfflineScorer()]]) {
  const r = await evaluateRecall(set, scorer);
  const hits = k => r.results.filter(x => x.rank <= k).length;
  console.log(`| ${name} | ${r.top1.toFixed(3)} (${hits(1)}/${r.queries}) | ${r.top3.toFixed(3)} | ${r.mrr.toFixed(3)} | ${splits.map(s => r.bySplit[s].top1.toFixed(3)).join(' | ')} |`);
  if (misses) for (const x of r.results.filter(x => x.rank !== 1)) console.error(`  miss (${name}): [${x.kind}] rank ${x.rank} — got ${x.top.join(', ')} — ${x.query.slice(0, 90)}`);
}
