import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { VECTOR_KERNEL_WASM, WasmRows, wasmSimdAvailable } from '../../src/store/vectorKernel';
import { VectorSnapshot, VectorStore } from '../../src/store/vectorStore';
import { mulberry32 as rng } from '../../scripts/seededRandom';

/** n rows of dim values in [-1, 1); every `zeroEvery`-th row all zeros. */
function rows(n: number, dim: number, seed: number, zeroEvery = 0): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    if (zeroEvery && i % zeroEvery === 0) continue;
    for (let d = 0; d < dim; d++) v[i * dim + d] = r() * 2 - 1;
  }
  return v;
}

/** The reference: every live row scored in f64, sorted by score (then row), first k. */
function reference(ids: (string | null)[], values: Float32Array, dim: number, q: Float32Array, k: number): { id: string; score: number }[] {
  const all: { id: string; score: number; row: number }[] = [];
  ids.forEach((id, row) => {
    if (id === null) return;
    let s = 0;
    for (let d = 0; d < dim; d++) s += values[row * dim + d] * q[d];
    all.push({ id, score: s, row });
  });
  all.sort((a, b) => b.score - a.score || a.row - b.row);
  return all.slice(0, k).map(({ id, score }) => ({ id, score }));
}

function assertSameTopK(actual: { id: string; score: number }[], expected: { id: string; score: number }[], what: string): void {
  assert.deepEqual(
    actual.map(x => x.id),
    expected.map(x => x.id),
    `${what}: ids`,
  );
  actual.forEach((x, i) => assert.ok(Math.abs(x.score - expected[i].score) <= 1e-4 * Math.max(1, Math.abs(expected[i].score)), `${what}: score ${x.score} vs ${expected[i].score}`));
}

describe('vector kernel (WebAssembly SIMD)', () => {
  test('the hand-encoded module validates on this Node', () => {
    assert.equal(VECTOR_KERNEL_WASM.slice(0, 4).toString(), [0, 0x61, 0x73, 0x6d].toString());
    assert.equal(wasmSimdAvailable(), true);
  });

  test('scores every row as the f64 dot product does, up to float rounding (dims not multiple of 4 or 16 too)', () => {
    for (const dim of [1, 2, 3, 4, 5, 7, 15, 16, 17, 31, 33, 64, 383, 384]) {
      const n = 37;
      const values = rows(n, dim, dim * 7 + 1, 5);
      const q = rows(1, dim, dim * 13 + 3);
      const kernel = WasmRows.from(values, n, dim);
      assert.ok(kernel, `kernel for dim ${dim}`);
      const scores = kernel.score(q);
      assert.equal(scores.length, n);
      for (let r = 0; r < n; r++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += values[r * dim + d] * q[d];
        assert.ok(Math.abs(scores[r] - s) <= 1e-5 * Math.max(1, Math.sqrt(dim)), `dim ${dim} row ${r}: ${scores[r]} vs ${s}`);
        if (r % 5 === 0) assert.equal(scores[r], 0, 'a zero row scores exactly 0');
      }
    }
  });

  test('search: the wasm path and the JS path return the same top k (k > n, zero vectors, deleted rows, zero query)', () => {
    let cases = 0;
    for (const dim of [1, 3, 4, 6, 16, 19, 384, 385]) {
      for (const n of [0, 1, 4, 50, 300]) {
        const values = rows(n, dim, n * 1000 + dim, 7);
        const ids = Array.from({ length: n }, (_, i) => (i % 11 === 3 ? null : `doc-${i}`));
        const wasm = new VectorSnapshot('e', dim, ids, values, { kernel: 'wasm' });
        const js = new VectorSnapshot('e', dim, ids, values, { kernel: 'js' });
        assert.equal(wasm.kernelKind, 'wasm');
        assert.equal(js.kernelKind, 'js');
        for (const [qi, q] of [rows(1, dim, dim + n + 5), new Float32Array(dim)].entries()) {
          for (const k of [1, 5, n + 3]) {
            const expected = reference(ids, values, dim, q, k);
            const what = `dim ${dim} n ${n} k ${k} query ${qi}`;
            assertSameTopK(js.search(q, k), expected, `${what} (js)`);
            assertSameTopK(wasm.search(q, k), expected, `${what} (wasm)`);
            assert.equal(wasm.search(q, k).length, Math.min(k, ids.filter(id => id !== null).length));
            cases++;
          }
        }
      }
    }
    assert.equal(cases, 8 * 5 * 2 * 3);
  });

  test('the wasm memory is the snapshot storage: get, scoreIds and vectors read it', () => {
    const dim = 10;
    const n = 20;
    const values = rows(n, dim, 42);
    const ids = Array.from({ length: n }, (_, i) => `doc-${i}`);
    const snap = new VectorSnapshot('e', dim, ids, values, { kernel: 'wasm' });
    assert.notEqual(snap.vectors, values, 'the rows were copied into wasm memory');
    assert.notEqual(snap.vectors.buffer, values.buffer);
    assert.deepEqual(Array.from(snap.vectors), Array.from(values));
    assert.deepEqual(Array.from(snap.get('doc-7')!), Array.from(values.subarray(70, 80)));
    const q = rows(1, dim, 7);
    const top = snap.search(q, 1)[0];
    assert.ok(Math.abs(snap.scoreIds(q, [top.id])[0] - top.score) < 1e-5);
    assert.throws(() => snap.search(new Float32Array(dim + 1), 1), /query has 11 values/);
  });

  test('auto: small snapshots stay in JS, large ones use the kernel', () => {
    assert.equal(new VectorSnapshot('e', 8, ['a'], new Float32Array(8)).kernelKind, 'js');
    const n = 100;
    const dim = 384;
    const big = new VectorSnapshot('e', dim, Array.from({ length: n }, (_, i) => `d${i}`), rows(n, dim, 1));
    assert.equal(big.kernelKind, 'wasm');
    assert.equal(VectorSnapshot.empty().kernelKind, 'js');
  });

  test('a loaded store searches rows read straight into wasm memory, with the same results as the JS loop', async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'fm-kernel-'));
    try {
      const dim = 37;
      const n = 600;
      const values = rows(n, dim, 5, 13);
      const store = new VectorStore(dir, { onWarning: m => assert.fail(m) });
      await store.replaceAll('e', dim, Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, vector: values.subarray(i * dim, (i + 1) * dim) })));
      await store.retain(Array.from({ length: n }, (_, i) => `doc-${i}`).filter(id => id !== 'doc-4' && id !== 'doc-5'));
      const snap = await new VectorStore(dir).load();
      assert.equal(snap.kernelKind, 'wasm');
      assert.equal(snap.vectors.byteOffset, 32, 'the rows are used where the file read put them (after the 32-byte header), not copied');
      const ids = Array.from({ length: n }, (_, i) => (i === 4 || i === 5 ? null : `doc-${i}`));
      assert.deepEqual(snap.ids, ids);
      const js = new VectorSnapshot('e', dim, ids, values, { kernel: 'js' });
      for (const seed of [1, 2, 3]) {
        const q = rows(1, dim, seed * 101);
        assertSameTopK(snap.search(q, 7), js.search(q, 7), `seed ${seed}`);
        assertSameTopK(snap.search(q, 7), reference(ids, values, dim, q, 7), `seed ${seed} (reference)`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
