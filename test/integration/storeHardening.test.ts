// The store under hostile file systems and load. Locks that are not lock files, stale
// locks of every kind, concurrent CLI writers, orphaned temp files, symbolic links out of the
// workspace, wrong-shaped memory.json, and keys that are Object.prototype names.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { memoryDirFor } from '../../src/store/memoryStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { tempFolders } from '../support/tempFolders';

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const workspace = tempFolders('fm-hard-');

function cli(ws: string, args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cliAsync(ws: string, args: string[], input = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [CLI, ...args, '--workspace', ws], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', d => (stderr += String(d)));
    child.on('close', code => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

describe('locks', () => {

  test('8 CLI processes × 6 distinct records at once: every record is kept, none rejected', { timeout: 10 * 60_000 }, async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm run build)');
    const ws = workspace();
    const runs: Array<Promise<{ code: number | null; stderr: string }>> = [];
    for (let p = 0; p < 8; p++) {
      runs.push(
        (async () => {
          let last = { code: 0 as number | null, stderr: '' };
          for (let i = 0; i < 6; i++) {
            const r = await cliAsync(ws, ['record', '--command', `tool-${p}-${i} build`, '--exit-code', '1'], `error: failure ${p} ${i}\n`);
            if (r.code !== 0) return r;
            last = r;
          }
          return last;
        })(),
      );
    }
    const results = await Promise.all(runs);
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    // memory as every reader sees it: memory.json with the runs the journal holds until the next full write
    const data = JSON.parse(cli(ws, ['export']).stdout);
    assert.equal(Object.keys(data.approaches).length, 48);
  });

});

describe('written where it must not be', () => {
  test('.vscode/failure-memory as a symbolic link to another folder is refused; nothing is written, moved or deleted there', async () => {
    const ws = workspace();
    const elsewhere = workspace();
    fs.writeFileSync(path.join(elsewhere, 'memory.json'), '{"not":"ours"');
    fs.writeFileSync(path.join(elsewhere, 'vectors.json'), 'keep me');
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.symlinkSync(elsewhere, path.join(ws, '.vscode', 'failure-memory'));
    const before = fs.readdirSync(elsewhere).sort();
    const r = cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], 'Error: x\n');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /symbolic link/);
    const c = cli(ws, ['clear', '--yes']);
    assert.notEqual(c.status, 0);
    assert.deepEqual(fs.readdirSync(elsewhere).sort(), before);
    assert.equal(fs.readFileSync(path.join(elsewhere, 'vectors.json'), 'utf8'), 'keep me');
    assert.equal(fs.readFileSync(path.join(elsewhere, 'memory.json'), 'utf8'), '{"not":"ours"');
  });

});

describe('wrong-shaped memory and hostile keys', () => {
  test('"attempts": [1, null, "x"] is moved aside with a message; check answers instead of exiting 1', () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    const doc = { schemaVersion: 1, approaches: { '.::npm test': { command: 'npm test', attempts: [1, null, 'x'] } } };
    fs.writeFileSync(path.join(dir, 'memory.json'), JSON.stringify(doc));
    const r = cli(ws, ['check', '--command', 'npm test']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(fs.readdirSync(dir).some(n => n.startsWith('memory.json.corrupt-')));
    const rec = cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], 'Error: x\n');
    assert.equal(rec.status, 0, rec.stderr);
  });

  test('__proto__, constructor and toString as commands and keys do not crash', async () => {
    const ws = workspace();
    for (const name of ['__proto__', 'constructor', 'toString']) {
      for (const sub of ['resolve', 'allow', 'reflect', 'check']) {
        const r = cli(ws, [sub, '--command', name]);
        assert.ok(r.status === 0 || r.status === 1, `${sub} ${name}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /TypeError|at .*\.js:\d+/);
      }
    }
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'memory.json'), '{"schemaVersion":1,"approaches":{"__proto__":{"command":"x","attempts":[]},"toString":{"command":"y","attempts":[]}}}');
    const m = new WorkspaceMemory(ws, { onWarning: () => undefined });
    const data = await m.read();
    assert.ok(Object.prototype.hasOwnProperty.call(data.approaches, '__proto__'));
    assert.equal(Object.getPrototypeOf(data.approaches), Object.prototype);
    assert.ok(await m.markByCommand('resolve', 'toString'));
  });

  test('resolve racing clear: the lookup is inside the lock, so no run crashes', { timeout: 5 * 60_000 }, async () => {
    const ws = workspace();
    for (let round = 0; round < 6; round++) {
      cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], 'Error: x\n');
      const [a, b, c] = await Promise.all([cliAsync(ws, ['resolve', '--command', 'npm test']), cliAsync(ws, ['clear', '--yes']), cliAsync(ws, ['allow', '--command', 'npm test'])]);
      for (const r of [a, b, c]) {
        assert.ok(r.code === 0 || r.code === 1, r.stderr);
        assert.doesNotMatch(r.stderr, /TypeError/);
      }
    }
  });
});

