// The packaged extension, as a user gets it: build the VSIX (with a model, as for offline users),
// install it into a fresh code-server (--install-extension), open a workspace, check it runs from
// the installed copy (not from this source folder), records a failing command, and that recall
// runs the transformer on the ONNX runtime shipped inside the VSIX.
//
// The model is the tiny random-weight BERT of scripts/make-tiny-model.ts (no model hub here),
// packaged with `--with-model` under the id the extension looks for (Xenova/all-MiniLM-L6-v2):
// it proves the loading path (worker → onnxruntime-node → native library → model), not quality.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DIR, REPO_ROOT } from './harness.mjs';

export const timeout = 240_000;

const BIN = 'dist/node_modules/onnxruntime-node/bin/napi-v6/linux/x64';

// ---- helpers (bench/e2e-bench.mjs uses them too) ------------------------------------------------

/** Writes the tiny test model into .e2e/tiny-model (once) and returns its model folder. */
export function makeTinyModel() {
  const root = path.join(E2E_DIR, 'tiny-model');
  const dir = path.join(root, 'test', 'tiny-bert');
  if (!fs.existsSync(path.join(dir, 'onnx', 'model_quantized.onnx'))) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/make-tiny-model.ts', root], { cwd: REPO_ROOT, stdio: 'pipe' });
  }
  return dir;
}


/** The "Failure Memory" log channel as VS Code writes it under the run's user-data-dir. */
export function readExtensionLog(h) {
  const logs = path.join(h.runDir, 'udd', 'logs');
  if (!fs.existsSync(logs)) return '';
  return fs.readdirSync(logs, { recursive: true })
    .filter(f => f.endsWith(path.join('failure-memory.failure-memory', 'Failure Memory.log')))
    .map(f => fs.readFileSync(path.join(logs, f), 'utf8'))
    .join('\n');
}

