// node esbuild.mjs && node --import tsx bench/hook-bench.mjs [--runs 20]
//
// What an agent's hook costs per tool call: `failure-memory hook claude pre` (dist/hook.js, as the
// launcher runs it) on a memory of 200 approaches, timed against `node -e 0` in the same run,
// alternately (A B A B …), each a fresh process fed the hook JSON on stdin; the ratio is taken pair
// by pair and its median reported, so a machine whose speed drifts still compares fairly.
// Also: the same hook through the full CLI (dist/cli.js hook …), `check` as the old hook scripts ran
// it, a non-terminal tool, a post (record) and a session-start. Writes between the hook-bench
// markers of BENCHMARKS.md. Nothing here asserts a time.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
const HOOK = path.join(root, 'dist/hook.js');
const CLI = path.join(root, 'dist/cli.js');
if (!fs.existsSync(HOOK)) throw new Error('dist/hook.js is missing: node esbuild.mjs first');

// a workspace with 200 approaches (40 exhausted, the rest failing), realistic outputs
const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fm-hook-bench-')));
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-hook-bench-cache-'));
const settings = { ...DEFAULT_SETTINGS };
const redactor = createRedactor();
const data = emptyMemory();
const errors = [
  i => `Error: Cannot find module '@scope/pkg${i}'\nRequire stack:\n- /app/src/index${i}.js`,
  i => `src/file${i}.ts(${i},5): error TS2322: Type 'string' is not assignable to type 'number'.`,
  i => `FAIL src/test${i}.spec.ts\n  ● adds ${i}\n    expect(received).toBe(expected)\nTests:       ${i % 9 + 1} failed, 40 passed, ${i % 9 + 41} total`,
  i => `npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/pkg-${i}`,
];
let t = Date.UTC(2026, 0, 1);
for (let a = 0; a < 200; a++) {
  const n = a < 40 ? 5 : 1 + (a % 4);
  for (let k = 0; k < n; k++) {
    const output = `${'building…\n'.repeat(30)}${errors[a % errors.length](a)}\n`;
    applyAttempt(data, prepareAttempt({ command: `tool${a} run --step ${k}`, cwd: a % 3 ? '.' : `pkg${a % 5}`, exitCode: 1, source: 'agent', output }, settings, redactor, new Date((t += 1000))), settings);
  }
}
fs.mkdirSync(path.join(ws, '.vscode/failure-memory'), { recursive: true });
const memoryFile = path.join(ws, '.vscode/failure-memory/memory.json');
fs.writeFileSync(memoryFile, JSON.stringify(data));
const approaches = Object.keys(data.approaches).length;
const exhausted = Object.values(data.approaches).filter(a => a.status === 'exhausted').length;

const payload = (command, tool = 'Bash') => JSON.stringify({ session_id: 'b', transcript_path: '/tmp/t.jsonl', cwd: ws, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: tool === 'Bash' ? { command } : { file_path: 'x' }, tool_use_id: 't' });
const env = { ...process.env, CLAUDE_PROJECT_DIR: ws, FAILURE_MEMORY_CACHE_DIR: cache };

