// The whole promise in a real VS Code: five failing runs of one approach (different flags) are
// remembered, the status bar turns to "exhausted", the sixth run never starts (checked at Enter)
// and the help dialog shows; Run Anyway Once lets it through; a success resolves it; tasks and the CLI feed the same memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { REPO_ROOT } from './harness.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

export const timeout = 240_000;

// prints after 1 s, so VS Code's execution.read() captures it and the guard's Ctrl+C lands first
const CHECK_SH = `#!/bin/bash
sleep 1
if [ -f ready.flag ]; then echo "all good"; exit 0; fi
echo "Error: Cannot find module '@prisma/client'" >&2
echo "Require stack:" >&2
echo "- $PWD/src/db.js" >&2
exit 1
`;

export const options = {
  workspaceFiles: {
    'check.sh': CHECK_SH,
    'fail-task.sh': 'echo "task is failing"\nexit 3\n',
    '.vscode/tasks.json': JSON.stringify({
      version: '2.0.0',
      tasks: [{ label: 'fail-task', type: 'shell', command: 'sh fail-task.sh', problemMatcher: [], presentation: { reveal: 'always', panel: 'dedicated' } }],
    }),
  },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';

export async function run(h) {
  const { page } = h;
  // memory as every reader sees it: memory.json with the runs `record` journaled beside it
  const readMemory = () => JSON.parse(spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist/cli.js'), 'export', '--workspace', h.workspace], { encoding: 'utf8' }).stdout);
  const statusText = async () => (await page.locator(STATUS).first().innerText()).trim();
  const events = since => h.readEvents().slice(since);

  await h.waitForActivation();
  await page.locator(STATUS).first().waitFor({ timeout: 20000 });
  assert.equal(await statusText(), '', 'quiet (icon only) when nothing fails');

  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // Failure Memory's notifications on screen (the modal help dialog is not one)
  const toasts = () => page.locator('.notification-toast').evaluateAll(els => els.map(e => e.textContent ?? ''));
  let firstOutput = '';

  // 1. five failures of one approach, with other flags each time
  const variants = ['bash check.sh', 'bash check.sh --verbose', 'bash  check.sh -v', 'DEBUG=1 bash check.sh', 'bash check.sh --retry=2'];
  for (const [i, cmd] of variants.entries()) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal(cmd);
    assert.equal(r.exitCode, 1, cmd);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === cmd, { since: n, what: `recorded ${cmd}` });
    assert.equal(rec.key, '.::bash check.sh', `same approach for ${cmd}`);
    assert.equal(rec.attempts, i + 1);
    assert.equal(rec.status, i < 4 ? 'active' : 'exhausted');
    if (i === 0) firstOutput = r.output;
    if (i === 1) {
      // same error twice: said in the status bar, not in a notification that stays
      await page.locator('.statusbar-item', { hasText: 'Same error twice' }).first().waitFor({ timeout: 10000 });
      await h.screenshot('same-error-warning');
    }
    if (i === 3) await page.locator(STATUS, { hasText: '1 failing' }).waitFor({ timeout: 10000 });
  }

  // 2. the memory file holds the five attempts with their signature; the status bar warns
  const mem = readMemory();
  const a = mem.approaches['.::bash check.sh'];
  assert.equal(a.status, 'exhausted');
  assert.equal(a.failures, 5);
  assert.equal(a.attempts.length, 5);
  assert.match(a.lastErrorSignature, /Cannot find module '@prisma\/client'/);
  assert.ok(a.attempts.some(t => t.output.includes('Require stack')), 'delayed output captured');
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 10000 });
  const bg = await page.locator(STATUS).first().evaluate(el => getComputedStyle(el).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'warning background');
  await page.locator('.statusbar-item', { hasText: 'running it again will be stopped' }).first().waitFor({ timeout: 10000 });
  assert.deepEqual(await toasts(), [], 'five failures: no notification piles up');

  // a lesson recorded with a similar failure elsewhere (another approach, by meaning)
  const cli = path.join(REPO_ROOT, 'dist/cli.js');
  const fm = (args, input = '') => {
    const r = spawnSync(process.execPath, [cli, ...args, '--workspace', h.workspace], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  fm(['record', '--command', 'node scripts/seed-db.js', '--exit-code', '1'], "Error: Cannot find module '@prisma/client'\n");
  const learned = h.readEvents().length;
  fm(['learn', '--type', 'learning', '--text', 'Run npm install @prisma/client first, then prisma generate', '--command', 'node scripts/seed-db.js']);
  // the extension asks recall again for the approach looped on as soon as it sees the lesson (a person takes seconds to retype)
  await h.waitForEvent(e => e.event === 'similarReady' && e.key === '.::bash check.sh' && e.found, { since: learned, what: 'the lesson found for the looping approach' });

  // 3. the sixth run never starts (the terminal's check at Enter) and the help dialog explains
  let n = h.readEvents().length;
  await h.typeInTerminal('bash check.sh', { wait: false });
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'blocked event' });
  assert.deepEqual([blocked.at, blocked.interrupted], ['enter', false]);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  const dialogText = await dialog.innerText();
  assert.match(dialogText, /Failure Memory did not run “bash check\.sh”/, 'not run: the line never started');
  assert.equal(dialogText.match(/did not run/g)?.length, 1, 'the title is not repeated in the text');
  assert.match(dialogText, /failed 5 times in a row/);
  // the last error as the output printed it: a real line of the terminal output, not the masked signature
  const lastError = dialogText.split('\n').find(l => l.startsWith('Last error: '))?.slice('Last error: '.length);
  assert.ok(lastError, dialogText);
  assert.ok(firstOutput.split('\n').map(l => l.trim()).includes(lastError), `"${lastError}" is a line of the output:\n${firstOutput}`);
  assert.doesNotMatch(lastError, /<\w+>| \| /);
  assert.match(dialogText, /Also run as: .*--verbose/, 'the variants actually tried');
  assert.doesNotMatch(dialogText, /No alternative has been tried/);
  assert.match(dialogText, /A similar failure was fixed before \(node scripts\/seed-db\.js\): Run npm install @prisma\/client first/);
  for (const b of ['Reflect on Failures', 'Show Memory', 'Run Anyway Once', 'Mark Resolved', 'Dismiss']) {
    assert.ok(await dialog.locator('.monaco-button', { hasText: b }).count(), `button ${b}`);
  }
  assert.ok((await toasts()).length <= 1, `at most one notification with the block: ${JSON.stringify(await toasts())}`);
  await page.locator('.statusbar-item', { hasText: 'Failure Memory did not run “bash check.sh”' }).first().waitFor({ timeout: 10000 });
  await h.screenshot('help-dialog');
  fm(['resolve', '--command', 'node scripts/seed-db.js']);
  assert.ok(!events(n).some(e => e.event === 'recorded'), 'nothing ran, nothing is recorded');

  // 4. Run Anyway Once lets the line through once (the extension types it again: it really runs)
  n = h.readEvents().length;
  await dialog.locator('.monaco-button', { hasText: 'Run Anyway Once' }).click();
  await h.waitForEvent(e => e.event === 'allowedOnce', { since: n, what: 'the run let through once' });
  const through = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 1, { since: n, what: 'the run let through, recorded' });
  assert.equal(through.attempts, 6);
  assert.ok(!events(n).some(e => e.event === 'blocked'), 'not blocked that time');

  // 5. fixed: the next run is stopped again (the one free run is used up); run it anyway → success → resolved
  fs.writeFileSync(path.join(h.workspace, 'ready.flag'), '');
  await h.clearNotifications();
  n = h.readEvents().length;
  await h.typeInTerminal('bash check.sh', { wait: false });
  await h.waitForEvent(e => e.event === 'blocked', { since: n, what: 'blocked again' });
  await dialog.waitFor({ timeout: 10000 });
  await dialog.locator('.monaco-button', { hasText: 'Run Anyway Once' }).click();
  const ok = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 0, { since: n, what: 'the successful run' });
  assert.equal(ok.status, 'resolved');
  assert.equal(readMemory().approaches['.::bash check.sh'].failures, 0);
  await h.waitFor(async () => (await statusText()) === '', 10000, 'status bar quiet again');

  // 6. a failing task is recorded
  n = h.readEvents().length;
  await h.runCommand('Tasks: Run Task', { waitHidden: false });
  const input = page.locator('.quick-input-widget input.input[placeholder*="task to run"]');
  await input.waitFor({ state: 'visible', timeout: 15000 });
  await input.fill('fail-task');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'fail-task' }).first().click();
  const task = await h.waitForEvent(e => e.event === 'recorded' && e.source === 'task', { since: n, what: 'the task recorded' });
  assert.equal(task.exitCode, 3);
  assert.equal(task.key, '.::sh fail-task.sh');
  assert.equal(readMemory().approaches['.::sh fail-task.sh'].failures, 1);

  // 7. the CLI writing from outside shows up in the status bar
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, [cli, 'record', '--workspace', h.workspace, '--command', 'npx prisma generate', '--exit-code', '1', '--source', 'agent'], {
      input: "Error: Cannot find module '@prisma/client'\n", encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
  }
  const t = Date.now();
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 10000 });
  h.log(`CLI write reached the status bar in ${Date.now() - t} ms`);
  const tooltipSource = readMemory().approaches['.::prisma generate'];
  assert.equal(tooltipSource.status, 'exhausted');
  await h.clearNotifications();
  await page.mouse.move(5, 5);
  await h.screenshot('status-bar-exhausted');
  // the tooltip lists what is exhausted and which capture sources are live
  await page.locator(STATUS).first().hover();
  const tip = page.locator('.monaco-hover', { hasText: 'Exhausted' }).first();
  await tip.waitFor({ timeout: 10000 });
  const tipText = await tip.innerText();
  assert.match(tipText, /prisma\sgenerate/);
  assert.match(tipText, /shell\sintegration\sactive\sin\s\d+\sof/);
  await h.screenshot('status-bar-tooltip');
  await page.mouse.move(600, 300);

  await reflectFromPalette(h, readMemory);
  await h.screenshot('reflection');

  // 8. Mark Resolved from the palette (the dialog's button word): quiet afterwards, no notification left
  await h.runCommand('Failure Memory: Mark Resolved', { waitHidden: false });
  const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'prisma generate' }).first();
  await pick.waitFor({ timeout: 10000 });
  await pick.click();
  await h.waitFor(() => readMemory().approaches['.::prisma generate'].status === 'resolved', 10000, 'prisma generate resolved');
  await h.waitFor(async () => !(await statusText()).includes('exhausted'), 10000, 'the status bar no longer says exhausted');
  assert.deepEqual(await toasts(), [], 'no notification after Mark Resolved');
}

