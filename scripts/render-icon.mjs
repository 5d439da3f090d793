// Renders media/icon.svg to the 128×128 media/icon.png the Marketplace needs (headless Chromium,
// installed by test/e2e/setup.sh). usage: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(new URL('../.e2e/tools/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
await page.screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
await browser.close();
console.log('media/icon.png written');
