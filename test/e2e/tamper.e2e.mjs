// What the user sees in a real VS Code when the gate is tampered with behind Failure Memory's back:
// an approach exhausted in the terminal, then the workspace memory deleted (as an agent's
// `rm -rf .vscode/failure-memory` would) — the approach comes back from the gate's signed copy outside
// the workspace, a notification says what happened with Restore / Keep, and Restore keeps the run
// stopped; then memory.json edited to resolve it (as an agent's one-liner would) — the notification
// again, and Keep resolves it as the user's resolve, so the next run goes through and is recorded.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';

export const timeout = 240_000;
export const vscode = ['1.100', '1.139'];

// prints after a moment, so VS Code's execution.read() captures the error before the command ends
const CHECK_SH = `#!/bin/bash
sleep 0.5
echo "Error: config.yaml: missing key 'database.url'" >&2
exit 1
`;

export const options = {
  workspaceFiles: { 'check.sh': CHECK_SH },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';
const KEY = '.::bash check.sh';

export async function run(h) {
  const { page } = h;
  const dir = path.join(h.workspace, '.vscode/failure-memory');
  const memoryFile = path.join(dir, 'memory.json');
  // memory.json as it is on disk (no reader's repair): what the extension wrote back
  const readMemoryFile = () => JSON.parse(fs.readFileSync(memoryFile, 'utf8'));
  const approachOnDisk = () => {
    try {
      return readMemoryFile().approaches[KEY];
    } catch {
      return undefined; // not written yet, or being replaced
    }
  };
  const since = n => h.readEvents().slice(n);
  // the CLI as the user runs it (the harness points its copy of the gate's state at this run's HOME)
  const fm = args => {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist/cli.js'), ...args, '--workspace', h.workspace], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const shot = what => h.screenshot(`tamper-${what}${h.vscode === '1.100' ? '' : `-vscode-${h.vscode}`}`);
  const notice = page.locator('.notification-toast', { hasText: 'Failure Memory (' });
  // every notification on screen: a tampering is told once, not also as a store warning beside it
  const toasts = () => page.locator('.notification-toast').evaluateAll(els => els.map(e => e.textContent ?? ''));
  // shown once its fade-in is over (a screenshot before that catches it half transparent)
  const noticeShown = () => page.locator('.notification-toast.notification-fade-in-done', { hasText: 'Failure Memory (' }).first().waitFor({ timeout: 10000 });

  await h.waitForActivation();
  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // 1. five failures in the terminal: exhausted
  for (let i = 1; i <= 5; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('bash check.sh');
    assert.equal(r.exitCode, 1);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'bash check.sh', { since: n, what: `failure ${i} recorded` });
    assert.deepEqual([rec.key, rec.attempts, rec.status], [KEY, i, i < 5 ? 'active' : 'exhausted']);
  }
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 10000 });
  // memory as every reader sees it (the terminal's runs may still sit in the journal beside memory.json)
  const exported = JSON.parse(fm(['export'])).approaches[KEY];
  assert.deepEqual([exported.status, exported.failures], ['exhausted', 5]);
  await h.clearNotifications();

  // 2. the memory deleted behind VS Code's back: restored from the copy, said in a notification
  const beforeDelete = h.readEvents().length;
  let n = beforeDelete;
  for (const f of ['journal.jsonl', 'memory.json', 'memory.index.json']) fs.rmSync(path.join(dir, f), { force: true });
  const deleted = await h.waitForEvent(e => e.event === 'gateTampered', { since: n, timeout: 15000, what: 'the tampering told' });
  assert.deepEqual([deleted.kind, deleted.approaches, deleted.via], ['restored', [KEY], 'extension']);
  await noticeShown();
  let text = await notice.first().innerText();
  assert.match(text, new RegExp(`Failure Memory \\(${path.basename(h.workspace)}\\): At \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, the workspace memory \\(\\.vscode/failure-memory\\) was deleted, without a success seen by a hook or the terminal and without the user's resolve\\.`), text);
  assert.match(text, /The gate restored “bash check\.sh” from its copy in the user's data folder: it stops a run again\./, text);
  for (const b of ['Restore', 'Keep']) assert.equal(await notice.first().locator('.monaco-button', { hasText: b }).count(), 1, `button ${b}`);
  await shot('deleted-notice');
  assert.equal((await toasts()).length, 1, `one notification for one tampering: ${JSON.stringify(await toasts())}`);
  const back = await h.waitFor(approachOnDisk, 10000, 'memory.json written back');
  assert.deepEqual([back.status, back.failures], ['exhausted', 5]);
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 10000 });

  // Restore: the sixth run is stopped at Enter, nothing recorded
  await notice.first().locator('.monaco-button', { hasText: 'Restore' }).click();
  await notice.first().waitFor({ state: 'hidden', timeout: 10000 });
  n = h.readEvents().length;
  await h.typeInTerminal('bash check.sh', { wait: false });
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'the sixth run stopped' });
  assert.deepEqual([blocked.key, blocked.at, blocked.interrupted], [KEY, 'enter', false]);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  assert.match(await dialog.innerText(), /Failure Memory did not run “bash check\.sh”/);
  await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10000 });
  assert.ok(!since(n).some(e => e.event === 'recorded'), 'nothing ran, nothing is recorded');
  assert.equal(approachOnDisk().status, 'exhausted', 'Restore left it exhausted');
  assert.equal(since(beforeDelete).filter(e => e.event === 'gateTampered').length, 1, 'told once');

  // 3. memory.json edited to resolve it, the index removed (an agent's one-liner): the notice again; Keep
  await h.clearNotifications();
  n = h.readEvents().length;
  const edited = readMemoryFile();
  Object.assign(edited.approaches[KEY], { status: 'resolved', failures: 0 });
  fs.writeFileSync(memoryFile, JSON.stringify(edited));
  fs.rmSync(path.join(dir, 'memory.index.json'), { force: true });
  const changed = await h.waitForEvent(e => e.event === 'gateTampered', { since: n, timeout: 15000, what: 'the second tampering told' });
  assert.deepEqual([changed.kind, changed.approaches], ['restored', [KEY]]);
  await noticeShown();
  text = await notice.first().innerText();
  assert.match(text, /At [^,]+, 1 exhausted approach was changed in the workspace memory to no longer stop a run \(resolved, or fewer failures\)/, text);
  assert.match(text, /The gate restored “bash check\.sh”/, text);
  await shot('edited-notice');
  assert.equal((await toasts()).length, 1, `one notification for the second tampering: ${JSON.stringify(await toasts())}`);
  await h.waitFor(() => approachOnDisk()?.status === 'exhausted', 10000, 'the edit undone on disk');

  await notice.first().locator('.monaco-button', { hasText: 'Keep' }).click();
  await notice.first().waitFor({ state: 'hidden', timeout: 10000 });
  await h.waitFor(() => approachOnDisk()?.status === 'resolved', 10000, 'Keep resolves the approach');
  const kept = approachOnDisk();
  assert.deepEqual([kept.resolvedBy, kept.failures], ['manual', 0], 'resolved as the user resolves it');
  await h.waitFor(async () => !(await page.locator(STATUS).first().innerText()).includes('exhausted'), 10000, 'the status bar no longer says exhausted');

  // the next run goes through and is recorded; the user's Keep is no tampering
  n = h.readEvents().length;
  const r = await h.typeInTerminal('bash check.sh');
  assert.equal(r.exitCode, 1);
  const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'bash check.sh', { since: n, what: 'the run after Keep recorded' });
  assert.deepEqual([rec.key, rec.attempts, rec.status], [KEY, 1, 'active']);
  // one poll of the registry's safety net (2 s) later: still no stop, no new notice
  await new Promise(res => setTimeout(res, 2500));
  assert.ok(!since(n).some(e => e.event === 'blocked' || e.event === 'gateTampered'), JSON.stringify(since(n)));
  assert.deepEqual(await toasts(), [], 'no notification after Keep');
}

