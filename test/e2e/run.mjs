// Runs the end-to-end scenarios (test/e2e/*.e2e.mjs) against a real VS Code (code-server) in
// headless Chromium, one fresh VS Code per scenario, on Node's test runner.
//
// usage: node test/e2e/run.mjs [filter ...]     (npm run test:e2e [-- filter])
//   filter: substrings of scenario file names; default: all scenarios
//   env: E2E_SKIP_SETUP=1  don't run test/e2e/setup.sh first
//        E2E_KEEP=1        keep the run dirs (.e2e/runs/...) of passing scenarios too
//        E2E_REPORTER=tap  node:test reporter (default spec)
//        E2E_QUIET=1       no harness progress lines
//        E2E_VSIX=<file>   install this VSIX instead of linking the repo as the extension
//
// A scenario file exports
//   export async function run(h) { ... }   // h: what startVSCode() returns (see harness.mjs)
// and optionally
//   export const options = { settings, workspaceFiles, env, ... };  // passed to startVSCode()
//   export const timeout = 180_000;                                  // ms for the whole scenario
//   export async function prepare() { return { vsix } }              // more options, computed first
// A failing scenario leaves test-artifacts/e2e/<name>-failure.png and test-artifacts/e2e/<name>/ (logs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');

if (process.execArgv.some(a => a.startsWith('--test-reporter'))) {
  await main();
} else {
  // Node 20 takes the reporter only from the command line: run this file again with one.
  const child = spawn(process.execPath,
    [...process.execArgv, `--test-reporter=${process.env.E2E_REPORTER || 'spec'}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', cwd: REPO_ROOT });
  // pass a cancel (CI's SIGTERM) on, so that the child stops its code-server and Chromium
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, sig) => process.exit(code ?? 128 + (os.constants.signals[sig] || 1)));
}

function preflight() {
  if (process.env.E2E_SKIP_SETUP !== '1') {
    const t = Date.now();
    const r = spawnSync('bash', [path.join(HERE, 'setup.sh')], { stdio: 'inherit', cwd: REPO_ROOT });
    if (r.status !== 0) return `test/e2e/setup.sh failed (exit ${r.status ?? r.signal})`;
    console.log(`[e2e] setup checked in ${Date.now() - t} ms`);
  }
  if (process.env.E2E_VSIX) return fs.existsSync(process.env.E2E_VSIX) ? null : `E2E_VSIX=${process.env.E2E_VSIX} does not exist`;
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const main = path.join(REPO_ROOT, pkg.main || 'dist/extension.js');
  if (!fs.existsSync(main)) return `${path.relative(REPO_ROOT, main)} missing: run \`npm run build\` first`;
  return null;
}

async function main() {
  const { test, after } = await import('node:test');
  const filters = process.argv.slice(2);
  const files = fs.readdirSync(HERE)
    .filter(f => f.endsWith('.e2e.mjs'))
    .filter(f => !filters.length || filters.some(x => f.includes(x)))
    .sort();
  if (!files.length) {
    test('e2e: scenarios', () => { throw new Error(`no test/e2e/*.e2e.mjs matches ${JSON.stringify(filters)}`); });
    return;
  }

  const problem = preflight();
  if (problem) {
    // one failing test, so the summary CI reads says what is wrong
    test('e2e: preflight', () => { throw new Error(problem); });
    return;
  }
  // imported only after setup.sh has installed what the harness loads
  const { startVSCode, stopAll } = await import('./harness.mjs');
  // a scenario that timed out may still hold a VS Code: stop it before the process exits
  const evidence = new Set();
  after(async () => { await Promise.allSettled(evidence); await stopAll(); });

  for (const file of files) {
    const name = file.replace(/\.e2e\.mjs$/, '');
    // no stale failure artifacts from an earlier run of this scenario
    for (const f of [`${name}-failure.png`, `${name}-startup-failure.png`, name]) {
      fs.rmSync(path.join(REPO_ROOT, 'test-artifacts/e2e', f), { recursive: true, force: true });
    }
    let mod;
    let importError;
    try { mod = await import(pathToFileURL(path.join(HERE, file)).href); } catch (e) { importError = e; mod = {}; }
    test(`e2e: ${name}`, { timeout: mod.timeout ?? 180_000 }, async t => {
      if (importError) throw importError;
      if (typeof mod.run !== 'function') throw new Error(`${file} must export async function run(h)`);
      // optional `export async function prepare()` returns more startVSCode options (e.g. a freshly built VSIX)
      const prepared = typeof mod.prepare === 'function' ? await mod.prepare() : {};
      const h = await startVSCode({ name, ...(process.env.E2E_VSIX ? { vsix: process.env.E2E_VSIX } : {}), ...(mod.options || {}), ...prepared });
      let passed = false;
      const keepEvidence = async () => {
        await h.screenshot(`${name}-failure`).catch(err => console.error(`[e2e] failure screenshot: ${err.message}`));
        const dir = h.saveLogs();
        console.error(`[e2e] ${name} failed: logs in ${path.relative(REPO_ROOT, dir)}, run dir ${path.relative(REPO_ROOT, h.runDir)}`);
      };
      // on a timeout node:test gives up on the scenario without stopping it: stop its VS Code now
      const onAbort = () => {
        const p = keepEvidence().finally(() => h.stop());
        evidence.add(p);
      };
      t.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await mod.run(h, t);
        passed = true;
      } catch (e) {
        if (!t.signal?.aborted) await keepEvidence();
        throw e;
      } finally {
        t.signal?.removeEventListener('abort', onAbort);
        await h.stop();
        if (passed && process.env.E2E_KEEP !== '1') h.removeRunDir();
      }
    });
  }
}
