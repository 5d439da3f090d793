// How fast the memory panel shows its content when it is opened again, in a real VS Code
// (code-server, test/e2e/harness.mjs) with the packaged VSIX: the panel is open, the user switches
// to the Explorer (VS Code disposes a hidden webview view), then back to Failure Memory. Timed from
// the click on the activity-bar icon to the first card visible in the panel; also the first open.
// The workspace holds a day's memory (40 approaches: exhausted, failing, resolved; reflections,
// learnings), written by the CLI before VS Code starts. Nothing here asserts a time.
//
// usage: node bench/panel-reopen.mjs [--vsix FILE] [--vscode 1.100|1.139] [--runs 10] [--out result.json]
// (without --vsix it packages the repository with scripts/package.mjs)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startVSCode } from '../test/e2e/harness.mjs';
import { panelOpenTimes } from './panelTiming.mjs';

process.env.E2E_QUIET ??= '1';
const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const runs = Number(opt('runs', 10));
const vscodeVersion = opt('vscode', undefined);
const CLI = path.join(REPO_ROOT, 'dist/cli.js');

function packaged() {
  const given = opt('vsix', undefined);
  if (given) return path.resolve(given);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-panel-bench-'));
  execFileSync(process.execPath, ['scripts/package.mjs', '--target', `${process.platform}-${process.arch}`, '--out', out], { cwd: REPO_ROOT, stdio: 'pipe' });
  return path.join(out, fs.readdirSync(out).find(f => f.endsWith('.vsix')));
}

/** A day's memory: 10 exhausted, 20 failing and 10 resolved approaches, 2 reflections, learnings. */
function seed(workspace) {
  const record = (command, exitCode, output) =>
    execFileSync(process.execPath, [CLI, 'record', '--workspace', workspace, '--command', command, '--exit-code', String(exitCode)], { input: output });
  const cli = (...a) => execFileSync(process.execPath, [CLI, ...a, '--workspace', workspace]);
  for (let i = 0; i < 10; i++) for (let k = 0; k < 6; k++) record(`node scripts/task${i}.js`, 1, `TypeError: Cannot read properties of undefined (reading 'x${i}')\n    at main (/w/scripts/task${i}.js:${3 + k}:7)\n`);
  for (let i = 0; i < 20; i++) for (let k = 0; k < 2; k++) record(`npx jest src/m${i}.test.ts`, 1, ` FAIL  src/m${i}.test.ts\n  ● m${i} › works\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, ${k + 2} passed, 4 total\n`);
  for (let i = 0; i < 10; i++) {
    record(`make target${i}`, 2, `make: *** [target${i}] Error 2\n`);
    record(`make target${i}`, 0, 'ok\n');
  }
  for (let i = 0; i < 2; i++) cli('reflect', '--command', `node scripts/task${i}.js`);
  for (let i = 0; i < 30; i++) cli('learn', '--type', 'learning', '--text', `Lesson ${i}: check the input before the loop`);
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const vsix = packaged();
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-panel-ws-'));
  seed(workspace);
  const h = await startVSCode({ name: 'bench-panel', vsix, workspace, ...(vscodeVersion ? { vscode: vscodeVersion } : {}), settings: { 'workbench.activityBar.location': 'default' } });
  const result = { vscode: h.vscode, runs, firstOpenMs: 0, reopenMs: [], load: os.loadavg().map(l => Math.round(l * 100) / 100) };
  try {
    await h.waitForActivation();
    const times = await panelOpenTimes(h, runs);
    result.firstOpenMs = times.first;
    result.reopenMs = times.reopen;
    result.reopenMedianMs = median(result.reopenMs);
  } finally {
    await h.stop();
    h.removeRunDir();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  console.log(JSON.stringify(result));
  const out = opt('out', undefined);
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

await main();
