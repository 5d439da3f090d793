// Tasks: an exhausted task is terminated when it starts again, with the help dialog.
// Terminals without shell integration: the user is told once, and the tooltip says what is live.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const timeout = 180_000;

export const options = {
  workspaceFiles: {
    // slow enough for the guard to stop it before it ends by itself
    'build.sh': 'echo "compiling"; sleep 3; echo "error: linker failed" >&2; exit 3\n',
    '.vscode/tasks.json': JSON.stringify({
      version: '2.0.0',
      tasks: [{ label: 'build', type: 'shell', command: 'sh build.sh --release', problemMatcher: [], presentation: { reveal: 'always', panel: 'shared' } }],
    }),
  },
  settings: {
    'failureMemory.threshold': 2,
    // a shell VS Code has no shell integration for
    'terminal.integrated.profiles.linux': { 'plain-sh': { path: '/bin/sh' } },
    'terminal.integrated.defaultProfile.linux': 'plain-sh',
  },
};

export async function run(h) {
  const { page } = h;
  await h.waitForActivation();
  const mem = () => JSON.parse(fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/memory.json'), 'utf8'));

  // a terminal without shell integration: told once, with a way to turn it on
  await h.runCommand('Terminal: Create New Terminal');
  await page.locator('.terminal-wrapper').first().waitFor({ timeout: 20000 });
  const toast = page.locator('.notification-toast', { hasText: 'shell integration is not active' }).first();
  await toast.waitFor({ timeout: 30000 });
  assert.ok(await toast.locator('.monaco-button', { hasText: 'Open Setting' }).count(), 'Open Setting button');
  await h.screenshot('no-shell-integration');
  await h.clearNotifications();

  for (let i = 1; i <= 2; i++) {
    const n = h.readEvents().length;
    await h.runTask('build');
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.source === 'task', { since: n, timeout: 30000, what: `task run ${i}` });
    assert.equal(rec.exitCode, 3);
    assert.equal(rec.key, '.::sh build.sh');
    assert.equal(rec.attempts, i);
    assert.ok(!h.readEvents().slice(n).some(e => e.event === 'recorded' && e.source === 'terminal'), 'the task terminal is not recorded as a terminal command');
    await h.clearNotifications();
  }
  assert.equal(mem().approaches['.::sh build.sh'].status, 'exhausted');

  // the third start is terminated at once, and the dialog explains
  const n = h.readEvents().length;
  const t0 = Date.now();
  await h.runTask('build');
  const blocked = await h.waitForEvent(e => e.event === 'blocked' && e.source === 'task', { since: n, what: 'task blocked' });
  assert.equal(blocked.interrupted, true);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  assert.match(await dialog.innerText(), /Failure Memory stopped “sh build\.sh”/);
  await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
  // the terminated run is not an attempt
  await h.waitFor(() => Date.now() - t0 > 4000, 10000, 'the task would have ended by now');
  assert.ok(!h.readEvents().slice(n).some(e => e.event === 'recorded' && e.source === 'task'), 'a stopped task is not recorded');
  assert.equal(mem().approaches['.::sh build.sh'].failures, 2);

}
