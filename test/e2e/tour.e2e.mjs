// Every view and every command of the packaged extension, as a user meets them, in the oldest
// supported VS Code and the current one: the VSIX (run.mjs installs the one `npm run package`
// makes) activates, each palette command does what it says, the memory panel and the reflection
// view show content (not "Loading…"), the sidebar title is whole, the status bar reads plainly to a
// screen reader, Export offers a place outside the repository, and the walkthrough's steps tick off.
// A command added to package.json without a step here fails the tour.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findFrame, findPanelFrame, REPO_ROOT } from './harness.mjs';

export const vscode = ['1.100', '1.139'];
export const timeout = 300_000;
export const options = {
  settings: { 'workbench.activityBar.location': 'default' },
  workspaceFiles: { 'check.sh': '#!/bin/bash\nsleep 0.2\necho "Error: connect ECONNREFUSED 127.0.0.1:5432" >&2\nexit 1\n' },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';

export async function run(h) {
  const { page } = h;
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'activated' });
  const installed = path.resolve(activated.extensionPath);
  assert.ok(!installed.startsWith(REPO_ROOT + path.sep) || installed.includes(`${path.sep}exts${path.sep}`), `runs from the installed VSIX, not the repository: ${installed}`);
  assert.ok(fs.existsSync(path.join(installed, 'dist/reflection.js')), 'the reflection view script ships');
  // the CLI that ships in the VSIX, run as a user's terminal would
  const cli = (...args) => execFileSync(process.execPath, [path.join(installed, 'dist/cli.js'), ...args, '--workspace', h.workspace], { encoding: 'utf8', input: args.includes('record') ? 'Error: connect ECONNREFUSED 127.0.0.1:5432\n' : undefined });
  const memoryFile = path.join(h.workspace, '.vscode/failure-memory/memory.json');
  const memory = () => JSON.parse(fs.readFileSync(memoryFile, 'utf8'));
  const events = since => h.readEvents().slice(since);
  const toasts = () => page.locator('.notification-toast').evaluateAll(els => els.map(e => e.textContent ?? ''));

  // every command the palette shows must be toured below
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  const hidden = new Set(['failureMemory.test.invokeTool']);
  const titles = pkg.contributes.commands.filter(c => !hidden.has(c.command)).map(c => `${c.category}: ${c.title}`);
  const toured = new Set();
  const runCommand = async (title, o) => {
    toured.add(title);
    await h.runCommand(title, o);
  };

  // a terminal with shell integration (the walkthrough step ticks off on it), and a failing approach
  await h.openTerminal();
  for (let i = 0; i < 5; i++) cli('record', '--command', 'bash check.sh', '--exit-code', '1');
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 15000 });

  // ---- the status bar: plain words for a screen reader (the tooltip is Markdown with a command link) ----
  const aria = await page.locator(`${STATUS} a, ${STATUS}`).first().evaluate(el => el.getAttribute('aria-label') ?? el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? '');
  assert.equal(aria, 'Failure Memory: 1 exhausted. Click to show the memory.');

  // ---- Show Memory: the panel, with content, under a whole title ----
  let n = h.readEvents().length;
  await runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel');
  const card = frame.locator('#section-exhausted .card', { hasText: 'bash check.sh' });
  await card.waitFor({ state: 'visible', timeout: 15000 });
  assert.equal(await card.locator('.pill').innerText(), '5×');
  assert.match(await card.innerText(), /failed 5 times in a row \(the limit is 5\)/);
  const title = page.locator('.part.sidebar .composite.title h2, .part.sidebar .title-label h2').first();
  assert.equal((await title.innerText()).trim().toUpperCase(), 'FAILURE MEMORY');
  assert.ok(await title.evaluate(el => el.scrollWidth <= el.clientWidth + 1), 'the sidebar title is not cut');
  assert.ok(events(n).some(e => e.event === 'panelShown'));

  // ---- Reflect on Failures: the reflection view renders (the script ships in the VSIX) ----
  n = h.readEvents().length;
  await runCommand('Failure Memory: Reflect on Failures', { waitHidden: false });
  await h.waitForEvent(e => e.event === 'reflectionShown', { since: n, what: 'reflectionShown' });
  const reflection = await h.waitFor(() => findFrame(page, 'main.reflection h1'), 20000, 'the reflection view rendered, not "Loading the reflection…"');
  const reflectionText = await reflection.locator('main.reflection').innerText();
  assert.doesNotMatch(reflectionText, /Loading the reflection/);
  assert.match(reflectionText, /refused connection/, 'the cause named for what it is');
  assert.doesNotMatch(reflectionText, /edge cases|change the approach, not the flags/);
  await h.screenshot(`tour-reflection-${h.vscode}`);

  // ---- Copy as Prompt, Run Anyway Once, Mark Resolved ----
  await runCommand('Failure Memory: Copy as Prompt');
  await page.locator('.statusbar-item', { hasText: 'A brief of “bash check.sh” is on the clipboard' }).first().waitFor({ timeout: 10000 });
  await runCommand('Failure Memory: Run Anyway Once');
  await h.waitFor(() => memory().approaches['.::bash check.sh'].allowOnce === true, 10000, 'allowOnce set');
  await runCommand('Failure Memory: Mark Resolved');
  await h.waitFor(() => memory().approaches['.::bash check.sh'].status === 'resolved', 10000, 'resolved');

  // ---- Pause / Resume Capture ----
  await runCommand('Failure Memory: Pause Capture');
  await page.locator(STATUS, { hasText: 'paused' }).waitFor({ timeout: 10000 });
  await runCommand('Failure Memory: Resume Capture');
  await h.waitFor(async () => !(await page.locator(STATUS).first().innerText()).includes('paused'), 10000, 'capture resumed');

  // ---- Open Log ----
  await h.showLogLine('[capture] capture resumed');
  toured.add('Failure Memory: Open Log');

  // ---- Export Memory: it asks where, offering the home folder (not the repository) ----
  await runCommand('Failure Memory: Export Memory', { waitHidden: false });
  const pathBox = page.locator('.quick-input-widget input.input');
  await pathBox.waitFor({ state: 'visible', timeout: 10000 });
  // the simple file dialog fills the folder first, then the file name
  const offered = await h.waitFor(async () => ((await pathBox.inputValue()).trim().endsWith('.json') ? (await pathBox.inputValue()).trim() : null), 10000, 'the file the save dialog offers');
  const home = h.env.HOME;
  assert.ok(offered.startsWith(home), `offered ${offered}, expected a file in ${home}`);
  assert.ok(!offered.startsWith(h.workspace), 'not in the repository');
  assert.match(path.basename(offered), /^failure-memory-export-ws-\d{4}-\d{2}-\d{2}\.json$/);
  await page.keyboard.press('Enter');
  await h.waitFor(() => fs.existsSync(offered), 10000, `the export at ${offered}`);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
  assert.ok(JSON.parse(fs.readFileSync(offered, 'utf8')).folders[0].memory.approaches['.::bash check.sh']);

  // ---- Set Up Agent Gates: says what it found and what it did not ----
  await runCommand('Failure Memory: Set Up Agent Gates', { waitHidden: false });
  const pick = page.locator('.quick-input-widget');
  await pick.locator('.monaco-list-row', { hasText: 'VS Code agent mode' }).first().waitFor({ timeout: 10000 });
  const rows = await pick.locator('.monaco-list-row').allInnerTexts();
  const row = label => rows.find(r => r.includes(label)) ?? '';
  assert.match(row('VS Code agent mode'), /this editor/);
  assert.doesNotMatch(row('VS Code agent mode'), /found in this folder/, 'VS Code is never "found" (.vscode holds our own memory)');
  assert.match(row('Claude Code'), /not found in this folder/);
  await page.keyboard.press('Escape');

  // ---- Download Embedding Model: downloads are off in tests, and it says so ----
  await runCommand('Failure Memory: Download Embedding Model');
  await h.waitFor(async () => (await toasts()).some(t => /Model downloads are turned off/.test(t)), 10000, 'the notice that downloads are off');

  // ---- team commands with team memory off: each says what to set ----
  await runCommand('Failure Memory: Set Team Database Password');
  await h.waitFor(async () => (await toasts()).some(t => /set failureMemory\.team\.databaseUrl first/.test(t)), 10000, 'the password command explains');
  await runCommand('Failure Memory: Sync Team Memory Now');
  await h.waitFor(async () => (await toasts()).some(t => /team memory is off/.test(t)), 10000, 'the sync command explains');
  for (const t of await toasts()) assert.doesNotMatch(t, /`/, `no Markdown backticks in a notification: ${t}`);
  await h.clearNotifications();

  // ---- the walkthrough, opened for the first time now: what was done before it opened is ticked off
  // (shell integration on in a terminal, the memory shown, an export) ----
  await h.runCommand('Welcome: Open Walkthrough...', { waitHidden: false });
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get started with Failure Memory' }).first().click();
  const ticked = async title => {
    const step = page.locator('.getting-started-step', { hasText: title }).first();
    await step.waitFor({ timeout: 15000 });
    return (await step.locator('.codicon-getting-started-step-checked, .codicon-pass-filled').count()) > 0;
  };
  for (const title of ['Turn on shell integration', 'What is recorded', 'Where it is stored']) {
    await h.waitFor(() => ticked(title), 10000, `the step "${title}" ticked off`);
  }
  assert.equal(await ticked('Gate your AI agents'), false, 'no gates were set up');
  assert.ok(await page.locator('.getting-started-step', { hasText: 'Better recall (optional)' }).count(), 'the model is offered in the walkthrough');
  await h.screenshot(`tour-walkthrough-${h.vscode}`);

  // ---- Clear Workspace Memory (last: it empties the memory) ----
  await runCommand('Failure Memory: Clear Workspace Memory', { waitHidden: false });
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10000 });
  await dialog.locator('.monaco-button', { hasText: 'Clear Memory' }).click();
  await h.waitFor(() => Object.keys(memory().approaches).length === 0, 10000, 'memory cleared');

  assert.deepEqual(titles.filter(t => !toured.has(t)), [], 'every palette command is toured');
  assert.ok(!h.readEvents().some(e => e.event === 'error'), 'no error event');
}
