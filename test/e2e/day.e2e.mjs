// A day's work with the packaged extension, as a user lives it, in the oldest supported VS Code
// and the current one: a failing `npm test` (an assertion bug, five identical failures), the user's
// fix (git shows src/cart.js modified) and the run after it; a build script fixed error by error
// (runtime errors, never stopped, "fixed by" naming only the user's file); a dead health endpoint
// failing identically with nothing starting, stopped at the sixth run; the reflection from the
// help dialog. Every number agrees (status bar, dialog, panel, reflection), no normalized
// placeholder is shown, the causes and the advice fit the errors, and nothing of ours prompts at
// the moment of a block. Screenshots: test-artifacts/e2e/day-*.png (docs/images/ with
// E2E_UPDATE_DOCS_IMAGES=1).
//
// The day runs where the shell has no check at Enter (failureMemory.terminal.gateAtEnter off), so that the
// start event's interrupt, the fallback for such shells, is asserted on the way; the check at Enter is
// entergate*.e2e. A run is interrupted only when nothing changed since
// the last failure (the user's fix runs to the end), no ^C is typed after the fact, and a probe counts as
// waiting only while something it waits for was started (the dead endpoint, nothing starting, is stopped).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findFrame, findPanelFrame, widenSidebar } from './harness.mjs';

export const vscode = ['1.100', '1.139'];
export const timeout = 420_000;

const CART_BUG = 'module.exports = { total: items => items.reduce((sum, i) => sum + i.price, 0) };\n';
const CART_FIX = 'module.exports = { total: items => items.reduce((sum, i) => sum + i.price * i.qty, 0) };\n';
const CART_TEST = `const test = require('node:test');
const assert = require('node:assert');
const { total } = require('../src/cart');
test('total sums price times quantity', () => {
  assert.strictEqual(total([{ price: 3, qty: 2 }, { price: 7, qty: 1 }]), 13);
});
`;
// the build script, one error after another as the user fixes them
const BUILD = [
  "const fs = require('fs');\nconst cfg = JSON.parse(fs.readFileSync('build.config.json', 'utf8'));\nconsole.log('built', cfg.out.toUpperCase());\n",
  null, // build.config.json `{}` → TypeError: Cannot read properties of undefined (reading 'toUpperCase')
  null, // build.config.json `{"out": 5}` → TypeError: cfg.out.toUpperCase is not a function
  "const fs = require('fs');\nconst cfg = JSON.parse(fs.readFileSync('build.config.json', 'utf8'));\nconsole.log('built', String(cfg.out).toUpperCase();\n",
  "const fs = require('fs');\nconst cfg = JSON.parse(fs.readFileSync('build.config.json', 'utf8'));\nconsole.log('built', String(outDir).toUpperCase());\n",
  "const fs = require('fs');\nconst cfg = JSON.parse(fs.readFileSync('build.config.json', 'utf8'));\nconsole.log('built', String(cfg.out).toUpperCase());\n",
];
// a health check with retries: slow enough (about 2 s) to be stopped while it runs
const HEALTH = 'curl -sS --retry 2 --retry-delay 1 --retry-connrefused 127.0.0.1:9/health';

export const options = {
  settings: {
    'failureMemory.terminal.gateAtEnter': false,
    'workbench.activityBar.location': 'default',
    // the model could be downloaded: it must be offered in the panel, never by a prompt at a block
    'failureMemory.embeddings.allowDownload': true,
  },
  workspaceFiles: {
    'package.json': '{ "name": "shop", "version": "1.0.0", "private": true, "scripts": { "test": "node --test" } }\n',
    'src/cart.js': CART_BUG,
    'test/cart.test.js': CART_TEST,
    'build.js': BUILD[0],
    '.gitignore': 'node_modules/\n',
  },
};

const STATUS = '.statusbar-item[id*="failureMemory.status"]';
const PLACEHOLDER = /<(?:tmp|uuid|time|addr|port|pid|dur|hex|n)>| \| /;