/** Extension host processes of this VS Code: those started with its $FAILURE_MEMORY_E2E_LOG. */
export function extensionHostPids(h) {
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=extensionHost')) continue;
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (env.includes(`FAILURE_MEMORY_E2E_LOG=${h.eventsFile}`)) pids.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** Files mapped into a process (shared libraries, native addons). */
export function loadedLibraries(pid) {
  const maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  return [...new Set(maps.split('\n').map(l => l.split(/\s+/).slice(5).join(' ')).filter(p => p.startsWith('/')))];
}

/** Resident set size of a process, in bytes. */
export function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

export async function prepare() {
  const out = path.join(E2E_DIR, 'vsix');
  fs.rmSync(out, { recursive: true, force: true });
  const model = makeTinyModel();
  execFileSync(process.execPath, ['scripts/package.mjs', '--target', 'linux-x64', '--out', out, '--with-model', model], { cwd: REPO_ROOT, stdio: 'pipe' });
  const vsix = path.join(out, fs.readdirSync(out).find(f => f.endsWith('.vsix')));
  return { vsix };
}

export async function run(h) {
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'activated' });
  const installed = path.resolve(activated.extensionPath);
  assert.ok(!installed.startsWith(REPO_ROOT + path.sep + 'src') && installed !== REPO_ROOT, `runs from the installed copy, not ${REPO_ROOT}`);
  assert.ok(installed.includes(`${path.sep}exts${path.sep}failure-memory.failure-memory-`), installed);
  assert.ok(!fs.lstatSync(installed).isSymbolicLink(), 'a real installed folder, not a link');
  for (const f of ['dist/extension.js', 'dist/cli.js', 'dist/hook.js', 'dist/hook-main.js', 'dist/hook-post.js', 'dist/hook-record.js', 'dist/embed-worker.js', 'package.json', 'media/icon.png', 'media/offline-embedder.bin', `${BIN}/onnxruntime_binding.node`, `${BIN}/libonnxruntime.so.1`, 'models/Xenova/all-MiniLM-L6-v2/onnx/model_quantized.onnx']) {
    assert.ok(fs.existsSync(path.join(installed, f)), f);
  }
  assert.ok(!fs.existsSync(path.join(installed, 'src')), 'no sources shipped');
  assert.ok(!fs.existsSync(path.join(installed, 'node_modules')), 'no node_modules at the top: the runtime lives in dist/node_modules');
  assert.deepEqual(fs.readdirSync(path.join(installed, 'dist/node_modules')).sort(), ['onnxruntime-common', 'onnxruntime-node']);
  assert.deepEqual(fs.readdirSync(path.join(installed, 'dist/node_modules/onnxruntime-node/bin/napi-v6')), ['linux'], 'one platform only');
  assert.deepEqual(fs.readdirSync(path.join(installed, 'dist/node_modules/onnxruntime-node/bin/napi-v6/linux')), ['x64'], 'one architecture only');
  const shipped = fs.readdirSync(installed, { recursive: true });
  assert.deepEqual(shipped.filter(f => /\.map$|\.tsx?$/.test(f)), [], 'no source maps or TypeScript');

  await h.openTerminal();
  const n = h.readEvents().length;
  const r = await h.typeInTerminal('ls /definitely-not-here');
  assert.equal(r.exitCode, 2);
  const rec = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 2, { since: n, what: 'recorded by the installed extension' });
  assert.equal(rec.key, '.::ls');
  const mem = JSON.parse(fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/memory.json'), 'utf8'));
  assert.equal(mem.approaches['.::ls'].failures, 1);

  // Recall in the extension host (through the language-model tool, as an agent would): the first
  // recall builds the scorer, which finds the shipped model and the shipped runtime.
  const recall = await h.invokeTool('failure_memory_recall', { query: 'ls: cannot access: No such file or directory' });
  assert.equal(recall.error, undefined, recall.error);
  assert.equal(recall.json.hits[0]?.key, '.::ls');
  const ready = await h.waitFor(() => readExtensionLog(h).split('\n').find(l => l.includes('[recall] semantic recall ready')), 10000, 'the "semantic recall ready" log line');
  assert.ok(ready.includes(`transformer (${path.join(installed, 'models')})`), ready);
  // onnxruntime's telemetry stays off: it would create <cache>/Microsoft/DeveloperTools/.onnxruntime/
  // (VS Code itself writes a DeveloperTools/deviceid there: not ours)
  for (const cache of [path.join(h.runDir, 'home', '.cache'), path.join(h.runDir, 'xdg', 'cache')]) {
    assert.ok(!fs.existsSync(path.join(cache, 'Microsoft', 'DeveloperTools', '.onnxruntime')), `no onnxruntime telemetry files in ${cache}`);
  }

  // The transformer embedded the memory: its vectors are on disk under the model's embedder id
  // (a failed load would have fallen back to the offline embedder and logged a warning).
  const index = await h.waitFor(() => {
    const f = path.join(h.workspace, '.vscode/failure-memory/vectors.json');
    const j = fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
    return j?.embedder?.startsWith('transformer-v1:') ? j : undefined;
  }, 20000, 'vectors.json written by the transformer embedder');
  assert.match(index.embedder, /^transformer-v1:Xenova\/all-MiniLM-L6-v2:q8:\d+:mean-norm$/);
  assert.equal(index.dim, 32);
  const log = readExtensionLog(h);
  assert.doesNotMatch(log, /semantic recall failed|onnxruntime-node is not installed|cannot be used/, 'no fallback to the offline embedder');

  // …and the native runtime in the extension host is the one inside the installed extension, not
  // this repository's node_modules (which Node could also reach: .e2e/ lives inside the repo).
  const pids = extensionHostPids(h);
  assert.equal(pids.length, 1, `one extension host for this run (found ${pids.join(', ') || 'none'})`);
  const libs = loadedLibraries(pids[0]).filter(l => l.includes('onnxruntime'));
  assert.ok(libs.includes(path.join(installed, BIN, 'libonnxruntime.so.1')), `libonnxruntime.so.1 loaded from the installed extension; loaded: ${libs.join(', ') || 'none'}`);
  assert.ok(libs.includes(path.join(installed, BIN, 'onnxruntime_binding.node')), libs.join(', '));
  assert.deepEqual(libs.filter(l => l.startsWith(path.join(REPO_ROOT, 'node_modules'))), [], 'nothing loaded from the repository');
}
