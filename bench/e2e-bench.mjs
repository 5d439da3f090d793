// The packaged extension in a real VS Code (code-server, test/e2e/harness.mjs): activation time
// and extension host memory. Run by `npm run bench` when test/e2e/setup.sh has set up .e2e/;
// alone: node bench/e2e-bench.mjs --vsix A.vsix --vsix-model B.vsix [--runs 3] [--out result.json]
// (without --vsix/--vsix-model it packages both itself, B with the tiny test model).
//
// Per run (a fresh code-server, the VSIX installed with --install-extension, an empty workspace):
//  - activate(): the `ms` of the extension's `activated` event (its own measurement of activate());
//  - code-server start → activated, and extension host start → activated, from /proc start times;
//  - RSS of the extension host (found in /proc by the run's $FAILURE_MEMORY_E2E_LOG) after
//    activation, after 200 failures recorded by the CLI (another process), and after the first
//    recall (the language-model tool): with the model VSIX that loads the worker, onnxruntime and
//    the model; with the plain VSIX recall uses the offline embedder.
// A baseline run with an empty extension gives the extension host's RSS without Failure Memory.
// Nothing here asserts a time.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E_DIR, REPO_ROOT, startVSCode } from '../test/e2e/harness.mjs';
import { extensionHostPids, invokeTool, makeTinyModel, readExtensionLog, rssBytes } from '../test/e2e/install.e2e.mjs';

process.env.E2E_QUIET ??= '1';

const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const runs = Number(opt('runs', 3));
const sleep = ms => new Promise(r => setTimeout(r, ms));

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const BOOT = Number(/btime (\d+)/.exec(fs.readFileSync('/proc/stat', 'utf8'))[1]) * 1000;
/** When a process started, in ms since the epoch (clock-tick resolution: 10 ms). */
function startedAt(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return BOOT + (Number(fields[19]) * 1000) / CLK_TCK; // field 22 (starttime), counted after the name
}
/** Processes started for this VS Code (they all carry its $FAILURE_MEMORY_E2E_LOG). */
function runPids(h) {
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`FAILURE_MEMORY_E2E_LOG=${h.eventsFile}`)) pids.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}
/** RSS once it has settled: the median of five samples a quarter second apart. */
async function settledRss(pid) {
  await sleep(1500);
  const s = [];
  for (let i = 0; i < 5; i++) {
    s.push(rssBytes(pid));
    await sleep(250);
  }
  return s.sort((a, b) => a - b)[2];
}

const OUTPUTS = [
  i => `Traceback (most recent call last):\n  File "job${i}.py", line 3, in <module>\nModuleNotFoundError: No module named 'pkg${i % 37}'`,
  i => `Error: listen EADDRINUSE: address already in use :::${3000 + (i % 50)}`,
  i => `src/file${i}.ts(4,7): error TS2307: Cannot find module 'lib${i % 29}' or its corresponding type declarations.`,
  i => `npm ERR! code ENOENT\nnpm ERR! enoent ENOENT: no such file or directory, open '/home/dev/p${i}/package.json'`,
];

async function measure(name, vsix, { recall = true } = {}) {
  const h = await startVSCode({ name: `bench-${name}`, vsix });
  try {
    const activated = await h.waitForEvent(e => e.event === 'activated', { timeout: 60000, what: 'activated' });
    const pids = runPids(h);
    const csStart = Math.min(...pids.map(startedAt));
    const [ehost] = extensionHostPids(h);
    const r = {
      activateMs: activated.ms,
      serverToActivatedMs: Date.parse(activated.t) - csStart,
      hostToActivatedMs: Date.parse(activated.t) - startedAt(ehost),
      rssActivated: await settledRss(ehost),
    };
    if (!recall) return r;
    // 200 failures from another process (the CLI, as an agent's hook would record them)
    const cli = path.join(activated.extensionPath, 'dist', 'cli.js');
    for (let i = 0; i < 200; i++) {
      execFileSync(process.execPath, [cli, 'record', '--command', `tool${i} build --step ${i % 7}`, '--exit-code', '1', '--workspace', h.workspace], { input: OUTPUTS[i % OUTPUTS.length](i), stdio: ['pipe', 'ignore', 'pipe'] });
    }
    r.rssRecorded = await settledRss(ehost);
    const res = await invokeTool(h, 'failure_memory_recall', { query: "ModuleNotFoundError: No module named 'numpy'" });
    if (res.error) throw new Error(`recall failed: ${res.error}`);
    // the model (if any) embeds the 200 documents in the background: wait for its vectors
    const vectors = path.join(h.workspace, '.vscode', 'failure-memory', 'vectors.json');
    await h.waitFor(() => fs.existsSync(vectors) && JSON.parse(fs.readFileSync(vectors, 'utf8')).ids?.length >= 200, 60000, 'all 200 documents embedded');
    r.embedder = JSON.parse(fs.readFileSync(vectors, 'utf8')).embedder;
    r.mode = /semantic recall ready in \d+ ms: (\w+)/.exec(readExtensionLog(h))?.[1];
    r.rssRecalled = await settledRss(ehost);
    return r;
  } finally {
    await h.stop();
    h.removeRunDir();
  }
}

function packageVsix(dir, model) {
  execFileSync(process.execPath, ['scripts/package.mjs', '--target', 'linux-x64', '--out', dir, ...(model ? ['--with-model', model] : [])], { cwd: REPO_ROOT, stdio: 'pipe' });
  return path.join(dir, fs.readdirSync(dir).find(f => f.endsWith('.vsix')));
}

export async function benchExtensionHost({ vsix, vsixModel, runs: n = runs } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-e2e-bench-'));
  try {
    vsix ??= packageVsix(path.join(tmp, 'plain'), undefined);
    vsixModel ??= packageVsix(path.join(tmp, 'model'), makeTinyModel());
    // baseline: an extension that does nothing, so the extension host's own RSS shows
    const empty = path.join(tmp, 'empty-ext');
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, 'package.json'), JSON.stringify({ name: 'empty', publisher: 'bench', version: '0.0.0', engines: { vscode: '^1.100.0' }, main: './main.js', activationEvents: ['onStartupFinished'] }));
    fs.writeFileSync(path.join(empty, 'main.js'), 'exports.activate = () => {};\n');
    const hb = await startVSCode({ name: 'bench-baseline', extensionDevPath: empty, readyCommand: null });
    let baseline;
    try {
      await hb.waitFor(() => extensionHostPids(hb).length, 30000, 'the extension host');
      await sleep(3000);
      baseline = await settledRss(extensionHostPids(hb)[0]);
    } finally {
      await hb.stop();
      hb.removeRunDir();
    }
    const plain = [];
    const model = [];
    // the memory figures from the first run of each; the other runs only time the activation
    for (let i = 0; i < n; i++) {
      plain.push(await measure('plain', vsix, { recall: i === 0 }));
      model.push(await measure('model', vsixModel, { recall: i === 0 }));
    }
    return { runs: n, baseline, plain, model, vsixSize: fs.statSync(vsix).size, vsixModelSize: fs.statSync(vsixModel).size, codeServer: '4.100.3 (VS Code 1.100.3)' };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  if (!fs.existsSync(path.join(E2E_DIR, 'code-server'))) {
    console.error('.e2e/ is not set up: run bash test/e2e/setup.sh first');
    process.exit(2);
  }
  const result = await benchExtensionHost({ vsix: opt('vsix'), vsixModel: opt('vsix-model') });
  const out = opt('out');
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
  else console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
