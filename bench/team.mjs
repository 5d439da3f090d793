// npm run bench:team  (= npm run build && node --import tsx bench/team.mjs [--machines 50] [--records 200])
//
// Team memory against one throwaway PostgreSQL server (initdb + pg_ctl on 127.0.0.1, as the tests do):
//  - N machines (workspace clones with their own outbox) × M failures each, recorded locally, then
//    pushed by all machines at once: push throughput (rows/s), and one machine's push on its own
//  - pull latency of the team view once the server holds N × M attempts
//  - `check` latency with team memory on (cached team view merged) and off, through WorkspaceMemory
//    and through the CLI (dist/cli.js, a fresh process per call), also with the server stopped
//  - team recall latency: full-text only (as before vectors) and fused with vectors scored on the
//    client (this server has no pgvector), on the N × M records and on 10,000 distinct failures
// Writes between the team-bench markers of BENCHMARKS.md. Nothing here asserts a time.
// --scale: only the database at scale (bench/teamScale.mjs: 250,000 attempts across 20 projects),
// written between the team-scale markers.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECALL_CLIENT_VECTORS } from '../src/store/team/database.ts';
import { WorkspaceMemory } from '../src/app/workspaceMemory.ts';
import { startCluster } from '../test/support/pgCluster.ts';
import { cloneWorkspace, machine } from '../test/support/teamWorkspace.ts';
import { teamScale } from './teamScale.mjs';
import { medianP95, time } from './timing.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, def) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : def);
const MACHINES = arg('machines', 50);
const RECORDS = arg('records', 200);
const APPROACHES = 40;

const out = [];
const line = s => {
  out.push(s);
  console.log(s);
};
const ms = x => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : x < 100 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);

/** Times fns in turn (a, b, a, b…) so that a load change on a shared machine hits both alike. */
async function interleaved(fns, runs, warmup = 3) {
  for (let i = 0; i < warmup; i++) for (const f of fns) await f(i);
  const t = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < fns.length; j++) {
      const s = performance.now();
      await fns[j](i);
      t[j].push(performance.now() - s);
    }
  }
  return t.map(medianP95);
}


if (args.includes('--scale')) {
  const pg = await startCluster();
  try {
    const { rows, setup } = await teamScale(pg, ms);
    const label = args.includes('--label') ? args[args.indexOf('--label') + 1] : 'this version';
    line(`#### ${label}: ${setup}; load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}, ${new Date().toISOString().slice(0, 10)}`);
    line('');
    line('| measure | result |');
    line('|---|---|');
    for (const r of rows) line(r);
  } finally {
    await pg.remove();
  }
  if (!args.includes('--print')) writeBlock('team-scale', out.join('\n'), 'Team memory at scale');
  process.exit(0);
}

/** Replaces the text between a bench's markers in BENCHMARKS.md (appends a section when they are missing). */
function writeBlock(name, text, heading) {
  const md = path.join(root, 'BENCHMARKS.md');
  const start = `<!-- ${name}:start (written by node --import tsx bench/team.mjs${name === 'team-scale' ? ' --scale' : ''}) -->`;
  const end = `<!-- ${name}:end -->`;
  let doc = fs.readFileSync(md, 'utf8');
  const block = `${start}\n${text}\n${end}`;
  if (doc.includes(start) && doc.includes(end)) doc = doc.slice(0, doc.indexOf(start)) + block + doc.slice(doc.indexOf(end) + end.length);
  else doc = `${doc.trimEnd()}\n\n## ${heading}\n\n${block}\n`;
  fs.writeFileSync(md, doc);
  console.log(`\nwritten to ${md}`);
}

const commands = Array.from({ length: APPROACHES }, (_, i) => [`npm run build:pkg${i}`, `Error: Cannot find module 'dep${i}'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n`]);

