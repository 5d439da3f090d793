// VS Code's own agent mode in the agents suite: the current VS Code (code-server 4.139.1 = VS Code
// 1.139.1, test/e2e/setup.sh installs it) with the packaged Failure Memory VSIX, its built-in
// Copilot Chat in agent mode offline on a BYOK Ollama endpoint: the scripted model of
// ./mockModel.mjs (Ollama's /api/version, /api/tags, /api/show, then /v1/chat/completions),
// driven in headless Chromium as a person would (test/e2e/harness.mjs). The workspace is set up
// only by `failure-memory setup-agents --harness vscode`, HOME is fresh. It proves what the other
// harnesses prove: an exhausted command never runs (its side effect stays absent), a clear one
// runs, the refusal reaches the model, each failure run in the agent's terminal is recorded
// exactly once (by shell integration, with the terminal's exit code and the output the hook
// handed over), and a new chat's first model request carries the failure summary.
//
// It lives in the agents suite (not test/e2e) because it is an agent harness like the others: the
// same scripted model, the same workspace and assertions, the same network namespace with loopback
// only (proof that VS Code, Copilot Chat and the hooks need nothing but the mock).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OLLAMA_MODEL, offersTools, startMockModel } from './mockModel.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const VSCODE = '1.139';
const CODE_SERVER = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/e2e/vscode-versions.json'), 'utf8'))[VSCODE].codeServer;
/** The VS Code this scenario runs: code-server 4.<minor>.<patch> is VS Code 1.<minor>.<patch>. */
export const VSCODE_PROGRAM = { pkg: 'code-server', codeServer: CODE_SERVER, version: CODE_SERVER.replace(/^4\./, '1.') };
const THRESHOLD = 5;
const ERROR_LINE = "Error: Cannot find module 'left-pad'";
const FAILING = 'bash build.sh';
const VARIANTS = ['bash build.sh', 'bash build.sh --verbose', 'bash ./build.sh', 'bash build.sh -v', 'bash build.sh --retry', 'bash build.sh'];
const CLEAR = 'bash ok.sh';

/** VS Code's terminal tool, as its model calls it (tool_input of its PreToolUse hook). */
const runInTerminal = (command, n) => ({ tool: 'run_in_terminal', input: { command, explanation: `attempt ${n}`, goal: 'Build the project', mode: 'sync' } });

/** What a user sets once: the Ollama endpoint, hooks on, and which commands the agent may run unasked. */
const settings = url => ({
  'github.copilot.chat.byok.ollamaEndpoint': url,
  'chat.useHooks': true,
  // the project's two scripts (the gate must hold even for a command the user auto-approves)
  'chat.tools.terminal.autoApprove': { '/^bash (\\./)?(build|ok)\\.sh\\b/': true },
});

/**
 * Run once, outside the tests' network namespace (it may need the npm registry and apt): VS Code
 * 1.139 and the browser (test/e2e/setup.sh), and the VSIX as `npm run package` makes it (the one the
 * e2e suite just packaged when it is newer than the build). Returns { vsix } or { problem }.
 */
export function prepareVSCodeAgent() {
  const e2eDir = path.resolve(process.env.E2E_DIR || path.join(REPO_ROOT, '.e2e'));
  if (process.env.E2E_SKIP_SETUP !== '1') {
    const r = spawnSync('bash', [path.join(REPO_ROOT, 'test/e2e/setup.sh')], { stdio: 'inherit', env: { ...process.env, E2E_VSCODE: VSCODE } });
    if (r.status !== 0) return { problem: `test/e2e/setup.sh failed (exit ${r.status ?? r.signal})` };
  }
  if (process.env.E2E_VSIX) return fs.existsSync(process.env.E2E_VSIX) ? { vsix: process.env.E2E_VSIX } : { problem: `E2E_VSIX=${process.env.E2E_VSIX} does not exist` };
  const built = ['dist/extension.js', 'dist/cli.js', 'dist/hook.js', 'package.json'].map(f => path.join(REPO_ROOT, f));
  if (!built.every(f => fs.existsSync(f))) return { problem: 'dist/ missing: run `npm run build` first' };
  const newest = Math.max(...built.map(f => fs.statSync(f).mtimeMs));
  const vsixIn = dir => (fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.vsix')).map(f => path.join(dir, f)) : []);
  const fresh = [...vsixIn(path.join(e2eDir, 'vsix-under-test')), ...vsixIn(path.join(e2eDir, 'vsix-agents'))].find(f => fs.statSync(f).mtimeMs >= newest);
  if (fresh) return { vsix: fresh };
  const out = path.join(e2eDir, 'vsix-agents');
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--target', `${process.platform}-${process.arch}`, '--out', out], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) return { problem: `npm run package failed (exit ${r.status ?? r.signal}):\n${(r.stderr || r.stdout).slice(-3000)}` };
  const [vsix] = vsixIn(out);
  return vsix ? { vsix } : { problem: `npm run package wrote no .vsix into ${out}` };
}

/** A fresh git repository with a failing build (it counts its runs) and a passing script, and a HOME. */
function workspace() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fm-agents-vscode-')));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(ws);
  fs.mkdirSync(home);
  spawnSync('git', ['init', '-q'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'build.sh'), `echo run >> runs.log\necho "${ERROR_LINE}" >&2\nexit 1\n`);
  fs.writeFileSync(path.join(ws, 'ok.sh'), 'echo ok > ok.marker\n');
  return { root, ws, home };
}

