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
