// VS Code's own agent mode in the agents suite: the current VS Code (code-server 4.139.1 = VS Code
// 1.139.1, test/e2e/setup.sh installs it) with the packaged Failure Memory VSIX, its built-in
// Copilot Chat in agent mode offline on a BYOK Ollama endpoint: the scripted model of
// ./mockModel.mjs (Ollama's /api/version, /api/tags, /api/show, then /v1/chat/completions),
// driven in headless Chromium as a person would (test/e2e/harness.mjs). The project (the npm
// project of ./session.mjs) is set up only by `failure-memory setup-agents --harness vscode`, HOME is
// fresh. It lives the whole session the CLI harnesses live (./scenarios.mjs): the loop stopped, the
// fix made with VS Code's own edit tool verified, the respelled loop stopped, the summary once; each
// run in the agent's terminal recorded exactly once (by shell integration, with the terminal's exit
// code and the output the hook handed over); and, VS Code being interactive, the gate's ask is put to
// the person (its confirmation, the gate's reason in it).
//
// It lives in the agents suite (not test/e2e) because it is an agent harness like the others: the
// same scripted model, the same project and assertions, the same network namespace with loopback
// only (proof that VS Code, Copilot Chat and the hooks need nothing but the mock).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { offersTools, startMockModel } from './mockModel.mjs';
import { approachOf, failInTerminal, memoryOf, newAt, npmWorkspace, requestAt, RIGHT_FIX, runsLogged, scriptOf, snippetAt, summariesInFirstRequest, TEST, WRONG_FIX } from './session.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const VSCODE = '1.139';
const CODE_SERVER = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/e2e/vscode-versions.json'), 'utf8'))[VSCODE].codeServer;
/** The VS Code this scenario runs: code-server 4.<minor>.<patch> is VS Code 1.<minor>.<patch>. */
export const VSCODE_PROGRAM = { pkg: 'code-server', codeServer: CODE_SERVER, version: CODE_SERVER.replace(/^4\./, '1.') };
const THRESHOLD = 5;

/** VS Code's terminal tool, as its model calls it (tool_input of its PreToolUse hook). */
const runInTerminal = (command, n) => ({ tool: 'run_in_terminal', input: { command, explanation: `attempt ${n}`, goal: 'Build the project', mode: 'sync' } });

