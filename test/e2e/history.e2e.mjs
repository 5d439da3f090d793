// What fixed it, in a real VS Code on a git workspace: a test is broken by editing src/sum.js, run in
// the terminal until it fails, the file is fixed, the test passes — and a similar failure of another
// command is then offered "fixed by changing “src/sum.js”" (agents' check answer, recall answer, the
// panel). The panel card shows the run history; Copy as Prompt puts a brief on the clipboard; capture
// pauses and resumes from the palette and the status bar.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findPanelFrame } from './harness.mjs';

export const timeout = 240_000;

// prints after 0.3 s so that VS Code's execution.read() captures the output
const TEST_JS = `const sum = require('./src/sum');
setTimeout(() => {
  const got = sum(2, 2);
  if (got !== 4) {
    console.error('AssertionError [ERR_ASSERTION]: sum(2, 2) expected 4, received ' + got);
    process.exit(1);
  }
  console.log('ok sum');
}, 300);
`;
const CHECK_TOTAL_JS = `setTimeout(() => {
  console.error('AssertionError [ERR_ASSERTION]: total(2, 2) expected 4, received 0');
  process.exit(1);
}, 300);
`;
const GOOD = 'module.exports = (a, b) => a + b;\n';
const BROKEN = 'module.exports = (a, b) => a - b;\n';

export const options = {
  workspaceFiles: { 'test.js': TEST_JS, 'check-total.js': CHECK_TOTAL_JS, 'src/sum.js': GOOD },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';

export async function run(h) {
  const { page } = h;
  const git = (...args) => execFileSync('git', args, { cwd: h.workspace, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'e2e@example.com');
  git('config', 'user.name', 'e2e');
  git('add', 'test.js', 'check-total.js', 'src/sum.js');
  git('commit', '-q', '-m', 'sum');
  const memoryFile = path.join(h.workspace, '.vscode/failure-memory/memory.json');
  const approach = key => JSON.parse(fs.readFileSync(memoryFile, 'utf8')).approaches[key];

  await h.waitForActivation();
  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // 1. break the code; run the test until it fails (twice)
  fs.writeFileSync(path.join(h.workspace, 'src/sum.js'), BROKEN);
  for (let i = 0; i < 2; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('node test.js');
    assert.equal(r.exitCode, 1);
    await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node test.js' && e.outcome === 'failure', { since: n, what: 'the failing run recorded' });
  }
  const failing = approach('.::node test.js');
  assert.equal(failing.failures, 2);
  assert.equal(failing.ledger.length, 2);
  assert.equal(failing.ledger[1].git.branch, 'main');
  assert.deepEqual(Object.keys(failing.ledger[1].git.dirty), ['src/sum.js'], 'the run knows the working tree changed src/sum.js');

  // 2. fix the file; the test passes; the fix is remembered
  fs.writeFileSync(path.join(h.workspace, 'src/sum.js'), GOOD);
  let n = h.readEvents().length;
  assert.equal((await h.typeInTerminal('node test.js')).exitCode, 0);
  const passed = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node test.js' && e.outcome === 'success', { since: n, what: 'the passing run recorded' });
  assert.deepEqual(passed.fixedBy, ['src/sum.js']);
  const fixed = approach('.::node test.js');
  assert.equal(fixed.status, 'resolved');
  assert.equal(fixed.ledger.length, 3, 'the success is in the history; the history is not erased');
  assert.deepEqual(fixed.fix.files, ['src/sum.js']);

  // 3. a similar failure in another command: the fix is offered
  n = h.readEvents().length;
  assert.equal((await h.typeInTerminal('node check-total.js')).exitCode, 1);
  await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node check-total.js', { since: n, what: 'the other failure recorded' });
  const check = await h.invokeTool('failure_memory_check', { command: 'node check-total.js' });
  assert.equal(check.error, undefined, check.error);
  assert.match(check.text, /fixed by changing “src\/sum\.js”/, check.text);
  const recall = await h.invokeTool('failure_memory_recall', { query: 'AssertionError [ERR_ASSERTION]: total(2, 2) expected 4, received 0' });
  assert.match(recall.text, /lesson \(a saved note, untrusted\): ⟦“node test\.js” fixed by changing “src\/sum\.js”/, recall.text);

  // 4. the panel: the run history and the fix on the cards; Copy as Prompt
  await h.runCommand('Failure Memory: Show Memory');
  const view = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel webview frame');
  await view.locator('[data-role="history"]', { hasText: 'fixed by changing “src/sum.js”' }).first().waitFor({ timeout: 20000 });
  await view.locator('[data-role="history"]', { hasText: 'Passed 1 of the last 3 runs, last passed just now' }).first().waitFor({ timeout: 20000 });
  n = h.readEvents().length;
  await view.locator('.card[data-key=".::node check-total.js"] button[data-action="copyBrief"]').click();
  const copied = await h.waitForEvent(e => e.event === 'briefCopied' && e.key === '.::node check-total.js', { since: n, what: 'the brief copied' });
  assert.ok(copied.chars > 200);
  await h.screenshot('history-panel');

  // 5. pause capture from the palette: nothing is recorded; resume from the status bar
  await h.runCommand('Failure Memory: Pause Capture');
  await page.locator(STATUS, { hasText: 'Failure Memory paused' }).first().waitFor({ timeout: 10000 });
  assert.equal((await h.typeInTerminal('node check-total.js')).exitCode, 1);
  await new Promise(r => setTimeout(r, 1500));
  assert.equal(approach('.::node check-total.js').ledger.length, 1, 'a run while paused is not recorded');
  n = h.readEvents().length;
  await page.locator(STATUS).first().click();
  await h.waitForEvent(e => e.event === 'capturePaused' && e.paused === false, { since: n, what: 'capture resumed from the status bar' });
  n = h.readEvents().length;
  assert.equal((await h.typeInTerminal('node check-total.js')).exitCode, 1);
  await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node check-total.js', { since: n, what: 'recorded again after resuming' });
  assert.equal(approach('.::node check-total.js').ledger.length, 2);
}
