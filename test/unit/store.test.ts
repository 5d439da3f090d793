import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { emptyMemory, SCHEMA_VERSION, type Approach, type Attempt, type MemoryData } from '../../src/core/types';
import { acquireLock, LockTimeoutError } from '../../src/store/lock';
import { MAX_MEMORY_FILE_BYTES, MEMORY_DIR_NAME, MemoryStore, StoreError, memoryDirFor, migrateMemory } from '../../src/store/memoryStore';
import { scaled } from '../support/fuzz';
import { fakeLockClock, learning, storeMaker, writeLock } from '../support/stores';
import { tempFolders } from '../support/tempFolders';

/** A fresh workspace folder in the OS temp dir; removed after the run. */
const workspace = tempFolders('fm-store-');

const newStore = storeMaker(workspace);

function corruptCopies(dir: string): string[] {
  return fs.readdirSync(dir).filter(n => n.startsWith('memory.json.corrupt-')).map(n => path.join(dir, n));
}

/** Writes raw bytes as memory.json, then checks read() moves them aside intact and starts empty. */
async function assertMovedAside(bytes: Buffer | string, expectCode = 'IO'): Promise<void> {
  const { store, warnings, dir } = newStore();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(store.file, bytes);
  const data = await store.read();
  assert.deepEqual({ ...data, updatedAt: '' }, { ...emptyMemory(), updatedAt: '' });
  assert.equal(fs.existsSync(store.file), false, 'the corrupt file is no longer memory.json');
  const copies = corruptCopies(dir);
  assert.equal(copies.length, 1);
  assert.match(path.basename(copies[0]), /^memory\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/);
  assert.deepEqual(fs.readFileSync(copies[0]), Buffer.from(bytes), 'every corrupt byte is kept');
  assert.equal(warnings.length, 1);
  assert.ok(warnings[0].includes(copies[0]), `warning names the saved copy: ${warnings[0]}`);
  assert.ok(warnings[0].includes(`[${expectCode}]`), warnings[0]);
  // and the store keeps working
  await store.update(d => void d.learnings.push(learning('after')));
  assert.equal((await store.read()).learnings.length, 1);
}

void describe('paths', () => {
  void test('memoryDirFor puts memory under .vscode/failure-memory', () => {
    assert.equal(MEMORY_DIR_NAME, '.vscode/failure-memory');
    assert.equal(memoryDirFor('/ws'), path.join('/ws', '.vscode', 'failure-memory'));
    const store = new MemoryStore('/ws/.vscode/failure-memory');
    assert.equal(store.file, path.join(store.dir, 'memory.json'));
  });
});

