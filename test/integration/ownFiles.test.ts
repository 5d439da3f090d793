// "Fixed by" and "changed since it last passed" list only what a person or an agent changed: never
// Failure Memory's memory folder, its exports or the hook files setup writes — in the pure ledger
// and in the git state read from a real repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { HARNESS_IDS } from '../../src/agents/hooks';
import { targetFor } from '../../src/agents/setup';
import { changedFiles, fixLessonText } from '../../src/core/rules/ledger';
import { HOOK_FILES, isOwnFile, mayHoldOnlyOwnFiles, userFiles } from '../../src/core/ownFiles';
import type { GitState } from '../../src/core/types';
import { readGitState } from '../../src/store/gitContext';
import { tempFolders } from '../support/tempFolders';

const newDir = tempFolders('fm-own-');

function repo(): string {
  const dir = newDir();
  const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 'e2e@example.com');
  g('config', 'user.name', 'e2e');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/cart.js'), 'module.exports = items => items.reduce((s, i) => s + i.price, 0);\n');
  g('add', '.');
  g('commit', '-q', '-m', 'init');
  return dir;
}

function write(dir: string, rel: string, text = 'x\n'): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
}

void describe('own files', () => {
  void test('memory, exports and hook files are ours; the user’s files, even beside them, are not', () => {
    for (const p of [
      '.vscode/failure-memory/memory.json',
      'app/.vscode/failure-memory/vectors.bin',
      'failure-memory-export.json',
      'exports/failure-memory-export-2026-11-25.json',
      '.github/hooks/failure-memory.json',
      '.claude/settings.json',
      '.clinerules/hooks/PreToolUse',
      'packages/web/.cursor/hooks.json',
    ]) {
      assert.equal(isOwnFile(p), true, p);
    }
    for (const p of ['src/cart.js', 'build.js', '.github/workflows/ci.yml', '.vscode/settings.json', 'docs/failure-memory.md', 'my-export.json']) {
      assert.equal(isOwnFile(p), false, p);
    }
    assert.deepEqual(userFiles(['.github/hooks/failure-memory.json', 'build.js', 'failure-memory-export.json', 'src/cart.js']), ['build.js', 'src/cart.js']);
  });

  void test('every file setup can write is known as a hook file', () => {
    const written = HARNESS_IDS.flatMap(id => {
      const t = targetFor(id);
      return t.kind === 'json' ? [t.file] : Object.keys(t.files);
    });
    for (const f of written) assert.ok(HOOK_FILES.includes(f), `${f} is written by setup but not in HOOK_FILES`);
  });

  void test('a folder git collapses is looked into only when one of our files may be inside', () => {
    for (const f of ['.github/', '.vscode/', '.clinerules/', 'app/.github/', '.claude/']) assert.equal(mayHoldOnlyOwnFiles(f), true, f);
    for (const f of ['src/', 'node_modules/', '.github', 'docs/']) assert.equal(mayHoldOnlyOwnFiles(f), false, f);
  });

  void test('the ledger never lists our own files as what fixed it', () => {
    const state = (dirty: Record<string, string>): GitState => ({ head: 'h1', fingerprint: JSON.stringify(dirty), dirty });
    const failed = state({ 'src/cart.js': 'a' });
    const passed = state({ 'src/cart.js': 'b', '.github/hooks/failure-memory.json': 'c', 'failure-memory-export.json': 'd', 'build.js': 'e' });
    const { files } = changedFiles(failed, passed);
    assert.deepEqual(files, ['build.js', 'src/cart.js']);
    assert.equal(fixLessonText({ files, signature: 'AssertionError: Expected values to be strictly equal: | <n> !== <n>', at: '' }), 'fixed by changing “build.js” and “src/cart.js” (the error was: AssertionError: Expected values to be strictly equal: … !== …)');
  });

  void test('the git state of a real repository: hook files, an export and the memory folder are no change; a user file is', async () => {
    const dir = repo();
    // what Failure Memory writes: the memory (with its own .gitignore), an export, setup's hook file
    write(dir, '.vscode/failure-memory/memory.json', '{}');
    write(dir, '.vscode/failure-memory/.gitignore', '*\n');
    write(dir, 'failure-memory-export.json', '{}');
    write(dir, '.github/hooks/failure-memory.json', '{}');
    const before = await readGitState(dir);
    assert.deepEqual(before?.dirty, {}, 'nothing the user changed');
    // the user's fix
    write(dir, 'src/cart.js', 'module.exports = items => items.reduce((s, i) => s + i.price * i.qty, 0);\n');
    const after = await readGitState(dir);
    assert.deepEqual(Object.keys(after!.dirty), ['src/cart.js']);
    assert.notEqual(after!.fingerprint, before!.fingerprint);
    // a workflow of the user's beside our hook file in the same new folder is listed on its own
    write(dir, '.github/workflows/ci.yml', 'on: push\n');
    assert.deepEqual(Object.keys((await readGitState(dir))!.dirty), ['.github/workflows/ci.yml', 'src/cart.js']);
  });
});
