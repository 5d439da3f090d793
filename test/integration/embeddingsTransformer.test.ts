// The transformer path, offline: a tiny random-weight BERT generated at test time
// (scripts/make-tiny-model.ts) proves model resolution, download, loading, tokenization, mean
// pooling, normalization, the worker's lifecycle and the vector cache. Random weights: nothing here
// says anything about semantic quality.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-node';
import { makeTinyModel, type TinyModel } from '../../scripts/make-tiny-model';
import { createSemanticScorer, downloadModel, isModelFolder, modelDir, resolveModel, TransformerEmbedder, type ModelLocation } from '../../src/embeddings';
import { VectorStore } from '../../src/store/vectorStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';

const roots: string[] = [];
function folder(): string {
  const d = fs.mkdtempSync(path.join(tmpdir(), 'fm-tiny-'));
  roots.push(d);
  return d;
}

let tiny: TinyModel;
let location: ModelLocation;
const embedders: TransformerEmbedder[] = [];
function embedder(options: Partial<ConstructorParameters<typeof TransformerEmbedder>[0]> = {}): TransformerEmbedder {
  const e = new TransformerEmbedder({ location, ...options });
  embedders.push(e);
  return e;
}

before(() => {
  tiny = makeTinyModel(folder());
  location = { root: tiny.root, modelId: tiny.modelId, dtype: 'q8', source: 'setting' };
});
after(async () => {
  for (const e of embedders) await e.dispose();
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

/** The tokenizer as transformers.js loads it from the folder (local files only). */
async function tokenizer() {
  const t = await import('@huggingface/transformers');
  t.env.allowRemoteModels = false;
  t.env.localModelPath = tiny.root;
  return t.AutoTokenizer.from_pretrained(tiny.modelId, { local_files_only: true });
}

void describe('tiny test model', () => {
  void test('is small, complete, and the same bytes every time', () => {
    assert.ok(isModelFolder(tiny.dir, 'q8') && isModelFolder(tiny.dir, 'fp32'));
    assert.ok(tiny.bytes < 100 * 1024, `${tiny.bytes} bytes`);
    const again = makeTinyModel(folder());
    assert.deepEqual(fs.readFileSync(path.join(again.dir, 'onnx/model.onnx')), fs.readFileSync(path.join(tiny.dir, 'onnx/model.onnx')));
  });

  void test('tokenizes with its WordPiece vocabulary, lower-cased, [CLS] … [SEP]', async () => {
    const tok = await tokenizer();
    const ids = (tok('Cannot find MODULE xyz') as { input_ids: { tolist(): bigint[][] } }).input_ids.tolist()[0].map(Number);
    const v = (t: string) => tiny.vocab.indexOf(t);
    assert.deepEqual(ids, [v('[CLS]'), v('cannot'), v('find'), v('module'), v('x'), v('##y'), v('##z'), v('[SEP]')]);
  });
});

void describe('model resolution', () => {
  void test('extension folder, then the setting, then global storage; incomplete folders are skipped', () => {
    const ext = folder();
    const setting = folder();
    const global = folder();
    const copyTo = (root: string) => fs.cpSync(tiny.dir, path.join(root, ...'Xenova/all-MiniLM-L6-v2'.split('/')), { recursive: true });
    copyTo(path.join(global, 'models'));
    assert.equal(resolveModel({ extensionModelsDir: ext, settingDir: setting, globalStorage: global })?.source, 'globalStorage');
    copyTo(setting);
    assert.equal(resolveModel({ extensionModelsDir: ext, settingDir: setting, globalStorage: global })?.source, 'setting');
    copyTo(ext);
    fs.rmSync(path.join(ext, 'Xenova/all-MiniLM-L6-v2/onnx/model_quantized.onnx'));
    assert.equal(resolveModel({ extensionModelsDir: ext, settingDir: setting, globalStorage: global })?.source, 'setting', 'no weights: not a model');
    copyTo(ext);
    assert.equal(resolveModel({ extensionModelsDir: ext, settingDir: setting, globalStorage: global })?.source, 'extension');
    assert.equal(resolveModel({}), undefined);
  });

  void test('a setting may name the model folder itself', () => {
    const loc = resolveModel({ settingDir: tiny.dir })!;
    assert.equal(modelDir(loc), tiny.dir);
  });
});

void describe('TransformerEmbedder (worker thread)', () => {
  void test('loads on first use only, mean-pools with the attention mask, normalizes', async () => {
    const e = embedder();
    assert.equal(e.loaded, false, 'constructing does not start anything');
    assert.equal(e.dim, tiny.hidden);
    assert.match(e.id, /^transformer-v1:test\/tiny-bert:q8:\d+:mean-norm$/);
    const text = 'Error: cannot find module express';
    const [v] = await e.embed([text]);
    assert.equal(e.loaded, true);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, 'unit length');

    // the same computation by hand: tokenizer → ONNX → mean over real tokens → L2 normalize
    const tok = await tokenizer();
    const ids = (tok(text) as { input_ids: { tolist(): bigint[][] } }).input_ids.tolist()[0];
    const n = ids.length;
    const session = await ort.InferenceSession.create(path.join(tiny.dir, 'onnx/model_quantized.onnx'));
    const feeds = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), [1, n]),
    };
    const hidden = (await session.run(feeds)).last_hidden_state.data as Float32Array;
    const mean = new Float32Array(tiny.hidden);
    for (let t = 0; t < n; t++) for (let d = 0; d < tiny.hidden; d++) mean[d] += hidden[t * tiny.hidden + d] / n;
    const norm = Math.hypot(...mean);
    for (let d = 0; d < tiny.hidden; d++) assert.ok(Math.abs(v[d] - mean[d] / norm) < 1e-5, `value ${d}: ${v[d]} vs ${mean[d] / norm}`);
  });

  void test('padding in a batch does not change a text’s vector', async () => {
    const e = embedder();
    const [alone] = await e.embed(['port in use']);
    const [inBatch, other] = await e.embed(['port in use', 'a much longer error text with many more words than the first one has']);
    for (let d = 0; d < e.dim; d++) assert.ok(Math.abs(alone[d] - inBatch[d]) < 1e-5);
    assert.ok(alone.some((x, d) => Math.abs(x - other[d]) > 1e-3));
  });

  void test('the worker is stopped when idle and started again on the next request', async () => {
    const e = embedder({ idleMs: 150 });
    const [a] = await e.embed(['timeout']);
    assert.equal(e.starts, 1);
    await new Promise(r => setTimeout(r, 400));
    assert.equal(e.loaded, false, 'unloaded after the idle time');
    const [b] = await e.embed(['timeout']);
    assert.equal(e.starts, 2);
    assert.deepEqual(Array.from(a), Array.from(b));
    await e.dispose();
    assert.equal(e.loaded, false);
  });

  void test('load() reports the load time; concurrent requests share one worker', async () => {
    const e = embedder();
    const ms = await e.load();
    assert.ok(ms >= 0);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map(t => e.embed([`error ${t}`])));
    assert.equal(results.length, 4);
    assert.equal(e.starts, 1);
  });

  void test('a damaged model fails with a message, and recall falls back', async () => {
    const root = folder();
    fs.cpSync(tiny.dir, path.join(root, 'broken'), { recursive: true });
    fs.writeFileSync(path.join(root, 'broken/onnx/model_quantized.onnx'), 'not a model');
    const broken = embedder({ location: { root, modelId: 'broken', dtype: 'q8', source: 'setting' } });
    await assert.rejects(broken.embed(['x']));
    const warnings: string[] = [];
    const scorer = createSemanticScorer({ allowDownload: false, modelDir: path.join(root, 'broken'), onWarning: w => warnings.push(w) });
    assert.equal(scorer.mode, 'transformer');
    const scores = await scorer.score('numpy', ['python\nNo module named numpy', 'npm\nEADDRINUSE']);
    assert.ok(scores[0] > scores[1], 'the offline scorer answered');
    assert.ok(warnings.some(w => /semantic recall failed/.test(w)), warnings.join('\n'));
    const count = warnings.length;
    await scorer.score('port', ['python\nNo module named numpy', 'npm\nEADDRINUSE']);
    assert.equal(warnings.length, count, 'not retried (nor warned about) at once');
    await scorer.dispose();
  });

  void test('the bundled worker (dist/embed-worker.js) gives the same vectors', async t => {
    const bundled = path.resolve(__dirname, '../../dist/embed-worker.js');
    if (!fs.existsSync(bundled)) return t.skip('dist/embed-worker.js is not built');
    const [fromSource] = await embedder().embed(['EADDRINUSE :::5173']);
    const [fromBundle] = await embedder({ workerPath: bundled }).embed(['EADDRINUSE :::5173']);
    for (let d = 0; d < fromSource.length; d++) assert.ok(Math.abs(fromSource[d] - fromBundle[d]) < 1e-6);
  });
});

