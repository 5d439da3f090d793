// The store under hostile file systems and load. Locks that are not lock files, stale
// locks of every kind, concurrent CLI writers, orphaned temp files, symbolic links out of the
// workspace, wrong-shaped memory.json, and keys that are Object.prototype names.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { FolderLock } from '../../src/store/folderLock';
import { MemoryStore, StoreError, memoryDirFor } from '../../src/store/memoryStore';
import { VectorStore } from '../../src/store/vectorStore';
import { fakeLockClock } from '../support/stores';
import { tempFolders } from '../support/tempFolders';

const workspace = tempFolders('fm-hard-');

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
    const clock = fakeLockClock();
    const store = new MemoryStore(dir, { onWarning: () => undefined, staleLockMs: 1500, lockClock: clock });
    const started = clock.now();
    await settlesWithin(60_000, 'update()', () => store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' })));
    assert.equal((await store.read()).learnings.length, 1);
    const waited = clock.now() - started;
    assert.ok(waited > 1500 && waited < 1600, `broken after ${waited} ms unchanged`);
  });

  test('a lock from another host with a future mtime does not block forever', async () => {
    const ws = workspace();
    const dir = memoryDirFor(ws);
    fs.mkdirSync(dir, { recursive: true });
    const lock = path.join(dir, 'memory.json.lock');
    const future = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', time: future.toISOString(), token: 'x' }));
    fs.utimesSync(lock, future, future);
    const clock = fakeLockClock();
    const store = new MemoryStore(dir, { onWarning: () => undefined, staleLockMs: 1500, lockClock: clock });
    const started = clock.now();
    await settlesWithin(60_000, 'update()', () => store.update(d => void d.learnings.push({ id: 'a', type: 'learning', text: 'x', source: 'note', createdAt: 'now' })));
    assert.equal((await store.read()).learnings.length, 1);
    const waited = clock.now() - started;
    assert.ok(waited > 1500 && waited < 1600, `broken after ${waited} ms unchanged`);
  });

  test('the default wait outlasts the stale age: a dead lock never makes a write fail', () => {
    const dir = memoryDirFor(workspace());
    const { timeoutMs, staleMs } = new FolderLock(dir, path.join(dir, 'memory.json'), { onWarning: () => undefined });
    assert.ok(timeoutMs > staleMs + 2000, `${timeoutMs} > ${staleMs}`);
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

});

test('StoreError carries UNSAFE_PATH for a linked memory folder', async () => {
  const ws = workspace();
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.symlinkSync(workspace(), path.join(ws, '.vscode', 'failure-memory'));
  await assert.rejects(new MemoryStore(memoryDirFor(ws)).update(() => undefined), (e: unknown) => e instanceof StoreError && e.code === 'UNSAFE_PATH');
  await assert.rejects(new MemoryStore(memoryDirFor(ws)).read(), (e: unknown) => e instanceof StoreError && e.code === 'UNSAFE_PATH');
});
