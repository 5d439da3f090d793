// The scenarios of the agents suite (run by ./run.mjs): one per harness on a workspace set up only
// by `failure-memory setup-agents`, one for a repository set up for two harnesses whose hooks both
// fire for one call, and one for a machine without the launcher (the gate says it is off).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESSES, harnessEnv } from './harnesses.mjs';
import { offersTools, startMockModel } from './mockModel.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const THRESHOLD = 5;
const ERROR_LINE = "Error: Cannot find module 'left-pad'";
const FAILING = 'bash build.sh';
// the same approach with other flags, as agents retry it (and so no harness's own guard against
// byte-identical calls steps in first: Cline CLI aborts the fifth identical call, Gemini CLI stops too)
const VARIANTS = ['bash build.sh', 'bash build.sh --verbose', 'bash ./build.sh', 'bash build.sh -v', 'bash build.sh --retry', 'bash build.sh'];
const CLEAR = 'bash ok.sh';

/** A fresh git repository with a failing build (it counts its runs) and a passing script. */
function workspace(root) {
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'build.sh'), `echo run >> runs.log\necho "${ERROR_LINE}" >&2\nexit 1\n`);
  fs.writeFileSync(path.join(ws, 'ok.sh'), 'echo ok > ok.marker\n');
  return fs.realpathSync(ws);
}

function tempRoot(name) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `fm-agents-${name}-`)));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  return { root, home };
}