// Reflect on Failures from the command palette: the stored record validates against the reflection-memory schema.
export async function reflectFromPalette(h, readMemory) {
  const n = h.readEvents().length;
  await h.runCommand('Failure Memory: Reflect on Failures', { waitHidden: false });
  // two approaches fail: a Quick Pick offers them, most recent first
  const row = h.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'prisma generate' }).first();
  await row.waitFor({ timeout: 10000 });
  await row.click();
  const ev = await h.waitForEvent(e => e.event === 'reflected', { since: n, what: 'reflected' });
  assert.equal(ev.key, '.::prisma generate');
  assert.equal(ev.producedBy, 'heuristics');
  const record = readMemory().reflections.at(-1);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/reflection-memory.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  assert.ok(validate(record), JSON.stringify(validate.errors));
  assert.equal(record.failure_memory.error_category, 'missing_module');
  // and it is shown as a Markdown document
  await h.page.locator('.tab', { hasText: 'Reflection: prisma generate' }).first().waitFor({ timeout: 10000 });
  assert.equal(await h.page.locator('.tab', { hasText: 'Untitled' }).count(), 0, 'read-only view, no Untitled document');
  // rendered as text: no Markdown escapes, no interrupted runs among the recent attempts
  const frame = await h.waitFor(async () => {
    for (const f of h.page.frames()) {
      try {
        if (await f.locator('main.reflection h1').count()) return f;
      } catch {
        // a frame that went away while we looked
      }
    }
    return null;
  }, 20000, 'the reflection view');
  const text = await frame.locator('main.reflection').innerText();
  assert.match(text, /Recent attempts/);
  assert.doesNotMatch(text, /\\[[\]_<>*`#!\\]/, 'no Markdown escapes');
  assert.doesNotMatch(text, /Interrupted/, 'no interrupted attempts');
}