/** Serves <dir> as <modelId>/resolve/main/<file>, like the model hub, and counts requests. */
async function fakeHub(modelId: string, dir: string): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const prefix = `/${modelId}/resolve/main/`;
    const file = req.url?.startsWith(prefix) ? path.join(dir, decodeURIComponent(req.url.slice(prefix.length))) : '';
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

void describe('download into global storage', () => {
  void test('downloads once, with progress, into <globalStorage>/models/<modelId>', async () => {
    const hub = await fakeHub('acme/tiny', tiny.dir);
    try {
      const global = folder();
      const progress: string[] = [];
      const loc = await downloadModel({ globalStorage: global, modelId: 'acme/tiny', remoteHost: hub.url, onProgress: p => progress.push(`${p.message} ${p.done}/${p.total}`) });
      assert.equal(modelDir(loc), path.join(global, 'models', 'acme', 'tiny'));
      assert.ok(isModelFolder(modelDir(loc)));
      assert.ok(progress.some(p => p.includes('onnx/model_quantized.onnx')), progress.join('\n'));
      assert.equal(resolveModel({ globalStorage: global, modelId: 'acme/tiny' })?.source, 'globalStorage');
      const before = hub.requests.length;
      await downloadModel({ globalStorage: global, modelId: 'acme/tiny', remoteHost: hub.url });
      assert.equal(hub.requests.length, before, 'present: nothing fetched again');
      assert.deepEqual(fs.readdirSync(path.join(global, 'models')).filter(n => n.startsWith('.download')), []);
    } finally {
      hub.server.close();
    }
  });

  void test('a failed download leaves nothing that looks like a model', async () => {
    const partial = folder();
    fs.cpSync(tiny.dir, partial, { recursive: true });
    fs.rmSync(path.join(partial, 'onnx/model_quantized.onnx'));
    const hub = await fakeHub('acme/tiny', partial);
    try {
      const global = folder();
      await assert.rejects(downloadModel({ globalStorage: global, modelId: 'acme/tiny', remoteHost: hub.url }), /HTTP 404/);
      assert.equal(resolveModel({ globalStorage: global, modelId: 'acme/tiny' }), undefined);
      assert.deepEqual(fs.readdirSync(path.join(global, 'models')), []);
    } finally {
      hub.server.close();
    }
  });
});