/** What a user sets once: the Ollama endpoint, hooks on, and which commands the agent may run unasked. */
const settings = url => ({
  'github.copilot.chat.byok.ollamaEndpoint': url,
  'chat.useHooks': true,
  // the project's test suite (the gate must hold even for a command the user auto-approves)
  'chat.tools.terminal.autoApprove': { '/^npm test\\b/': true },
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
async function approveWhileRunning(h, done, timeoutMs, answered = { enabled: 0, allowed: 0, asked: [] }) {
  const widget = h.page.locator('.chat-confirmation-widget2').filter({ visible: true }).first();
  for (const end = Date.now() + timeoutMs; !done(); ) {
    if (Date.now() > end) throw new Error(`the agent did not finish in ${timeoutMs / 1000} s (model requests so far: ${done.progress?.() ?? '?'})`);
    if (await widget.isVisible().catch(() => false)) {
      const text = (await widget.innerText().catch(() => '')).replace(/\s+/g, ' ');
      // the gate's question (a hook's ask) is answered Allow, as a person would after reading it
      if (/Failure Memory/.test(text)) {
        answered.asked.push(text);
        await widget.locator('.monaco-button', { hasText: /^Allow$/ }).first().click();
      } else if (!answered.enabled) {
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

/** AGENTS_CAPTURE=dir: every hook payload VS Code sends is kept under dir/vscode/session (see ./fixtures.mjs). */
function captureEnv() {
  if (!process.env.AGENTS_CAPTURE) return {};
  return { FAILURE_MEMORY_BIN: path.join(HERE, 'capture-hook.sh'), AGENTS_CAPTURE_DIR: path.resolve(process.env.AGENTS_CAPTURE, 'vscode', 'session') };
}

/** VS Code's edit tool, as its model calls it (copilot_replaceString). */
const replaceString = (filePath, oldString, newString) => ({ tool: 'replace_string_in_file', input: { filePath, oldString, newString, explanation: 'fix' } });

/** One chat: the prompt sent, the agent driven (confirmations answered) to the script's end; what the model received. */
async function chat(h, mock, script, prompt, answered, newChat = false) {
  mock.setScript(script);
  if (newChat) await h.page.locator('.action-label[aria-label^="New Chat"]').filter({ visible: true }).first().click();
  await sendPrompt(h, prompt);
  await approveWhileRunning(h, stepReached(mock, script.length), 240_000, answered);
  // the chat is done when the model is asked nothing more for a while (VS Code may ask again after the last step)
  for (let n = -1; n !== mock.requests.length; ) {
    n = mock.requests.length;
    await h.page.waitForTimeout(3000);
  }
  return { agentRequests: chatRequests(mock) };
}

/**
 * The whole session of the other harnesses (./scenarios.mjs), in VS Code's agent mode: the failing suite
 * run seven times in the agent's terminal runs five; a wrong fix with VS Code's own edit tool, then the
 * suite (it runs, warned); the right fix, then the suite (it passes, the block is cleared); a new chat is
 * not told it is blocked. Then the fix undone and the suite failed five times in the user's terminal
 * (recorded there, nothing changed since): the suite respelled or chained never runs; fixes that do not
 * reach the error each earn a run until the change budget is spent, and then the person is asked
 * (VS Code's confirmation, the gate's reason in it): allowed, it runs.
 */
async function vscodeAgentSession(t) {
  const vsix = process.env.AGENTS_VSCODE_VSIX;
  if (!vsix) throw new Error(`VS Code ${VSCODE} is not ready: ${process.env.AGENTS_VSCODE_PROBLEM || 'run this suite through test/agents/run.mjs'}`);
  const { startVSCode } = await import('../e2e/harness.mjs');
  const { SEVEN, RESPELLED, FUTILE_FIXES, WARNING_SHOWN } = await import('./scenarios.mjs');
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fm-agents-vscode-')));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const ws = npmWorkspace(root);
  const mock = await startMockModel();
  let h;
  let ok = false;
  try {
    const setup = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', 'vscode'], { cwd: ws, env: { ...process.env, HOME: home }, encoding: 'utf8' });
    assert.equal(setup.status, 0, `setup-agents failed:\n${setup.stdout}${setup.stderr}`);
    const pad = path.join(ws, 'src', 'pad.js');
    const one = scriptOf(call => {
      SEVEN.forEach((c, i) => call(`run${i + 1}`, runInTerminal(c, i + 1)));
      call('wrongFix', replaceString(pad, ...WRONG_FIX));
      call('afterWrongFix', runInTerminal(TEST, 8));
      call('rightFix', replaceString(pad, ...RIGHT_FIX));
      call('afterRightFix', runInTerminal(TEST, 9));
    });
    mock.setScript(one.script);
    h = await startVSCode({ name: 'agents-vscode', vscode: VSCODE, vsix, workspace: ws, settings: settings(mock.url), env: { HOME: home, ...captureEnv() }, timeout: 120_000 });
    await enableChat(h);
    const answered = { enabled: 0, allowed: 0, asked: [] };
    const first = await chat(h, mock, one.script, 'Run the tests and fix them.', answered);
    t.diagnostic(`chat 1: ${first.agentRequests.length} model requests; confirmations: auto-approve enabled ${answered.enabled}, allowed ${answered.allowed}`);
    assert.ok(first.agentRequests[0].body.tools.some(x => x.function?.name === 'run_in_terminal'), 'agent mode: the model is offered run_in_terminal');
    // the terminal records each run (the last may land just after the model's last request)
    const recorded = () => h.readEvents().filter(e => e.event === 'recorded' && /npm test/.test(e.command ?? ''));
    await h.waitFor(() => recorded().length >= THRESHOLD, 20_000, 'the terminal\'s records of the runs').catch(() => {});

    await t.test('seven runs of the failing suite in the agent\'s terminal run five times: the sixth and seventh are refused, and the model is told why', () => {
      const a = approachOf(ws, TEST);
      assert.ok(a, `no approach for npm test: ${JSON.stringify(Object.keys(memoryOf(ws).approaches))}`);
      assert.deepEqual(a.ledger.slice(0, THRESHOLD).map(x => x.exitCode), Array(THRESHOLD).fill(1), 'five failures');
      assert.equal(a.ledger.length, runsLogged(ws), 'each run recorded once (by shell integration; the hook never records it again)');
      assert.ok(a.attempts.every(x => x.source === 'terminal'), JSON.stringify(a.attempts.map(x => x.source)));
      for (const run of ['run6', 'run7']) assert.ok(newAt(first, one.after[run], /NOT RUN — ⟦npm test[^⟧]*⟧ is an exhausted approach/), `the refusal of ${run} is the tool result the model reads`);
    });
    await t.test('a warning reaches the model, as VS Code shows it', () => {
      assert.ok(newAt(first, one.after.run4, /Failure Memory \(warning\): ⟦npm test -- --bail⟧ failed \d of 5 times/), 'the fourth run is warned');
      t.diagnostic(`VS Code shows a warning: …${snippetAt(first, one.after.run4, /Failure Memory \(warning\)/)}…`);
      if (WARNING_SHOWN.vscode) assert.match(requestAt(first, one.after.run4), WARNING_SHOWN.vscode);
    });
    await t.test("a wrong fix with VS Code's edit tool earns a run, and the right fix another: it passes and clears the block", () => {
      assert.ok((memoryOf(ws).edits ?? []).filter(e => e.path === 'src/pad.js' && e.ok).length >= 2, `both fixes are edit events: ${JSON.stringify(memoryOf(ws).edits)}`);
      assert.ok(newAt(first, one.after.afterWrongFix, /Failure Memory \(warning\): ⟦npm test⟧ is exhausted/), 'the run after the wrong fix is warned');
      assert.deepEqual(approachOf(ws, TEST).ledger.slice(THRESHOLD).map(x => x.exitCode), [1, 0], 'it ran after each fix: the wrong one failed, the right one passed');
    });

    // a new chat: not told the suite is blocked
    const second = await chat(h, mock, [], 'Check the project.', answered, true);
    await t.test("a new chat's first model request does not say the suite is blocked", () => {
      assert.ok(second.agentRequests[0], 'a model request');
      assert.doesNotMatch(JSON.stringify(second.agentRequests[0].body), /EXHAUSTED: `npm test/);
    });

    // the user undoes the fix and fails the suite five times in their own terminal: exhausted, nothing changed since
    spawnSync('git', ['checkout', '--', 'src/pad.js'], { cwd: ws });
    failInTerminal(ws, home);
    const runsBefore = runsLogged(ws);
    const three = scriptOf(call => {
      RESPELLED.forEach((c, i) => call(`form${i}`, runInTerminal(c, i + 1)));
      FUTILE_FIXES.forEach(([from, to], i) => {
        call(`fix${i + 1}`, replaceString(pad, from, to));
        call(`run${i + 1}`, runInTerminal(TEST, 10 + i));
      });
    });
    const third = await chat(h, mock, three.script, 'Run the tests.', answered, true);
    await t.test('a new chat starts with the summary once, current although the failures were recorded in the user\'s terminal', () => {
      const body = JSON.stringify(third.agentRequests[0].body);
      assert.equal(summariesInFirstRequest(third), 1, [...body.matchAll(/Failure Memory for this workspace/g)].map(m => body.slice(Math.max(0, m.index - 300), m.index + 60)).join('\n---\n'));
      assert.match(JSON.stringify(third.agentRequests[0].body), /EXHAUSTED: ⟦npm test⟧/);
    });
    await t.test('the suite respelled or chained does not run in the agent\'s terminal', () => {
      const notTold = RESPELLED.filter((_, i) => !newAt(third, three.after[`form${i}`], /NOT RUN/));
      assert.deepEqual(notTold, [], 'each one is refused, the model told why');
    });
    await t.test('after the change budget, the gate asks the person (VS Code\'s confirmation, with the reason); allowed, the run goes on', () => {
      assert.equal(answered.asked.length, 1, `one question: ${JSON.stringify(answered.asked)}`);
      // VS Code renders the reason's markdown: the code spans lose their backticks
      assert.match(answered.asked[0], /PreToolUse hook required confirmation: Failure Memory: ⟦?npm test⟧? failed \d+ times in a row[^]*came back after each of the last \d+ changes/);
      t.diagnostic(`VS Code asks: ${answered.asked[0].slice(0, 400)}`);
      assert.equal(runsLogged(ws), runsBefore + FUTILE_FIXES.length, 'each fix earned a run, and the person allowed the last');
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
  { name: 'VS Code agent mode: a whole session (loop stopped, fix verified, respelled loop stopped, the person asked)', harnesses: ['vscode'], versions: `VS Code ${VSCODE_PROGRAM.version} (code-server ${CODE_SERVER}), Copilot Chat on a BYOK Ollama mock`, timeout: 600_000, run: t => vscodeAgentSession(t) },
];
