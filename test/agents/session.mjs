// What every scenario of the agents suite shares: the workspace (a git repository with a failing
// build that counts its runs and a passing script), `failure-memory setup-agents` as a user runs it,
// one headless session of a harness against the scripted model, and memory as Failure Memory reads it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESSES, harnessEnv } from './harnesses.mjs';
import { offersTools } from './mockModel.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
export const THRESHOLD = 5;
export const ERROR_LINE = "Error: Cannot find module 'left-pad'";
export const FAILING = 'bash build.sh';
// the same approach with other flags, as agents retry it (and so no harness's own guard against
// byte-identical calls steps in first: Cline CLI aborts the fifth identical call, Gemini CLI stops too)
export const VARIANTS = ['bash build.sh', 'bash build.sh --verbose', 'bash ./build.sh', 'bash build.sh -v', 'bash build.sh --retry', 'bash build.sh'];
export const CLEAR = 'bash ok.sh';

// An npm project whose test suite fails until src/pad.js stops requiring a module that is not
// installed: its `test` script is `jest`, a local stand-in in node_modules/.bin (no network, counts its
// runs), so `npm test`, `npm t`, `npm run test` and `npx jest` all run the same suite.
export const TEST = 'npm test';
export const TEST_ERROR = "Error: Cannot find module 'left-pad' from 'src/pad.js'";
export const PAD = "const leftPad = require('left-pad');\nmodule.exports = (s, n) => leftPad(s, n);\n";
/** A fix that changes the file and not the error (it still requires left-pad). */
export const WRONG_FIX = ['module.exports = (s, n) => leftPad(s, n);', 'module.exports = (s, n) => leftPad(String(s), n);'];
/** The fix: no left-pad. */
export const RIGHT_FIX = ["const leftPad = require('left-pad');", 'const leftPad = (s, n) => String(s).padStart(n);'];
const JEST = `#!/bin/sh\necho run >> runs.log\nexec node test/run.js "$@"\n`;
const RUN_TESTS = `const fs = require('fs');
const src = fs.readFileSync(require('path').join(__dirname, '..', 'src', 'pad.js'), 'utf8');
if (src.includes("require('left-pad')")) {
  console.error("FAIL test/pad.test.js\\n  \u25cf Test suite failed to run\\n\\n    ${TEST_ERROR.replace(/'/g, "\\'")}");
  process.exit(1);
}
console.log('PASS test/pad.test.js\\n  \u2713 pads a number (2 ms)\\n\\nTests:       1 passed, 1 total');
`;

/** The npm project above, a git repository with its files committed (nothing changed since). */
export function npmWorkspace(root, name = 'ws') {
  const ws = path.join(root, name);
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'test'));
  fs.mkdirSync(path.join(ws, 'node_modules', '.bin'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'package.json'), `${JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'jest' } }, null, 2)}\n`);
  fs.writeFileSync(path.join(ws, 'node_modules', '.bin', 'jest'), JEST, { mode: 0o755 });
  fs.writeFileSync(path.join(ws, 'test', 'run.js'), RUN_TESTS);
  fs.writeFileSync(path.join(ws, 'src', 'pad.js'), PAD);
  fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\nruns.log\n.vscode/failure-memory/\n');
  const git = args => spawnSync('git', args, { cwd: ws, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['commit', '-qm', 'demo']);
  return fs.realpathSync(ws);
}

/**
 * `npm test` run `n` times in the user's own terminal, each failure recorded as a shell hook records it
 * (`failure-memory record --source terminal`): an exhausted project no harness's hook recorded.
 */
export function failInTerminal(ws, home, n = THRESHOLD) {
  for (let i = 0; i < n; i++) {
    const r = spawnSync('npm', ['test'], { cwd: ws, env: { ...process.env, HOME: home, npm_config_update_notifier: 'false' }, encoding: 'utf8' });
    const rec = spawnSync(process.execPath, [CLI, 'record', '--command', TEST, '--exit-code', String(r.status), '--source', 'terminal'], { cwd: ws, env: { ...process.env, HOME: home }, input: `${r.stdout}${r.stderr}`, encoding: 'utf8' });
    assert.equal(rec.status, 0, rec.stderr);
  }
}

/** A fresh git repository with a failing build (it counts its runs) and a passing script. */
export function workspace(root) {
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'build.sh'), `echo run >> runs.log\necho "${ERROR_LINE}" >&2\nexit 1\n`);
  fs.writeFileSync(path.join(ws, 'ok.sh'), 'echo ok > ok.marker\n');
  return fs.realpathSync(ws);
}

