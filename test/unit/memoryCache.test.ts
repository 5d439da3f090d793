// The parsed-memory cache of MemoryStore (a long-lived process does not re-parse an unchanged
// memory.json) and what recall keeps over it (documents, the TF-IDF index, the scoring plan of the
// stored vectors): fresh data after any writer, nothing a caller can corrupt, the same ranking as
// building everything anew. Behaviour only; the speed is measured in bench/run.mjs (BENCHMARKS.md).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { approachDocument, createLexicalScorer, recall, type Scorer } from '../../src/core/recall';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { createOfflineScorer } from '../../src/embeddings';
import { cloneJson, deepFreeze } from '../../src/store/frozen';
import { MemoryStore, memoryDirFor } from '../../src/store/memoryStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { tempFolders } from '../support/tempFolders';

const workspace = tempFolders('fm-cache-');

const settings = { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxApproaches: 1000 } };
const ERRORS = [
  (i: number) => `Traceback (most recent call last):\nModuleNotFoundError: No module named 'pkg${i % 7}'`,
  (i: number) => `Error: listen EADDRINUSE: address already in use :::${3000 + (i % 5)}`,
  (i: number) => `src/f${i}.ts(3,7): error TS2307: Cannot find module 'lib${i % 6}' or its corresponding type declarations.`,
  (i: number) => `error[E0425]: cannot find value \`v${i % 4}\` in this scope`,
  (i: number) => `npm ERR! enoent ENOENT: no such file or directory, open '/home/dev/p${i % 3}/package.json'`,
];

/** A memory of `n` failed approaches, each with its own command and one of five kinds of error. */
function memoryOf(n: number, from = 0): MemoryData {
  const data = emptyMemory();
  addFailures(data, n, from);
  return data;
}

function addFailures(data: MemoryData, n: number, from = 0): void {
  const redactor = createRedactor();
  for (let i = from; i < from + n; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
    applyAttempt(data, prepareAttempt({ command: `tool${i} run`, cwd: '.', exitCode: 1, source: 'cli', output: `${ERRORS[i % ERRORS.length](i)}\n` }, settings, redactor, at), settings);
  }
}

function keysOf(data: MemoryData): string[] {
  return Object.keys(data.approaches).sort();
}

