// The packaged extension, as a user gets it: build the VSIX, install it into a fresh code-server
// (--install-extension), open a workspace, check it runs from the installed copy (not from this
// source folder) and records a failing command.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DIR, REPO_ROOT } from './harness.mjs';

export const timeout = 240_000;

export async function prepare() {
  const out = path.join(E2E_DIR, 'vsix');
  fs.rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, ['scripts/package.mjs', '--target', 'linux-x64', '--out', out], { cwd: REPO_ROOT, stdio: 'pipe' });
  const vsix = path.join(out, fs.readdirSync(out).find(f => f.endsWith('.vsix')));
  return { vsix };
}

export async function run(h) {
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'activated' });
  const installed = path.resolve(activated.extensionPath);
  assert.ok(!installed.startsWith(REPO_ROOT + path.sep + 'src') && installed !== REPO_ROOT, `runs from the installed copy, not ${REPO_ROOT}`);
  assert.ok(installed.includes(`${path.sep}exts${path.sep}failure-memory.failure-memory-`), installed);
  assert.ok(!fs.lstatSync(installed).isSymbolicLink(), 'a real installed folder, not a link');
  for (const f of ['dist/extension.js', 'dist/cli.js', 'package.json', 'media/icon.png']) assert.ok(fs.existsSync(path.join(installed, f)), f);
  assert.ok(!fs.existsSync(path.join(installed, 'src')), 'no sources shipped');
  assert.ok(!fs.existsSync(path.join(installed, 'node_modules', 'typescript')), 'no dev dependencies shipped');

  await h.openTerminal();
  const n = h.readEvents().length;
  const r = await h.typeInTerminal('ls /definitely-not-here');
  assert.equal(r.exitCode, 2);
  const rec = await h.waitForEvent(e => e.event === 'recorded' && e.exitCode === 2, { since: n, what: 'recorded by the installed extension' });
  assert.equal(rec.key, '.::ls');
  const mem = JSON.parse(fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/memory.json'), 'utf8'));
  assert.equal(mem.approaches['.::ls'].failures, 1);
}
