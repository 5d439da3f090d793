// How long the memory panel takes to show its cards in a real VS Code (test/e2e/harness.mjs): from
// the click on the Failure Memory icon in the activity bar to the first card on screen, the first
// open and then `runs` reopens after switching to the Explorer. Shared by bench/panel-reopen.mjs
// (a day's memory) and bench/vscode-500.mjs (the limit of 500 approaches). Times nothing else.
import { findPanelFrame, isFrameOnScreen } from '../test/e2e/harness.mjs';

const sleep = ms => new Promise(r => setTimeout(r, ms));

/** @returns {Promise<{ first: number, reopen: number[] }>} ms, polled every 10 ms */
export async function panelOpenTimes(h, runs) {
  const page = h.page;
  const icon = page.locator('.activitybar .action-item a[aria-label^="Failure Memory"]').first();
  const explorer = page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first();
  const visibleCard = async () => {
    const frame = await findPanelFrame(page);
    // a kept (hidden) webview is still in the page: its iframes must be on screen too
    if (!frame || !(await isFrameOnScreen(frame))) return false;
    return frame.locator('article.card').first().isVisible().catch(() => false);
  };
  const open = async () => {
    const t0 = performance.now();
    await icon.click();
    while (!(await visibleCard())) {
      if (performance.now() - t0 > 30000) throw new Error('no card in the panel after 30 s');
      await sleep(10);
    }
    return Math.round(performance.now() - t0);
  };
  const first = await open();
  const reopen = [];
  for (let i = 0; i < runs; i++) {
    await explorer.click();
    await h.waitFor(async () => !(await visibleCard()), 10000, 'the panel hidden');
    await sleep(300);
    reopen.push(await open());
  }
  return { first, reopen };
}
