// The memory panel in a real VS Code: memory seeded from outside by the CLI shows up in the
// sidebar webview; Mark Resolved, Reflect and Add learning from the panel change the store; a
// record from outside updates the open panel live; search asks the host for similar failures.
// Screenshots in dark, light and high-contrast themes go to test-artifacts/e2e/panel-*.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { findFrame, findPanelFrame, isFrameOnScreen, REPO_ROOT, widenSidebar } from './harness.mjs';

export const timeout = 300_000;
export const options = {
  settings: { 'workbench.colorTheme': 'Default Dark Modern', 'workbench.activityBar.location': 'default' },
  viewport: { width: 1400, height: 900 },
};

const CLI = path.join(REPO_ROOT, 'dist/cli.js');
const PRISMA_ERROR = 'Error: Cannot find module "@prisma/client"\nRequire stack:\n- /app/node_modules/.prisma/client/index.js\n';
const jestOutput = passed => [
  ' FAIL  src/cart.test.ts',
  '  ● cart › applies the discount',
  '',
  '    expect(received).toBe(expected)',
  '',
  `Tests:       ${10 - passed} failed, ${passed} passed, 10 total`,
  'Time:        1.2 s',
  '',
].join('\n');

export async function run(h) {
  // memory as every reader sees it: memory.json with the runs `record` journaled beside it
  const memory = () => JSON.parse(execFileSync(process.execPath, [CLI, 'export', '--workspace', h.workspace], { encoding: 'utf8' }));
  const record = (command, exitCode, output) =>
    execFileSync(process.execPath, [CLI, 'record', '--workspace', h.workspace, '--command', command, '--exit-code', String(exitCode)], { input: output });
  const t0 = Date.now();
  const step = what => h.log(`[panel] ${what} (+${Date.now() - t0} ms)`);

  await h.waitForActivation();

  // ---- Show Memory now opens the panel; with nothing remembered it explains itself ----
  await h.runCommand('Failure Memory: Show Memory');
  await h.waitForEvent(e => e.event === 'panelShown', { what: 'panelShown' });
  const frame = await h.waitFor(() => findPanelFrame(h.page), 20000, 'the memory panel webview frame');
  const empty = frame.locator('.empty');
  await empty.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await empty.innerText(), /No failures remembered yet[\s\S]*(No terminal open yet|Shell integration active)/);
  await widenSidebar(h.page, 440);
  await h.clearNotifications();
  await h.screenshot('panel-empty');
  step('empty state shown');

  // ---- seed from outside (the CLI): the open panel updates live ----
  for (let i = 0; i < 5; i++) record('npx prisma generate', 1, PRISMA_ERROR);
  for (const passed of [3, 6, 8]) record('npx jest src/cart.test.ts', 1, jestOutput(passed));
  assert.equal(memory().approaches['.::prisma generate'].status, 'exhausted');
  step('memory seeded by the CLI');
  const exhaustedCard = frame.locator('#section-exhausted .card', { hasText: 'prisma generate' });
  await exhaustedCard.waitFor({ state: 'visible', timeout: 15000 });
  assert.ok(await empty.isHidden(), 'the empty state is gone');
  assert.match(await exhaustedCard.innerText(), /Cannot find module "@prisma\/client"/);
  assert.equal(await exhaustedCard.locator('.pill').innerText(), '5×', 'exhausted: the failures, not a fraction over the limit');
  assert.match(await exhaustedCard.locator('.meta').innerText(), /failed 5 times in a row \(the limit is 5\) · the same error came 5 times/);
  const failingCard = frame.locator('#section-failing .card', { hasText: 'jest' });
  await failingCard.waitFor({ state: 'visible', timeout: 10000 });
  await h.waitFor(async () => (await failingCard.locator('svg.chart circle.chart-dot').count()) === 3, 10000, 'one chart dot per test run');
  assert.match(await failingCard.locator('.trend').innerText(), /Improving: 3 → 6 → 8 of 10/);
  assert.equal(await failingCard.locator('.meter .seg.on').count(), 3, 'three of five meter segments filled');
  // terminal output is rendered as text, never as markup
  assert.equal(await frame.locator('#app script, #app img, #app iframe').count(), 0);
  step('panel shows the exhausted and the failing approach');

  // ---- add a learning through the panel ----
  const learning = 'Run prisma generate only after installing @prisma/client';
  await frame.locator('#learning-type').selectOption('learning');
  await frame.locator('#learning-text').fill(learning);
  let since = h.readEvents().length;
  await frame.locator('#learning-add').click();
  const added = await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'addLearning', { since, what: 'panelAction addLearning' });
  assert.equal(added.ok, true, JSON.stringify(added));
  await h.waitFor(() => memory().learnings.some(l => l.text === learning && l.type === 'learning' && l.source === 'user'), 5000, 'the learning in memory.json');
  await frame.locator('#section-learnings .learning', { hasText: learning }).waitFor({ state: 'visible', timeout: 5000 });
  step('learning added from the panel');

  // an improving suite (3 → 6 → 8 passing) shows no "same test" loop warning next to "Improving"
  assert.equal(await failingCard.locator('.pattern').count(), 0, 'no loop pattern on an improving suite');

  // ---- Reflect from the panel: stored, shown in the panel and in the read-only reflection view ----
  record('npx prisma generate', 130, '^C'); // an interrupted run: not an attempt worth listing
  since = h.readEvents().length;
  await exhaustedCard.locator('[data-action=reflect]').click();
  const reflected = await h.waitForEvent(e => e.event === 'reflected', { since, what: 'reflected' });
  await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'reflect' && e.ok, { since, what: 'panelAction reflect' });
  const reflection = frame.locator(`#section-reflections [data-reflection="${reflected.id}"]`);
  await reflection.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await reflection.innerText(), /exhausted/i);
  assert.doesNotMatch(await reflection.innerText(), /`/, 'no literal backticks in the reflection text');
  assert.equal(await reflection.getAttribute('open'), '', 'the new reflection is open');
  // the panel does not jump to the reflection: the exhausted card stays in view
  assert.ok(await exhaustedCard.evaluate(el => el.getBoundingClientRect().top < window.innerHeight), 'the exhausted card is still on screen');
  await h.page.locator('.tab', { hasText: 'Reflection: prisma generate' }).first().waitFor({ state: 'visible', timeout: 10000 });
  assert.equal(await h.page.locator('.tab', { hasText: 'Untitled' }).count(), 0, 'no unsaved Untitled document');
  const view = await h.waitFor(() => findFrame(h.page, 'main.reflection h1'), 20000, 'the reflection view webview frame');
  const viewText = await view.locator('main.reflection').innerText();
  assert.match(viewText, /Reflection: prisma generate/);
  assert.match(viewText, /Cannot find module "@prisma\/client"/);
  assert.doesNotMatch(viewText, /\\[[\]_<>*`#!\\]/, 'no Markdown escapes');
  assert.doesNotMatch(viewText, /Interrupted|\(s\)/, 'no interrupted attempts, no "(s)" plurals');
  assert.equal(await view.locator('main.reflection a, main.reflection script, main.reflection img, main.reflection iframe').count(), 0, 'nothing in the view can be a link');
  assert.equal(memory().reflections.length, 1);
  assert.deepEqual((await h.waitForEvent(e => e.event === 'reflectionShown', { since, what: 'reflectionShown' })).recent, ['failure', 'failure', 'failure']);
  step('reflection shown in the panel and in the reflection view');

  // ---- screenshots: dark, light, high contrast ----
  const shoot = async name => {
    await h.clearNotifications();
    await frame.evaluate(() => window.scrollTo(0, 0)); // the product view: Exhausted and Failing on top
    await h.page.mouse.move(700, 890); // nothing hovered
    await h.page.waitForTimeout(500);
    await h.screenshot(name);
  };
  // the Output panel would cover the reflection view
  if (await h.page.locator('.part.panel').isVisible()) await h.runCommand('View: Toggle Panel Visibility');
  await shoot('panel-dark');
  for (const [theme, bodyClass, shot] of [
    ['Default Light Modern', 'vscode-light', 'panel-light'],
    ['Default High Contrast', 'vscode-high-contrast', 'panel-hc'],
    ['Default Dark Modern', 'vscode-dark', null],
  ]) {
    await setColorTheme(h, theme);
    await h.waitFor(async () => (await frame.locator('body').getAttribute('class'))?.split(/\s+/).includes(bodyClass), 15000, `the ${theme} theme in the panel`);
    await h.waitFor(async () => (await view.locator('body').getAttribute('class'))?.split(/\s+/).includes(bodyClass), 15000, `the ${theme} theme in the reflection view`);
    if (shot) await shoot(shot);
  }
  step('screenshots taken');

  // ---- Copy command and Run Anyway Once ----
  since = h.readEvents().length;
  await exhaustedCard.locator('[data-action=copyCommand]').click();
  await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'copyCommand' && e.ok, { since, what: 'panelAction copyCommand' });
  await exhaustedCard.locator('[data-action=runAnywayOnce]').click();
  await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'runAnywayOnce' && e.ok, { since, what: 'panelAction runAnywayOnce' });
  await h.waitFor(() => memory().approaches['.::prisma generate'].allowOnce === true, 5000, 'allowOnce in memory.json');
  await exhaustedCard.locator('.note', { hasText: 'let through once' }).waitFor({ state: 'visible', timeout: 5000 });
  step('copy command and run anyway once');

  // ---- Mark Resolved: the store changes and the card moves to Resolved ----
  since = h.readEvents().length;
  await exhaustedCard.locator('[data-action=resolve]').click();
  const resolved = await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'resolve', { since, what: 'panelAction resolve' });
  assert.equal(resolved.ok, true, JSON.stringify(resolved));
  await h.waitFor(() => memory().approaches['.::prisma generate'].status === 'resolved', 5000, 'status resolved in memory.json');
  assert.equal(memory().approaches['.::prisma generate'].resolvedBy, 'manual');
  await frame.locator('#section-resolved .card', { hasText: 'prisma generate' }).waitFor({ state: 'visible', timeout: 5000 });
  assert.equal(await frame.locator('#section-exhausted .card').count(), 0);
  assert.equal(await h.page.locator('.notification-toast').count(), 0, 'no notification after Mark Resolved');
  step('Mark Resolved moved the approach to Resolved');

  // ---- one new failure after Mark Resolved: 1/5, one run, nothing from before ----
  record('npx prisma generate', 1, PRISMA_ERROR);
  const again1 = frame.locator('#section-failing .card', { hasText: 'prisma generate' });
  await again1.waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await again1.locator('.pill').innerText(), /1\/5/);
  assert.match(await again1.locator('.meta').innerText(), /failed once \(the limit is 5\)/);
  assert.equal(await again1.locator('.pattern').count(), 0, 'no "same error twice" from before the resolution');
  step('a new streak after Mark Resolved shows only itself');

  // ---- a record from outside (CLI) updates the open panel live ----
  record('npm run build', 2, 'src/index.ts(3,7): error TS2322: Type \'string\' is not assignable to type \'number\'.\n');
  await frame.locator('#section-failing .card', { hasText: 'npm run build' }).waitFor({ state: 'visible', timeout: 10000 });
  step('record from the CLI shown live');

  // ---- search: filters client-side and asks the host for similar failures ----
  since = h.readEvents().length;
  await frame.locator('#search').fill('prisma client');
  await h.waitForEvent(e => e.event === 'panelAction' && e.action === 'search' && e.results > 0, { since, what: 'panelAction search' });
  await frame.locator('#section-similar .similar', { hasText: 'prisma generate' }).waitFor({ state: 'visible', timeout: 5000 });
  assert.equal(await frame.locator('#section-failing .card', { hasText: 'npm run build' }).count(), 0, 'the search filters the lists');
  for (const score of await frame.locator('#section-similar .pill-score').allInnerTexts()) assert.ok(parseInt(score, 10) >= 15, `no weak "similar" hit (${score})`);
  step('search and recall');

  // ---- hidden and shown again: the panel keeps its webview (content at once) and its state ----
  await h.runCommand('View: Show Explorer');
  await h.waitFor(async () => !(await isFrameOnScreen(await findPanelFrame(h.page))), 10000, 'the panel hidden');
  await h.runCommand('Failure Memory: Show Memory');
  const again = await h.waitFor(async () => { const f = await findPanelFrame(h.page); return f && (await isFrameOnScreen(f)) ? f : null; }, 20000, 'the panel shown again');
  await again.locator('#section-similar .similar', { hasText: 'prisma generate' }).waitFor({ state: 'visible', timeout: 10000 });
  assert.equal(await again.locator('#search').inputValue(), 'prisma client', 'search text kept with setState');
  await again.locator('#search').fill('');
  await again.locator('#section-failing .card', { hasText: 'npm run build' }).waitFor({ state: 'visible', timeout: 5000 });
  step('state restored after hide/show');

  // ---- delete the learning (two clicks: ask, confirm) ----
  const item = again.locator('#section-learnings .learning', { hasText: learning });
  await item.locator('[data-action=askDeleteLearning]').click();
  await item.locator('[data-action=deleteLearning]').click();
  await h.waitFor(() => !memory().learnings.some(l => l.text === learning), 5000, 'the learning gone from memory.json');
  await item.waitFor({ state: 'detached', timeout: 5000 });
  step('learning deleted');

  // nothing the panel sent was refused
  assert.deepEqual(h.readEvents().filter(e => e.event === 'panelRejected'), []);
}

/** Preferences: Color Theme, then the theme's row. VS Code 1.100 lists "Light Modern" with the
 * description "Default Light Modern"; match either exactly ("Default High Contrast" is not "... Light"). */
async function setColorTheme(h, theme) {
  await h.runCommand('Preferences: Color Theme', { waitHidden: false });
  const widget = h.page.locator('.quick-input-widget');
  await widget.locator('input.input').fill(theme);
  const label = new RegExp(`^\\s*${theme.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = widget.locator('.monaco-list-row').filter({ has: h.page.locator('.label-name, .label-description', { hasText: label }) }).first();
  await row.click({ timeout: 10000 });
  await widget.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
}
