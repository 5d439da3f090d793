// node esbuild.mjs && node --import tsx bench/hook-bench.mjs [--runs 20] [--approaches 500] [--no-git] [--keep] [--no-write] [--dist DIR]
//
// What an agent's hook costs per tool call, measured the way a harness runs it: the hook command
// exactly as `setup-agents` writes it (`sh -c '<hookCommand>'`, which finds the launcher in
// ~/.failure-memory/bin, which runs dist/hook.js), the hook JSON on stdin, in a git repository whose
// memory holds the default limit of approaches (500). Each row is timed against `node -e 0` in the
// same run, alternately (A B A B …), each a fresh process; the ratio is taken pair by pair and its
// median reported, so a machine whose speed drifts still compares fairly.
// --keep leaves the workspace and HOME in place and prints, per row, a shell command that runs that
// hook once the same way (for timing with /usr/bin/time -v or another whole-process timer).
// Writes between the hook-bench markers of BENCHMARKS.md (unless --no-write). Nothing here asserts a time.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';
import { approachKey } from '../src/core/approach/index.ts';
import { installLauncher } from '../src/agents/launcher.ts';
import { writeMemory } from './memorySeed.mjs';
import { hookCommand } from '../src/agents/setup.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) || dflt : dflt);
const runs = arg('--runs', 20);
const count = arg('--approaches', DEFAULT_SETTINGS.limits.maxApproaches);
const git = !process.argv.includes('--no-git');
const keep = process.argv.includes('--keep');
// --dist: the dist folder the launcher points at (default this repository's): a build of an earlier
// commit gives the "before" of a change, on the same memory
const DIST = path.resolve(process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : path.join(root, 'dist'));
if (!fs.existsSync(path.join(DIST, 'hook.js'))) throw new Error('dist/hook.js is missing: node esbuild.mjs first');

const tmp = fs.realpathSync(os.tmpdir());
const ws = fs.mkdtempSync(path.join(tmp, 'fm-hook-bench-'));
const home = fs.mkdtempSync(path.join(tmp, 'fm-hook-bench-home-'));
installLauncher({ dist: DIST, node: process.execPath, version: 'bench', writer: 'bench/hook-bench.mjs' }, path.join(home, '.failure-memory', 'bin'));
const env = { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: ws };
delete env.FAILURE_MEMORY_BIN;
delete env.FAILURE_MEMORY_CACHE_DIR;