describe('memory store: the parsed memory is kept while memory.json is unchanged', () => {
  test('an unchanged file is not parsed again: the same frozen memory comes back', async () => {
    const store = new MemoryStore(memoryDirFor(workspace()));
    await store.replace(memoryOf(3));
    const a = await store.read();
    const b = await store.read();
    assert.equal(a, b, 'one parsed memory, shared');
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.approaches) && Object.isFrozen(Object.values(a.approaches)[0].attempts[0]));
    assert.equal(keysOf(a).length, 3);
  });

  test('a caller writing into what read() returned gets a TypeError and changes nothing', async () => {
    const store = new MemoryStore(memoryDirFor(workspace()));
    await store.replace(memoryOf(2));
    const a = await store.read();
    const approach = Object.values(a.approaches)[0];
    assert.throws(() => {
      approach.status = 'resolved';
    }, TypeError);
    assert.throws(() => approach.attempts.push(approach.attempts[0]), TypeError);
    assert.throws(() => {
      delete (a.approaches as Record<string, unknown>)[approach.key];
    }, TypeError);
    assert.throws(() => a.learnings.push({ id: 'x', type: 'learning', text: 'sneaked in', source: 'user', createdAt: '' }), TypeError);
    const b = await store.read();
    assert.equal(b.approaches[approach.key].status, 'active');
    assert.equal(b.approaches[approach.key].attempts.length, 1);
    assert.equal(b.learnings.length, 0);
    // and the file agrees: nothing of it was written
    assert.equal(JSON.parse(fs.readFileSync(store.file, 'utf8')).learnings.length, 0);
  });

  test('update() mutates its own copy: what readers already hold does not change under them', async () => {
    const store = new MemoryStore(memoryDirFor(workspace()));
    await store.replace(memoryOf(2));
    const before = await store.read();
    const key = keysOf(before)[0];
    await store.update(data => {
      data.approaches[key].status = 'resolved';
      data.learnings.push({ id: 'l1', type: 'learning', text: 'pin the version', source: 'user', createdAt: '2026-01-01T00:00:00.000Z' });
    });
    assert.equal(before.approaches[key].status, 'active', 'the earlier read is untouched');
    assert.equal(before.learnings.length, 0);
    const after = await store.read();
    assert.notEqual(after, before);
    assert.equal(after.approaches[key].status, 'resolved', 'our own update is read back');
    assert.deepEqual(
      after.learnings.map(l => l.text),
      ['pin the version'],
    );
    assert.ok(Object.isFrozen(after.approaches[key]));
    assert.equal(await store.read(), after, 'and kept until the next change');
  });

  test('a write through another MemoryStore on the same file (another window, the CLI) is seen at once', async () => {
    const dir = memoryDirFor(workspace());
    const mine = new MemoryStore(dir);
    const other = new MemoryStore(dir);
    await mine.replace(memoryOf(2));
    const cached = await mine.read();
    assert.equal(await mine.read(), cached);
    await other.update(data => addFailures(data, 1, 100));
    const fresh = await mine.read();
    assert.equal(keysOf(fresh).length, 3);
    assert.ok(fresh.approaches['.::tool100 run']);
    // and back: the other store sees ours
    await mine.update(data => {
      delete data.approaches['.::tool0 run'];
    });
    assert.equal(keysOf(await other.read()).length, 2);
    assert.equal(keysOf(await mine.read()).length, 2);
  });

  test('memory.json rewritten in place (same inode) or replaced by hand is seen at once', async () => {
    const store = new MemoryStore(memoryDirFor(workspace()));
    await store.replace(memoryOf(3));
    const cached = await store.read();
    const ino = fs.statSync(store.file).ino;
    // an editor saving over the file: same inode, other content
    const edited = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    edited.approaches['.::tool1 run'].status = 'resolved';
    fs.writeFileSync(store.file, JSON.stringify(edited));
    assert.equal(fs.statSync(store.file).ino, ino);
    const afterEdit = await store.read();
    assert.notEqual(afterEdit, cached);
    assert.equal(afterEdit.approaches['.::tool1 run'].status, 'resolved');
    // the same length as before: size and inode alike, only the times (and the racy rule: a file this young is parsed again) tell
    const sameSize = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    sameSize.approaches['.::tool1 run'].label = sameSize.approaches['.::tool1 run'].label.replace('tool1', 'TOOL1');
    const text = JSON.stringify(sameSize);
    assert.equal(text.length, fs.statSync(store.file).size);
    fs.writeFileSync(store.file, text);
    assert.equal((await store.read()).approaches['.::tool1 run'].label, 'TOOL1 run');
    // deleted: empty memory, not the cached one
    fs.rmSync(store.file);
    assert.equal(keysOf(await store.read()).length, 0);
  });

  test('a file read long after it was written is kept, and an in-place rewrite of it is still seen', async () => {
    const dir = memoryDirFor(workspace());
    await new MemoryStore(dir).replace(memoryOf(2));
    // files younger than the file system's timestamp granularity are parsed on every read ("racily
    // clean"): this store's clock reads 2.1 s after the write
    const store = new MemoryStore(dir, { now: () => Date.now() + 2100 });
    const a = await store.read();
    assert.equal(await store.read(), a, 'an old enough file is kept after one parse');
    const edited = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    edited.approaches['.::tool0 run'].failures = 9;
    fs.writeFileSync(store.file, JSON.stringify(edited));
    assert.equal((await store.read()).approaches['.::tool0 run'].failures, 9);
  });

  test('a file written just now by someone else is parsed again on the next read (not trusted to its timestamps)', async () => {
    const dir = memoryDirFor(workspace());
    await new MemoryStore(dir).replace(memoryOf(2));
    const store = new MemoryStore(dir);
    const a = await store.read();
    const b = await store.read();
    assert.notEqual(a, b);
    assert.deepEqual(b, a);
  });

  test('cache: false parses every read and hands the caller its own mutable copy', async () => {
    const dir = memoryDirFor(workspace());
    await new MemoryStore(dir).replace(memoryOf(2));
    const store = new MemoryStore(dir, { cache: false });
    const a = await store.read();
    assert.ok(!Object.isFrozen(a));
    a.approaches = {};
    assert.equal(keysOf(await store.read()).length, 2);
  });
});

