// node esbuild.mjs && node --import tsx bench/hook-team-bench.mjs [--runs 20]
//
// What team memory adds to an agent's hook: the hook exactly as setup-agents writes it (`sh -c
// '<hookCommand>'`: the launcher in ~/.failure-memory/bin, then dist/hook.js), the Claude Code JSON on
// stdin, in two clones of one repository with the same memory (200 approaches): team memory off
// (the default), and on with a team view of 300 approaches cached. Every row is timed against
// `node -e 0` alternately, pair by pair (the ratio's median), as bench/hook-bench.mjs does.
// Team on, the post hook either finds a background sync running (a burst: it only queues the record)
// or starts one (the first record of a burst: the detached dist/team-sync.js; the hook does not wait
// for it, and the next pair waits until it ended so that it does not load the machine meanwhile).
// The database named is 127.0.0.1:9 (nothing listens): no row waits on a network. Writes between the
// hook-team-bench markers of BENCHMARKS.md. Nothing here asserts a time.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLauncher } from '../src/agents/launcher.ts';
import { hookCommand } from '../src/agents/setup.ts';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
const DIST = path.join(root, 'dist');
if (!fs.existsSync(path.join(DIST, 'team-sync.js'))) throw new Error('dist/ is missing: node esbuild.mjs first');

const tmp = fs.realpathSync(os.tmpdir());
const home = fs.mkdtempSync(path.join(tmp, 'fm-hook-team-home-'));
installLauncher({ dist: DIST, node: process.execPath, version: 'bench', writer: 'bench/hook-team-bench.mjs' }, path.join(home, '.failure-memory', 'bin'));

// the memory both clones hold: 200 approaches, 40 exhausted
const settings = { ...DEFAULT_SETTINGS };
const data = emptyMemory();
let t = Date.now() - 3 * 86400_000;
for (let a = 0; a < 200; a++) {
  for (let k = 0; k < (a < 40 ? 5 : 1 + (a % 4)); k++) {
    applyAttempt(data, prepareAttempt({ command: `tool${a} run --step ${k}`, cwd: '.', exitCode: 1, source: 'agent', output: `${'building…\n'.repeat(30)}Error: Cannot find module 'pkg${a}'\n` }, settings, createRedactor(), new Date((t += 1000))), settings);
  }
}
// the team view the second clone pulled: 300 approaches (one, `npm test`, exhausted in the team), 50 lessons
const now = new Date().toISOString();
const approaches = Object.fromEntries(Array.from({ length: 300 }, (_, i) => {
  const label = i === 0 ? 'npm test' : `make target${i}`;
  return [`.::${label}`, { key: `.::${label}`, label, cwd: '.', command: label, failures: i === 0 ? 9 : 1 + (i % 4), failuresThisWeek: 2, machines: 3, ci: i % 2 === 0, lastError: `Error: something ${i} failed`, lastFailure: now }];
}));
const learnings = Array.from({ length: 50 }, (_, i) => ({ id: `l${i}`, key: '.::npm test', type: 'learning', text: `lesson ${i}: start the database first`, createdAt: now, machine: 'laptop-b' }));

function clone(team) {
  const ws = fs.mkdtempSync(path.join(tmp, `fm-hook-team-${team ? 'on' : 'off'}-`));
  fs.mkdirSync(path.join(ws, '.git'));
  fs.writeFileSync(path.join(ws, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/bench.git\n');
  const dir = path.join(ws, '.vscode/failure-memory');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'memory.json'), JSON.stringify(data));
  if (team) {
    fs.writeFileSync(path.join(ws, '.vscode/settings.json'), JSON.stringify({ 'failureMemory.team.enabled': true, 'failureMemory.team.databaseUrl': 'postgres://dev@127.0.0.1:9/team' }));
  }
  return { ws, dir };
}
const off = clone(false);
const on = clone(true);
const writeView = () => fs.writeFileSync(path.join(on.dir, 'team-view.json'), JSON.stringify({ version: 1, state: 'online', checkedAt: new Date().toISOString(), view: { project: 'github.com/acme/bench', pulledAt: new Date().toISOString(), windowDays: 30, approaches, learnings, reflections: [] } }));
writeView();
const lockFile = path.join(on.dir, 'team-sync.lock');
/** A background sync that runs (a burst): the lock held by a live process, fresh. */
const holdLock = () => fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'bench', state: 'running' }));
/** No sync running and one due: the next post starts one. */
const noSync = () => {
  fs.rmSync(lockFile, { force: true });
  writeView();
};
/** Waits (at most 5 s) until the sync a post started has ended. */
const settle = () => {
  for (let i = 0; i < 100 && fs.existsSync(lockFile); i++) spawnSync('sleep', ['0.05']);
};

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find(f => fs.existsSync(f));
const timeFile = path.join(home, 'time.txt');
function once(argv, input, env) {
  const t0 = process.hrtime.bigint();
  const r = GNU_TIME ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', timeFile, ...argv], { input, env, encoding: 'utf8' }) : spawnSync(argv[0], argv.slice(1), { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = GNU_TIME ? fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number).reduce((a, b) => a + b, 0) * 1000 : NaN;
  return { ms, cpu, status: r.status, stdout: r.stdout };
}
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let call = 0;
const payloads = {
  pre: (ws, command) => JSON.stringify({ session_id: 'b', transcript_path: path.join(home, 't.jsonl'), cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: `toolu_${++call}`, permission_mode: 'default' }),
  post: (ws, command) => JSON.stringify({ session_id: 'b', transcript_path: path.join(home, 't.jsonl'), cwd: ws, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: `toolu_${++call}`, error: `Exit code 1\n${'compiling…\n'.repeat(20)}Error: Cannot find module 'left-pad'`, is_interrupt: false }),
  'session-start': ws => JSON.stringify({ session_id: 'b', transcript_path: path.join(home, 't.jsonl'), cwd: ws, hook_event_name: 'SessionStart', source: 'startup' }),
};

