// node esbuild.mjs && node --import tsx bench/hook-load.mjs [--parallel 24] [--rounds 3] [--dist DIR]
//
// The post hook under load: `--parallel` post hooks at once (each a failure of its own command, as an
// agent harness that runs tool calls side by side fires them), each the command setup-agents writes
// (sh, the launcher, Node) with Claude Code's payload, on a workspace of 500 approaches (a fifth
// exhausted) in a git repository; `--rounds` rounds, one after the other. Each hook's whole-process
// wall time is measured from its spawn to its exit; per round the slowest, the median and the time
// until the last one ended are printed, with the load average. Every run must be in memory afterwards
// (read as the CLI reads it). --dist: the dist folder the launcher points at (a build of an earlier
// commit gives the "before"). Writes nothing else. Nothing here asserts a time.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';
import { installLauncher } from '../src/agents/launcher.ts';
import { indexText, INDEX_FILE_NAME, serializeMemory } from '../src/store/memoryIndex.ts';
import { hookCommand } from '../src/agents/setup.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const parallel = Number(arg('--parallel', 24));
const rounds = Number(arg('--rounds', 3));
const DIST = path.resolve(arg('--dist', path.join(root, 'dist')));
if (!fs.existsSync(path.join(DIST, 'hook.js'))) throw new Error(`${DIST}/hook.js is missing: node esbuild.mjs first`);

const tmp = fs.realpathSync(os.tmpdir());
const ws = fs.mkdtempSync(path.join(tmp, 'fm-hook-load-'));
const home = fs.mkdtempSync(path.join(tmp, 'fm-hook-load-home-'));
installLauncher({ dist: DIST, node: process.execPath, version: 'bench', writer: 'bench/hook-load.mjs' }, path.join(home, '.failure-memory', 'bin'));
const env = { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: ws };
for (const k of ['FAILURE_MEMORY_BIN', 'FAILURE_MEMORY_CACHE_DIR', 'FAILURE_MEMORY_STATE_DIR']) delete env[k];
for (const args of [['init', '-q'], ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'start']]) spawnSync('git', args, { cwd: ws });
fs.writeFileSync(path.join(ws, 'index.js'), 'module.exports = 1;\n');

// 500 approaches, a fifth exhausted (as bench/hook-bench.mjs)
const redactor = createRedactor();
const data = emptyMemory();
let t = Date.now() - 3 * 24 * 3600 * 1000;
for (let a = 0; a < 500; a++) {
  for (let k = 0; k < (a < 100 ? 5 : 1 + (a % 4)); k++) {
    const output = `${'building…\n'.repeat(30)}Error: Cannot find module '@scope/pkg${a}'\n`;
    applyAttempt(data, prepareAttempt({ command: `tool${a} run --step ${k}`, cwd: '.', exitCode: 1, source: 'agent', output }, DEFAULT_SETTINGS, redactor, new Date((t += 1000))), DEFAULT_SETTINGS);
  }
}
const dir = path.join(ws, '.vscode/failure-memory');
fs.mkdirSync(dir, { recursive: true });
const written = serializeMemory(data);
fs.writeFileSync(path.join(dir, 'memory.json'), written.text);
fs.writeFileSync(path.join(dir, INDEX_FILE_NAME), indexText(data, written, fs.statSync(path.join(dir, 'memory.json'))));

const command = hookCommand('claude', 'post');
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find(f => fs.existsSync(f));
let callNo = 0;
/** One post hook, a failure of `cmd`: its wall time from spawn to exit. */
function postHook(cmd) {
  const payload = JSON.stringify({ session_id: 'bench', cwd: ws, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: cmd }, tool_use_id: `toolu_${++callNo}`, error: `Exit code 1\nError: Cannot find module 'left-pad'\nRequire stack:\n- ${ws}/index.js` });
  return new Promise(done => {
    const t0 = process.hrtime.bigint();
    // GNU time's user + system seconds of the hook and everything it ran (the launcher's sh, Node, git)
    const timeFile = path.join(home, `time.${callNo}`);
    const child = GNU_TIME ? spawn(GNU_TIME, ['-f', '%U %S', '-o', timeFile, 'sh', '-c', command], { env, stdio: ['pipe', 'ignore', 'pipe'] }) : spawn('sh', ['-c', command], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', d => (err += d));
    child.on('exit', code => {
      let cpu = NaN;
      try {
        cpu = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number).reduce((a, b) => a + b, 0) * 1000;
      } catch {
        // no GNU time
      }
      done({ ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu, code, err });
    });
    child.stdin.end(payload);
  });
}

// warm-up: the code caches written, one fold done
for (let i = 0; i < 2; i++) await postHook(`warm${i} run`);
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const expected = [];
console.log(`dist ${DIST}; ${parallel} post hooks at once, ${rounds} rounds; machine ${os.cpus().length} cores, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
for (let r = 0; r < rounds; r++) {
  const commands = Array.from({ length: parallel }, (_, i) => `load${r}x${i} build`);
  expected.push(...commands);
  const t0 = process.hrtime.bigint();
  const results = await Promise.all(commands.map(postHook));
  const all = Number(process.hrtime.bigint() - t0) / 1e6;
  const bad = results.filter(x => x.code !== 0);
  const ms = results.map(x => x.ms);
  const cpu = results.map(x => x.cpu);
  const total = cpu.reduce((a, b) => a + b, 0);
  console.log(`round ${r + 1}: slowest ${Math.max(...ms).toFixed(0)} ms, median ${median(ms).toFixed(0)} ms, all done in ${all.toFixed(0)} ms; CPU per hook median ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms, all ${total.toFixed(0)} ms${bad.length ? `; ${bad.length} failed: ${bad[0].err.slice(0, 200)}` : ''} (load ${os.loadavg()[0].toFixed(1)})`);
}
const out = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), 'export', '--workspace', ws], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
const approaches = JSON.parse(out.stdout).approaches;
const missing = expected.filter(c => !Object.values(approaches).some(a => a.command === c && a.failures === 1));
console.log(missing.length ? `MISSING ${missing.length} of ${expected.length} runs: ${missing.slice(0, 5).join(', ')}` : `all ${expected.length} runs recorded, once each`);
fs.rmSync(ws, { recursive: true, force: true });
fs.rmSync(home, { recursive: true, force: true });
