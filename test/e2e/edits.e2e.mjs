// The terminal's own policy in a real VS Code (a person at the keyboard) and saves as edits, where the
// shell has no check at Enter (failureMemory.terminal.gateAtEnter off: the start event's interrupt, the
// fallback for such shells; the check itself is entergate*.e2e):
// - a run that repeats the loop with nothing changed (same git state, no saved edit) is interrupted;
// - after the user saves a fix in the editor the run is let through, said quietly in the status bar;
// - a dead endpoint (`curl 127.0.0.1:9/health`) failing identically with nothing started is denied at the
//   sixth failure, and no Ctrl+C reaches the prompt after a run that ended on its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findPanelFrame } from './harness.mjs';

export const timeout = 240_000;

// the test reads src/cart.js; it takes 1 s, so that an interrupt lands while it runs
const TEST_SH = `#!/bin/bash
sleep 1
if grep -q 'return total;' src/cart.js; then echo "4 passing"; exit 0; fi
echo "AssertionError [ERR_ASSERTION]: 6 !== 5" >&2
echo "    at test/cart.test.js:7:10" >&2
exit 1
`;

export const options = {
  settings: { 'failureMemory.terminal.gateAtEnter': false },
  workspaceFiles: {
    'test.sh': TEST_SH,
    'src/cart.js': 'function total(items) {\n  let total = 0;\n  for (const i of items) total += i;\n  return total + 1;\n}\nmodule.exports = { total };\n',
    '.gitignore': '.vscode/failure-memory/\n',
  },
};

export async function run(h) {
  const { page } = h;
  const memoryFile = path.join(h.workspace, '.vscode/failure-memory/memory.json');
  const readMemory = () => JSON.parse(fs.readFileSync(memoryFile, 'utf8'));
  // a git repository: the guard compares the git state of the last failure with the one at the start
  const git = (...args) => execFileSync('git', args, { cwd: h.workspace, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@x', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@x' } });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');

  await h.waitForActivation();
  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // 1. five identical failures: exhausted
  for (let i = 1; i <= 5; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('bash test.sh');
    assert.equal(r.exitCode, 1);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'bash test.sh', { since: n, what: `failure ${i} recorded` });
    assert.equal(rec.attempts, i);
  }
  assert.equal(readMemory().approaches['.::bash test.sh'].status, 'exhausted');

  // 2. nothing changed: the sixth run is interrupted, with the dialog
  let n = h.readEvents().length;
  const sixth = await h.typeInTerminal('bash test.sh');
  assert.equal(sixth.exitCode, 130, 'interrupted: the loop repeated with nothing changed');
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'the deny' });
  assert.deepEqual([blocked.interrupted, blocked.decision, blocked.code], [true, 'deny', 'same-error-unchanged']);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  assert.match(await dialog.innerText(), /Failure Memory stopped “bash test\.sh”/);
  await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10000 });

  // 3. the user fixes src/cart.js in the editor and saves: an edit event of the memory
  await h.runCommand('Go to File...', { waitHidden: false });
  const quick = page.locator('.quick-input-widget input.input');
  await quick.waitFor({ state: 'visible', timeout: 10000 });
  await quick.fill('cart.js');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'cart.js' }).first().click();
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ timeout: 15000 });
  await page.locator('.monaco-editor .view-line', { hasText: 'return total + 1;' }).first().click();
  await page.keyboard.press('End');
  for (let i = 0; i < ' + 1;'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type(';');
  await h.runCommand('File: Save', { waitHidden: true });
  await h.waitFor(() => fs.readFileSync(path.join(h.workspace, 'src/cart.js'), 'utf8').includes('return total;'), 10000, 'the fix saved');
  await h.waitFor(() => (readMemory().edits ?? []).some(e => e.path === 'src/cart.js' && e.source === 'save'), 10000, 'the save recorded as an edit event');

  // 4. after the change the run is let through (and passes), said quietly: no dialog, no interrupt
  await h.openTerminal();
  n = h.readEvents().length;
  const fixed = await h.typeInTerminal('bash test.sh');
  assert.equal(fixed.exitCode, 0, 'not interrupted after a saved fix');
  const ok = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'bash test.sh' && e.exitCode === 0, { since: n, what: 'the passing run' });
  assert.equal(ok.status, 'resolved');
  assert.ok(!h.readEvents().slice(n).some(e => e.event === 'blocked'), 'never stopped after the change');
  assert.equal(await dialog.count(), 0, 'no dialog');
  await h.screenshot('let-through-after-save');

  // 5. a dead endpoint, nothing started: five identical failures, the sixth is denied; it ends on its own
  //    at once, and no Ctrl+C is typed after it (what the user types next is intact)
  n = h.readEvents().length;
  for (let i = 1; i <= 5; i++) await h.typeInTerminal('curl -sS --max-time 2 http://127.0.0.1:9/health');
  // the fifth failure is recorded (after its output is read) before the sixth starts
  await h.waitForEvent(e => e.event === 'recorded' && e.command.startsWith('curl') && e.attempts === 5, { since: n, what: 'the fifth curl recorded' });
  n = h.readEvents().length;
  await h.typeInTerminal('curl -sS --max-time 2 http://127.0.0.1:9/health');
  const dead = await h.waitForEvent(e => e.event === 'recorded' && e.command.startsWith('curl') && e.attempts === 6, { since: n, what: 'the sixth curl recorded' });
  assert.equal(dead.exitCode, 7);
  await h.waitFor(() => (readMemory().decisions ?? []).some(d => d.label.startsWith('curl') && d.decision === 'deny' && d.code === 'same-error-unchanged' && d.via === 'terminal'), 10000, 'the deny in the decision log');
  await page.keyboard.type('echo still-typing');
  await new Promise(r => setTimeout(r, 1500));
  const text = await h.terminalText();
  assert.match(text, /echo still-typing$/m, 'the prompt was not erased by a late Ctrl+C');
  assert.doesNotMatch(text.split('\n').slice(-3).join('\n'), /\^C/);
  await page.keyboard.press('Enter');
  await h.screenshot('dead-endpoint-denied');

  // 6. the panel lists the gate's decisions with their rule
  await h.runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel webview frame');
  const decisions = frame.locator('#section-decisions');
  await decisions.waitFor({ timeout: 10000 });
  await h.waitFor(async () => (await decisions.innerText()).includes('curl http://127.0.0.1:9/health'), 10000, 'the curl deny in Gate decisions');
  const listed = await decisions.innerText();
  assert.match(listed, /Denied: bash test\.sh/);
  assert.match(listed, /Rule same-error-unchanged · via terminal/);
  // the run after the fix earned its run (a change since the last failure): no decision, no ask, no warning
  assert.doesNotMatch(listed, /(?:asked|Warned)[^\n]*: bash test\.sh/i, 'the run after the fix is not a gate decision');
  await h.screenshot('gate-decisions');
}