/** `failure-memory setup-agents --harness LIST`, as a user runs it (with that user's HOME). */
function setupAgents(ws, home, harnesses) {
  const r = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', harnesses.join(',')], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  assert.equal(r.status, 0, `setup-agents failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

function cliJson(ws, home, args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  return JSON.parse(r.stdout);
}

function runProcess({ cmd, args, env }, { cwd, timeoutMs = 240_000 }) {
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

/** AGENTS_CAPTURE=dir: every hook payload is kept under dir/<harness> (see ./fixtures.mjs). */
function captureEnv(id) {
  if (!process.env.AGENTS_CAPTURE) return {};
  return { FAILURE_MEMORY_BIN: path.join(path.dirname(fileURLToPath(import.meta.url)), 'capture-hook.sh'), AGENTS_CAPTURE_DIR: path.resolve(process.env.AGENTS_CAPTURE, id) };
}

/** One session of harness `id`: the model follows `script`; returns the process result and every request. */
async function session(id, { ws, home, mock, script, prompt = 'Build the project.', capture = true }) {
  const h = HARNESSES[id];
  mock.setScript(script);
  const ctx = { ws, home, url: mock.url, prompt };
  if (h.before) {
    const b = h.before(ctx);
    const r = await runProcess({ ...b, env: harnessEnv(home, b.env) }, { cwd: ws });
    assert.equal(r.code, 0, `${h.title} setup step failed:\n${r.stdout}\n${r.stderr}`);
  }
  const run = h.run(ctx);
  const r = await runProcess({ ...run, env: harnessEnv(home, { ...run.env, ...(capture ? captureEnv(id) : {}) }) }, { cwd: ws });
  const requests = [...mock.requests];
  const agentRequests = requests.filter(q => q.api !== 'other' && offersTools(q.api, q.body));
  return { ...r, requests, agentRequests, log: `exit ${r.code} in ${r.ms} ms\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}` };
}

// memory as Failure Memory reads it: memory.json with the runs the hooks journaled beside it
const memoryOf = ws => {
  const r = spawnSync(process.execPath, [CLI, 'export', '--workspace', ws], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `failure-memory export: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const approachOf = (ws, label) => Object.values(memoryOf(ws).approaches).find(a => a.label === label);
const runsLogged = ws => (fs.existsSync(path.join(ws, 'runs.log')) ? fs.readFileSync(path.join(ws, 'runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);

function cleanup(root, t) {
  if (process.env.AGENTS_KEEP === '1') t.diagnostic(`kept: ${root}`);
  else fs.rmSync(root, { recursive: true, force: true });
}

/** The whole loop in one harness: record, exhaust, refuse, a clear command, the next session's context. */
async function harnessLoop(id, t) {
  const { root, home } = tempRoot(id);
  const ws = workspace(root);
  const mock = await startMockModel();
  const h = HARNESSES[id];
  let ok = false;
  try {
    const out = setupAgents(ws, home, [id]);
    assert.match(out, /launcher .*failure-memory: written/, 'setup-agents writes the launcher on a machine without one');
    h.configure({ home, ws, url: mock.url });

    const failing = VARIANTS.map((command, i) => h.shell(command, i + 1));
    const first = await session(id, { ws, home, mock, script: [...failing, h.shell(CLEAR)] });
    t.diagnostic(`${h.title} session 1: ${first.ms} ms, ${first.agentRequests.length} model requests`);
    assert.equal(first.code, 0, first.log);

    await t.test('each real failure is recorded exactly once, never cleared', () => {
      const a = approachOf(ws, FAILING);
      assert.ok(a, `no approach for ${FAILING} in memory\n${first.log}`);
      assert.deepEqual(a.attempts.map(x => x.exitCode), Array(THRESHOLD).fill(1), `attempts: ${JSON.stringify(a.attempts.map(x => ({ exit: x.exitCode, source: x.source })))}`);
      assert.equal(a.failures, THRESHOLD);
      assert.match(a.lastErrorSignature, /Cannot find module 'left-pad'/);
      assert.ok(!/untrusted_context|^Output: |<shellId|\[Command exited/m.test(a.attempts[0].output ?? ''), `the harness's own wrapping is kept: ${JSON.stringify(a.attempts[0].output)}`);
    });
    await t.test('the exhausted command never runs again, and the model is told why', () => {
      assert.equal(runsLogged(ws), THRESHOLD, `build.sh ran ${runsLogged(ws)} times (the gate must stop the ${THRESHOLD + 1}th)`);
      const check = cliJson(ws, home, ['check', '--command', FAILING]);
      assert.equal(check.status, 'exhausted');
      const afterDeny = first.agentRequests.find(q => q.step === THRESHOLD + 1);
      assert.ok(afterDeny, `no model request after the refused call\n${first.log}`);
      assert.match(JSON.stringify(afterDeny.body), /NOT RUN/, 'the deny reason reaches the model');
    });
    await t.test('a clear command runs', () => {
      assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), `ok.sh did not run\n${first.log}`);
    });

    const second = await session(id, { ws, home, mock, script: [] });
    t.diagnostic(`${h.title} session 2: ${second.ms} ms`);
    assert.equal(second.code, 0, second.log);
    await t.test('the next session\'s first model request already carries the failure summary', () => {
      const firstRequest = second.agentRequests[0];
      assert.ok(firstRequest, `no model request\n${second.log}`);
      const seen = JSON.stringify(firstRequest.body);
      assert.ok(seen.includes(FAILING), 'the summary names the exhausted command');
      assert.ok(seen.includes("Cannot find module 'left-pad'"), 'the summary carries its last error');
    });
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/** Copilot CLI runs .claude/settings.json's hooks as well as its own: one call, one record. */
async function twoHarnessesOneCall(t) {
  const { root, home } = tempRoot('copilot-claude');
  const ws = workspace(root);
  const mock = await startMockModel();
  let ok = false;
  try {
    setupAgents(ws, home, ['claude', 'copilot']);
    const s = await session('copilot', { ws, home, mock, script: [HARNESSES.copilot.shell(FAILING)], capture: false });
    assert.equal(s.code, 0, s.log);
    const a = approachOf(ws, FAILING);
    assert.ok(a, s.log);
    assert.deepEqual(a.attempts.map(x => x.exitCode), [1], 'one failing call: one failure, recorded once and not cleared by the second hook');
    assert.equal(a.failures, 1);
    assert.equal(runsLogged(ws), 1);
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/**
 * A teammate without Failure Memory: the hooks let the agent go on and say so. `channel`: where this
 * harness shows it headless — its own output (Gemini CLI prints a hook's systemMessage), or only
 * the model's context (`codex exec` and `claude -p` print no hook message; their interactive UIs
 * show systemMessage), which the model is asked to pass on.
 */
async function launcherMissing(id, channel, t) {
  const { root, home } = tempRoot(`${id}-nolauncher`);
  const ws = workspace(root);
  const mock = await startMockModel();
  let ok = false;
  try {
    setupAgents(ws, home, [id]);
    fs.rmSync(path.join(home, '.failure-memory'), { recursive: true, force: true });
    HARNESSES[id].configure({ home, ws, url: mock.url });
    const s = await session(id, { ws, home, mock, script: [HARNESSES[id].shell(CLEAR)], prompt: 'Check the project.', capture: false });
    assert.equal(s.code, 0, s.log);
    assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), 'the agent goes on');
    const OFF = /the gate is OFF on this machine/;
    assert.match(JSON.stringify(s.agentRequests[0]?.body ?? {}), OFF, `the model is told the gate is off (and asked to tell the user)\n${s.log}`);
    if (channel === 'output') assert.match(s.stdout + s.stderr, OFF, `the user is told the gate is off\n${s.log}`);
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/** The model can edit files through each harness's own edit tools (what edit-aware judgement will watch). */
async function editTools(id, t) {
  const { root, home } = tempRoot(`${id}-edit`);
  const ws = workspace(root);
  const mock = await startMockModel();
  const h = HARNESSES[id];
  let ok = false;
  try {
    setupAgents(ws, home, [id]);
    h.configure({ home, ws, url: mock.url });
    const file = path.join(ws, 'notes.txt');
    const s = await session(id, { ws, home, mock, script: [h.write(file, 'alpha'), h.edit(file, 'alpha', 'beta')], prompt: 'Write the notes.', capture: false });
    assert.equal(s.code, 0, s.log);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), 'beta', `the write then the edit reached the file\n${s.log}`);
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

export const scenarios = [
  ...Object.keys(HARNESSES).map(id => ({ name: `${HARNESSES[id].title}: the gate in the real harness`, harnesses: [id], run: t => harnessLoop(id, t) })),
  { name: 'Copilot CLI with Claude Code hooks in the same repository: one call, one record', harnesses: ['copilot', 'claude'], run: t => twoHarnessesOneCall(t) },
  ...[['gemini', 'output'], ['codex', 'model'], ['claude', 'model'], ['copilot', 'model']].map(([id, channel]) => ({
    name: `${HARNESSES[id].title} without the launcher: the gate says it is off`,
    harnesses: [id],
    run: t => launcherMissing(id, channel, t),
  })),
  ...Object.keys(HARNESSES).map(id => ({ name: `${HARNESSES[id].title}: the scripted model edits files with the harness's own tools`, harnesses: [id], run: t => editTools(id, t) })),
];