void describe('createSemanticScorer', () => {
  void test('no model: offline; download() then switches to the transformer', async () => {
    const hub = await fakeHub('test/tiny-bert', tiny.dir);
    const global = folder();
    const scorer = createSemanticScorer({ globalStorage: global, allowDownload: true, modelId: 'test/tiny-bert' });
    try {
      assert.equal(scorer.mode, 'offline');
      assert.equal(scorer.canDownload, true);
      assert.equal(hub.requests.length, 0, 'never downloads by itself');
      await scorer.download({ remoteHost: hub.url });
      assert.equal(scorer.mode, 'transformer');
      assert.equal(scorer.model?.source, 'globalStorage');
      assert.equal(scorer.modelLoaded, false, 'the model loads on the first recall, not on download');
      assert.equal(createSemanticScorer({ globalStorage: global, allowDownload: false }).canDownload, false);
    } finally {
      hub.server.close();
      await scorer.dispose();
    }
  });

  void test('a package without onnxruntime-node stays offline and offers no download', async () => {
    const lonely = path.join(folder(), 'dist', 'embed-worker.js'); // no node_modules above it
    const warnings: string[] = [];
    const scorer = createSemanticScorer({ workerPath: lonely, extensionModelsDir: tiny.root, modelId: tiny.modelId, globalStorage: folder(), allowDownload: true, onWarning: w => warnings.push(w) });
    assert.equal(scorer.runtimeAvailable, false);
    assert.equal(scorer.mode, 'offline');
    assert.equal(scorer.canDownload, false);
    assert.match(warnings.join('\n'), /onnxruntime-node is not installed/);
    const scores = await scorer.score('numpy', ['python\nNo module named numpy', 'npm\nEADDRINUSE']);
    assert.ok(scores[0] > scores[1]);
    await assert.rejects(scorer.download(), /onnxruntime-node/);
  });

  void test('with a model: recall through WorkspaceMemory embeds the memory in the background, then with the transformer', async () => {
    const ws = folder();
    const memory = new WorkspaceMemory(ws);
    const progress: number[] = [];
    const scorer = createSemanticScorer({ memoryDir: memory.store.dir, extensionModelsDir: tiny.root, modelId: tiny.modelId, allowDownload: false, onProgress: p => progress.push(p.done) });
    memory.scorer = scorer;
    try {
      assert.equal(scorer.mode, 'transformer');
      assert.equal(scorer.model?.source, 'extension');
      for (let i = 0; i < 40; i++) {
        await memory.record({ command: `tool-${i} run`, exitCode: 1, source: 'cli', output: `Error: failure number ${i} in module m${i}\n` });
      }
      // 40 documents > 32: the first recall is answered offline while the transformer embeds them
      const first = await memory.recall('failure number 7', 3);
      assert.equal(first.length, 3);
      await waitFor(() => progress.includes(40));
      await waitFor(async () => (await new VectorStore(memory.store.dir).load()).embedder.startsWith('transformer-v1:'));
      const stored = await new VectorStore(memory.store.dir).load();
      assert.equal(stored.live, 40);
      assert.equal(stored.dim, tiny.hidden);
      const second = await memory.recall('failure number 7', 3);
      assert.equal(second.length, 3);
      for (const h of second) assert.ok(h.score >= 0 && h.score <= 1);
      assert.equal(scorer.modelLoaded, true);
    } finally {
      await scorer.dispose();
    }
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise(r => setTimeout(r, 25));
  }
}