export function tempRoot(name) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `fm-agents-${name}-`)));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  return { root, home };
}

/** `failure-memory setup-agents --harness LIST`, as a user runs it (with that user's HOME). */
export function setupAgents(ws, home, harnesses) {
  const r = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', harnesses.join(',')], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  assert.equal(r.status, 0, `setup-agents failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

export function cliJson(ws, home, args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  return JSON.parse(r.stdout);
}

export function runProcess({ cmd, args, env }, { cwd, timeoutMs = 240_000 }) {
  return new Promise(resolve => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => { stdout += d; });
    child.stderr.on('data', d => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** AGENTS_CAPTURE=dir: every hook payload is kept under dir/<harness>/<tag> (see ./fixtures.mjs). */
export function captureEnv(id, tag) {
  if (!process.env.AGENTS_CAPTURE) return {};
  return { FAILURE_MEMORY_BIN: path.join(path.dirname(fileURLToPath(import.meta.url)), 'capture-hook.sh'), AGENTS_CAPTURE_DIR: path.resolve(process.env.AGENTS_CAPTURE, id, tag) };
}

/**
 * One session of harness `id`: the model follows `script`; returns the process result and every request.
 * `model`: the model the harness is set up with (where its tools depend on it); `tag`: the capture folder.
 */
export async function session(id, { ws, home, mock, script, prompt = 'Build the project.', capture = true, model, tag = 'loop' }) {
  const h = HARNESSES[id];
  mock.setScript(script);
  const ctx = { ws, home, url: mock.url, prompt, ...(model ? { model } : {}) };
  if (h.before) {
    const b = h.before(ctx);
    const r = await runProcess({ ...b, env: harnessEnv(home, b.env) }, { cwd: ws });
    assert.equal(r.code, 0, `${h.title} setup step failed:\n${r.stdout}\n${r.stderr}`);
  }
  const run = h.run(ctx);
  const r = await runProcess({ ...run, env: harnessEnv(home, { ...run.env, ...(capture ? captureEnv(id, tag) : {}) }) }, { cwd: ws });
  const requests = [...mock.requests];
  const agentRequests = requests.filter(q => q.api !== 'other' && offersTools(q.api, q.body));
  return { ...r, requests, agentRequests, log: `exit ${r.code} in ${r.ms} ms\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}` };
}

// memory as Failure Memory reads it (`failure-memory export`), whatever files the hooks keep it in
export const memoryOf = ws => {
  const r = spawnSync(process.execPath, [CLI, 'export', '--workspace', ws], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `failure-memory export: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
export const approachOf = (ws, label) => Object.values(memoryOf(ws).approaches).find(a => a.label === label);
export const runsLogged = ws => (fs.existsSync(path.join(ws, 'runs.log')) ? fs.readFileSync(path.join(ws, 'runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);

export function cleanup(root, t) {
  if (process.env.AGENTS_KEEP === '1') t.diagnostic(`kept: ${root}`);
  else fs.rmSync(root, { recursive: true, force: true });
}

// ---- what the model received -------------------------------------------------------------------

/** The first agent request that carries `step` tool results (the reply to script step `step - 1`), as text. */
export const requestAt = (s, step) => {
  const q = s.agentRequests.find(r => r.step === step);
  return q ? JSON.stringify(q.body) : undefined;
};
const count = (text, re) => (text ? (text.match(new RegExp(re.source, 'g')) ?? []).length : 0);
/** Did the model first read `re` in the reply to script step `step - 1` (more of it than the request before)? */
export const newAt = (s, step, re) => count(requestAt(s, step), re) > count(requestAt(s, step - 1), re);
/** `re` with some text around it, where the model read it at `step` (for the report). */
export function snippetAt(s, step, re, width = 160) {
  const text = requestAt(s, step) ?? '';
  const all = [...text.matchAll(new RegExp(re.source, 'g'))];
  const m = all.at(-1);
  return m ? text.slice(Math.max(0, m.index - width), m.index + m[0].length + width) : '';
}
/** How many times the failure summary is in the session's first model request. */
export const summariesInFirstRequest = s => count(JSON.stringify(s.agentRequests[0]?.body ?? {}), /Failure Memory for this workspace/);

/** A chat's script built call by call: `after[name]` is the step of the model request that answers that call (the one carrying its result). */
export function scriptOf(build) {
  const script = [];
  const after = {};
  build((name, ...steps) => {
    script.push(...steps);
    after[name] = script.length;
  });
  return { script, after };
}
