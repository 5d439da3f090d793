// The memory panel, Reflect on Failures and the CLI's `record` at the default limit of approaches
// (500), in a real VS Code (code-server, test/e2e/harness.mjs) that has the workspace open: a git
// repository whose memory was written the way a day of use leaves it (bench/memorySeed.mjs: every
// run with its git state). One VS Code session per run of this script:
//  - panel: the click on the Failure Memory icon to the first card on screen (the first open, then
//    `--runs` reopens after switching to the Explorer);
//  - reflection: Reflect on Failures, Enter on the first approach of its pick to the reflection view
//    showing that approach (and the palette's Enter to the pick shown);
//  - record: `dist/cli.js record` of a failure, run from outside while the panel is on screen, wall
//    and CPU time (GNU time) of the whole process.
// `--ext DIR` times another build of the extension (a folder with package.json and dist/, e.g. main's
// `git archive` built with esbuild.mjs): the "before" of a change, on the same memory. Nothing here
// asserts a time.
//
// usage: node --import tsx bench/vscode-500.mjs [--ext DIR] [--vscode 1.100|1.139] [--runs 8] [--approaches 500] [--out result.json] [--keep]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFrame, REPO_ROOT, startVSCode } from '../test/e2e/harness.mjs';
import { seedWorkspace } from './memorySeed.mjs';
import { panelOpenTimes } from './panelTiming.mjs';

process.env.E2E_QUIET ??= '1';
const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const runs = Number(opt('runs', 8));
const ext = path.resolve(opt('ext', REPO_ROOT));
const vscodeVersion = opt('vscode', undefined);
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find(f => fs.existsSync(f));

const median = xs => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const sleep = ms => new Promise(r => setTimeout(r, ms));

/** Polls `probe` every 10 ms until it returns a truthy value; ms since `t0`. */
async function until(probe, t0, what, limit = 30000) {
  while (!(await probe().catch(() => false))) {
    if (performance.now() - t0 > limit) throw new Error(`${what}: nothing after ${limit} ms`);
    await sleep(10);
  }
  return Math.round(performance.now() - t0);
}

async function reflectionTimes(h) {
  const page = h.page;
  const pick = [];
  const render = [];
  for (let i = 0; i < runs; i++) {
    const view = await findFrame(page, 'main.reflection');
    // a view already open is emptied first: its next content is this run's
    if (view) await view.locator('main.reflection').evaluate(el => el.replaceChildren());
    const widget = page.locator('.quick-input-widget');
    await widget.waitFor({ state: 'hidden', timeout: 10000 }).catch(() => page.keyboard.press('Escape'));
    const since = h.readEvents().length;
    const t0 = performance.now();
    await h.runCommand('Failure Memory: Reflect on Failures', { waitHidden: false });
    const rows = widget.locator('.monaco-list-row');
    pick.push(await until(async () => (await widget.isVisible()) && (await rows.count()) > 1 && !(await widget.locator('input.input').inputValue()).startsWith('>'), t0, 'the pick of approaches'));
    const chosen = (await rows.first().locator('.label-name').first().innerText()).replace(/^\W+/, '').trim();
    const t1 = performance.now();
    await page.keyboard.press('Enter');
    render.push(await until(async () => {
      const f = await findFrame(page, 'main.reflection h1');
      return f && (await f.locator('main.reflection h1').innerText()).includes(chosen.slice(0, 30));
    }, t1, 'the reflection view'));
    // the next one starts once this one is saved
    await h.waitForEvent(e => e.event === 'reflected', { since, timeout: 60000, what: 'the reflection saved' });
  }
  return { pick, render };
}

function recordTimes(h, cli) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const argv = [process.execPath, cli, 'record', '--workspace', h.workspace, '--command', `node job${200 + i}.js`, '--exit-code', '1'];
    const timeFile = path.join(os.tmpdir(), `fm-vscode-500-time-${process.pid}.txt`);
    const t0 = performance.now();
    const r = GNU_TIME ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', timeFile, ...argv], { input: `TypeError: Cannot read properties of undefined (reading 'y${i}')\n`, encoding: 'utf8' }) : spawnSync(argv[0], argv.slice(1), { input: 'TypeError: x\n', encoding: 'utf8' });
    wall.push(Math.round(performance.now() - t0));
    if (r.status !== 0) throw new Error(`record failed: ${r.stderr}`);
    if (GNU_TIME) {
      const [u, s] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      cpu.push(Math.round((u + s) * 1000));
    }
  }
  return { wall, cpu };
}

async function main() {
  const workspace = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'fm-vscode-500-'));
  const seeded = await seedWorkspace(workspace, { approaches: Number(opt('approaches', 500)) });
  const h = await startVSCode({ name: 'bench-vscode-500', extensionDevPath: ext, workspace, ...(vscodeVersion ? { vscode: vscodeVersion } : {}), settings: { 'workbench.activityBar.location': 'default' } });
  const result = { ext, vscode: h.vscode, runs, approaches: seeded.approaches, exhausted: seeded.exhausted, memoryKb: Math.round(seeded.bytes / 1024), loadBefore: os.loadavg().map(l => Math.round(l * 100) / 100) };
  try {
    await h.waitForActivation();
    result.panel = await panelOpenTimes(h, runs);
    result.record = recordTimes(h, path.join(ext, 'dist', 'cli.js'));
    result.reflection = await reflectionTimes(h);
    result.loadAfter = os.loadavg().map(l => Math.round(l * 100) / 100);
    result.medians = {
      panelFirstOpenMs: result.panel.first,
      panelReopenMs: median(result.panel.reopen),
      reflectPickMs: median(result.reflection.pick),
      reflectRenderMs: median(result.reflection.render),
      recordWallMs: median(result.record.wall),
      recordCpuMs: median(result.record.cpu),
    };
  } finally {
    await h.stop();
    if (args.includes('--keep')) console.error(`kept: ${h.runDir} ${workspace}`);
    else {
      h.removeRunDir();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
  console.log(JSON.stringify(result));
  const out = opt('out', undefined);
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

await main();