if (git) {
  for (const args of [['init', '-q'], ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'start']]) {
    const r = spawnSync('git', args, { cwd: ws, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  }
  fs.writeFileSync(path.join(ws, 'index.js'), 'module.exports = 1;\n');
}

// the memory: `count` approaches (a fifth exhausted, the rest failing 1-4 times), realistic outputs
const settings = { ...DEFAULT_SETTINGS };
const redactor = createRedactor();
const data = emptyMemory();
const errors = [
  i => `Error: Cannot find module '@scope/pkg${i}'\nRequire stack:\n- /app/src/index${i}.js`,
  i => `src/file${i}.ts(${i},5): error TS2322: Type 'string' is not assignable to type 'number'.`,
  i => `FAIL src/test${i}.spec.ts\n  ● adds ${i}\n    expect(received).toBe(expected)\nTests:       ${i % 9 + 1} failed, 40 passed, ${i % 9 + 41} total`,
  i => `npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/pkg-${i}`,
];
let t = Date.now() - 3 * 24 * 3600 * 1000;
for (let a = 0; a < count; a++) {
  const n = a < count / 5 ? 5 : 1 + (a % 4);
  for (let k = 0; k < n; k++) {
    const output = `${'building…\n'.repeat(30)}${errors[a % errors.length](a)}\n`;
    applyAttempt(data, prepareAttempt({ command: `tool${a} run --step ${k}`, cwd: a % 3 ? '.' : `pkg${a % 5}`, exitCode: 1, source: 'agent', output }, settings, redactor, new Date((t += 1000))), settings);
  }
}
// as the store writes it: memory.json and its index
const memoryFile = writeMemory(ws, data);
const approaches = Object.keys(data.approaches).length;
const exhausted = Object.values(data.approaches).filter(a => a.status === 'exhausted').length;
const memoryKb = fs.statSync(memoryFile).size / 1024;

// payloads as Claude Code 2.1.197 sends them (test/fixtures/hooks/claude/real-2.1.197)
const base = { session_id: 'bench', transcript_path: path.join(home, 't.jsonl'), cwd: ws, permission_mode: 'bypassPermissions' };
let callNo = 0;
const pre = (command, tool = 'Bash') => () => JSON.stringify({ ...base, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: tool === 'Bash' ? { command, description: 'x' } : { file_path: 'x', content: 'y' }, tool_use_id: `toolu_${++callNo}` });
const postFailure = command => () => JSON.stringify({ ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: `toolu_${++callNo}`, error: `Exit code 1\n${'compiling…\n'.repeat(20)}Error: Cannot find module 'left-pad'\nRequire stack:\n- ${ws}/index.js`, is_interrupt: false, duration_ms: 129 });
const postSuccess = command => () => JSON.stringify({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: `toolu_${++callNo}`, tool_response: { stdout: 'a\nb\nc', stderr: '', interrupted: false, isImage: false } });
// a new session each time: the summary is given once per session
const sessionStart = () => () => JSON.stringify({ ...base, session_id: `bench-${++callNo}`, hook_event_name: 'SessionStart', source: 'startup' });

// CPU time (user + system) of the child from GNU time when it is there: on a busy shared machine
// wall time mostly measures the queue for a core, CPU time what the process itself costs.
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find(f => fs.existsSync(f));
const timeFile = path.join(home, 'time.txt');
function once(argv, input) {
  const t0 = process.hrtime.bigint();
  const r = GNU_TIME
    ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', timeFile, ...argv], { input, env, encoding: 'utf8' })
    : spawnSync(argv[0], argv.slice(1), { input, env, encoding: 'utf8' });
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

const NODE0 = [process.execPath, '-e', '0'];
const hookArgv = event => ['sh', '-c', hookCommand('claude', event)];

/** A against `node -e 0`, alternately; the median of A, of B and of the pairwise ratio. */
function versus(name, event, payload, check) {
  for (let w = 0; w < 2; w++) {
    const first = once(hookArgv(event), payload()); // warm-up (the first also writes the code cache)
    check?.(first);
    once(NODE0, '');
  }
  const a = [], b = [], ratio = [], ca = [], cb = [], cratio = [];
  for (let i = 0; i < runs; i++) {
    const x = once(hookArgv(event), payload());
    check?.(x);
    const y = once(NODE0, payload());
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
const quiet = r => {
  if (r.status !== 0 || r.stdout !== '' || r.stderr !== '') throw new Error(`expected no answer: ${r.status} ${r.stdout} ${r.stderr}`);
};
const summary = r => {
  if (r.status !== 0 || !/additionalContext/.test(r.stdout)) throw new Error(`expected a summary: ${r.status} ${r.stdout} ${r.stderr}`);
};
const blocked = 'tool1 run --step 9';
const failing = `tool${count - 1} run`;
const failingKey = approachKey(failing, '.');
const failuresBefore = data.approaches[failingKey]?.failures ?? 0;

// the pre rows twice: right after memory.json was written, and with runs waiting in the journal (as
// between two folds: a hook folds it once it holds FOLD_RECORDS runs)
const WAITING = 4;
const FILL = ['fill', `(${WAITING} failures recorded by post hooks, waiting in the journal)`];
const cases = [
  ['pre', '`hook claude pre`, an exhausted approach (deny)', pre(blocked), deny],
  ['pre', '`hook claude pre`, a command never seen (allow)', pre('make lint'), quiet],
  ['pre', '`hook claude pre`, a non-terminal tool (answered at once)', pre('', 'Write'), quiet],
  ['session-start', '`hook claude session-start` (summary into the context)', sessionStart(), summary],
  FILL,
  ['pre', `\`hook claude pre\`, an exhausted approach (deny), ${WAITING} runs in the journal`, pre(blocked), deny],
  ['pre', `\`hook claude pre\`, a command never seen (allow), ${WAITING} runs in the journal`, pre('make lint'), quiet],
  ['post', '`hook claude post`, a failure (recorded)', postFailure(failing), quiet],
  ['post', '`hook claude post`, a success of a command never failed (nothing to record)', postSuccess('ls -la'), quiet],
];

if (keep) {
  // one script per row: the payload (a fresh tool_use_id per run, as a harness sends) into the hook command
  console.log(`workspace ${ws}\nHOME ${home}\none run of each row, as a harness runs it:`);
  const sq = s => `'${s.replace(/'/g, `'\\''`)}'`;
  cases.forEach(([event, name, payload], i) => {
    if (event === 'fill') return;
    const [head, tail] = payload().split(/toolu_\d+/);
    const script = path.join(home, `row-${i + 1}.sh`);
    const write = tail === undefined ? `printf '%s' ${sq(head)} > "$p"` : `printf '%s%s%s' ${sq(`${head}toolu_`)} "$$" ${sq(tail)} > "$p"`;
    fs.writeFileSync(script, `#!/bin/sh\n# ${name}\nexport HOME=${sq(home)} CLAUDE_PROJECT_DIR=${sq(ws)}\np="$HOME/payload.$$"\n${write}\nexec sh -c ${sq(hookCommand('claude', event))} < "$p"\n`);
    console.log(`sh ${script}   # ${name}`);
  });
}

const rows = [];
for (const [event, name, payload, check] of cases) {
  if (event !== 'fill') {
    rows.push(versus(name, event, payload, check));
    continue;
  }
  for (let i = 0; i < WAITING; i++) quiet(once(hookArgv('post'), postFailure(`fill${i} build`)()));
}

// the post rows recorded for real: every failure is in memory, once (read as the CLI reads it)
const after = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), 'export', '--workspace', ws], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
const recorded = (() => {
  try {
    return JSON.parse(after.stdout).approaches[failingKey].failures;
  } catch {
    return undefined;
  }
})();
const expected = failuresBefore + 2 + runs;

