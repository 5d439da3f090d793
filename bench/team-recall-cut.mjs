// Where team recall stops calling a hit similar (TEAM_RECALL_MIN_SCORE): measured on the two labelled
// recall sets (test/fixtures/recall-set.json, bench/recall-families.json). Each failure becomes a
// team document as the push shares it (label and error signature, its offline vector), and every
// query is scored with team recall's fused scorer twice: with its expected failure among the
// documents (the score of that hit) and with it left out (the best score of an unrelated document:
// what a "nothing similar" answer must drop). Prints, per cut, how many right hits stay and how many
// unrelated best hits go. No database: the scores are the client's (the database only picks candidates).
//   node --import tsx bench/team-recall-cut.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTeamEmbedder, createTeamRecallScorer } from '../src/embeddings/index.ts';
import { buildRecallMemory } from '../src/embeddings/recallEval.ts';
import { teamDocument } from '../src/store/team/teamMemory.ts';
import { TEAM_RECALL_MIN_SCORE } from '../src/store/team/teamMemory.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sets = [
  ['recall-set', JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/recall-set.json'), 'utf8'))],
  ['recall-families', JSON.parse(fs.readFileSync(path.join(root, 'bench/recall-families.json'), 'utf8'))],
];
const embedder = createTeamEmbedder();
const hits = [];
const unrelated = [];
for (const [name, set] of sets) {
  const { data, keyOf } = buildRecallMemory(set);
  const docs = Object.values(data.approaches).map(a => ({ key: a.key, text: teamDocument(a.label, a.lastErrorSignature) }));
  const vectors = new Map();
  const embedded = await embedder.embed(docs.map(d => d.text));
  docs.forEach((d, i) => vectors.set(d.text, embedded[i]));
  const scorer = createTeamRecallScorer(embedder, vectors);
  for (const q of set.queries) {
    const expected = new Set(q.expect.map(id => keyOf.get(id)));
    const all = await scorer.score(q.query, docs.map(d => d.text));
    hits.push({ set: name, score: Math.max(...docs.map((d, i) => (expected.has(d.key) ? all[i] : 0))) });
    const others = docs.filter(d => !expected.has(d.key));
    const rest = await scorer.score(q.query, others.map(d => d.text));
    unrelated.push({ set: name, score: Math.max(0, ...rest) });
  }
}
const pct = (n, d) => `${((100 * n) / d).toFixed(0)}%`;
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))].toFixed(3);
console.log(`${hits.length} queries of ${sets.map(([n, s]) => `${n} (${s.queries.length})`).join(' and ')}; the shipped cut is ${TEAM_RECALL_MIN_SCORE}.`);
console.log('');
console.log(`Scores of the expected failure: min ${q(hits.map(h => h.score), 0)}, 10th percentile ${q(hits.map(h => h.score), 0.1)}, median ${q(hits.map(h => h.score), 0.5)}.`);
console.log(`Best score of an unrelated failure (expected one left out): median ${q(unrelated.map(h => h.score), 0.5)}, 90th percentile ${q(unrelated.map(h => h.score), 0.9)}, max ${q(unrelated.map(h => h.score), 1)}.`);
console.log('');
console.log('| cut | expected hits kept | unrelated best hits dropped ("nothing similar") |');
console.log('|---:|---:|---:|');
for (const cut of [0, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3]) {
  const kept = hits.filter(h => h.score >= cut).length;
  const dropped = unrelated.filter(h => h.score < cut).length;
  console.log(`| ${cut === TEAM_RECALL_MIN_SCORE ? `**${cut}**` : cut} | ${kept}/${hits.length} (${pct(kept, hits.length)}) | ${dropped}/${unrelated.length} (${pct(dropped, unrelated.length)}) |`);
}
