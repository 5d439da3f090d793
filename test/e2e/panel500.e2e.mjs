// The memory panel at the default limit of 500 approaches, in a real VS Code (both versions), on a
// git workspace whose memory was written the way a day of use leaves it (bench/memorySeed.mjs):
// the panel draws only the cards on screen and is one tab stop per list; it is driven by the
// keyboard (the search box, Up and Down across lists, End, Tab into a card, Escape back); its
// search finds every approach (job499 among them, alone); the keyboard focus stays on its card
// while the CLI writes the memory underneath; hidden and shown again it shows its cards at once;
// the status bar's click shows the card of the approach exhausted last, scrolled to and focused.
// How fast it reopens is measured by bench/vscode-500.mjs (BENCHMARKS.md), not asserted here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPanelFrame, isFrameOnScreen, REPO_ROOT } from './harness.mjs';

export const vscode = ['1.100', '1.139'];
export const timeout = 360_000;
export const options = {
  settings: { 'workbench.activityBar.location': 'default' },
  viewport: { width: 1400, height: 900 },
};

const CLI = path.join(REPO_ROOT, 'dist/cli.js');
const STATUS = '.statusbar-item[id*="failureMemory.status"]';

/** A git workspace with 500 approaches (100 exhausted), each run recorded with its git state. */
export async function prepare() {
  const workspace = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'fm-e2e-panel500-'));
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/memorySeed.mjs'), workspace], { cwd: REPO_ROOT, encoding: 'utf8' });
  const seeded = JSON.parse(out.trim().split('\n').pop());
  assert.equal(seeded.approaches, 500);
  return { workspace };
}

export async function run(h) {
  await scenario(h);
  // kept when the scenario fails: the evidence (screenshot, logs) is taken of this workspace
  fs.rmSync(h.workspace, { recursive: true, force: true });
}