void describe('reading and writing', () => {
  void test('a fresh store reads empty memory and creates nothing', async () => {
    const { store, dir } = newStore();
    const data = await store.read();
    assert.equal(data.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual([data.approaches, data.reflections, data.learnings], [{}, [], []]);
    assert.equal(fs.existsSync(dir), false);
    assert.equal(await store.mtimeMs(), undefined);
  });

  void test('update roundtrips through the file, returns the result and bumps updatedAt', async () => {
    const { store } = newStore();
    const before = new Date().toISOString();
    const result = await store.update(d => {
      d.learnings.push(learning('a'));
      d.reflections.push({ any: 'shape' });
      return d.learnings.length;
    });
    assert.equal(result, 1);
    const again = await new MemoryStore(store.dir).read();
    assert.deepEqual(again.learnings, [learning('a')]);
    assert.deepEqual(again.reflections, [{ any: 'shape' }]);
    assert.ok(again.updatedAt >= before);
    assert.equal(typeof (await store.mtimeMs()), 'number');
    assert.equal(await store.update(async d => d.learnings[0].id), 'a', 'async mutate works too');
  });

  void test('the file is compact JSON (no pretty printing)', async () => {
    const { store } = newStore();
    await store.update(d => void d.learnings.push(learning('a')));
    const text = fs.readFileSync(store.file, 'utf8');
    assert.equal(text, JSON.stringify(JSON.parse(text)));
  });

  void test('the first write creates the folder with a .gitignore of "*"; an existing one is kept', async () => {
    const { store, dir } = newStore();
    await store.update(() => undefined);
    assert.equal(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8'), '*\n');

    const other = newStore();
    fs.mkdirSync(other.dir, { recursive: true });
    fs.writeFileSync(path.join(other.dir, '.gitignore'), '# mine\n');
    await other.store.update(() => undefined);
    assert.equal(fs.readFileSync(path.join(other.dir, '.gitignore'), 'utf8'), '# mine\n');
  });

  void test('no temp or lock files are left behind', async () => {
    const { store, dir } = newStore();
    for (let i = 0; i < 20; i++) await store.update(d => void d.learnings.push(learning(String(i))));
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.gitignore', 'memory.index.json', 'memory.json']);
  });

  void test('a throwing mutate writes nothing and releases the lock', async () => {
    const { store, dir } = newStore({ lockTimeoutMs: 200 });
    await store.update(d => void d.learnings.push(learning('kept')));
    const bytes = fs.readFileSync(store.file);
    await assert.rejects(store.update(() => { throw new Error('boom'); }), /boom/);
    assert.deepEqual(fs.readFileSync(store.file), bytes);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.gitignore', 'memory.index.json', 'memory.json']);
    await store.update(d => void d.learnings.push(learning('next'))); // would time out if the lock leaked
    assert.equal((await store.read()).learnings.length, 2);
  });

  void test('replace swaps the whole memory (clear/import) and validates what it is given', async () => {
    const { store } = newStore();
    await store.update(d => void d.learnings.push(learning('old')));
    await store.replace({ ...emptyMemory(), learnings: [learning('imported')] });
    assert.deepEqual((await store.read()).learnings.map(l => l.id), ['imported']);
    await store.replace(emptyMemory());
    assert.deepEqual((await store.read()).learnings, []);
    const bad = { ...emptyMemory(), learnings: 'nope' } as unknown as MemoryData;
    await assert.rejects(store.replace(bad), (e: unknown) => e instanceof StoreError && e.code === 'IO' && /not valid memory/.test(e.message));
  });
});

void describe('corrupt files', () => {
  void test('invalid JSON is moved aside with a warning, bytes preserved', () => assertMovedAside('{"approaches": {'));

  void test('truncated JSON is moved aside', async () => {
    const full = JSON.stringify({ ...emptyMemory(), learnings: Array.from({ length: 50 }, (_, i) => learning(String(i))) });
    await assertMovedAside(full.slice(0, Math.floor(full.length / 2)));
  });

  void test('binary garbage is moved aside byte for byte', async () => {
    const garbage = Buffer.alloc(4096);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 7) % 256;
    await assertMovedAside(garbage);
  });

  void test('valid JSON of the wrong shape is moved aside', async () => {
    await assertMovedAside('[1,2,3]');
    await assertMovedAside('{"schemaVersion":1,"approaches":5}');
    await assertMovedAside('{"schemaVersion":1,"approaches":{"k":"not an approach"}}');
  });

  void test('update on a corrupt file moves it aside and writes fresh memory', async () => {
    const { store, warnings, dir } = newStore();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(store.file, 'not json');
    await store.update(d => void d.learnings.push(learning('fresh')));
    assert.equal(corruptCopies(dir).length, 1);
    assert.equal(fs.readFileSync(corruptCopies(dir)[0], 'utf8'), 'not json');
    assert.deepEqual((await store.read()).learnings.map(l => l.id), ['fresh']);
    assert.equal(warnings.length, 1);
  });

  void test(`a memory.json over ${MAX_MEMORY_FILE_BYTES / 1024 / 1024} MB is not parsed (TOO_LARGE) and is moved aside`, async () => {
    const { store, warnings, dir } = newStore();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(store.file, '');
    fs.truncateSync(store.file, MAX_MEMORY_FILE_BYTES + 1); // sparse: no 64 MB actually written
    const data = await store.read();
    assert.deepEqual(data.learnings, []);
    const copies = corruptCopies(dir);
    assert.equal(copies.length, 1);
    assert.equal(fs.statSync(copies[0]).size, MAX_MEMORY_FILE_BYTES + 1);
    assert.match(warnings[0], /\[TOO_LARGE\].*over the 64\.0 MB limit/);
  });
});

void describe('schema versions', () => {
  void test('a file from a newer Failure Memory is refused and left untouched', async () => {
    const { store, warnings, dir } = newStore();
    fs.mkdirSync(dir, { recursive: true });
    const future = JSON.stringify({ schemaVersion: SCHEMA_VERSION + 1, approaches: {}, shiny: true });
    fs.writeFileSync(store.file, future);
    const isNewer = (e: unknown) => e instanceof StoreError && e.code === 'IO' && /newer version of Failure Memory/.test(e.message) && e.message.includes(store.file);
    await assert.rejects(store.read(), isNewer);
    let called = false;
    await assert.rejects(store.update(() => { called = true; }), isNewer);
    await assert.rejects(store.replace(emptyMemory()), isNewer);
    assert.equal(called, false);
    assert.equal(fs.readFileSync(store.file, 'utf8'), future);
    assert.deepEqual(corruptCopies(dir), []);
    assert.deepEqual(warnings, []);
    assert.throws(() => migrateMemory({ schemaVersion: 99 }), StoreError);
  });

  void test('a v0-like file (no schemaVersion, missing fields) is migrated with defaults', async () => {
    const { store, dir } = newStore();
    fs.mkdirSync(dir, { recursive: true });
    const v0 = { approaches: { 'npm test': { command: 'npm test', failures: 2 } }, extra: 'kept' };
    fs.writeFileSync(store.file, JSON.stringify(v0));
    const data = await store.read();
    assert.equal(data.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual(data.learnings, []);
    assert.deepEqual(data.reflections, []);
    assert.equal(typeof data.updatedAt, 'string');
    const a: Approach = data.approaches['npm test'];
    assert.equal(a.key, 'npm test');
    assert.equal(a.failures, 2);
    assert.equal(a.status, 'active');
    assert.equal(a.cwd, '.');
    assert.deepEqual([a.attempts, a.learnedFacts, a.alternativesTried], [[], [], []]);
    assert.equal((data as unknown as Record<string, unknown>).extra, 'kept', 'unknown fields survive');
    // the next write stores the migrated version
    await store.update(() => undefined);
    assert.equal(JSON.parse(fs.readFileSync(store.file, 'utf8')).schemaVersion, SCHEMA_VERSION);
  });

  void test('migrateMemory leaves its input alone and rejects non-memory with a plain error', () => {
    const raw = { approaches: {} };
    migrateMemory(raw);
    assert.deepEqual(raw, { approaches: {} });
    for (const bad of [null, 42, 'x', [], { learnings: {} }, { schemaVersion: 'one' }]) {
      assert.throws(() => migrateMemory(bad), (e: unknown) => e instanceof Error && !(e instanceof StoreError), JSON.stringify(bad));
    }
  });

  void test('a custom migrate option is used', async () => {
    const { store, dir } = newStore({ migrate: () => ({ ...emptyMemory(), learnings: [learning('custom')] }) });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(store.file, '{}');
    assert.deepEqual((await store.read()).learnings.map(l => l.id), ['custom']);
  });
});

void describe('unwritable places', () => {
  void test('a read-only folder (chmod 0o555) gives READ_ONLY on write; reading still works', async t => {
    const { store, dir } = newStore();
    await store.update(d => void d.learnings.push(learning('before')));
    fs.chmodSync(dir, 0o555);
    try {
      const probe = path.join(dir, 'probe');
      let writable = false;
      try {
        fs.writeFileSync(probe, '');
        fs.rmSync(probe);
        writable = true;
      } catch {
        // expected for a normal user
      }
      if (writable) {
        t.skip('running as root (or with CAP_DAC_OVERRIDE): chmod 0o555 does not stop writes; see the next tests');
        return;
      }
      await assert.rejects(store.update(() => undefined), (e: unknown) => e instanceof StoreError && e.code === 'READ_ONLY' && /cannot write to .*permission denied \(EACCES\)/.test(e.message));
      assert.deepEqual((await store.read()).learnings.map(l => l.id), ['before']);
    } finally {
      fs.chmodSync(dir, 0o755);
    }
  });

  void test('memory.json being a folder gives a clear StoreError, not a crash', async () => {
    const { store, dir } = newStore({ lockTimeoutMs: 200 });
    fs.mkdirSync(store.file, { recursive: true });
    const clear = (e: unknown) => e instanceof StoreError && e.code === 'IO' && e.message.includes(store.file) && /not a regular file/.test(e.message);
    await assert.rejects(store.update(() => undefined), clear);
    await assert.rejects(store.read(), clear);
    await assert.rejects(store.replace(emptyMemory()), clear);
    assert.equal(fs.statSync(store.file).isDirectory(), true, 'nothing was moved or deleted');
    assert.equal(fs.existsSync(`${store.file}.lock`), false, 'the lock was released');
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.tmp')), []);
  });

  void test('the memory folder path being a regular file gives a clear StoreError; read() sees no memory', async () => {
    const ws = workspace();
    const blocker = path.join(ws, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const store = new MemoryStore(blocker, { onWarning: () => undefined });
    await assert.rejects(store.update(() => undefined), (e: unknown) => e instanceof StoreError && e.code === 'IO' && e.path === blocker && /cannot write to .*a file is in the way of the folder/.test(e.message));
    assert.deepEqual((await store.read()).learnings, []);
    assert.equal(fs.readFileSync(blocker, 'utf8'), 'x');
  });
});

void describe('locking', () => {
  void test('a lock not refreshed for staleLockMs is broken even if its pid is alive', async () => {
    const { store, warnings, dir } = newStore({ lockTimeoutMs: 3000, staleLockMs: 1000 });
    writeLock(dir, { pid: process.ppid, host: 'another-machine', time: new Date(Date.now() - 60_000).toISOString(), token: 'x' }, 60_000);
    await store.update(d => void d.learnings.push(learning('through')));
    assert.match(warnings.join('\n'), /stale lock .*another-machine.*not been refreshed/);
  });

  void test('a live lock makes update fail with LOCK_TIMEOUT after lockTimeoutMs, leaving the lock alone', async () => {
    const clock = fakeLockClock();
    const { store, dir } = newStore({ lockTimeoutMs: 3000, lockClock: clock });
    const info = { pid: process.ppid, host: hostname(), time: new Date().toISOString(), token: 'theirs' };
    const lock = writeLock(dir, info);
    const started = clock.now();
    let called = false;
    await assert.rejects(
      store.update(() => { called = true; }),
      (e: unknown) => e instanceof StoreError && e.code === 'LOCK_TIMEOUT' && e.path === lock && e.message.includes(`process ${process.ppid}`) && e.message.includes('within 3 s'),
    );
    // the last sleep is cut to what is left of the timeout: it gives up at lockTimeoutMs, not later
    assert.equal(clock.now() - started, 3000);
    assert.equal(called, false);
    assert.deepEqual(JSON.parse(fs.readFileSync(lock, 'utf8')), info);
    assert.equal(fs.existsSync(store.file), false);
  });

  void test('waiting backs off with jitter, 5 ms doubling to 50 ms', async () => {
    const clock = fakeLockClock();
    const { dir } = newStore();
    const lockPath = writeLock(dir, { pid: process.ppid, host: hostname(), time: new Date().toISOString(), token: 'theirs' });
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 1000, staleMs: 10_000, clock }), (e: unknown) => e instanceof LockTimeoutError && e.waitedMs === 1000);
    const bases = [5, 10, 20, 40, 50, 50, 50];
    bases.forEach((base, i) => assert.ok(clock.sleeps[i] >= base / 2 && clock.sleeps[i] < base * 1.5, `sleep ${i}: ${clock.sleeps[i]} ms for a backoff of ${base}`));
    assert.ok(clock.sleeps.slice(0, -1).every(ms => ms < 75));
  });

  void test('a lock that never changes while watched is broken after staleLockMs, even with a clock ahead', async () => {
    const clock = fakeLockClock();
    const { store, warnings, dir } = newStore({ lockTimeoutMs: 20_000, staleLockMs: 10_000, lockClock: clock });
    // another machine whose clock is an hour ahead: by its mtime and time the lock looks brand new
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    writeLock(dir, { pid: 1, host: 'another-machine', time: ahead, token: 'x' }, -3_600_000);
    const started = clock.now();
    await store.update(d => void d.learnings.push(learning('through')));
    const waited = clock.now() - started;
    assert.ok(waited > 10_000 && waited < 10_100, `broken after ${waited} ms`);
    assert.match(warnings.join('\n'), /stale lock .*another-machine.*did not change for 10 s/);
    assert.deepEqual((await store.read()).learnings.map(l => l.id), ['through']);
  });

  void test('read() does not need the lock', async () => {
    const { store, dir } = newStore({ lockTimeoutMs: 100 });
    await store.update(d => void d.learnings.push(learning('a')));
    writeLock(dir, { pid: process.ppid, host: hostname(), time: new Date().toISOString(), token: 'theirs' });
    assert.equal((await store.read()).learnings.length, 1);
  });

  void test('many concurrent updates from two stores in one process all land', async () => {
    const { store, dir } = newStore();
    const twin = new MemoryStore(dir);
    const updates = scaled(20, 100);
    await Promise.all(
      Array.from({ length: updates }, (_, i) => (i % 2 ? store : twin).update(d => void d.learnings.push(learning(String(i))))),
    );
    const ids = (await store.read()).learnings.map(l => Number(l.id)).sort((a, b) => a - b);
    assert.deepEqual(ids, Array.from({ length: updates }, (_, i) => i));
  });

});

