// One cause failing several commands, in a real VS Code: three commands refused by the database on
// :5432, five runs in all (each command only "failing 1 or 2 of 5" on its own), then
// - the status bar says "one cause: database on :5432 — 3 commands";
// - the next run of one of them is not started (the terminal's check at Enter), and the help dialog
//   names the cause and the commands;
// - the panel's Patterns section shows the cause, its commands and occurrences;
// - the database is started (`docker compose up -d db`) and a run passes: the pattern is resolved,
//   and the panel keeps the fix.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { findPanelFrame } from './harness.mjs';

export const timeout = 240_000;

// each "command" needs the database: refused until `docker compose up` (a stand-in in bin/) marks it up;
// it waits a second first, so that its output is read and a stop lands while it runs
const needsDb = what => `#!/bin/bash
sleep 1
if [ -f .db-up ]; then echo "${what}: ok"; exit 0; fi
echo 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused' >&2
echo '	Is the server running on that host and accepting TCP/IP connections?' >&2
exit 2
`;

export const options = {
  workspaceFiles: {
    'db-test.sh': needsDb('tests'),
    'migrate.sh': needsDb('migrations'),
    'seed.sh': needsDb('seed'),
    'bin/docker': '#!/bin/bash\nsleep 1\ntouch .db-up\necho "Container shop-db-1  Started"\n',
  },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';

export async function run(h) {
  const { page } = h;
  const memoryFile = path.join(h.workspace, '.vscode/failure-memory/memory.json');
  const readMemory = () => JSON.parse(fs.readFileSync(memoryFile, 'utf8'));
  fs.chmodSync(path.join(h.workspace, 'bin/docker'), 0o755);

  await h.waitForActivation();
  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // 1. three commands refused by the same database, five runs in all: the threshold's worth of one cause
  for (const [i, script] of ['db-test.sh', 'migrate.sh', 'seed.sh', 'db-test.sh', 'migrate.sh'].entries()) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal(`bash ${script}`);
    assert.equal(r.exitCode, 2);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === `bash ${script}`, { since: n, what: `bash ${script} recorded (failure ${i + 1})` });
    assert.equal(rec.attempts, i < 3 ? 1 : 2, 'each command on its own is only failing');
  }
  const [pattern] = readMemory().patterns;
  assert.deepEqual([pattern.cause, pattern.failures, pattern.systemic, pattern.approaches.length], ['conn_refused|localhost:5432', 5, true, 3]);

  // 2. the status bar names the cause
  await page.locator(STATUS, { hasText: 'one cause: database on :5432 — 3 commands' }).first().waitFor({ timeout: 10000 });
  await h.screenshot('patterns-status-bar');

  // 3. the sixth run, of a command that failed only once itself: not started for the cause, the dialog says which
  let n = h.readEvents().length;
  await h.typeInTerminal('bash seed.sh', { wait: false });
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'the stop' });
  assert.deepEqual([blocked.at, blocked.interrupted, blocked.decision, blocked.code], ['enter', false, 'deny', 'systemic-cause']);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  const said = await dialog.innerText();
  assert.match(said, /Failure Memory did not run “bash seed\.sh”: one cause: database on :5432 — 3 commands/);
  assert.match(said, /One cause: the database at localhost:5432 refused 5 runs of 3 commands since/);
  assert.match(said, /Commands it broke: bash seed\.sh · bash db-test\.sh · bash migrate\.sh/);
  assert.match(said, /Here it failed once with it\./);
  assert.doesNotMatch(said, /Other approaches tried/, 'the cause names the commands already');
  assert.match(said, /Another command that needs the same thing fails the same way: start it first\./);
  await h.screenshot('patterns-dialog');
  await dialog.locator('.monaco-button', { hasText: 'Dismiss' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10000 });
  await page.locator('.statusbar-item', { hasText: 'Failure Memory did not run “bash seed.sh”: one cause: database on :5432 — 3 commands' }).first().waitFor({ timeout: 10000 });
  assert.ok(!h.readEvents().slice(n).some(e => e.event === 'recorded'), 'nothing ran, nothing is recorded');
  // the terminal's own line names the cause, not the command's one failure
  // (the terminal wraps the line where its width ends, inside a word too: compared without white space)
  const said2 = (await h.terminalText()).replace(/\s+/g, '');
  assert.ok(said2.includes('Failure Memory: NOT RUN — “bash seed.sh” fails on a cause that keeps failing other commands too (the database at localhost:5432).'.replace(/\s+/g, '')), 'the terminal names the cause');

  // 4. the panel's Patterns section: the cause, its commands, its occurrences
  await h.runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel webview frame');
  const section = frame.locator('#section-patterns');
  await section.waitFor({ timeout: 10000 });
  const card = section.locator('.card-pattern').first();
  await card.waitFor({ timeout: 10000 });
  const text = await card.innerText();
  assert.match(text, /the database at localhost:5432/);
  assert.match(text, /5×/);
  assert.match(text, /stops the commands it failed/);
  assert.match(text, /Commands:\s+bash seed\.sh · bash db-test\.sh · bash migrate\.sh/);
  assert.match(text, /Connection refused/);
  await h.screenshot('patterns-panel');

  // 5. the database is started, a command that needs it passes: resolved, with the fix learned
  await h.openTerminal();
  await h.typeInTerminal('export PATH="$PWD/bin:$PATH"');
  n = h.readEvents().length;
  const up = await h.typeInTerminal('docker compose up -d db');
  assert.equal(up.exitCode, 0);
  await h.waitForEvent(e => e.event === 'recorded' && e.command === 'docker compose up -d db', { since: n, what: 'the service command recorded' });
  n = h.readEvents().length;
  const pass = await h.typeInTerminal('bash migrate.sh');
  assert.equal(pass.exitCode, 0, 'let through after the service was started');
  await h.waitForEvent(e => e.event === 'recorded' && e.command === 'bash migrate.sh' && e.exitCode === 0, { since: n, what: 'the passing run' });
  await h.waitFor(() => readMemory().patterns[0].status === 'resolved', 10000, 'the pattern resolved');
  assert.deepEqual(readMemory().patterns[0].fixes.map(f => f.command), ['docker compose up -d db']);
  await h.runCommand('Failure Memory: Show Memory');
  const again = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel webview frame');
  await h.waitFor(async () => /Fixed by: docker compose up -d db/.test(await again.locator('#section-patterns').innerText().catch(() => '')), 10000, 'the fix in the Patterns section');
  assert.equal(await page.locator(STATUS, { hasText: 'one cause' }).count(), 0, 'the status bar no longer names the cause');
  await h.screenshot('patterns-resolved');
}