async function scenario(h) {
  const { page } = h;
  const t0 = Date.now();
  const step = what => h.log(`[panel500] ${what} (+${Date.now() - t0} ms)`);
  const record = (command, output) =>
    execFileSync(process.execPath, [CLI, 'record', '--workspace', h.workspace, '--command', command, '--exit-code', '1'], { input: output });

  await h.waitForActivation();
  await h.runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(page), 30000, 'the memory panel');
  const exhausted = frame.locator('#section-exhausted article.card');
  await exhausted.first().waitFor({ state: 'visible', timeout: 30000 });
  assert.equal(await frame.locator('#section-exhausted .count').innerText(), '100');
  assert.equal(await frame.locator('#section-failing .count').innerText(), '360');
  step('500 approaches listed');

  // ---- only what is on screen is drawn; each list is one tab stop ----
  const drawn = await frame.locator('article.card').count();
  assert.ok(drawn > 0 && drawn < 40, `a screenful of cards is drawn, not 500 (${drawn})`);
  const tabStops = await frame.locator('#section-exhausted [data-vkey], #section-exhausted [data-vkey] button').evaluateAll(els => els.filter(e => e.tabIndex >= 0).length);
  assert.ok(tabStops <= 6, `one card of the list and its buttons are in the tab order (${tabStops})`);
  const sizes = await frame.locator('#section-exhausted [data-vkey]').evaluateAll(els => [...new Set(els.map(e => e.getAttribute('aria-setsize')))]);
  assert.deepEqual(sizes, ['100'], 'every drawn exhausted card says it is one of 100');
  step(`${drawn} cards drawn`);

  // ---- the search finds every approach, job499 alone ----
  const search = frame.locator('#search');
  for (const [q, label] of [['job499', 'node job499.js'], ['job77', 'node job77.js'], ['job0.js', 'node job0.js']]) {
    await search.fill(q);
    await h.waitFor(async () => (await frame.locator('article.card').allInnerTexts()).map(t => t.split('\n')[0]).join('|') === label, 10000, `the search for ${q} showing ${label} alone`);
  }
  await search.press('Escape');
  await exhausted.nth(3).waitFor({ state: 'visible', timeout: 10000 });
  step('search finds job499, job77, job0 alone');

  // ---- the keyboard: from the search box into the lists, End, Down into the next list, Tab into a card ----
  const focused = () => frame.evaluate(() => {
    const a = document.activeElement;
    const card = a?.closest('[data-vkey]');
    return { tag: a?.tagName ?? '', key: card?.getAttribute('data-key') ?? '', section: card?.closest('[data-section]')?.getAttribute('data-section') ?? '', action: a?.getAttribute('data-action') ?? '', onScreen: !!card && card.getBoundingClientRect().top >= 0 && card.getBoundingClientRect().bottom <= window.innerHeight };
  });
  await search.focus();
  await page.keyboard.press('ArrowDown');
  let f = await focused();
  assert.equal(f.section, 'exhausted');
  assert.equal(f.tag, 'ARTICLE');
  await page.keyboard.press('End');
  f = await focused();
  assert.deepEqual([f.section, f.key, f.onScreen], ['exhausted', '.::node job0.js', true], 'End: the last (oldest) exhausted card, drawn and scrolled to');
  await page.keyboard.press('ArrowDown');
  f = await focused();
  assert.equal(f.section, 'failing', 'Down from the last card goes on into the next list');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  const chosen = await focused();
  assert.equal(chosen.section, 'failing');
  assert.ok(chosen.onScreen);
  await page.keyboard.press('Tab');
  f = await focused();
  assert.deepEqual([f.tag, f.key], ['BUTTON', chosen.key], 'Tab goes into the focused card');
  await page.keyboard.press('Escape');
  f = await focused();
  assert.deepEqual([f.tag, f.key], ['ARTICLE', chosen.key], 'Escape goes back to the card');
  step(`keyboard: focus on ${chosen.key}`);

  // ---- the CLI writes underneath: the focus stays on its card ----
  for (const [i, command] of ['node brand-new-a.js', 'node job205.js', 'node brand-new-b.js'].entries()) {
    const since = h.readEvents().length;
    record(command, `TypeError: Cannot read properties of undefined (reading 'z${i}')\n`);
    await h.waitForEvent(e => e.event === 'panelSnapshot', { since, what: `the panel's snapshot after ${command}` });
    await page.waitForTimeout(500);
    f = await focused();
    assert.deepEqual([f.tag, f.key], ['ARTICLE', chosen.key], `the focus stays on its card after the CLI wrote ${command}`);
    assert.ok(f.onScreen, 'and the card stays on screen');
  }
  assert.equal(await frame.locator('#section-failing .count').innerText(), '362', 'two new approaches, one failing again');
  await page.keyboard.press('ArrowDown');
  assert.equal((await focused()).section, 'failing', 'the keyboard still works after the writes');
  step('focus kept while the CLI wrote three times');

  // ---- hidden and shown again: the cards are there at once ----
  const icon = page.locator('.activitybar .action-item a[aria-label^="Failure Memory"]').first();
  await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
  await h.waitFor(async () => !(await isFrameOnScreen(await findPanelFrame(page))), 10000, 'the panel hidden');
  const shown = Date.now();
  await icon.click();
  const again = await h.waitFor(async () => {
    const fr = await findPanelFrame(page);
    return fr && (await isFrameOnScreen(fr)) && (await fr.locator('article.card').first().isVisible()) ? fr : null;
  }, 20000, 'the panel shown again with its cards');
  step(`panel shown again: first card on screen after ${Date.now() - shown} ms (timed by bench/vscode-500.mjs)`);

  // ---- the status bar's click: the card of the approach exhausted last, scrolled to and focused ----
  for (let i = 0; i < 5; i++) record('node stopped-now.js', "Error: Cannot find module 'left-pad'\n");
  await h.waitFor(async () => /101 exhausted/.test(await page.locator(STATUS).innerText()), 15000, 'the status bar counting 101 exhausted');
  await again.evaluate(() => window.scrollTo(0, document.body.scrollHeight)); // far from the top
  await page.locator(STATUS).click();
  await h.waitFor(async () => {
    const x = await focused();
    return x.key === '.::node stopped-now.js' && x.onScreen;
  }, 10000, 'the stopped card focused and on screen');
  assert.equal(await again.locator('article.card.flash').count(), 1, 'the card flashes');
  step('the status bar shows the card of the approach exhausted last');
  await h.screenshot(`panel500-${h.vscode}`);
}
