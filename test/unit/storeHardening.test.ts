// Issue 12: the store under hostile file systems and load. Locks that are not lock files, stale
// locks of every kind, concurrent CLI writers, orphaned temp files, symbolic links out of the
// workspace, wrong-shaped memory.json, and keys that are Object.prototype names.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FolderLock } from '../../src/store/folderLock';
import { MemoryStore, StoreError, memoryDirFor } from '../../src/store/memoryStore';
import { VectorStore } from '../../src/store/vectorStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { tempFolders } from './helpers/tempFolders';

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

/** Runs fn; fails (instead of hanging the suite) when it does not settle within `ms`. */
async function settlesWithin<T>(ms: number, what: string, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms)));
  try {
    return await Promise.race([fn(), guard]);
  } finally {
    clearTimeout(timer);
  }
}

describe('locks', () => {
  test('a dangling symbolic link at memory.json.lock is removed, not spun on', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(ws, 'nowhere'), path.join(dir, 'memory.json.lock'));
    const warnings: string[] = [];
    const store = new MemoryStore(dir, { onWarning: m => warnings.push(m), lockTimeoutMs: 3000 });
    await settlesWithin(30_000, 'update()', () => store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' })));
    assert.equal((await store.read()).learnings.length, 1);
    assert.ok(!fs.existsSync(path.join(ws, 'nowhere')), 'nothing was created where the link pointed');
    assert.ok(warnings.some(w => /symbolic link/.test(w)), warnings.join('\n'));
  });

  test('a dangling symbolic link at vectors.json.lock is removed, not spun on', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(ws, 'nowhere'), path.join(dir, 'vectors.json.lock'));
    const vs = new VectorStore(dir, { lockTimeoutMs: 3000, onWarning: () => undefined });
    await settlesWithin(30_000, 'vector write', () => vs.replaceAll('e', 2, [{ id: 'x', vector: new Float32Array([1, 0]) }]));
    assert.equal((await vs.load()).ids.length, 1);
  });

  test('a lock held by a live process that never refreshes it (a reused pid) is broken before the writer gives up', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    // our parent is alive: a pid that looks alive, in a lock that will never be refreshed again
    const lock = path.join(dir, 'memory.json.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), time: new Date().toISOString(), token: 'x' }));
    const store = new MemoryStore(dir, { onWarning: () => undefined, staleLockMs: 1500 });
    await settlesWithin(60_000, 'update()', () => store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' })));
    assert.equal((await store.read()).learnings.length, 1);
  });

  test('a lock from another host with a future mtime does not block forever', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    const lock = path.join(dir, 'memory.json.lock');
    const future = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', time: future.toISOString(), token: 'x' }));
    fs.utimesSync(lock, future, future);
    const store = new MemoryStore(dir, { onWarning: () => undefined, staleLockMs: 1500 });
    await settlesWithin(60_000, 'update()', () => store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' })));
    assert.equal((await store.read()).learnings.length, 1);
  });

  test('the default wait outlasts the stale age: a dead lock never makes a write fail', () => {
    const dir = memoryDirFor(workspace());
    const { timeoutMs, staleMs } = new FolderLock(dir, path.join(dir, 'memory.json'), { onWarning: () => undefined });
    assert.ok(timeoutMs > staleMs + 2000, `${timeoutMs} > ${staleMs}`);
  });

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
    const data = JSON.parse(fs.readFileSync(path.join(memoryDirFor(ws), 'memory.json'), 'utf8'));
    assert.equal(Object.keys(data.approaches).length, 48);
  });

  test('temp files left by a writer killed mid-write are removed by the next write', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    const orphan = path.join(dir, '.memory.json.99999.deadbeef.tmp');
    const vOrphan = path.join(dir, '.vectors.json.99999.deadbeef.tmp');
    fs.writeFileSync(orphan, 'x'.repeat(1000));
    fs.writeFileSync(vOrphan, 'x');
    const store = new MemoryStore(dir, { onWarning: () => undefined });
    await store.update(() => undefined);
    assert.ok(!fs.existsSync(orphan));
    await new VectorStore(dir, { onWarning: () => undefined }).replaceAll('e', 2, [{ id: 'x', vector: new Float32Array([1, 0]) }]);
    assert.ok(!fs.existsSync(vOrphan));
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.tmp')), []);
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

  test('memory.json as a symbolic link: never read through, and the warning shows none of its target', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    const secret = path.join(workspace(), 'secret.txt');
    fs.writeFileSync(secret, 'root:x:0:0:SECRET-CONTENT');
    fs.symlinkSync(secret, path.join(dir, 'memory.json'));
    const warnings: string[] = [];
    const data = await new MemoryStore(dir, { onWarning: m => warnings.push(m) }).read();
    assert.deepEqual(Object.keys(data.approaches), []);
    assert.ok(warnings.length > 0);
    for (const w of warnings) assert.doesNotMatch(w, /root|SECRET/);
    assert.equal(fs.readFileSync(secret, 'utf8'), 'root:x:0:0:SECRET-CONTENT');
  });

  test('a corrupt memory.json warning never quotes the file', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'memory.json'), '[Open](command:workbench.action.terminal.sendSequence)');
    const warnings: string[] = [];
    await new MemoryStore(dir, { onWarning: m => warnings.push(m) }).read();
    assert.equal(warnings.length, 1);
    assert.doesNotMatch(warnings[0], /command:|Open/);
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

  test('a field nested 5,000 deep is moved aside; writes work again', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'memory.json'), `{"schemaVersion":1,"approaches":{},"extra":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const warnings: string[] = [];
    const store = new MemoryStore(dir, { onWarning: m => warnings.push(m) });
    await store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' }));
    assert.equal((await store.read()).learnings.length, 1);
    assert.ok(warnings.some(w => /nested/.test(w)));
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

test('StoreError carries UNSAFE_PATH for a linked memory folder', async () => {
  const ws = workspace();
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.symlinkSync(workspace(), path.join(ws, '.vscode', 'failure-memory'));
  await assert.rejects(new MemoryStore(memoryDirFor(ws)).update(() => undefined), (e: unknown) => e instanceof StoreError && e.code === 'UNSAFE_PATH');
  await assert.rejects(new MemoryStore(memoryDirFor(ws)).read(), (e: unknown) => e instanceof StoreError && e.code === 'UNSAFE_PATH');
});