// CPU time (user + system) of the child from GNU time when it is there: on a busy shared machine
// wall time mostly measures the queue for a core, CPU time what the process itself costs.
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find(f => fs.existsSync(f));
const timeFile = path.join(cache, 'time.txt');
function once(args, input) {
  const t0 = process.hrtime.bigint();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', timeFile, process.execPath, ...args], { input, env, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  let cpu = NaN;
  if (GNU_TIME) {
    const [u, sys] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    cpu = (u + sys) * 1000;
  }
  return { ms, cpu, status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const median = xs => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A against `node -e 0`, alternately; the median of A, of B and of the pairwise ratio. */
function versus(name, args, input, check) {
  const first = once(args, input); // warm-up (also writes the code cache)
  if (check) check(first);
  once(['-e', '0'], input);
  const a = [];
  const b = [];
  const ratio = [];
  const ca = [];
  const cb = [];
  const cratio = [];
  for (let i = 0; i < runs; i++) {
    const x = once(args, input);
    const y = once(['-e', '0'], input);
    a.push(x.ms);
    b.push(y.ms);
    ratio.push(x.ms / y.ms);
    ca.push(x.cpu);
    cb.push(y.cpu);
    if (y.cpu > 0) cratio.push(x.cpu / y.cpu);
  }
  return { name, a: median(a), b: median(b), ratio: median(ratio), min: Math.min(...ratio), max: Math.max(...ratio), ca: median(ca), cb: median(cb), cratio: cratio.length ? median(cratio) : NaN };
}

const deny = r => {
  if (r.status !== 0 || !/"permissionDecision":"deny"/.test(r.stdout)) throw new Error(`expected a deny: ${r.status} ${r.stdout} ${r.stderr}`);
};
const allow = r => {
  if (r.status !== 0 || r.stdout !== '') throw new Error(`expected no opinion: ${r.status} ${r.stdout} ${r.stderr}`);
};
const blocked = 'tool1 run --step 9';
const rows = [
  versus('`hook claude pre`, an exhausted approach (deny) — dist/hook.js', [HOOK, 'hook', 'claude', 'pre'], payload(blocked), deny),
  versus('`hook claude pre`, a command never seen (allow) — dist/hook.js', [HOOK, 'hook', 'claude', 'pre'], payload('make lint'), allow),
  versus('`hook claude pre`, a non-terminal tool (answered at once) — dist/hook.js', [HOOK, 'hook', 'claude', 'pre'], payload('', 'Write'), allow),
  versus('`hook claude session-start` (summary into the context) — dist/hook.js', [HOOK, 'hook', 'claude', 'session-start'], JSON.stringify({ hook_event_name: 'SessionStart', cwd: ws, source: 'startup' })),
  versus('`hook claude pre` (deny) through the full CLI — dist/cli.js', [CLI, 'hook', 'claude', 'pre'], payload(blocked), deny),
  versus('before: `check` as the old hook script ran it — dist/cli.js', [CLI, 'check', '--command', blocked, '--workspace', ws], ''),
];
// post writes: a fresh copy of the memory each time would dominate; this times recording into it
const post = versus('`hook claude post` (records a failure) — dist/hook.js + dist/hook-record.js', [HOOK, 'hook', 'claude', 'post'], JSON.stringify({ hook_event_name: 'PostToolUseFailure', cwd: ws, tool_name: 'Bash', tool_input: { command: 'tool999 build' }, error: 'Exit code 1\nerror: boom' }));
rows.push(post);

const f = v => v.toFixed(0);
const table = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${os.platform()} ${os.release()}, Node ${process.version}, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}; ${new Date().toISOString().slice(0, 10)}.`,
  `Memory: ${approaches} approaches (${exhausted} exhausted), memory.json ${(fs.statSync(memoryFile).size / 1024).toFixed(0)} KB. ${runs} pairs per row after a warm-up, each a whole process with the hook JSON on stdin; CPU = user + system time of the process (GNU time), the figure to read on a busy machine.`,
  '',
  '| Hook call | wall ms (median) | `node -e 0` wall ms | wall ratio (median of pairs, min–max) | CPU ms (median) | `node -e 0` CPU ms | **CPU ratio** (median of pairs) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(r => `| ${r.name} | ${f(r.a)} | ${f(r.b)} | ${r.ratio.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${f(r.ca)} | ${f(r.cb)} | **${r.cratio.toFixed(2)}×** |`),
].join('\n');
console.log(table);

const file = path.join(root, 'BENCHMARKS.md');
const start = '<!-- hook-bench:start (written by node --import tsx bench/hook-bench.mjs) -->';
const end = '<!-- hook-bench:end -->';
let md = fs.readFileSync(file, 'utf8');
const section = `${start}\n${table}\n${end}`;
if (md.includes(start)) md = md.replace(new RegExp(`${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
else md += `\n## Agent hooks (issue 11): the cost of a hook per tool call\n\n${section}\n`;
fs.writeFileSync(file, md);
fs.rmSync(ws, { recursive: true, force: true });
fs.rmSync(cache, { recursive: true, force: true });