describe('frozen and cloned memory', () => {
  test('cloneJson gives what a JSON round trip gives, sharing nothing mutable; deepFreeze reaches every level', () => {
    const data = memoryOf(4) as MemoryData & { extra?: unknown };
    data.extra = { list: [1, undefined, { a: undefined, b: 'x' }], ['__proto__']: 'plain key' };
    Object.defineProperty(data.extra, '__proto__', { value: { x: 1 }, enumerable: true, writable: true, configurable: true });
    const copy = cloneJson(data);
    assert.deepEqual(copy, JSON.parse(JSON.stringify(data)));
    assert.notEqual(copy.approaches, data.approaches);
    assert.equal(Object.getPrototypeOf((copy as typeof data).extra), Object.prototype, 'a "__proto__" key stays a key');
    deepFreeze(copy);
    assert.ok(Object.isFrozen(Object.values(copy.approaches)[3].attempts[0]));
    assert.ok(!Object.isFrozen(Object.values(data.approaches)[3].attempts[0]), 'the original is not frozen with it');
  });
});

describe('recall over kept memory: the same answers as building everything anew', () => {
  const QUERIES = ['No module named pkg3', 'address already in use 3002', 'Cannot find module lib4', 'cannot find value v1', 'ENOENT package.json', 'segfault'];

  /** The plain way: a new scorer, an unfrozen copy of the memory, every hit sorted. */
  async function fresh(data: MemoryData, query: string, k: number, scorer: Scorer): Promise<{ key: string; score: number }[]> {
    return (await recall(cloneJson(data), query, k, scorer)).map(h => ({ key: h.key, score: h.score }));
  }

  test('TF-IDF: the index kept between queries ranks as a fresh index does, before and after the approaches change', async () => {
    const ws = workspace();
    const memory = new WorkspaceMemory(ws, { git: false, scorer: createLexicalScorer() });
    await memory.store.replace(memoryOf(40));
    for (let round = 0; round < 3; round++) {
      const data = await memory.read();
      for (const q of QUERIES) {
        const kept = (await memory.recall(q, 6)).map(h => ({ key: h.key, score: h.score }));
        assert.deepEqual(kept, await fresh(data, q, 6, createLexicalScorer()), `round ${round}: ${q}`);
      }
      // the approaches change: new failures, one resolved; recall must follow
      await memory.store.update(d => {
        addFailures(d, 5, 100 + round * 10);
        delete d.approaches['.::tool3 run'];
      });
    }
    assert.ok((await memory.recall('No module named pkg3', 40)).every(h => h.key !== '.::tool3 run'), 'a removed approach is not recalled');
  });

  test('the top k equals sorting every hit (score to 3 decimals, then key)', async () => {
    const data = deepFreeze(memoryOf(60));
    const scorer = createLexicalScorer();
    for (const q of QUERIES) {
      const hits = await recall(data, q, 7, scorer);
      const docs = Object.values(data.approaches);
      const scores = await createLexicalScorer().score(q, docs.map(approachDocument));
      const expected = docs
        .map((a, i) => ({ key: a.key, score: Math.round(scores[i] * 1000) / 1000 }))
        .filter(h => h.score > 0)
        .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
        .slice(0, 7);
      assert.deepEqual(
        hits.map(h => ({ key: h.key, score: h.score })),
        expected,
        q,
      );
    }
  });

  test('TF-IDF ⊕ offline embedder over stored vectors (the CLI default): the kept plan ranks as a fresh scorer does', async () => {
    const ws = workspace();
    const memory = new WorkspaceMemory(ws, { git: false });
    memory.scorer = createOfflineScorer({ memoryDir: memory.store.dir, claim: true });
    await memory.store.replace(memoryOf(40));
    for (let round = 0; round < 2; round++) {
      await memory.recall('warm up: embeds and stores every approach', 5);
      const data = await memory.read();
      for (const q of QUERIES) {
        const kept = await memory.recall(q, 6);
        const expected = await fresh(data, q, 6, createOfflineScorer()); // in memory only, nothing kept
        assert.deepEqual(
          kept.map(h => h.key),
          expected.map(h => h.key),
          `round ${round}: ${q}`,
        );
        kept.forEach((h, i) => assert.ok(Math.abs(h.score - expected[i].score) <= 0.001, `${q}: ${h.key} ${h.score} vs ${expected[i].score}`));
      }
      await memory.store.update(d => addFailures(d, 5, 200 + round * 10));
    }
  });
});
