// Bad settings in a real VS Code: a redaction pattern the linear-time engine refuses (with link
// markup in it) and a maxOutputBytes out of range are each told once, as plain text (no link forms in
// the notification), also after the configuration changes again; recording goes on with the other
// pattern applied and the default bound.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const timeout = 150_000;

const BAD_PATTERN = '(?=x)[open](command:workbench.action.quit)';

export const options = {
  settings: {
    'failureMemory.redaction.extraPatterns': [BAD_PATTERN, 'ZQ-[0-9]+'],
    'failureMemory.maxOutputBytes': 300,
  },
};

export async function run(h) {
  const { page } = h;
  await h.waitForActivation();
  const toasts = () => page.locator('.notification-toast').evaluateAll(els => els.map(e => e.textContent ?? ''));
  await h.waitFor(async () => (await toasts()).some(t => t.includes('Invalid redaction pattern')), 20000, 'the pattern notification');
  await h.waitFor(async () => (await toasts()).some(t => t.includes('failureMemory.maxOutputBytes must be a number from 1024 to 1048576')), 20000, 'the maxOutputBytes notification');
  const told = (await toasts()).filter(t => t.includes('Invalid redaction pattern'));
  assert.equal(told.length, 1);
  assert.match(told[0], /\[open\]/, 'the pattern is shown as text');
  assert.equal(await page.locator('.notification-toast .notification-list-item-message a').count(), 0, 'no link in a settings notification');

  // the configuration changes again (a workspace setting): nothing is told twice
  const n = h.readEvents().length;
  fs.mkdirSync(path.join(h.workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(h.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.notifications.sameError': false }));
  await h.waitForEvent(e => e.event === 'settingsApplied', { since: n, what: 'the settings applied again' });
  assert.equal((await toasts()).filter(t => t.includes('Invalid redaction pattern')).length, 1, 'told once');
  await h.clearNotifications();

  // recording goes on: the valid pattern redacts, the default bound (16 KiB) applies
  await h.openTerminal();
  const r = await h.typeInTerminal(`sh -c 'sleep 0.3; printf "%02000d\\n" 0; echo "error: token ZQ-4711 refused" >&2; exit 3'`);
  assert.equal(r.exitCode, 3);
  await h.waitForEvent(e => e.event === 'recorded', { since: n, what: 'the failure recorded' });
  const mem = JSON.parse(fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/memory.json'), 'utf8'));
  const attempt = Object.values(mem.approaches)[0].attempts.at(-1);
  assert.ok(!JSON.stringify(mem).includes('ZQ-4711'), 'the valid pattern still redacts');
  assert.match(attempt.output, /\[REDACTED:custom\]/);
  assert.ok(attempt.output.length > 2000, `the default bound, not 300 bytes (${attempt.output.length})`);
}
