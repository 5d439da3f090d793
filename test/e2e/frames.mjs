// Webview frames of a VS Code page: the memory panel and the reflection view live in iframes of
// their own (and a hidden webview VS Code keeps is still in the page).

/** The first frame of the page with an element matching `selector` (webviews live in their own frames). */
export async function findFrame(page, selector) {
  for (const f of page.frames()) {
    try {
      if (await f.locator(selector).count()) return f;
    } catch {
      // a frame that went away while we looked
    }
  }
  return null;
}

/** True when a frame is on screen: it and every iframe around it are visible (a kept, hidden webview is not). */
export async function isFrameOnScreen(frame) {
  for (let f = frame; f && f.parentFrame(); f = f.parentFrame()) {
    const el = await f.frameElement().catch(() => null);
    if (!el || !(await el.isVisible().catch(() => false))) return false;
  }
  return !!frame;
}

/** The memory panel's webview frame, or null while it is not there. */
export function findPanelFrame(page) {
  return findFrame(page, '#section-exhausted');
}

/** Drags the sash right of the sidebar so the panel is as wide as in a product screenshot. */
export async function widenSidebar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
}
