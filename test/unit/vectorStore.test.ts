import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { crc32, VectorStore, type VectorEntry, type VectorIndex } from '../../src/store/vectorStore';
import { tempFolders } from '../support/tempFolders';

const folder = tempFolders('fm-vectors-');

function newStore(dir = folder()): { store: VectorStore; warnings: string[]; dir: string } {
  const warnings: string[] = [];
  return { store: new VectorStore(dir, { onWarning: m => warnings.push(m) }), warnings, dir };
}

/** A deterministic unit vector for an id. */
function vec(seed: number, dim = 8): Float32Array {
  const v = Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453 % 1);
  const n = Math.hypot(...v);
  return v.map(x => x / n);
}

function entries(from: number, to: number, dim = 8): VectorEntry[] {
  return Array.from({ length: to - from }, (_, i) => ({ id: `doc-${from + i}`, vector: vec(from + i, dim) }));
}

function readIndex(store: VectorStore): VectorIndex {
  return JSON.parse(fs.readFileSync(store.indexFile, 'utf8')) as VectorIndex;
}

void describe('VectorStore', () => {
  void test('missing files read as empty', async () => {
    const { store } = newStore();
    const s = await store.load();
    assert.equal(s.rows, 0);
    assert.equal(s.embedder, '');
  });

  void test('append then load: ids, vectors and the index describe each other', async () => {
    const { store } = newStore();
    await store.append('emb-a', 8, entries(0, 3));
    await store.append('emb-a', 8, [...entries(2, 5)]); // doc-2 already stored: skipped
    const s = await store.load();
    assert.equal(s.embedder, 'emb-a');
    assert.equal(s.dim, 8);
    assert.deepEqual(s.ids, ['doc-0', 'doc-1', 'doc-2', 'doc-3', 'doc-4']);
    for (let i = 0; i < 5; i++) assert.deepEqual(Array.from(s.get(`doc-${i}`)!), Array.from(vec(i)));
    const index = readIndex(store);
    assert.deepEqual(index.segments.map(x => x[0]), [3, 2]);
    assert.equal(fs.statSync(store.binFile).size, 32 + 5 * 8 * 4);
    // a second store on the same folder (another window, the CLI) sees the same vectors
    const other = await new VectorStore(path.dirname(store.binFile)).load();
    assert.deepEqual(other.ids, s.ids);
  });

  void test('rejects a vector of the wrong dimension', async () => {
    const { store } = newStore();
    await assert.rejects(store.append('e', 8, [{ id: 'x', vector: new Float32Array(7) }]), /7 values, expected 8/);
  });

  void test('a torn tail (rows written, index not) is ignored, then cut off by the next append', async () => {
    const { store, warnings } = newStore();
    await store.append('e', 8, entries(0, 2));
    fs.appendFileSync(store.binFile, Buffer.alloc(8 * 4 + 5, 7)); // a crashed writer's partial rows
    const s = await store.load();
    assert.deepEqual(s.ids, ['doc-0', 'doc-1']);
    assert.equal(warnings.length, 0, 'an unindexed tail is normal after a crash, not damage');
    await store.append('e', 8, entries(2, 3));
    assert.equal(fs.statSync(store.binFile).size, 32 + 3 * 8 * 4);
    assert.deepEqual(Array.from((await store.load()).get('doc-2')!), Array.from(vec(2)));
  });

  void test('a last segment that fails its checksum is dropped with a warning', async () => {
    const { store, warnings } = newStore();
    await store.append('e', 8, entries(0, 2));
    await store.append('e', 8, entries(2, 4));
    const fd = fs.openSync(store.binFile, 'r+');
    fs.writeSync(fd, Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, 32 + 3 * 8 * 4); // flip bytes in doc-3
    fs.closeSync(fd);
    const s = await store.load();
    assert.deepEqual(s.ids, ['doc-0', 'doc-1']);
    assert.match(warnings.join('\n'), /fail their checksum/);
    // the next writer repairs the files for everyone
    await store.append('e', 8, entries(2, 3));
    assert.deepEqual((await new VectorStore(path.dirname(store.binFile)).load()).ids, ['doc-0', 'doc-1', 'doc-2']);
  });

  void test('an index that counts more rows than the file holds keeps the complete segments', async () => {
    const { store, warnings } = newStore();
    await store.append('e', 8, entries(0, 2));
    await store.append('e', 8, entries(2, 4));
    fs.truncateSync(store.binFile, 32 + 3 * 8 * 4); // the file system lost the last row
    const s = await store.load();
    assert.deepEqual(s.ids, ['doc-0', 'doc-1']);
    assert.match(warnings.join('\n'), /end after 3 of 4 rows/);
  });

  void test('a damaged header or an unreadable index reads as empty, and the next write starts over', async () => {
    const { store, warnings } = newStore();
    await store.append('e', 8, entries(0, 2));
    fs.writeFileSync(store.indexFile, '{ not json');
    assert.equal((await store.load()).rows, 0);
    assert.match(warnings.join('\n'), /no index matches/);
    await store.append('e', 8, entries(5, 6));
    assert.deepEqual((await store.load()).ids, ['doc-5']);
  });

  void test('vectors of another embedder replace the file; they are never mixed', async () => {
    const { store } = newStore();
    await store.append('offline-v1', 8, entries(0, 3));
    await store.append('transformer-v1', 4, entries(10, 12, 4));
    const s = await store.load();
    assert.equal(s.embedder, 'transformer-v1');
    assert.equal(s.dim, 4);
    assert.deepEqual(s.ids, ['doc-10', 'doc-11']);
  });

  void test('retain() deletes what memory evicted; compaction rewrites when enough rows are dead', async () => {
    const { store } = newStore();
    await store.append('e', 8, entries(0, 200));
    const keepFew = entries(0, 200).map(e => e.id).filter((_, i) => i % 10 === 0);
    // first a few deletions: tombstones only
    assert.equal(await store.retain(entries(0, 200).map(e => e.id).filter(id => id !== 'doc-7')), 1);
    let index = readIndex(store);
    assert.equal(index.ids.length, 200);
    assert.equal(index.ids[7], null);
    assert.equal((await store.load()).has('doc-7'), false);
    // then most of them: compacted
    const generation = index.generation;
    assert.equal(await store.retain(keepFew), 179);
    index = readIndex(store);
    assert.notEqual(index.generation, generation, 'a compaction writes a new generation');
    assert.deepEqual(index.ids, keepFew);
    assert.equal(fs.statSync(store.binFile).size, 32 + keepFew.length * 8 * 4);
    const s = await store.load();
    for (const id of keepFew) assert.deepEqual(Array.from(s.get(id)!), Array.from(vec(Number(id.slice(4)))));
    assert.equal(await store.retain(keepFew), 0, 'nothing to delete: no write');
  });

  void test('an interrupted rewrite is rolled forward (bin renamed, index not yet)', async () => {
    const { store, dir } = newStore();
    await store.append('e', 8, entries(0, 3));
    const before = fs.readFileSync(store.indexFile, 'utf8');
    await store.compact(); // a complete rewrite, to get its files
    const newIndex = fs.readFileSync(store.indexFile, 'utf8');
    // put back the old index and the new one as .next: the state right after the bin's rename
    fs.writeFileSync(`${store.indexFile}.next`, newIndex);
    fs.writeFileSync(store.indexFile, before);
    const s = await new VectorStore(dir).load();
    assert.deepEqual(s.ids, ['doc-0', 'doc-1', 'doc-2']);
    // the next writer finishes the rename for real
    await store.append('e', 8, entries(3, 4));
    assert.equal(fs.existsSync(`${store.indexFile}.next`), false);
    assert.deepEqual((await store.load()).ids, ['doc-0', 'doc-1', 'doc-2', 'doc-3']);
  });

  void test('temp files of a crashed rewrite are removed by the next one', async () => {
    const { store, dir } = newStore();
    await store.append('e', 8, entries(0, 1));
    fs.writeFileSync(path.join(dir, 'vectors.bin.tmp-999-deadbeef'), 'junk');
    await store.compact();
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.includes('.tmp')), []);
  });

  void test('search: brute-force top-k over live rows, best first', async () => {
    const { store } = newStore();
    const all = entries(0, 300, 16);
    await store.append('e', 16, all);
    await store.retain(all.map(e => e.id).filter(id => id !== 'doc-42'));
    const s = await store.load();
    const q = vec(42, 16); // the deleted row's own vector: it must not come back
    const expected = all
      .filter(e => e.id !== 'doc-42')
      .map(e => ({ id: e.id, score: e.vector.reduce((acc, x, i) => acc + x * q[i], 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    const got = s.search(q, 5);
    assert.deepEqual(got.map(h => h.id), expected.map(h => h.id));
    for (let i = 0; i < 5; i++) assert.ok(Math.abs(got[i].score - expected[i].score) < 1e-5);
    assert.deepEqual(s.scoreIds(q, ['doc-1', 'missing']).map(x => Number.isNaN(x)), [false, true]);
  });

  void test('clear() deletes both files', async () => {
    const { store } = newStore();
    await store.append('e', 8, entries(0, 2));
    await store.clear();
    assert.equal(fs.existsSync(store.binFile), false);
    assert.equal(fs.existsSync(store.indexFile), false);
    assert.equal((await store.load()).rows, 0);
  });

  void test('crc32 matches the standard check value', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });
});
