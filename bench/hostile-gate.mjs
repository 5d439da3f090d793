// node --import tsx bench/hostile-gate.mjs [--kb 100]
//
// The gate under hostile input: every 100 KB command-line shape of test/fixtures/hostileGate.ts
// through the pre hook, the approach key and the self-protection facts (slowest cases first), and a
// user redaction pattern over its budget ((.*a){100} on 2 MB of output). Prints Markdown for
// BENCHMARKS.md. Nothing here asserts a time.
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import { createRedactor } from '../src/core/text/redact.ts';

const kb = process.argv.includes('--kb') ? Number(process.argv[process.argv.indexOf('--kb') + 1]) : 100;
const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/hostileGate.ts', '--kb', String(kb)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (run.status !== 0) throw new Error(run.stderr);
const done = run.stdout.split('\n').filter(Boolean).map(l => JSON.parse(l)).filter(r => r.done).sort((a, b) => b.ms - a.ms);
console.log(`| Case (${kb} KB lines) | Time |`);
console.log('|---|---|');
for (const r of done.slice(0, 8)) console.log(`| ${r.done} | ${r.ms} ms |`);
console.log(`\n${done.length} cases; slowest ${done[0].ms} ms, median ${done[Math.floor(done.length / 2)].ms} ms.`);

const text = 'abcdefgh '.repeat(Math.ceil((2 * 1024 * 1024) / 9));
let why = '';
const t = performance.now();
const out = createRedactor(['(.*a){100}'], { onOverBudget: m => (why = m) }).redact(text);
console.log(`\n(.*a){100} on 2 MB of output: ${(performance.now() - t).toFixed(0)} ms, ${out.text.length} characters kept — ${why}`);
console.log(`${os.cpus().length} CPUs, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}, Node ${process.version}, ${new Date().toISOString()}`);
