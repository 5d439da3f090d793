// Enter → help dialog at the default memory limit (500 approaches), in a real VS Code (code-server,
// test/e2e/harness.mjs): an exhausted approach is run again, and the time from the Enter key to the
// extension's helpDialog event is taken, with what became of the run (did it start, was a ^C typed,
// what did the dialog say). Two commands: one that fails within a few milliseconds, one that runs
// for a second. Run it on this branch (the check at Enter) and on an earlier build (the start
// event's interrupt) to compare:
//   node bench/enter-gate.mjs [--ext DIR] [--label NAME] [--vscode 1.100|1.139] [--runs 5] [--gate on|off] [--out FILE]
// --ext: an extension folder with package.json and dist/ (default: this repository's development build).
// The Enter time is Playwright's key press: what a person's Enter costs before the shell sees it
// (browser → code-server → pty) is in the figure. Nothing here asserts a time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startVSCode } from '../test/e2e/harness.mjs';

process.env.E2E_QUIET ??= '1';
const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const runs = Number(opt('runs', 5));
const ext = path.resolve(opt('ext', REPO_ROOT));
const label = opt('label', path.basename(ext));
const gate = opt('gate', 'on');
const STATUS = '.statusbar-item[id*="failureMemory.status"]';

// fast: done in about 70 ms (its error comes after 60 ms: VS Code's read() misses the output of instant
// commands, and without an error line five failures are not "the same error five times")
const COMMANDS = {
  fast: 'echo run >> ran-fast.txt\nsleep 0.06\necho "Error: connect ECONNREFUSED 127.0.0.1:5432" >&2\nexit 1\n',
  slow: 'echo run >> ran-slow.txt\nsleep 1\necho "Error: connect ECONNREFUSED 127.0.0.1:6379" >&2\nexit 1\n',
};
const count = (h, name) => {
  try {
    return fs.readFileSync(path.join(h.workspace, `ran-${name}.txt`), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};
const median = xs => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);

async function sixth(h, name) {
  const { page } = h;
  const cmd = `sh ${name}.sh`;
  const before = count(h, name);
  const n = h.readEvents().length;
  await h.typeInTerminal(cmd, { wait: false, enter: false });
  const pressed = Date.now();
  await page.keyboard.press('Enter');
  const shown = await h.waitForEvent(e => e.event === 'helpDialog', { since: n, timeout: 15000, what: 'the help dialog' }).catch(() => null);
  const dialog = page.locator('.monaco-dialog-box');
  let title = null;
  if (shown) {
    await dialog.waitFor({ timeout: 10000 });
    title = (await dialog.locator('.dialog-message-text').first().innerText()).trim();
    await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10000 });
  }
  // the run, if it started, has ended by now (the slow one runs a second)
  await new Promise(r => setTimeout(r, 2500));
  const stop = h.readEvents().slice(n).find(e => e.event === 'stopResult');
  return {
    ms: shown ? Date.parse(shown.t) - pressed : null,
    started: count(h, name) > before,
    stop: stop?.result ?? null,
    title,
    caret: /\^C/.test(await h.terminalText()),
  };
}

async function main() {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-enter-bench-'));
  for (const [name, text] of Object.entries(COMMANDS)) fs.writeFileSync(path.join(workspace, `${name}.sh`), text);
  fs.writeFileSync(path.join(workspace, '.gitignore'), 'ran-*.txt\n');
  for (const a of [['init', '-q'], ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'start']]) spawnSync('git', a, { cwd: workspace });
  const h = await startVSCode({
    name: `bench-enter-${label}`,
    extensionDevPath: ext,
    workspace,
    ...(opt('vscode', undefined) ? { vscode: opt('vscode') } : {}),
    settings: gate === 'off' ? { 'failureMemory.terminal.gateAtEnter': false } : {},
  });
  const result = { label, vscode: h.vscode, gate, approaches: 500, runs, load: os.loadavg().map(l => Math.round(l * 100) / 100), commands: {} };
  try {
    await h.waitForActivation();
    await h.openTerminal();
    await h.typeInTerminal('sh fast.sh');
    await h.waitForEvent(e => e.event === 'recorded', { what: 'the first failure' });
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/seedMemory.ts', workspace, path.join(workspace, '.vscode/failure-memory'), '499'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (seeded.status !== 0) throw new Error(seeded.stderr);
    await h.page.locator(STATUS, { hasText: /\d{3} exhausted/ }).first().waitFor({ timeout: 20000 });
    for (const name of Object.keys(COMMANDS)) {
      while (count(h, name) < 5) await h.typeInTerminal(`sh ${name}.sh`);
      await h.waitFor(() => h.readEvents().some(e => e.event === 'recorded' && e.command === `sh ${name}.sh` && e.status === 'exhausted'), 20000, `${name} exhausted`);
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await sixth(h, name));
      const shownMs = samples.map(s => s.ms).filter(ms => ms !== null);
      result.commands[name] = {
        samples,
        dialogs: `${shownMs.length}/${samples.length}`,
        medianMs: median(shownMs),
        maxMs: shownMs.length ? Math.max(...shownMs) : null,
        started: `${samples.filter(s => s.started).length}/${samples.length}`,
        caret: samples.some(s => s.caret),
      };
      console.log(label, name, JSON.stringify(result.commands[name]));
    }
  } finally {
    await h.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const out = opt('out', undefined);
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