// memory as Failure Memory reads it (`failure-memory export`): memory.json with the runs hooks journaled beside it
const memoryOf = ws => {
  const r = spawnSync(process.execPath, [CLI, 'export', '--workspace', ws], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `failure-memory export: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const runsLogged = ws => (fs.existsSync(path.join(ws, 'runs.log')) ? fs.readFileSync(path.join(ws, 'runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);
const chatRequests = mock => mock.requests.filter(q => q.api === 'chat' && offersTools('chat', q.body));

/** "Chat: Manage Language Models": what turns the built-in chat on in a fresh profile; the mock's model is listed. */
async function enableChat(h) {
  await h.runCommand('Chat: Manage Language Models', { waitHidden: false });
  const row = h.page.locator('.monaco-list-row, tr', { hasText: 'Mock Coder' }).filter({ visible: true }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => { throw new Error('the Ollama mock\'s model never showed in "Chat: Manage Language Models"'); });
  await h.page.keyboard.press('Escape');
}

/** Types a prompt into the visible chat input and sends it. */
async function sendPrompt(h, text) {
  const input = h.page.locator('.interactive-input-part .monaco-editor').filter({ visible: true }).first();
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.click();
  await h.page.keyboard.type(text);
  await h.page.keyboard.press('Enter');
}

/**
 * VS Code asks before its agent runs a terminal command. A user who listed the project's scripts in
 * chat.tools.terminal.autoApprove opts in once ("Enable Auto Approve…", then the warning's Enable);
 * any other confirmation is answered Allow. Returns how many were answered which way.
 */
async function approveWhileRunning(h, done, timeoutMs) {
  const answered = { enabled: 0, allowed: 0 };
  const widget = h.page.locator('.chat-confirmation-widget2').filter({ visible: true }).first();
  for (const end = Date.now() + timeoutMs; !done(); ) {
    if (Date.now() > end) throw new Error(`the agent did not finish in ${timeoutMs / 1000} s (model requests so far: ${done.progress?.() ?? '?'})`);
    if (await widget.isVisible().catch(() => false)) {
      if (!answered.enabled) {
        if (await enableAutoApprove(h, widget)) answered.enabled++;
      } else {
        await widget.locator('.monaco-button', { hasText: /^Allow$/ }).first().click();
        answered.allowed++;
      }
      await h.page.waitForTimeout(300);
    }
    await h.page.waitForTimeout(200);
  }
  return answered;
}

/** The confirmation's dropdown, "Enable Auto Approve…", and the warning's Enable; false when a step did not show (tried again). */
async function enableAutoApprove(h, widget) {
  const step = async (locator, what) => {
    await locator.waitFor({ state: 'visible', timeout: 5000 }).catch(() => { throw new Error(`${what} did not show`); });
    await h.page.waitForTimeout(300); // VS Code's menus and dialogs take their clicks once laid out
    await locator.click();
  };
  try {
    await step(widget.locator('.monaco-dropdown-button').filter({ visible: true }).first(), 'the confirmation\'s dropdown');
    await step(h.page.locator('.monaco-menu .action-label', { hasText: 'Enable Auto Approve' }).first(), '"Enable Auto Approve…"');
    await step(h.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Enable$/ }).first(), 'the warning\'s Enable');
    return true;
  } catch {
    await h.page.keyboard.press('Escape');
    return false;
  }
}

/** Waits until the model got a request carrying `n` tool results (the script's step n), or fails. */
function stepReached(mock, n) {
  const done = () => chatRequests(mock).some(q => q.step >= n);
  done.progress = () => chatRequests(mock).map(q => q.step).join(',');
  return done;
}

/** AGENTS_CAPTURE=dir: every hook payload VS Code sends is kept under dir/vscode (see ./fixtures.mjs). */
function captureEnv() {
  if (!process.env.AGENTS_CAPTURE) return {};
  return { FAILURE_MEMORY_BIN: path.join(HERE, 'capture-hook.sh'), AGENTS_CAPTURE_DIR: path.resolve(process.env.AGENTS_CAPTURE, 'vscode') };
}

async function vscodeAgentLoop(t) {
  const vsix = process.env.AGENTS_VSCODE_VSIX;
  if (!vsix) throw new Error(`VS Code ${VSCODE} is not ready: ${process.env.AGENTS_VSCODE_PROBLEM || 'run this suite through test/agents/run.mjs'}`);
  const { startVSCode } = await import('../e2e/harness.mjs');
  const { root, ws, home } = workspace();
  const mock = await startMockModel();
  let h;
  let ok = false;
  try {
    const setup = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', 'vscode'], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
    assert.equal(setup.status, 0, `setup-agents failed:\n${setup.stdout}${setup.stderr}`);
    assert.ok(fs.existsSync(path.join(ws, '.github', 'hooks', 'failure-memory.json')), setup.stdout);

    mock.setScript([...VARIANTS.map((c, i) => runInTerminal(c, i + 1)), runInTerminal(CLEAR, VARIANTS.length + 1)]);
    h = await startVSCode({ name: 'agents-vscode', vscode: VSCODE, vsix, workspace: ws, settings: settings(mock.url), env: { HOME: home, ...captureEnv() }, timeout: 120_000 });
    await enableChat(h);
    await sendPrompt(h, 'Build the project.');
    const approvals = await approveWhileRunning(h, stepReached(mock, VARIANTS.length + 1), 150_000);
    t.diagnostic(`session 1: ${chatRequests(mock).length} model requests; confirmations: auto-approve enabled ${approvals.enabled}, allowed ${approvals.allowed}`);
    const first = [...mock.requests];
    assert.ok(chatRequests({ requests: first })[0].body.tools.some(x => x.function?.name === 'run_in_terminal'), 'agent mode: the model is offered run_in_terminal');
    assert.equal(chatRequests({ requests: first })[0].body.model, OLLAMA_MODEL);

    // ok.sh's record may land just after the model's last request (its output is handed over first)
    const recorded = () => h.readEvents().filter(e => e.event === 'recorded' && e.command?.startsWith('bash'));
    await h.waitFor(() => recorded().length >= VARIANTS.length, 20_000, 'the terminal\'s records of the six runs').catch(() => {});
    await t.test('each failure run in the agent\'s terminal is recorded exactly once, by the terminal, with its output', () => {
      const a = memoryOf(ws).approaches[`.::${FAILING}`];
      assert.ok(a, `no approach for ${FAILING}: ${JSON.stringify(Object.keys(memoryOf(ws).approaches))}`);
      assert.deepEqual(a.attempts.map(x => [x.exitCode, x.source]), Array(THRESHOLD).fill([1, 'terminal']), 'shell integration records each run; the hook never records it again');
      assert.equal(a.failures, THRESHOLD);
      for (const x of a.attempts) assert.match(x.output, /Cannot find module 'left-pad'/, 'the output, handed over by the hook where shell integration missed it');
      assert.doesNotMatch(JSON.stringify(a.attempts), /Command produced no output|Command exited with code/, "VS Code's own notes are not the command's output");
      assert.deepEqual(recorded().map(e => e.exitCode), [1, 1, 1, 1, 1, 0], 'one record per run: five failures, then ok.sh');
    });
    await t.test('the exhausted command never runs again, and the model is told why', () => {
      assert.equal(runsLogged(ws), THRESHOLD, `build.sh ran ${runsLogged(ws)} times (the gate must stop the ${THRESHOLD + 1}th)`);
      const afterDeny = chatRequests({ requests: first }).find(q => q.step === THRESHOLD + 1);
      assert.ok(afterDeny, 'a model request after the refused call');
      const toolResult = afterDeny.body.messages.filter(m => m.role === 'tool').at(-1);
      assert.match(String(toolResult?.content), /NOT RUN — ⟦bash build\.sh⟧ is an exhausted approach/, 'the refusal is the tool result the model reads');
    });
    await t.test('a clear command runs', () => {
      assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), 'ok.sh ran');
    });

    // a new chat: VS Code fires SessionStart and UserPromptSubmit again
    mock.setScript([]);
    await h.page.locator('.action-label[aria-label^="New Chat"]').filter({ visible: true }).first().click();
    await sendPrompt(h, 'Check the project.');
    await h.waitFor(() => chatRequests(mock).length > 0, 60_000, 'the new chat\'s first model request');
    await t.test('a new chat\'s first model request already carries the failure summary', () => {
      const seen = JSON.stringify(chatRequests(mock)[0].body);
      assert.match(seen, /EXHAUSTED: `bash (\.\/)?build\.sh/, 'the summary names the exhausted command');
      assert.ok(seen.includes("Cannot find module 'left-pad'"), 'the summary carries its last error');
    });
    ok = true;
  } finally {
    if (h && !ok) {
      await h.screenshot('agents-vscode-failure').catch(() => {});
      t.diagnostic(`VS Code logs: ${h.saveLogs()}`);
    }
    await h?.stop();
    await mock.close();
    if (ok && process.env.AGENTS_KEEP !== '1') {
      h?.removeRunDir();
      fs.rmSync(root, { recursive: true, force: true });
    } else t.diagnostic(`left for inspection: ${root}${h ? `, ${h.runDir}` : ''}`);
  }
}

export const vscodeScenarios = [
  { name: 'VS Code agent mode: the gate in the real harness', harnesses: ['vscode'], versions: `VS Code ${VSCODE_PROGRAM.version} (code-server ${CODE_SERVER}), Copilot Chat on a BYOK Ollama mock`, timeout: 300_000, run: t => vscodeAgentLoop(t) },
];
