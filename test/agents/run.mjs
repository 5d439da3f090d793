// The agents end-to-end suite: the real harness programs (pinned in ./install.mjs, installed once
// into .agents/) run headless against a scripted model on 127.0.0.1 (./mockModel.mjs), on a
// workspace set up only by `failure-memory setup-agents --harness H` with a fresh HOME (and VS Code's
// own agent mode, in VS Code 1.139 with the packaged VSIX: ./vscodeAgent.mjs). For each
// harness: an exhausted command never runs (its side effect stays absent), a clear command runs,
// each failure is recorded exactly once (never cleared, never counted twice), the gate's reason
// reaches the model, and the next session's first model request already carries the summary.
//
// The tests run in a network namespace of their own with loopback only (unshare -n, where it is
// permitted): the harnesses reach the mock and nothing else.
//
// usage: node test/agents/run.mjs [harness ...]      (npm run test:agents [-- claude codex])
//   env: AGENTS_KEEP=1  keep the workspaces and HOMEs (printed) of passing runs too
//        AGENTS_REPORTER=tap  node:test reporter (default spec)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');

if (process.execArgv.some(a => a.startsWith('--test-reporter'))) {
  await main();
} else {
  // the install needs the npm registry: done here, before the tests run offline
  const { ensureHarnesses } = await import('./install.mjs');
  let installed = '';
  try {
    const r = ensureHarnesses();
    installed = `${r.installed ? 'installed' : 'present'} (${(r.ms / 1000).toFixed(1)} s)`;
  } catch (e) {
    installed = `install failed: ${e.message}`;
  }
  // VS Code's agent mode needs VS Code 1.139, a browser and the packaged VSIX: ready them here too
  const only = process.argv.slice(2);
  const { prepareVSCodeAgent, vscodeScenarios } = await import('./vscodeAgent.mjs');
  const vscodeAgent = !only.length || vscodeScenarios.some(s => only.some(o => s.harnesses.includes(o) || s.name.includes(o))) ? prepareVSCodeAgent() : {};
  // Node 20 takes the reporter only from the command line: run this file again with one, in a
  // network namespace of its own where only loopback exists, so a harness reaches nothing but the
  // mock (no telemetry, no update check leaves the machine)
  const node = [process.execPath, ...process.execArgv, `--test-reporter=${process.env.AGENTS_REPORTER || 'spec'}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const netns = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
  const [cmd, ...args] = netns ? ['unshare', '-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...node] : node;
  const env = { ...process.env, AGENTS_INSTALL: installed, AGENTS_NETNS: netns ? 'loopback only' : 'the machine\'s (no unshare -n here)', AGENTS_VSCODE_VSIX: vscodeAgent.vsix ?? '', AGENTS_VSCODE_PROBLEM: vscodeAgent.problem ?? '' };
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: REPO_ROOT, env });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, sig) => process.exit(code ?? 128 + (os.constants.signals[sig] || 1)));
}

async function main() {
  const { test, after } = await import('node:test');
  const { agentsDir, ensureHarnesses, HARNESS_PACKAGES } = await import('./install.mjs');
  const { scenarios } = await import('./scenarios.mjs');
  const { vscodeScenarios } = await import('./vscodeAgent.mjs');
  const only = process.argv.slice(2);
  const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
  if (!fs.existsSync(cli) || !fs.existsSync(path.join(REPO_ROOT, 'dist', 'hook.js'))) {
    test('agents: preflight', () => { throw new Error('dist/cli.js or dist/hook.js missing: run `npm run build` first'); });
    return;
  }
  try {
    // done by the parent (it has the registry); here only the stamp is read
    ensureHarnesses();
  } catch (e) {
    test('agents: install the harnesses', () => { throw new Error(`${process.env.AGENTS_INSTALL ?? ''} ${e.message}`); });
    return;
  }
  console.log(`[agents] harnesses ${process.env.AGENTS_INSTALL || 'present'}; network: ${process.env.AGENTS_NETNS || "the machine's"}`);
  const timings = [];
  after(() => {
    for (const t of timings) console.log(`[agents] ${t.name}: ${(t.ms / 1000).toFixed(1)} s`);
    // Cline CLI leaves a hub daemon running after its session ends: stop the ones started from this install
    spawnSync('pkill', ['-f', path.join(agentsDir(), 'harnesses', 'node_modules', '@cline')], { stdio: 'ignore' });
  });
  for (const s of [...scenarios, ...vscodeScenarios]) {
    if (only.length && !only.some(o => s.harnesses.includes(o) || s.name.includes(o))) continue;
    const versions = s.versions ?? s.harnesses.map(h => `${h} ${HARNESS_PACKAGES[h].version}`).join(', ');
    test(`${s.name} (${versions})`, { timeout: s.timeout ?? 600_000 }, async t => {
      const t0 = Date.now();
      try {
        await s.run(t);
      } finally {
        timings.push({ name: s.name, ms: Date.now() - t0 });
      }
    });
  }
  if (!spawnSync('git', ['--version']).stdout) test('agents: git', () => { throw new Error('git is needed (workspaces are git repositories)'); });
}