/**
 * One hook event in both clones and `node -e 0`, in turn (off, on, node, off, on, node…); `before`
 * prepares each team-on call and `after` follows it (not timed). Medians of the pairwise ratios.
 */
function row(name, event, command, { before, after, check } = {}) {
  const env = c => {
    const e = { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: c.ws };
    delete e.FAILURE_MEMORY_BIN;
    delete e.FAILURE_MEMORY_BACKGROUND_SYNC;
    return e;
  };
  const argv = ['sh', '-c', hookCommand('claude', event)];
  const m = { offMs: [], onMs: [], offCpu: [], onCpu: [], rOff: [], rOn: [], rOnOff: [], cOff: [], cOn: [], cOnOff: [] };
  for (let i = -2; i < runs; i++) {
    const x = once(argv, payloads[event](off.ws, command), env(off));
    before?.();
    const y = once(argv, payloads[event](on.ws, command), env(on));
    after?.();
    if (i === -2) check?.(y);
    const z = once([process.execPath, '-e', '0'], '', env(off));
    if (i < 0) continue; // warm-ups (the first also writes the code cache)
    m.offMs.push(x.ms);
    m.onMs.push(y.ms);
    m.offCpu.push(x.cpu);
    m.onCpu.push(y.cpu);
    m.rOff.push(x.ms / z.ms);
    m.rOn.push(y.ms / z.ms);
    m.rOnOff.push(y.ms / x.ms);
    if (z.cpu > 0) {
      m.cOff.push(x.cpu / z.cpu);
      m.cOn.push(y.cpu / z.cpu);
    }
    if (x.cpu > 0) m.cOnOff.push(y.cpu / x.cpu);
  }
  const f = (xs, d = 0) => (xs.length ? median(xs).toFixed(d) : 'n/a');
  return `| ${name} | ${f(m.offMs)} / ${f(m.onMs)} | ${f(m.rOff, 2)}× / ${f(m.rOn, 2)}× | **${f(m.rOnOff, 2)}×** | ${f(m.offCpu)} / ${f(m.onCpu)} | ${f(m.cOff, 2)}× / ${f(m.cOn, 2)}× | **${f(m.cOnOff, 2)}×** |`;
}

const says = re => r => {
  if (r.status !== 0 || !re.test(r.stdout)) throw new Error(`unexpected answer: ${r.status} ${r.stdout}`);
};
const rows = [
  row('`pre`, a command never seen (team on: view cached, fresh)', 'pre', 'make lint', { check: says(/^$/) }),
  row('`pre`, `npm test` (team on: exhausted in the team, the warning goes into the context)', 'pre', 'npm test', { check: says(/Failure Memory \(team\)/) }),
  row('`session-start` (team on: the team\'s failures and lessons too)', 'session-start', '', { check: says(/your team's failures/) }),
  row('`post`, a failure recorded (team on: a sync running, the record is queued — a burst)', 'post', 'tool7 run --step 0', { before: holdLock }),
  row('`post`, a failure recorded (team on: it starts the background sync — the first record of a burst)', 'post', 'tool7 run --step 0', { before: noSync, after: settle }),
];
const table = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, Node ${process.version}, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}; ${new Date().toISOString().slice(0, 10)}. ${runs} pairs per row after two warm-ups; CPU = user + system time of the hook process (GNU time), the figure to read on a busy machine.`,
  '',
  '| Hook call (`sh -c` + launcher + dist/hook.js), team off / on | wall ms | wall ratio to `node -e 0` | **wall on/off** | CPU ms | CPU ratio to `node -e 0` | **CPU on/off** |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(table);

if (!process.argv.includes('--no-write')) {
  const file = path.join(root, 'BENCHMARKS.md');
  const start = '<!-- hook-team-bench:start (written by node --import tsx bench/hook-team-bench.mjs) -->';
  const end = '<!-- hook-team-bench:end -->';
  let md = fs.readFileSync(file, 'utf8');
  const section = `${start}\n${table}\n${end}`;
  md = md.includes(start) ? md.slice(0, md.indexOf(start)) + section + md.slice(md.indexOf(end) + end.length) : `${md.trimEnd()}\n\n### What team memory adds to a hook\n\n${section}\n`;
  fs.writeFileSync(file, md);
}
for (const d of [home, off.ws, on.ws]) fs.rmSync(d, { recursive: true, force: true });
