// Multi-root: each folder has its own memory, a command is recorded in the folder its cwd is in.
// blockMode "warn": an exhausted approach is not stopped, only the help dialog shows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const timeout = 180_000;

export const options = {
  workspaceFiles: {
    'alpha/README.md': 'alpha\n',
    'beta/fail.sh': 'sleep 0.2\necho "Error: listen EADDRINUSE: address already in use :::5173" >&2\nexit 1\n',
    'multi.code-workspace': JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }] }),
  },
  workspaceFile: 'multi.code-workspace',
  settings: { 'failureMemory.blockMode': 'warn', 'failureMemory.threshold': 2 },
};

export async function run(h) {
  const { page } = h;
  const mem = folder => path.join(h.workspace, folder, '.vscode/failure-memory/memory.json');
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'activated' });
  assert.deepEqual(activated.folders, ['alpha', 'beta']);

  await h.openTerminal({ folder: 'beta' });
  for (let i = 1; i <= 2; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('sh fail.sh --port 5173');
    assert.equal(r.exitCode, 1);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 1, { since: n, what: `recorded run ${i}` });
    assert.equal(rec.folder, 'beta');
    assert.equal(rec.cwd, '.');
    assert.equal(rec.attempts, i);
  }
  assert.ok(fs.existsSync(mem('beta')), 'beta has its own memory');
  assert.ok(!fs.existsSync(mem('alpha')), 'alpha has none');
  const beta = JSON.parse(fs.readFileSync(mem('beta'), 'utf8'));
  assert.equal(beta.approaches['.::sh fail.sh'].status, 'exhausted');
  assert.match(beta.approaches['.::sh fail.sh'].lastErrorSignature, /EADDRINUSE/);

  // warn mode: runs (exit 1, not 130), and the dialog still explains
  const n = h.readEvents().length;
  const third = await h.typeInTerminal('sh fail.sh');
  assert.equal(third.exitCode, 1, 'not interrupted in warn mode');
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'warned' });
  assert.equal(blocked.interrupted, false);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  assert.match(await dialog.innerText(), /“sh fail\.sh” has failed too often/);
  assert.doesNotMatch(await dialog.innerText(), /stopped/, 'warn mode never says stopped');
  await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
  const rec = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 1, { since: n, what: 'third run recorded' });
  assert.equal(rec.attempts, 3);
}
