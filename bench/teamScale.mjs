// The team database at scale: 250,000 attempts across 20 projects (one of them holding 147,000
// failures, as the largest project a team reported), seeded with SQL straight into the tables, spread
// over the last 180 days, with the vectors of every approach. Times the pull of the team view and team
// recall (words only, and words + vectors scored on the client), in the largest project and in a small
// one, and counts the temporary files PostgreSQL wrote (sorts spilled to disk) per pull.
// Used by bench/team.mjs (`node --import tsx bench/team.mjs --scale`). Nothing here asserts a time.
import { queryRows } from '../test/support/pgCluster.ts';
import { cloneWorkspace, machine } from '../test/support/teamWorkspace.ts';
import { createTeamEmbedder } from '../src/embeddings/index.ts';
import { vectorBytes } from '../src/store/team/database.ts';
import { time } from './timing.mjs';

const ROWS = 250_000;
const PROJECTS = 20;
const BIG = 147_000;

const WORDS = ['cannot', 'find', 'module', 'connection', 'refused', 'timeout', 'permission', 'denied', 'assertion', 'failed', 'expected', 'received',
  'undefined', 'null', 'reference', 'syntax', 'unexpected', 'token', 'heap', 'memory', 'linker', 'symbol', 'missing', 'port', 'allocated', 'schema',
  'migration', 'lock', 'deadlock', 'certificate', 'expired', 'network', 'unreachable', 'disk', 'full', 'quota', 'exceeded'];

/** Seeds the rows with one INSERT … SELECT per project (the server generates them). */
async function seed(url, projectOf) {
  const words = `ARRAY[${WORDS.map(w => `'${w}'`).join(',')}]`;
  for (let p = 0; p < PROJECTS; p++) {
    const n = p === 0 ? BIG : Math.floor((ROWS - BIG) / (PROJECTS - 1));
    const keys = p === 0 ? 400 : 300;
    await queryRows(url, `
      INSERT INTO fm_attempts (id, project, key, label, command, cwd, exit_code, outcome, source, machine, is_ci, error_signature, test_results, output, ended_at)
      SELECT 'scale-${p}-' || g, $1, '.::npm run task-' || (g * 7919 % ${keys}), 'npm run task-' || (g * 7919 % ${keys}), 'npm run task-' || (g * 7919 % ${keys}) || ' --flag ' || (g % 7), '.',
             CASE WHEN g % 50 = 0 THEN 0 ELSE 1 END, CASE WHEN g % 50 = 0 THEN 'success' ELSE 'failure' END, 'terminal', 'machine-' || (g % 30), g % 11 = 0,
             CASE WHEN g % 50 = 0 THEN '' ELSE 'Error: ' || (${words})[1 + g % ${WORDS.length}] || ' ' || (${words})[1 + (g / 7) % ${WORDS.length}] || ' in task-' || (g * 7919 % ${keys}) END,
             NULL, '', now() - make_interval(secs => (g::float8 / ${n}) * 180 * 86400)
      FROM generate_series(1, ${n}) g`, [projectOf(p)]);
  }
  await queryRows(url, 'ANALYZE');
}

/** One vector per approach (its latest failure's label and error), as the push stores them. */
async function seedVectors(url) {
  const embedder = createTeamEmbedder();
  const rows = await queryRows(url, `SELECT DISTINCT ON (project, key) project, key, label || E'\\n' || error_signature AS text, ended_at
                                     FROM fm_attempts WHERE outcome = 'failure' ORDER BY project, key, ended_at DESC`);
  const vectors = await embedder.embed(rows.map(r => r.text));
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500).map((r, j) => ({ project: r.project, ref: r.key, vec: vectorBytes(vectors[i + j]).toString('base64'), at: r.ended_at }));
    await queryRows(url, `INSERT INTO fm_embeddings (project, kind, ref, model, dim, vec, at)
      SELECT x.project, 'attempt', x.ref, $1, $2, decode(x.vec, 'base64'), x.at FROM jsonb_to_recordset($3::jsonb) AS x(project text, ref text, vec text, at timestamptz)
      ON CONFLICT DO NOTHING`, [embedder.id, embedder.dim, JSON.stringify(batch)]);
  }
  return rows.length;
}

async function tempFiles(url) {
  const [r] = await queryRows(url, 'SELECT temp_files::int AS n, temp_bytes::bigint AS b FROM pg_stat_database WHERE datname = current_database()');
  return { n: Number(r.n), b: Number(r.b) };
}

/** Runs the scale measures on a started cluster; returns the table rows (markdown). */
export async function teamScale(pg, ms) {
  const origin = i => `git@github.com:acme/scale-${i}.git`;
  const big = machine(cloneWorkspace(origin(0), 'fm-bench-scale-'), pg.url, 'scale-big');
  const small = machine(cloneWorkspace(origin(7), 'fm-bench-scale-'), pg.url, 'scale-small');
  const words = machine(cloneWorkspace(origin(0), 'fm-bench-scale-'), pg.url, 'scale-words', {}, undefined, { embedder: false });
  try {
    await big.team.db.ping(); // the schema, as this version makes it
    const projectOf = p => (p === 0 ? big.team.project : p === 7 ? small.team.project : `github.com/acme/scale-${p}`);
    const s0 = performance.now();
    await seed(pg.url, projectOf);
    const vectors = await seedVectors(pg.url);
    const seedMs = performance.now() - s0;
    const [{ n }] = await queryRows(pg.url, 'SELECT count(*)::int AS n FROM fm_attempts');
    const rows = [];
    for (const [name, m] of [[`largest project (${BIG.toLocaleString('en')} attempts)`, big], [`a small project (${Math.floor((ROWS - BIG) / (PROJECTS - 1)).toLocaleString('en')} attempts)`, small]]) {
      const before = await tempFiles(pg.url);
      const pull = await time(() => m.team.pull(), 10, 2);
      const after = await tempFiles(pg.url);
      const view = (await m.team.view()).view;
      const approaches = Object.keys(view?.approaches ?? {}).length;
      const open = Object.values(view?.approaches ?? {}).reduce((s, a) => s + a.failures, 0);
      rows.push(`| pull of the team view, ${name} | median **${ms(pull.median)}**, p95 ${ms(pull.p95)}; ${approaches} approaches, ${open.toLocaleString('en')} open failures counted; ${after.n - before.n} temporary files (${((after.b - before.b) / 1048576).toFixed(1)} MB spilled) in 12 pulls |`);
    }
    const query = 'the package could not be resolved: cannot find module';
    const wordsOnly = await time(() => words.team.recall(query, 5), 10, 2);
    const fused = await time(() => big.team.recall(query, 5), 10, 2);
    const smallFused = await time(() => small.team.recall(query, 5), 10, 2);
    const top = await big.team.recall(query, 5);
    rows.push(`| team recall \`${query}\`, largest project: words only / words + vectors scored on the client | median **${ms(wordsOnly.median)}** / **${ms(fused.median)}**, p95 ${ms(wordsOnly.p95)} / ${ms(fused.p95)}; ${top.scoring.candidates} candidates compared |`);
    rows.push(`| team recall, a small project: words + vectors | median **${ms(smallFused.median)}**, p95 ${ms(smallFused.p95)} |`);
    return { rows, setup: `${n.toLocaleString('en')} attempts in ${PROJECTS} projects and ${vectors.toLocaleString('en')} approach vectors, seeded in ${(seedMs / 1000).toFixed(1)} s` };
  } finally {
    await Promise.all([big, small, words].map(m => m.team.close()));
  }
}
