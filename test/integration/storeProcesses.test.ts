// The stores against other OS processes: a writer process never shows a reader a torn memory.json,
// a lock left by a process that has exited is broken at once, and two processes updating at once
// lose nothing (memory.json and the vector files). These start processes, so they run in the integration tier.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { MemoryData } from '../../src/core/types';
import { VectorStore } from '../../src/store/vectorStore';
import { learning, storeMaker, writeLock } from '../support/stores';
import { tempFolders } from '../support/tempFolders';

const workspace = tempFolders('fm-store-proc-');
const folder = tempFolders('fm-vectors-proc-');

const newStore = storeMaker(workspace);

/** Reads memory.json as fast as it can while a child process writes 40 versions of a ~1 MB memory. */
async function watchWriter(mode: 'store' | 'plain'): Promise<{ reads: number; torn: number; versions: number }> {
  const { dir } = newStore();
  const file = path.join(dir, 'memory.json');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'fixtures', 'bigWriter.ts'), dir, '40', mode], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', b => (out += String(b)));
  child.stderr.on('data', b => (err += String(b)));
  const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
  while (!out.includes('ready\n')) {
    if (child.exitCode !== null) throw new Error(`writer exited early: ${err}`);
    await new Promise(resolve => setTimeout(resolve, 10));
  }
  child.stdin.write('go\n');
  let reads = 0;
  let torn = 0;
  const versions = new Set<string>();
  while (child.exitCode === null && !out.includes('done\n')) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      await new Promise(resolve => setImmediate(resolve));
      continue; // between a plain writer's truncate and its write the file exists; never missing for the store
    }
    reads++;
    try {
      versions.add((JSON.parse(text) as MemoryData).learnings[0].id);
    } catch {
      torn++;
    }
    await new Promise(resolve => setImmediate(resolve));
  }
  assert.equal(await exited, 0, `writer failed: ${err}`);
  return { reads, torn, versions: versions.size };
}

void describe('a writer process', () => {
  void test('writes are atomic: a reader never sees a torn file while another process writes', { timeout: 120_000 }, async t => {
    // The same reader watches a plain fs.writeFileSync writer first (the control: it must see torn
    // files, or this test could not tell), then the store's writer (it must never see one).
    const control = await watchWriter('plain');
    assert.ok(control.torn > 0, `the control (plain writeFileSync) showed no torn read in ${control.reads} reads: the reader proves nothing`);
    const store = await watchWriter('store');
    assert.equal(store.torn, 0, `${store.torn} of ${store.reads} reads saw a torn memory.json`);
    assert.ok(store.versions >= 3, `the reads overlapped the writes (${store.versions} versions seen)`);
    t.diagnostic(`plain writer: ${control.torn}/${control.reads} torn reads; store: 0/${store.reads} over ${store.versions} versions`);
  });
});

void describe('locking across processes', () => {
  void test('a lock left by a dead process on this host is broken at once', async () => {
    const { store, warnings, dir } = newStore({ lockTimeoutMs: 3000, staleLockMs: 60_000 });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    assert.ok(dead);
    writeLock(dir, { pid: dead, host: hostname(), time: new Date().toISOString(), token: 'x' });
    const started = Date.now();
    await store.update(d => void d.learnings.push(learning('through')));
    assert.ok(Date.now() - started < 1000, 'did not wait for the timeout');
    assert.match(warnings.join('\n'), new RegExp(`stale lock .*process ${dead} is no longer running`));
    assert.equal(fs.existsSync(path.join(dir, 'memory.json.lock')), false);
  });

  void test('two OS processes doing 100 updates each at once lose nothing (200 items)', { timeout: 120_000 }, async t => {
    const { store, dir } = newStore();
    const worker = path.join(__dirname, '..', 'fixtures', 'storeWorker.ts');
    const children = ['A', 'B'].map(label => {
      const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, '100', label], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', b => (out += String(b)));
      child.stderr.on('data', b => (err += String(b)));
      const ready = new Promise<void>((resolve, reject) => {
        const check = () => (out.includes('ready\n') ? resolve() : undefined);
        child.stdout.on('data', check);
        child.once('exit', code => reject(new Error(`worker ${label} exited early (${code}): ${err}`)));
      });
      const done = new Promise<string>((resolve, reject) => {
        child.once('exit', code => (code === 0 ? resolve(out) : reject(new Error(`worker ${label} failed (${code}): ${err}`))));
      });
      done.catch(() => undefined);
      ready.catch(() => undefined);
      return { child, ready, done };
    });
    await Promise.all(children.map(c => c.ready));
    const started = performance.now();
    for (const c of children) c.child.stdin.write('go\n');
    const outputs = await Promise.all(children.map(c => c.done));
    const ms = Math.round(performance.now() - started);

    const ids = (await store.read()).learnings.map(l => l.id);
    assert.equal(ids.length, 200);
    assert.equal(new Set(ids).size, 200);
    for (const label of ['A', 'B']) {
      const mine = ids.filter(id => id.startsWith(`${label}-`)).map(id => Number(id.slice(2)));
      assert.deepEqual(mine, Array.from({ length: 100 }, (_, i) => i), `${label}'s updates are all there, in order`);
    }
    let switches = 0;
    for (let i = 1; i < ids.length; i++) if (ids[i][0] !== ids[i - 1][0]) switches++;
    assert.ok(switches >= 2, 'the two workers really ran at the same time');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.gitignore', 'memory.index.json', 'memory.json']);
    const summaries = outputs.map(o => JSON.parse(o.trim().split('\n').pop() ?? '{}') as { label: string; ms: number; warnings: string[] });
    for (const s of summaries) assert.deepEqual(s.warnings, [], `${s.label} had no warnings`);
    t.diagnostic(`2x100 concurrent updates: ${ms} ms wall, workers ${summaries.map(s => `${s.label}=${s.ms} ms`).join(', ')}, ${switches} A/B interleavings`);
  });
});

void describe('the vector store across processes', () => {
  void test('two processes appending at once lose nothing', async () => {
    const dir = folder();
    const script = (label: string) => `
      const { VectorStore } = require(${JSON.stringify(path.resolve(__dirname, '../../src/store/vectorStore.ts'))});
      (async () => {
        const s = new VectorStore(${JSON.stringify(dir)}, { lockTimeoutMs: 60000 });
        for (let i = 0; i < 25; i++) {
          const v = new Float32Array(8).fill(i + 1);
          await s.append('e', 8, [{ id: '${label}-' + i, vector: v }]);
        }
      })().catch(e => { console.error(e); process.exit(1); });`;
    const run = (label: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script(label)], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('exit', code => resolve(code ?? 1));
      });
    assert.deepEqual(await Promise.all([run('a'), run('b')]), [0, 0]);
    const s = await new VectorStore(dir).load();
    assert.equal(s.live, 50);
    for (const label of ['a', 'b']) for (let i = 0; i < 25; i++) assert.ok(s.has(`${label}-${i}`), `${label}-${i}`);
    assert.equal(fs.statSync(path.join(dir, 'vectors.bin')).size, 32 + 50 * 8 * 4);
  });
});
