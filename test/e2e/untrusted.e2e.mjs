// Workspace trust: in an untrusted (restricted mode) workspace nothing is written into the
// workspace; the memory lives in the extension's own storage, and the guard still works.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const timeout = 180_000;

export const options = {
  untrusted: true,
  settings: {
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never',
    'security.workspace.trust.emptyWindow': false,
    'failureMemory.threshold': 2,
  },
  workspaceFiles: { 'fail.sh': 'sleep 0.2\necho "fatal: not a git repository" >&2\nexit 128\n' },
};

export async function run(h) {
  await h.waitForActivation();
  await h.openTerminal();
  for (let i = 1; i <= 2; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('sh fail.sh');
    assert.equal(r.exitCode, 128);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 128, { since: n, what: `run ${i} recorded` });
    assert.equal(rec.attempts, i);
  }
  assert.ok(!fs.existsSync(path.join(h.workspace, '.vscode')), 'nothing written into the untrusted workspace');
  // the memory is in the extension's storage under the user-data-dir
  const found = [];
  const walk = d => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name === 'memory.json') found.push(p); } };
  walk(path.join(h.runDir, 'udd'));
  assert.equal(found.length, 1, `memory.json in extension storage: ${found.join(', ')}`);
  assert.ok(found[0].includes('failure-memory'), found[0]);
  const mem = JSON.parse(fs.readFileSync(found[0], 'utf8'));
  assert.equal(mem.approaches['.::sh fail.sh'].status, 'exhausted');
  // and the guard still stops the loop: at Enter, the line never starts
  const n = h.readEvents().length;
  await h.typeInTerminal('sh fail.sh', { wait: false });
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'blocked in the untrusted workspace' });
  assert.equal(blocked.at, 'enter');
}