void describe('performance', () => {
  // 1,000 attempts here, 10,000 in the full-scale run (../support/fuzz.ts)
  const approaches = scaled(50, 500);
  void test(`read() of a ${(approaches * 20).toLocaleString('en')}-attempt memory is one readFile + JSON.parse`, async t => {
    const { store, dir } = newStore();
    const data = emptyMemory();
    const now = new Date().toISOString();
    for (let a = 0; a < approaches; a++) {
      const key = `cmd-${a}`;
      const attempts: Attempt[] = Array.from({ length: 20 }, (_, i) => ({
        id: `${a}-${i}`, command: `npm run ${key}`, key, cwd: '.', exitCode: 1, outcome: 'failure', source: 'terminal',
        endedAt: now, output: `Error: something failed in step ${i}\n`.repeat(8), outputTruncated: false, outputBytes: 300,
        errorSignature: 'Error: something failed', testResults: null, timestamp: now,
      }));
      data.approaches[key] = {
        key, command: `npm run ${key}`, label: key, cwd: '.', status: 'active', failures: 20, totalAttempts: 20,
        lastErrorSignature: 'Error: something failed', alternativesTried: [], learnedFacts: [], attempts, updatedAt: now,
      };
    }
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(store.file, JSON.stringify(data));
    const bytes = fs.statSync(store.file).size;
    await store.read(); // warm up
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const read = await store.read();
      runs.push(performance.now() - started);
      assert.equal(Object.keys(read.approaches).length, approaches);
    }
    const updateStarted = performance.now();
    await store.update(d => void d.learnings.push(learning('x')));
    const updateMs = performance.now() - updateStarted;
    const median = runs.sort((a, b) => a - b)[2];
    t.diagnostic(`${approaches * 20} attempts, ${(bytes / 1024 / 1024).toFixed(1)} MB: read() median ${median.toFixed(1)} ms, update() ${updateMs.toFixed(1)} ms`);
    assert.ok(median < 2000, `read took ${median} ms`);
  });
});