export async function run(h) {
  const { page } = h;
  const ws = h.workspace;
  const git = (...a) => execFileSync('git', a, { cwd: ws, stdio: 'pipe', encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=dev@example.com', '-c', 'user.name=dev', 'add', '.');
  git('-c', 'user.email=dev@example.com', '-c', 'user.name=dev', 'commit', '-q', '-m', 'shop');
  const memory = () => JSON.parse(fs.readFileSync(path.join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));
  // notifications of ours (code-server's one-time "keybindings" tip is not)
  const toasts = async () => (await page.locator('.notification-toast').evaluateAll(els => els.map(e => e.textContent ?? ''))).filter(t => !/Some keybindings don't go to the terminal/.test(t));
  /** A screenshot with no notification in front; the documentation's images come from the oldest VS Code. */
  const shot = async name => {
    if (!(await dialog.isVisible())) await h.clearNotifications();
    if (h.vscode === '1.100') await h.docsScreenshot(name);
    else await h.screenshot(`${name}-vscode-${h.vscode}`);
  };
  const dialog = page.locator('.monaco-dialog-box');
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'activated' });
  assert.ok(activated.extensionPath.includes(`${path.sep}exts${path.sep}`), 'the installed VSIX runs');
  await h.openTerminal();

  // ---- 1. a failing npm test: five identical failures of an assertion ----
  for (let i = 1; i <= 5; i++) {
    const n = h.readEvents().length;
    const r = await h.typeInTerminal('npm test');
    assert.equal(r.exitCode, 1);
    const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'npm test', { since: n, what: `npm test #${i} recorded` });
    assert.equal(rec.attempts, i);
  }
  await page.locator(STATUS, { hasText: '1 exhausted' }).waitFor({ timeout: 10000 });
  // a package script is the command it runs: `npm test` is the approach of `node --test`, labelled as typed
  const npmTest = Object.values(memory().approaches).find(a => a.label === 'npm test');
  assert.ok(npmTest, 'npm test in memory, by its label');
  assert.equal(npmTest.status, 'exhausted');
  assert.equal(npmTest.failures, 5);
  assert.deepEqual(await toasts(), [], 'nothing of ours prompts when an approach becomes exhausted (no model-download offer)');

  // the panel: the count the status bar and the dialog use, the failing test by name, the assertion as printed
  await h.runCommand('Failure Memory: Show Memory');
  const panel = await h.waitFor(() => findPanelFrame(page), 20000, 'the memory panel');
  await widenSidebar(page, 460);
  const card = panel.locator('#section-exhausted .card', { hasText: 'npm test' });
  await card.waitFor({ state: 'visible', timeout: 15000 });
  const cardText = await card.innerText();
  assert.equal(await card.locator('.pill').innerText(), '5×');
  assert.match(cardText, /failed 5 times in a row \(the limit is 5\) · the same error came 5 times/);
  assert.match(cardText, /Failing test: total sums price times quantity/);
  assert.match(cardText, /Expected values to be strictly equal: 10 !== 13/);
  assert.doesNotMatch(cardText, PLACEHOLDER);
  assert.match(cardText, /The same error 5 times: the code it points at has not changed/, 'an assertion bug: change the code (not "a different approach")');
  await panel.locator('#model-offer').waitFor({ state: 'visible', timeout: 15000 }).catch(() => {
    throw new Error('the panel offers the embedding model (recall ran on the offline embedder)');
  });
  await shot('day-npm-test-exhausted');

  // ---- 2. the user fixes src/cart.js (git shows it modified) and runs npm test: not stopped ----
  fs.writeFileSync(path.join(ws, 'src/cart.js'), CART_FIX);
  assert.match(git('status', '--porcelain'), /src\/cart\.js/);
  let n = h.readEvents().length;
  const fixed = await h.typeInTerminal('npm test');
  assert.ok(!h.readEvents().slice(n).some(e => e.event === 'blocked' && e.interrupted), 'after the fix npm test is not interrupted');
  assert.equal(fixed.exitCode, 0, fixed.output);
  const passed = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'npm test' && e.exitCode === 0, { since: n, what: 'npm test passing' });
  assert.equal(passed.status, 'resolved');
  assert.deepEqual(passed.fixedBy, ['src/cart.js'], 'fixed by the user’s file only');
  assert.equal(await dialog.count(), 0, 'no dialog: the run after a change is let through quietly');
  await shot('day-fix-not-stopped');

  // ---- 3. a build script fixed error by error: runtime errors, never stopped ----
  const configs = [undefined, '{}', '{"out": 5}', '{"out": 5}', '{"out": 5}', '{"out": 5}'];
  for (let i = 0; i < BUILD.length; i++) {
    if (BUILD[i]) fs.writeFileSync(path.join(ws, 'build.js'), BUILD[i]);
    if (configs[i]) fs.writeFileSync(path.join(ws, 'build.config.json'), configs[i]);
    if (i === BUILD.length - 1) {
      // before the passing run, an agent-gate setup and an export into the repository: neither is "what fixed it"
      execFileSync(process.execPath, [path.join(activated.extensionPath, 'dist/cli.js'), 'setup-agents', '--harness', 'vscode', '--workspace', ws], { stdio: 'pipe' });
      fs.writeFileSync(path.join(ws, 'failure-memory-export.json'), JSON.stringify(memory()));
    }
    n = h.readEvents().length;
    const r = await h.typeInTerminal('node build.js');
    await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node build.js', { since: n, what: `node build.js #${i + 1} recorded` });
    assert.ok(!h.readEvents().slice(n).some(e => e.event === 'blocked'), `node build.js #${i + 1} is not stopped: the error changes each time`);
    assert.equal(r.exitCode, i === BUILD.length - 1 ? 0 : 1, r.output);
    if (i === BUILD.length - 2) {
      // five different runtime errors: exhausted by count, but not a loop; the reflection says runtime, not compile
      const build = memory().approaches['.::node build.js'];
      assert.equal(build.failures, 5);
      const text = execFileSync(process.execPath, [path.join(activated.extensionPath, 'dist/cli.js'), 'reflect', '--command', 'node build.js', '--workspace', ws], { encoding: 'utf8' });
      assert.match(text, /runtime error/);
      assert.doesNotMatch(text, /fails to compile|compile error/);
      assert.doesNotMatch(text, PLACEHOLDER);
    }
  }
  const built = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'node build.js' && e.exitCode === 0, { what: 'node build.js passing' });
  assert.deepEqual(built.fixedBy, ['build.js'], 'not .github/hooks, not the export, not the memory');
  const lesson = panel.locator('#section-learnings .learning', { hasText: 'node build.js' }).first();
  await lesson.waitFor({ state: 'visible', timeout: 15000 });
  const lessonText = await lesson.innerText();
  assert.match(lessonText, /“node build\.js” fixed by changing “build\.js”/);
  assert.doesNotMatch(lessonText, /`|\.github|failure-memory-export/);
  // the panel renders again when memory changes (the passing run, the lesson): scroll the card as it is then
  await h.waitFor(() => lesson.scrollIntoViewIfNeeded({ timeout: 2000 }).then(() => true, () => false), 15000, 'the lesson scrolled into view');
  await shot('day-build-fixed');

  // ---- 4. a dead health endpoint: identical refusals, nothing starting: stopped at the sixth ----
  for (let i = 1; i <= 5; i++) {
    n = h.readEvents().length;
    const r = await h.typeInTerminal(HEALTH);
    assert.equal(r.exitCode, 7, r.output);
    await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 7, { since: n, what: `curl #${i} recorded` });
  }
  const health = Object.values(memory().approaches).find(a => a.command.startsWith('curl'));
  assert.equal(health.status, 'exhausted');
  await h.clearNotifications();
  n = h.readEvents().length;
  const sixth = await h.typeInTerminal(HEALTH);
  const blocked = await h.waitForEvent(e => e.event === 'blocked', { since: n, timeout: 5000, what: 'the sixth run blocked' });
  assert.equal(blocked.interrupted, true, 'the sixth identical refusal, with nothing starting, is stopped');
  assert.deepEqual([blocked.decision, blocked.code], ['deny', 'same-error-unchanged']);
  assert.equal(sixth.exitCode, 130);
  await dialog.waitFor({ timeout: 10000 });
  const text = await dialog.innerText();
  assert.match(text, /Failure Memory stopped “curl http\u200b?:\/\/127\.0\.0\.1:9\/health”/);
  assert.match(text, /It failed 5 times in a row \(the limit is 5\)\./);
  assert.match(text, /The same error came 5 times\./);
  assert.match(text, /Last error: curl: \(7\) Failed to connect to 127\.0\.0\.1 port 9 after \d+ ms: (Couldn't connect to server|Connection refused)/);
  assert.doesNotMatch(text, PLACEHOLDER);
  const buttons = await dialog.locator('.monaco-button').allInnerTexts();
  // Dismiss last of ours (VS Code itself puts the primary button at the right end on Linux)
  assert.deepEqual(buttons.filter(b => b !== 'Reflect on Failures').at(-1), 'Dismiss', buttons.join(', '));
  assert.ok(buttons.includes('Reflect on Failures'), buttons.join(', '));
  assert.deepEqual(await toasts(), [], 'no prompt of ours at the moment of a block');
  await shot('day-health-stopped');
  // no ^C typed after the fact: the interrupted run's prompt stays the last line, empty
  await new Promise(r => setTimeout(r, 1500));
  const tail = (await h.terminalText()).trimEnd().split('\n');
  assert.match(tail.at(-1), /\[\d+:130\]\$\s*$/, `the prompt after the interrupted run is left alone:\n${tail.slice(-4).join('\n')}`);

  // ---- 5. the reflection opens from the dialog's primary button ----
  n = h.readEvents().length;
  await dialog.locator('.monaco-button', { hasText: 'Reflect on Failures' }).click();
  await h.waitForEvent(e => e.event === 'reflectionShown', { since: n, what: 'the reflection shown' });
  const view = await h.waitFor(() => findFrame(page, 'main.reflection h1'), 20000, 'the reflection view rendered');
  const reflection = await view.locator('main.reflection').innerText();
  assert.match(reflection, /Reflection: curl http:\/\/127\.0\.0\.1:9\/health/);
  assert.match(reflection, /failed 5 times in a row \(the limit is 5\)/i, 'the interrupted sixth run is no failure');
  assert.match(reflection, /The same error came 5 times/);
  assert.match(reflection, /refused connection/);
  assert.match(reflection, /Is the service I am calling running right now, on 127\.0\.0\.1:9\?/);
  assert.doesNotMatch(reflection, /edge cases|change the approach, not the flags|fails to compile/);
  assert.doesNotMatch(reflection, PLACEHOLDER);
  await shot('day-reflection');

  // what the user types next at that prompt runs as typed (nothing of ours erased it)
  const after = await h.typeInTerminal('echo after-stop; sleep 0.2');
  assert.equal(after.exitCode, 0);
  assert.match(after.output, /after-stop/);

  // one count for the day: the status bar's tooltip, the panel and memory.json agree
  const finalHealth = Object.values(memory().approaches).find(a => a.command.startsWith('curl'));
  // the panel renders the cards near where it is scrolled (the reflection above pushed the list down): bring the section back
  await h.waitFor(() => panel.locator('#section-exhausted').scrollIntoViewIfNeeded({ timeout: 2000 }).then(() => true, () => false), 15000, 'the exhausted section scrolled into view');
  await panel.locator('#section-exhausted .card', { hasText: 'curl' }).waitFor({ timeout: 10000 });
  assert.equal(await panel.locator('#section-exhausted .card', { hasText: 'curl' }).locator('.pill').innerText(), `${finalHealth.failures}×`);
}
