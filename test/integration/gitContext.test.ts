// Git context of runs, against a real git repository in a temporary folder; and the hot path:
// a success of a command that never failed does not run git at all.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseStatus, readGitState } from '../../src/store/gitContext';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { tempDir } from '../support/tempFolders';

function repo(): string {
  const dir = tempDir('fm-git-');
  const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 'e2e@example.com');
  g('config', 'user.name', 'e2e');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a + b;\n');
  fs.writeFileSync(path.join(dir, 'README.md'), 'x\n');
  g('add', '.');
  g('commit', '-q', '-m', 'init');
  return dir;
}

const FAIL = 'FAIL src/sum.test.js\n  ● sum › adds\n    expect(received).toBe(expected)\nTests:       1 failed, 3 passed, 4 total\n';

void describe('git context', () => {
  void test('parseStatus reads porcelain v2: head, branch, changed, renamed, unmerged and untracked paths', () => {
    const out = [
      '# branch.oid 0123456789abcdef0123456789abcdef01234567',
      '# branch.head feature/x',
      '1 .M N... 100644 100644 100644 aaa bbb src/with space.js',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new.js',
      'old.js',
      'u UU N... 100644 100644 100644 100644 a b c conflict.js',
      '? notes.txt',
      '',
    ].join('\0');
    const s = parseStatus(out);
    assert.equal(s.head, '0123456789abcdef0123456789abcdef01234567');
    assert.equal(s.branch, 'feature/x');
    assert.deepEqual(s.paths, ['src/with space.js', 'new.js', 'conflict.js', 'notes.txt']);
    assert.equal(parseStatus('# branch.oid (initial)\0# branch.head (detached)\0').head, '');
  });

  void test('readGitState: HEAD, branch, a fingerprint that follows the content of changed files; no repository → undefined', async () => {
    const dir = repo();
    const clean = await readGitState(dir);
    assert.ok(clean);
    assert.match(clean.head, /^[0-9a-f]{40}$/);
    assert.equal(clean.branch, 'main');
    assert.deepEqual(clean.dirty, {});
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a - b;\n');
    const edited = await readGitState(dir);
    assert.deepEqual(Object.keys(edited!.dirty), ['src/sum.js']);
    assert.notEqual(edited!.fingerprint, clean.fingerprint);
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a * b;\n');
    assert.notEqual((await readGitState(dir))!.fingerprint, edited!.fingerprint, 'another edit of the same file is another state');
    const plain = tempDir('fm-nogit-');
    assert.equal(await readGitState(plain), undefined);
    assert.equal(await readGitState(dir, { git: path.join(plain, 'no-such-git') }), undefined, 'no git program: no context, no error');
  });

  void test('waited for synchronously (a hook), git gives the same state, and says nothing on stderr when it fails', async () => {
    const dir = repo();
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a - b;\n');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'x\n');
    assert.deepEqual(await readGitState(dir, { sync: true }), await readGitState(dir));
    const plain = tempDir('fm-nogit-');
    fs.mkdirSync(path.join(plain, '.git')); // looks like a repository, is not one: git fails
    const probe = spawnSync(process.execPath, ['--import', 'tsx', '-e', `require(${JSON.stringify(path.resolve(__dirname, '../../src/store/gitContext.ts'))}).readGitState(${JSON.stringify(plain)}, { sync: true }).then(s => process.stdout.write(String(s)))`], { encoding: 'utf8' });
    assert.equal(probe.stdout, 'undefined');
    assert.equal(probe.stderr, '', "git's own complaint never reaches a harness");
  });

  void test('through WorkspaceMemory: break a file, fail, fix it, pass → "fixed by changing src/sum.js"', async () => {
    const dir = repo();
    const memory = new WorkspaceMemory(dir);
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a - b;\n');
    await memory.record({ command: 'npx jest', exitCode: 1, source: 'cli', output: FAIL });
    await memory.record({ command: 'npx jest', exitCode: 1, source: 'cli', output: FAIL });
    execFileSync('git', ['checkout', '--', 'src/sum.js'], { cwd: dir });
    const r = await memory.record({ command: 'npx jest', exitCode: 0, source: 'cli', output: 'Tests: 4 passed, 4 total\n' });
    assert.equal(r.resolved, true);
    assert.deepEqual(r.ledger.fix?.files, ['src/sum.js']);
    const lesson = r.learnings.find(l => l.source === 'fix');
    assert.match(lesson!.text, /^“jest” fixed by changing “src\/sum\.js”/);
    const data = await memory.read();
    assert.equal(data.approaches['.::jest'].ledger!.length, 3);
    assert.equal(data.approaches['.::jest'].ledger![0].git?.branch, 'main');
  });

  void test('a commit between the failure and the pass is found with git diff', async () => {
    const dir = repo();
    const memory = new WorkspaceMemory(dir);
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a - b;\n');
    execFileSync('git', ['commit', '-qam', 'break'], { cwd: dir });
    await memory.record({ command: 'npx jest', exitCode: 1, source: 'cli', output: FAIL });
    fs.writeFileSync(path.join(dir, 'src/sum.js'), 'module.exports = (a, b) => a + b;\n');
    execFileSync('git', ['commit', '-qam', 'fix'], { cwd: dir });
    const r = await memory.record({ command: 'npx jest', exitCode: 0, source: 'cli', output: '' });
    assert.deepEqual(r.ledger.fix?.files, ['src/sum.js']);
  });

  void test('the success of a command that never failed runs no git (one read, nothing written)', async () => {
    const dir = repo();
    const marker = path.join(dir, '..', `${path.basename(dir)}-git-called`);
    const fakeGit = path.join(dir, '..', `${path.basename(dir)}-fake-git.sh`);
    fs.writeFileSync(fakeGit, `#!/bin/sh\necho called >> "${marker}"\nexit 1\n`, { mode: 0o755 });
    const memory = new WorkspaceMemory(dir, { git: { git: fakeGit } });
    await memory.record({ command: 'ls -la', exitCode: 0, source: 'cli', output: 'x' });
    assert.equal(fs.existsSync(marker), false, 'git was not run for a never-failed success');
    assert.equal(fs.existsSync(memory.store.file), false, 'nothing was written');
    await memory.record({ command: 'npx jest', exitCode: 1, source: 'cli', output: FAIL });
    assert.equal(fs.existsSync(marker), true, 'a failure asks git');
    const data = await memory.read();
    assert.equal(data.approaches['.::jest'].ledger![0].git, undefined, 'a failing git gives no context, and no error');
  });
});