const f = v => v.toFixed(0);
const table = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${os.platform()} ${os.release()}, Node ${process.version}, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}; ${new Date().toISOString().slice(0, 10)}.`,
  `Memory: ${approaches} approaches (${exhausted} exhausted), memory.json ${memoryKb.toFixed(0)} KB${git ? ', in a git repository' : ', no git repository'}. Each hook runs as \`sh -c '<the command setup-agents writes>'\` through the launcher in ~/.failure-memory/bin (one \`sh\`, the launcher's \`sh\`, then Node), the Claude Code payload on stdin. ${runs} pairs per row after two warm-ups; CPU = user + system time of the process (GNU time), the figure to read on a busy machine. Post failures recorded: ${recorded ?? '?'} of ${expected} expected.`,
  '',
  '| Hook call | wall ms (median) | `node -e 0` wall ms | wall ratio (median of pairs, min–max) | CPU ms (median) | `node -e 0` CPU ms | **CPU ratio** (median of pairs) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(r => `| ${r.name} | ${f(r.a)} | ${f(r.b)} | ${r.ratio.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${f(r.ca)} | ${f(r.cb)} | **${r.cratio.toFixed(2)}×** |`),
].join('\n');
console.log(table);
if (recorded !== expected) console.error(`the post rows should have recorded ${expected} failures, memory says ${recorded}: ${after.stderr}`);

if (!process.argv.includes('--no-write')) {
  const file = path.join(root, 'BENCHMARKS.md');
  const start = '<!-- hook-bench:start (written by node --import tsx bench/hook-bench.mjs) -->';
  const end = '<!-- hook-bench:end -->';
  let md = fs.readFileSync(file, 'utf8');
  const section = `${start}\n${table}\n${end}`;
  if (md.includes(start)) md = md.replace(new RegExp(`${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
  else md += `\n## Agent hooks: the cost of a hook per tool call\n\n${section}\n`;
  fs.writeFileSync(file, md);
}
if (!keep) {
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}