const pg = await startCluster();
const origin = 'git@github.com:acme/bench.git';
const machines = [];
try {
  const t0 = performance.now();
  for (let m = 0; m < MACHINES; m++) machines.push(machine(cloneWorkspace(origin, 'fm-bench-team-'), pg.url, `machine-${m}`));
  // fill each machine's outbox through the real record path (local memory + outbox), not timed as push
  const recordTimes = [];
  await Promise.all(
    machines.map(async (mc, m) => {
      for (let r = 0; r < RECORDS; r++) {
        const [command, output] = commands[(m + r) % APPROACHES];
        const s = performance.now();
        await mc.memory.record({ command, exitCode: 1, output, source: m % 10 === 0 ? 'cli' : 'terminal' });
        recordTimes.push(performance.now() - s);
      }
    }),
  );
  recordTimes.sort((a, b) => a - b);
  const setup = performance.now() - t0;
  const total = MACHINES * RECORDS;

  const snapshot = await machines[0].team.outbox.readAll();
  // all machines push at once, each on its own connection
  const p0 = performance.now();
  const results = await Promise.all(machines.map(mc => mc.team.push()));
  const pushMs = performance.now() - p0;
  const failed = results.filter(r => r.error);
  const failedWhy = [...new Set(failed.map(r => r.error.code))].join(', ');
  let inserted = results.reduce((s, r) => s + r.inserted, 0);
  // a machine that could not connect (timeout under load) simply pushes again later
  const retried = await Promise.all(machines.filter((_, i) => results[i].error).map(mc => mc.team.push()));
  inserted += retried.reduce((s, r) => s + r.inserted, 0);
  const stillFailing = retried.filter(r => r.error).length;

  // a retry of everything (as after a lost acknowledgement): nothing inserted twice
  const r0 = performance.now();
  const dup = await machines[0].team.db.push(machines[0].team.project, snapshot);
  const retryMs = performance.now() - r0;

  // one machine alone: 200 more records pushed
  const solo = machine(cloneWorkspace(origin, 'fm-bench-team-'), pg.url, 'solo');
  for (let r = 0; r < RECORDS; r++) await solo.memory.record({ command: commands[r % APPROACHES][0], exitCode: 1, output: commands[r % APPROACHES][1], source: 'terminal' });
  const s0 = performance.now();
  const soloR = await solo.team.push();
  const soloMs = performance.now() - s0;

  // pull latency with N × M (+ M) attempts on the server
  const pull = await time(() => machines[1].team.pull(machines[1].memory.store), 20, 3);
  const view = (await machines[1].team.view()).view;

  // check latency: the same workspace with team memory on (view cached) and off
  const ws = machines[1].ws;
  const plain = new WorkspaceMemory(ws);
  const cmd = commands[3][0];
  const [checkOff, checkOn] = await interleaved([() => plain.check(cmd), () => machines[1].memory.check(cmd)], 300, 20);
  const c = await machines[1].memory.check(cmd);

  // the CLI (a fresh process per call, as a hook runs it)
  const cli = path.join(root, 'dist/cli.js');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && !k.startsWith('FAILURE_MEMORY')));
  const runCli = extra => () => {
    const r = spawnSync(process.execPath, [cli, 'check', '--command', cmd, '--workspace', ws, '--json'], { env: { ...env, ...extra }, encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 2) throw new Error(r.stderr);
  };
  const teamEnv = { FAILURE_MEMORY_DATABASE_URL: pg.urlWithoutPassword, PGPASSWORD: pg.password };
  const [cliOff, cliOn] = await interleaved([runCli({}), runCli(teamEnv)], 20, 2);
  // team recall: words only (the state before vectors) and words + vectors scored on this client
  const recallQuery = 'the package dep7 could not be resolved';
  const wordsOnly = machine(cloneWorkspace(origin, 'fm-bench-team-'), pg.url, 'recall-words', {}, undefined, { embedder: false });
  const [recallWords, recallClient] = await interleaved([() => wordsOnly.team.recall(recallQuery, 5), () => machines[2].team.recall(recallQuery, 5)], 30, 3);
  const rWords = await wordsOnly.team.recall(recallQuery, 5);
  const rClient = await machines[2].team.recall(recallQuery, 5);
  // 10,000 distinct failures in another project: the client compares at most RECALL_CLIENT_VECTORS of them
  const DISTINCT = MACHINES * RECORDS;
  const big = machine(cloneWorkspace('git@github.com:acme/bench-distinct.git', 'fm-bench-team-'), pg.url, 'distinct');
  const bigWords = machine(cloneWorkspace('git@github.com:acme/bench-distinct.git', 'fm-bench-team-'), pg.url, 'distinct-words', {}, undefined, { embedder: false });
  const kinds = ['Cannot find module', 'ECONNREFUSED 127.0.0.1', 'permission denied, open', 'heap out of memory in', 'linker not found for', 'port already allocated by', 'assertion failed in', 'timed out after 30000 ms in'];
  const now = Date.now();
  const entries = Array.from({ length: DISTINCT }, (_, i) => {
    const at = new Date(now - (DISTINCT - i) * 1000).toISOString();
    const command = `npm run task-${i}`;
    return {
      kind: 'attempt', id: `bench-distinct-${i}`, queuedAt: at, machine: `machine-${i % MACHINES}`, ci: false,
      attempt: { id: `bench-distinct-${i}`, key: `k${i}`, label: command, command, cwd: '.', exitCode: 1, outcome: 'failure', source: 'terminal', errorSignature: `Error: ${kinds[i % kinds.length]} part-${i}`, testResults: null, output: '', endedAt: at },
    };
  });
  await big.team.outbox.append(entries);
  const b0 = performance.now();
  const bigPush = await big.team.push();
  const bigPushMs = performance.now() - b0;
  const bigQuery = 'the database server refused the connection';
  const [bigRecallWords, bigRecallClient] = await interleaved([() => bigWords.team.recall(bigQuery, 5), () => big.team.recall(bigQuery, 5)], 20, 2);
  const rBig = await big.team.recall(bigQuery, 5);
  await Promise.all([wordsOnly, big, bigWords].map(x => x.team.close()));

  await pg.stop();
  const [checkOff2, checkDown] = await interleaved([() => plain.check(cmd), () => machines[1].memory.check(cmd)], 300, 20);
  const [cliOff2, cliDown] = await interleaved([runCli({}), runCli(teamEnv)], 20, 2);

  line(`### Team memory on PostgreSQL: ${MACHINES} machines × ${RECORDS} records against one server`);
  line('');
  line(`${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, PostgreSQL from /usr/lib/postgresql (local cluster on 127.0.0.1, fsync off), ${new Date().toISOString().slice(0, 10)}. Machines are separate workspace folders with their own outbox and connection in one process; ${APPROACHES} approaches shared by all. \`node --import tsx bench/team.mjs\`.`);
  line('');
  line('| measure | result |');
  line('|---|---|');
  line(`| local record (memory.json + outbox append), ${total} records, ${MACHINES} writers | median ${ms(recordTimes[Math.floor(recordTimes.length / 2)])}, p95 ${ms(recordTimes[Math.floor(recordTimes.length * 0.95)])} (setup ${(setup / 1000).toFixed(1)} s) |`);
  line(`| push, all ${MACHINES} machines at once (${total} records) | **${(total / (pushMs / 1000)).toFixed(0)} records/s** (${(pushMs / 1000).toFixed(2)} s), ${failed.length ? `${failed.length} machines could not connect in time (${failedWhy}) and pushed again: ${stillFailing} still failing; ` : ''}${inserted} rows in all |`);
  line(`| push, one machine alone (${RECORDS} records, one batch) | ${ms(soloMs)} (${(soloR.pushed / (soloMs / 1000)).toFixed(0)} records/s) |`);
  line(`| retry of ${snapshot.length} already stored records (lost acknowledgement) | ${dup} inserted, ${ms(retryMs)} |`);
  line(`| pull of the team view (${total + RECORDS} attempts on the server, ${Object.keys(view?.approaches ?? {}).length} approaches) | median **${ms(pull.median)}**, p95 ${ms(pull.p95)} |`);
  line(`| \`check\` through WorkspaceMemory, team memory **off** | median ${ms(checkOff.median)}, p95 ${ms(checkOff.p95)} |`);
  line(`| \`check\` through WorkspaceMemory, team memory **on** (cached view: ${c.team?.summary ?? 'none'}) | median ${ms(checkOn.median)}, p95 ${ms(checkOn.p95)} |`);
  line(`| \`check\` through WorkspaceMemory, **server stopped**: off / on | median ${ms(checkOff2.median)} / ${ms(checkDown.median)}, p95 ${ms(checkOff2.p95)} / ${ms(checkDown.p95)} |`);
  line(`| \`failure-memory check --json\` (fresh process), team memory off | median ${ms(cliOff.median)}, p95 ${ms(cliOff.p95)} |`);
  line(`| \`failure-memory check --json\` (fresh process), team memory on | median ${ms(cliOn.median)}, p95 ${ms(cliOn.p95)} |`);
  line(`| \`failure-memory check --json\` (fresh process), **server stopped**: off / on | median ${ms(cliOff2.median)} / ${ms(cliDown.median)}, p95 ${ms(cliOff2.p95)} / ${ms(cliDown.p95)} |`);
  const top = r => (r.hits[0] ? `\`${r.hits[0].text.split('\n')[1] ?? r.hits[0].text}\` (score ${r.hits[0].score})` : 'nothing');
  line(`| team recall \`${recallQuery}\`, ${Object.keys(view?.approaches ?? {}).length} approaches: words only (before) / words + vectors scored on the client (${rClient.scoring.candidates} candidates) | median ${ms(recallWords.median)} / **${ms(recallClient.median)}**, p95 ${ms(recallWords.p95)} / ${ms(recallClient.p95)}; first hit ${top(rWords)} / ${top(rClient)} |`);
  line(`| push of ${DISTINCT} distinct failures (one machine, vectors computed in the push) | ${(DISTINCT / (bigPushMs / 1000)).toFixed(0)} records/s (${(bigPushMs / 1000).toFixed(2)} s)${bigPush.error ? `, error: ${bigPush.error.code}` : ''} |`);
  line(`| team recall \`${bigQuery}\` over ${DISTINCT} distinct failures: words only (before) / words + vectors scored on the client (${rBig.scoring.candidates} compared: the 50 nearest of the ${RECALL_CLIENT_VECTORS} most recent vectors, and the full-text matches) | median ${ms(bigRecallWords.median)} / **${ms(bigRecallClient.median)}**, p95 ${ms(bigRecallWords.p95)} / ${ms(bigRecallClient.p95)}; first hit (vectors) ${top(rBig)} |`);
  line('');
  line('Team recall is not a hot path (`recall --team`, one query at a time); `check` and the guard never call it. Without pgvector the client fetches at most the project\'s 1,000 most recent vectors of its embedder (float32 bytes) plus those of the full-text matches, keeps the 50 nearest and fuses them with the full-text matches; with pgvector the server returns the 50 nearest of all instead (not measured here: Debian bookworm has no pgvector package).');
  line('');
  line('Off and on are timed in turn (off, on, off, on…) so that the load of a shared machine hits both alike. `check` never waits for the network: with team memory on it reads memory.json, team-view.json and the outbox (to say how many records wait); with the server stopped it answers in the same time.');
  line('');
  await solo.team.close();
} finally {
  await Promise.all(machines.map(m => m.team.close()));
  await pg.remove();
  for (const m of machines) fs.rmSync(m.ws, { recursive: true, force: true });
}

writeBlock('team-bench', out.join('\n'), 'Team memory (issue 16)');
