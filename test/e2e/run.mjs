// Runs the end-to-end scenarios (test/e2e/*.e2e.mjs) against a real VS Code (code-server) in
// headless Chromium, one fresh VS Code per scenario, on Node's test runner.
//
// What is tested is what ships: the VSIX `npm run package` makes (scripts/package.mjs, with its
// check that nothing the extension loads at run time is missing), built once here and installed
// into each VS Code with --install-extension.
//
// usage: node test/e2e/run.mjs [filter ...]     (npm run test:e2e [-- filter])
//   filter: substrings of scenario file names; default: all scenarios
//   env: E2E_SKIP_SETUP=1  don't run test/e2e/setup.sh first
//        E2E_KEEP=1        keep the run dirs (.e2e/runs/...) of passing scenarios too
//        E2E_REPORTER=tap  node:test reporter (default spec)
//        E2E_QUIET=1       no harness progress lines
//        E2E_VSIX=<file>   install this VSIX (default: the one `npm run package` makes, built first)
//        E2E_DEV=1         link the repository's development build instead of a VSIX (quicker to iterate)
//        E2E_VSCODE=1.100[,1.139]  run only in these VS Code versions (default: each scenario's own list)
//
// A scenario file exports
//   export async function run(h) { ... }   // h: what startVSCode() returns (see harness.mjs)
// and optionally
//   export const options = { settings, workspaceFiles, env, ... };  // passed to startVSCode()
//   export const timeout = 180_000;                                  // ms for the whole scenario
//   export async function prepare() { return { vsix } }              // more options, computed first
//   export const vscode = ['1.100', '1.139'];                         // VS Code versions (default: the oldest)
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
  if (process.env.E2E_DEV === '1') return null;
  // the VSIX as `npm run package` makes it (its check fails on a missing runtime file)
  const t = Date.now();
  const out = path.join(REPO_ROOT, '.e2e', 'vsix-under-test');
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--target', `${process.platform}-${process.arch}`, '--out', out], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) return `npm run package failed (exit ${r.status ?? r.signal}):\n${(r.stderr || r.stdout).slice(-3000)}`;
  const vsix = fs.readdirSync(out).find(f => f.endsWith('.vsix'));
  if (!vsix) return `npm run package wrote no .vsix into ${out}`;
  process.env.E2E_VSIX = path.join(out, vsix);
  console.log(`[e2e] packaged ${path.relative(REPO_ROOT, process.env.E2E_VSIX)} in ${Date.now() - t} ms: every scenario installs it`);
  return null;
}

/** The VS Code versions a scenario runs in: its own list (default the oldest), narrowed by E2E_VSCODE. */
function versionsOf(mod, all, oldest) {
  const own = Array.isArray(mod.vscode) && mod.vscode.length ? mod.vscode : [oldest];
  const only = (process.env.E2E_VSCODE || '').split(',').map(v => v.trim()).filter(Boolean);
  return own.filter(v => all.includes(v) && (!only.length || only.includes(v)));
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
  const { startVSCode, stopAll, VSCODE_VERSIONS, DEFAULT_VSCODE } = await import('./harness.mjs');
  const allVersions = Object.keys(VSCODE_VERSIONS);
  // a scenario that timed out may still hold a VS Code: stop it before the process exits
  const evidence = new Set();
  after(async () => { await Promise.allSettled(evidence); await stopAll(); });

  for (const file of files) {
    const base = file.replace(/\.e2e\.mjs$/, '');
    let mod;
    let importError;
    try { mod = await import(pathToFileURL(path.join(HERE, file)).href); } catch (e) { importError = e; mod = {}; }
    for (const vscode of importError ? [DEFAULT_VSCODE] : versionsOf(mod, allVersions, DEFAULT_VSCODE)) {
      // the oldest VS Code keeps the plain name (and artifact names); another version says which
      const name = vscode === DEFAULT_VSCODE ? base : `${base}-vscode-${vscode}`;
      // no stale failure artifacts from an earlier run of this scenario
      for (const f of [`${name}-failure.png`, `${name}-startup-failure.png`, name]) {
        fs.rmSync(path.join(REPO_ROOT, 'test-artifacts/e2e', f), { recursive: true, force: true });
      }
      test(`e2e: ${base}${vscode === DEFAULT_VSCODE ? '' : ` [VS Code ${vscode}]`}`, { timeout: mod.timeout ?? 180_000 }, async t => {
        if (importError) throw importError;
        if (typeof mod.run !== 'function') throw new Error(`${file} must export async function run(h)`);
        // optional `export async function prepare()` returns more startVSCode options (e.g. a freshly built VSIX)
        const prepared = typeof mod.prepare === 'function' ? await mod.prepare() : {};
        const h = await startVSCode({ name, vscode, ...(process.env.E2E_VSIX ? { vsix: process.env.E2E_VSIX } : {}), ...(mod.options || {}), ...prepared });
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
}
