// npm run bench  (= npm run build && node --import tsx bench/run.mjs [--quick] [--model-dir DIR] [--no-e2e])
//
// Measures, and writes between the bench markers of BENCHMARKS.md (with the machine and date):
//  - the VSIX per target (scripts/package.mjs --target all): size and what is inside
//  - the packaged extension in code-server (bench/e2e-bench.mjs, when test/e2e/setup.sh has set up
//    .e2e/; --no-e2e skips it): activation time, extension host RSS with and without the model
//  - recall quality per scorer on test/fixtures/recall-set.json (and the transformer, given a real model)
//  - embedding latency and throughput: offline embedder, tiny test transformer (and a real model)
//  - model load time; RSS before/after loading (fresh child processes)
//  - brute-force top-k over 1k / 10k / 100k stored vectors; end-to-end recall through
//    WorkspaceMemory over 500 (the default limit), 1k, 10k and 100k approaches
//  - the engine: store load/save, record and check on a store with 10,000 attempts,
//    through WorkspaceMemory and through the packaged CLI (dist/cli.js from the linux VSIX)
//  - what the embeddings add to the VSIX
// Nothing here asserts a time: the numbers are for reading. Sections are functions; add yours to SECTIONS.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicalScorer, recall } from '../src/core/recall.ts';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';
import { createOfflineScorer, EmbeddingScorer, HybridScorer, OfflineEmbedder, resolveModel, TransformerEmbedder } from '../src/embeddings/index.ts';
import { evaluateRecall } from '../src/embeddings/recallEval.ts';
import { loadWordTable } from '../src/embeddings/wordTable.ts';
import { VectorSnapshot, VectorStore } from '../src/store/vectorStore.ts';
import { MAX_MEMORY_FILE_BYTES, MemoryStore } from '../src/store/memoryStore.ts';
import { WorkspaceMemory } from '../src/app/workspaceMemory.ts';
import { makeTinyModel } from '../scripts/make-tiny-model.ts';
import { E2E_DIR } from '../test/e2e/harness.mjs';
import { medianP95, time } from './timing.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const noE2e = args.includes('--no-e2e');
const modelDirArg = args.includes('--model-dir') ? args[args.indexOf('--model-dir') + 1] : process.env.FAILURE_MEMORY_MODEL_DIR;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-bench-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- child-process probes (clean RSS) --------------------------------------------------------------
if (args[0] === '--rss-probe') {
  await rssProbe(args[1], args[2]);
  process.exit(0);
}

// what the running section printed (written between its markers in BENCHMARKS.md at the end)
let out = [];
const line = s => {
  out.push(s);
  console.log(s);
};
const ms = x => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : x < 100 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);
const mb = b => `${(b / 1024 / 1024).toFixed(1)} MB`;
const kb = b => `${(b / 1024).toFixed(1)} KiB`;

/** Median and p95 of the CPU time (user + system, all threads) of `runs` calls: steadier than the wall clock on a shared machine. */
async function cpuTime(fn, runs = 20, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const t = [];
  for (let i = 0; i < runs; i++) {
    const s = process.cpuUsage();
    await fn(i);
    const d = process.cpuUsage(s);
    t.push((d.user + d.system) / 1000);
  }
  return medianP95(t);
}


const recallSet = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/recall-set.json'), 'utf8'));
const sampleTexts = recallSet.failures.map(f => `${f.command}\n${f.output}`).concat(recallSet.queries.map(q => q.query));
const tiny = makeTinyModel(path.join(tmp, 'models'));
const tinyLocation = { root: tiny.root, modelId: tiny.modelId, dtype: 'q8', source: 'setting' };
const realModel = modelDirArg ? resolveModel({ settingDir: modelDirArg }) : undefined;
if (modelDirArg && !realModel) console.warn(`--model-dir ${modelDirArg}: no complete model there; the real-model rows are left out.`);

// ---------------------------------------------------------------------------------------------------

/** Set by packaging(): the report of scripts/package.mjs and the unpacked linux-x64 extension. */
let packaged;

async function packaging() {
  line('### The VSIX per target (`npm run package -- --target <target>`)');
  line('');
  const outDir = path.join(tmp, 'vsix');
  const report = path.join(tmp, 'package-report.json');
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--target', 'all', '--out', outDir, '--report', report], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    line(`packaging failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
    line('');
    return;
  }
  const { results } = JSON.parse(fs.readFileSync(report, 'utf8'));
  line('Production bundles, one platform\'s onnxruntime-node addon and library (no CUDA/TensorRT/other execution providers), no model. Compressed = in the VSIX (a zip).');
  line('');
  line('| target | VSIX | unpacked | onnxruntime (unpacked / compressed) | bundles + media + README images (compressed) | files |');
  line('|---|---|---|---|---|---|');
  const part = (x, name) => x.parts.find(p => p.name === name) ?? { size: 0, compressed: 0 };
  for (const x of results) {
    const ort = part(x, 'onnxruntime');
    const rest = x.parts.filter(p => p.name !== 'onnxruntime').reduce((s, p) => s + p.compressed, 0);
    line(`| ${x.target} | **${mb(x.size)}** | ${mb(x.unpacked)} | ${mb(ort.size)} / ${mb(ort.compressed)} | ${mb(rest)} | ${x.files} |`);
  }
  const built = new Set(results.map(x => x.target));
  for (const t of ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'].filter(t => !built.has(t))) {
    line(`| ${t} | not built: onnxruntime-node ${JSON.parse(fs.readFileSync(path.join(root, 'node_modules/onnxruntime-node/package.json'), 'utf8')).version} ships no binary for it | | | | |`);
  }
  line('');
  const linux = results.find(x => x.target === `${process.platform}-${process.arch}`) ?? results[0];
  const dir = path.join(tmp, 'unpacked');
  spawnSync('unzip', ['-q', path.join(outDir, path.basename(linux.file)), '-d', dir]);
  packaged = { results, vsix: path.join(outDir, path.basename(linux.file)), extension: path.join(dir, 'extension') };
}

async function extensionHost() {
  line('### The packaged extension in VS Code (code-server 4.100.3 = VS Code 1.100.3, headless Chromium)');
  line('');
  if (noE2e || !fs.existsSync(path.join(E2E_DIR, 'code-server')) || !packaged) {
    line(`Not measured in this run: ${noE2e ? '--no-e2e' : !packaged ? 'packaging failed' : '.e2e/ is not set up (run `bash test/e2e/setup.sh`, or `npm run test:e2e` once)'}.`);
    line('');
    return;
  }
  const { benchExtensionHost } = await import('./e2e-bench.mjs');
  const runs = quick ? 1 : 3;
  const r = await benchExtensionHost({ vsix: packaged.vsix, runs });
  const all = [...r.plain, ...r.model];
  const med = k => {
    const v = all.map(x => x[k]).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)];
  };
  const range = k => `${ms(Math.min(...all.map(x => x[k])))} – ${ms(Math.max(...all.map(x => x[k])))}`;
  line(`The VSIX installed with \`--install-extension\` into a fresh code-server, ${all.length} starts (${runs} with the plain VSIX, ${runs} with the tiny model bundled); activation is \`onStartupFinished\`.`);
  line('');
  line('| activation | median | range |');
  line('|---|---|---|');
  line(`| \`activate()\` (measured by the extension, the \`ms\` of its \`activated\` event) | ${ms(med('activateMs'))} | ${range('activateMs')} |`);
  line(`| extension host process start → activated (the host loads VS Code's built-in extensions too) | ${ms(med('hostToActivatedMs'))} | ${range('hostToActivatedMs')} |`);
  line(`| code-server start → activated (includes starting Chromium and loading the workbench) | ${ms(med('serverToActivatedMs'))} | ${range('serverToActivatedMs')} |`);
  line('');
  const p = r.plain[0];
  const m = r.model[0];
  const add = x => `${mb(x)} (+${mb(x - r.baseline)})`;
  line('Extension host RSS (`/proc/<pid>/status` VmRSS, the median of 5 samples once settled). "+" is over the extension host of the same code-server with an empty extension instead (' + mb(r.baseline) + '). 200 failures are recorded by the CLI (another process), then one recall runs through the language-model tool. **The model is the tiny random test BERT** (hidden 32, 42 KB): the row shows what the worker thread, onnxruntime and transformers.js cost; all-MiniLM-L6-v2 (q8, 23 MB) adds roughly its weights and activations on top (not measured: no model weights on this machine).');
  line('');
  line('| extension host | after activation | after 200 failures recorded | after the first recall |');
  line('|---|---|---|---|');
  line(`| plain VSIX: recall on the offline embedder (${p.mode}) | ${add(p.rssActivated)} | ${add(p.rssRecorded)} | ${add(p.rssRecalled)} |`);
  line(`| VSIX with the tiny model: recall loads the worker, onnxruntime and the model (${m.mode}) | ${add(m.rssActivated)} | ${add(m.rssRecorded)} | ${add(m.rssRecalled)} |`);
  line('');
}

async function recallQuality() {
  line('### Recall quality (test/fixtures/recall-set.json)');
  line('');
  line(`${recallSet.failures.length} failures, ${recallSet.queries.length} queries (${recallSet.queries.filter(q => q.split === 'dev').length} dev, ${recallSet.queries.filter(q => q.split === 'held-out').length} held-out). top-k: share of queries whose expected failure is among the first k; MRR: mean reciprocal rank.`);
  line('');
  line('| scorer | top-1 | top-3 | MRR | dev top-1 / top-3 | held-out top-1 / top-3 | ms / query |');
  line('|---|---|---|---|---|---|---|');
  const offline = opts => new EmbeddingScorer({ embedder: new OfflineEmbedder(opts) });
  // the same table built without pulling synonym groups together, to see what retrofitting adds
  let plain;
  if (!quick) {
    const file = path.join(tmp, 'plain-table.bin');
    const r = spawnSync(process.execPath, ['--max-old-space-size=8000', '--import', 'tsx', path.join(root, 'scripts/build-offline-embedder.mjs')], { cwd: root, encoding: 'utf8', env: { ...process.env, FM_RETROFIT: '0', FM_TABLE_OUT: file } });
    if (r.status === 0) plain = loadWordTable(file);
    else console.warn(`could not build the table without retrofitting: ${r.stderr.split('\n')[0]}`);
  }
  const rows = [
    ['lexical TF-IDF (before this change)', lexicalScorer],
    ['offline embedder: hashed n-grams only', offline({ wordVectors: false })],
    ['offline embedder: GloVe words only', offline({ lexicalDim: 0 })],
    ['offline embedder: GloVe words only, not retrofitted', plain && offline({ lexicalDim: 0, table: plain })],
    ['offline embedder: both parts', offline({})],
    ['offline embedder: both parts, not retrofitted', plain && offline({ table: plain })],
    ['offline embedder: both, no code glossary', offline({ glossary: false })],
    ['TF-IDF ⊕ offline embedder (CLI default)', createOfflineScorer()],
    ['TF-IDF ⊕ offline embedder, no code glossary', new HybridScorer(lexicalScorer, offline({ glossary: false }), 0.5)],
    ['TF-IDF ⊕ hashed n-grams only', new HybridScorer(lexicalScorer, offline({ wordVectors: false }), 0.5)],
    ['TF-IDF ⊕ GloVe part only', new HybridScorer(lexicalScorer, offline({ lexicalDim: 0 }), 0.5)],
    ['TF-IDF ⊕ offline embedder, not retrofitted', plain && new HybridScorer(lexicalScorer, offline({ table: plain }), 0.5)],
  ];
  if (realModel) {
    const e = new TransformerEmbedder({ location: realModel });
    rows.push([`transformer ${realModel.modelId} alone`, new EmbeddingScorer({ embedder: e })]);
    rows.push([`TF-IDF ⊕ transformer ${realModel.modelId}`, new HybridScorer(lexicalScorer, new EmbeddingScorer({ embedder: e }), 0.5)]);
  }
  for (const [name, scorer] of rows) {
    if (!scorer) continue;
    const r = await evaluateRecall(recallSet, scorer);
    const d = r.bySplit.dev;
    const h = r.bySplit['held-out'];
    line(`| ${name} | ${r.top1.toFixed(3)} | ${r.top3.toFixed(3)} | ${r.mrr.toFixed(3)} | ${d.top1.toFixed(3)} / ${d.top3.toFixed(3)} | ${h.top1.toFixed(3)} / ${h.top3.toFixed(3)} | ${r.msPerQuery.toFixed(2)} |`);
  }
  if (!realModel) line(`| transformer Xenova/all-MiniLM-L6-v2 | not measured: this machine cannot download model weights; run \`npm run bench -- --model-dir <folder>\` where the model is | | | | | |`);
  line('');
}

async function embeddingSpeed() {
  line('### Embedding latency and throughput');
  line('');
  line('| embedder | dim | load | one text (median / p95) | batch of 32 | throughput |');
  line('|---|---|---|---|---|---|');
  const t0 = performance.now();
  const offline = new OfflineEmbedder();
  const loadOffline = performance.now() - t0;
  const one = await time(i => offline.embed([sampleTexts[i % sampleTexts.length]]), 200, 20);
  const batch = await time(i => offline.embed(sampleTexts.slice((i * 32) % 150, ((i * 32) % 150) + 32)), 50, 5);
  line(`| offline (hashed 256 + GloVe 100) | ${offline.dim} | ${ms(loadOffline)} (word table) | ${ms(one.median)} / ${ms(one.p95)} | ${ms(batch.median)} | ${Math.round((32 / batch.median) * 1000)} texts/s |`);
  const models = [['tiny test BERT (random, hidden 32, 1 layer)', tinyLocation]];
  if (realModel) models.push([`${realModel.modelId} (${realModel.dtype})`, realModel]);
  for (const [name, location] of models) {
    const e = new TransformerEmbedder({ location, threads: 1 });
    const load = await e.load();
    const single = await time(i => e.embed([sampleTexts[i % sampleTexts.length]]), quick ? 20 : 60, 5);
    const b = await time(i => e.embed(sampleTexts.slice((i * 32) % 150, ((i * 32) % 150) + 32)), quick ? 5 : 15, 2);
    line(`| ${name}, worker thread, 1 intra-op thread | ${e.dim} | ${ms(load)} (worker + model) | ${ms(single.median)} / ${ms(single.p95)} | ${ms(b.median)} | ${Math.round((32 / b.median) * 1000)} texts/s |`);
    await e.dispose();
  }
  if (!realModel) line('| Xenova/all-MiniLM-L6-v2 (q8) | 384 | not measured here (no model weights on this machine) | | | |');
  line('');
}

async function rss() {
  line('### Memory (RSS of a fresh Node process)');
  line('');
  line('| what | RSS before | RSS after | added |');
  line('|---|---|---|---|');
  const probes = [['offline embedder (word table loaded, 100 texts embedded)', 'offline'], ['tiny transformer (worker + onnxruntime + model, 100 texts)', 'tiny']];
  if (realModel) probes.push([`${realModel.modelId} (worker + onnxruntime + model, 100 texts)`, 'real']);
  for (const [name, kind] of probes) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rss-probe', kind, kind === 'real' ? modelDirArg : tiny.dir], { encoding: 'utf8', cwd: root });
    const m = /RSS (\d+) (\d+)/.exec(r.stdout);
    if (!m) {
      line(`| ${name} | probe failed: ${(r.stderr || r.stdout).split('\n')[0]} | | |`);
      continue;
    }
    line(`| ${name} | ${mb(+m[1])} | ${mb(+m[2])} | ${mb(m[2] - m[1])} |`);
  }
  line('');
}

async function rssProbe(kind, dir) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const texts = Array.from({ length: 100 }, (_, i) => `Error: failure ${i} cannot find module m${i}`);
  if (kind === 'offline') {
    await new OfflineEmbedder().embed(texts);
  } else {
    const e = new TransformerEmbedder({ location: resolveModel({ settingDir: dir }) });
    await e.embed(texts);
    const after = process.memoryUsage().rss;
    console.log(`RSS ${before} ${after}`);
    await e.dispose();
    return;
  }
  console.log(`RSS ${before} ${process.memoryUsage().rss}`);
}

async function vectorSearch() {
  line('### Recall latency over stored vectors (brute force, one thread)');
  line('');
  line('Top-5 over contiguous float32 rows (VectorStore.load + VectorSnapshot.search: the shipped path, the WebAssembly SIMD kernel from 16,384 stored values on), query already embedded; load = reading vectors.bin + vectors.json (checksum of the last segment included).');
  line('');
  line('| vectors | dim | file | load | top-5 search (median / p95) | score 500 documents by id |');
  line('|---|---|---|---|---|---|');
  const sizes = quick ? [1000, 10000] : [1000, 10000, 100000];
  for (const dim of [356, 384]) {
    for (const n of sizes) {
      const dir = path.join(tmp, `vec-${dim}-${n}`);
      const store = new VectorStore(dir);
      const rows = Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, vector: randomUnit(dim, i + 1) }));
      await store.replaceAll('bench', dim, rows);
      const size = fs.statSync(store.binFile).size + fs.statSync(store.indexFile).size;
      const load = await time(async () => {
        const s = new VectorStore(dir);
        await s.load();
      }, n >= 100000 ? 3 : 10, 1);
      const snap = await store.load();
      const q = randomUnit(dim, 999);
      const search = await time(() => snap.search(q, 5), n >= 100000 ? 20 : 100, 3);
      const ids = rows.slice(0, 500).map(r => r.id);
      const byId = await time(() => snap.scoreIds(q, ids), 100, 5);
      line(`| ${n.toLocaleString('en')} | ${dim} | ${mb(size)} | ${ms(load.median)} | ${ms(search.median)} / ${ms(search.p95)} | ${ms(byId.median)} |`);
    }
  }
  line('');

  line('#### End-to-end recall through WorkspaceMemory (500 approaches = the default memory limit)');
  line('');
  line('| scorer | first recall (embeds all documents, writes vectors.bin) | next recalls (median / p95) |');
  line('|---|---|---|');
  const data = buildMemory(500, 1);
  for (const [name, make] of [
    ['lexical TF-IDF', () => lexicalScorer],
    ['TF-IDF ⊕ offline embedder (CLI default)', dir => createOfflineScorer({ memoryDir: dir, claim: true })],
    ['TF-IDF ⊕ tiny transformer (worker)', dir => new HybridScorer(lexicalScorer, new EmbeddingScorer({ embedder: new TransformerEmbedder({ location: tinyLocation }), memoryDir: dir }), 0.5)],
  ]) {
    const ws = path.join(tmp, `ws-recall-${name.length}`);
    const memory = new WorkspaceMemory(ws);
    await memory.store.replace(data);
    memory.scorer = make(memory.store.dir);
    const s = performance.now();
    await memory.recall('ModuleNotFoundError: No module named numpy', 5);
    const first = performance.now() - s;
    const next = await time(i => memory.recall(`cannot find module number ${i}`, 5), 30, 3);
    line(`| ${name} | ${ms(first)} | ${ms(next.median)} / ${ms(next.p95)} |`);
    if (memory.scorer.b?.embedder?.dispose) await memory.scorer.b.embedder.dispose();
  }
  line('');

  line('#### End-to-end recall at 1k / 10k / 100k approaches');
  line('');
  line('Past the default limit of 500 approaches (`limits.maxApproaches`): one failed attempt each (~1 KB of output), TF-IDF ⊕ offline embedder (the CLI default). The first recall parses memory.json, embeds every approach and writes vectors.bin; the next ones (what a long-lived process sees: the extension host, the MCP server) find memory.json unchanged (one stat), so the parsed memory, the TF-IDF index and the vector plan are kept, and score every approach for the new query. The one-shot CLI (`dist/cli.js recall --json`, a new process each: Node start, bundle, parse memory.json, load vectors.bin, build the TF-IDF index, then the same recall) pays the parse every time; `version` is a bare start of the same CLI.');
  line('');
  line('| approaches | memory.json | vectors.bin | first recall | next recalls (median / p95) | one-shot CLI recall (median) | CLI `version` (median) |');
  line('|---|---|---|---|---|---|---|');
  for (const n of quick ? [1000, 10000] : [1000, 10000, 100000]) {
    const data = wideMemory(n);
    const bytes = Buffer.byteLength(JSON.stringify(data)); // as the store writes it
    if (bytes > MAX_MEMORY_FILE_BYTES) {
      line(`| ${n.toLocaleString('en')} | ${mb(bytes)} | – | not possible: memory.json over the ${mb(MAX_MEMORY_FILE_BYTES)} the store loads (it is moved aside as corrupt); the brute-force table above has 100k vectors | |`);
      continue;
    }
    const ws = path.join(tmp, `ws-recall-${n}`);
    const memory = new WorkspaceMemory(ws);
    await memory.store.replace(data);
    memory.scorer = createOfflineScorer({ memoryDir: memory.store.dir, claim: true });
    const s = performance.now();
    await memory.recall('ModuleNotFoundError: No module named numpy', 5);
    const first = performance.now() - s;
    const next = await time(i => memory.recall(`cannot find module number ${i}`, 5), n >= 100000 ? 3 : n >= 10000 ? 15 : 30, 2);
    const bin = path.join(memory.store.dir, 'vectors.bin');
    const [oneShot, bare] = cliRecall(ws, 5);
    line(`| ${n.toLocaleString('en')} | ${mb(fs.statSync(memory.store.file).size)} | ${fs.existsSync(bin) ? mb(fs.statSync(bin).size) : '–'} | ${ms(first)} | ${ms(next.median)} / ${ms(next.p95)} | ${oneShot ? ms(oneShot.median) : 'dist/cli.js not built'} | ${bare ? ms(bare.median) : ''} |`);
    fs.rmSync(ws, { recursive: true, force: true });
  }
  line('');
}

/**
 * `dist/cli.js recall --json` (and `version`, a bare start) in a new process each, alternating, on
 * workspace `ws`: the one-shot figure. [recall, version] medians, or [] when the CLI is not built.
 */
function cliRecall(ws, runs) {
  const cli = path.join(root, 'dist/cli.js');
  if (!fs.existsSync(cli)) return [];
  const once = a => {
    const s = performance.now();
    const r = spawnSync(process.execPath, [cli, ...a], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`dist/cli.js ${a[0]}: ${r.stderr}`);
    return performance.now() - s;
  };
  const recallT = [];
  const versionT = [];
  once(['version']);
  for (let i = 0; i < runs; i++) {
    recallT.push(once(['recall', '--workspace', ws, '--query', `cannot find module number ${i}`, '--json']));
    versionT.push(once(['version']));
  }
  return [medianP95(recallT), medianP95(versionT)];
}

/**
 * Recall scaling: the two figures that matter at scale, on their own so they can be measured
 * quickly (`--only recallScaling`): recall at 10,000 approaches and top-5 over 100,000 vectors.
 */
async function recallScaling() {
  line('### Recall scaling: recall at 10,000 approaches, top-5 over 100,000 vectors');
  line('');
  line('Recall through WorkspaceMemory with TF-IDF ⊕ offline embedder (the CLI default) after the first recall (which embeds everything and writes vectors.bin), each with a new query. "Long-lived" is what the extension host and the MCP server see: memory.json unchanged since the last recall, so MemoryStore.read is one stat and the kept, frozen memory, and recall keeps its documents, TF-IDF index and vector plan. "After one new failure": the memory changed (one failure recorded by this process, which keeps what it wrote): the TF-IDF index is rebuilt (each document\'s features are memoised), the new document embedded and appended to vectors.bin. "Parse": what a new process (or a change by another process) pays to read memory.json (read, JSON.parse, validate, freeze). The one-shot CLI row is a whole `dist/cli.js recall --json` process. Top-5: brute force over 100,000 stored 384-d float32 rows, query already embedded. CPU time (process.cpuUsage, all threads) is given beside the wall clock because the machine is shared: under load the wall clock measures the queue.');
  line('');
  line('| what | wall: median / p95 | CPU time: median / p95 | runs |');
  line('|---|---|---|---|');
  const n = 10000;
  const ws = path.join(tmp, 'ws-scaling');
  const memory = new WorkspaceMemory(ws, { git: false });
  await memory.store.replace(wideMemory(n));
  memory.scorer = createOfflineScorer({ memoryDir: memory.store.dir, claim: true });
  await memory.recall('ModuleNotFoundError: No module named numpy', 5);
  const row = (what, wall, cpu, runs) => line(`| ${what} | ${ms(wall.median)} / ${ms(wall.p95)} | ${cpu ? `${ms(cpu.median)} / ${ms(cpu.p95)}` : '–'} | ${runs} |`);
  const full = await time(i => memory.recall(`cannot find module number ${i}`, 5), 15, 2);
  const fullCpu = await cpuTime(i => memory.recall(`cannot find module number ${i + 50}`, 5), 15, 1);
  row(`recall at ${n.toLocaleString('en')} approaches, long-lived process (WorkspaceMemory.recall, memory.json unchanged)`, full, fullCpu, 15);
  const data = await memory.store.read();
  const loaded = await time(i => recall(data, `cannot find module number ${i + 100}`, 5, memory.scorer), 15, 2);
  const loadedCpu = await cpuTime(i => recall(data, `cannot find module number ${i + 150}`, 5, memory.scorer), 15, 1);
  row(`recall at ${n.toLocaleString('en')} approaches, memory loaded (core recall over the kept memory)`, loaded, loadedCpu, 15);
  const kept = await time(() => memory.store.read(), 15, 2);
  const keptCpu = await cpuTime(() => memory.store.read(), 15, 1);
  row(`memory.json read, unchanged (MemoryStore.read: a stat, the kept memory)`, kept, keptCpu, 15);
  const parse = await time(() => new MemoryStore(memory.store.dir).read(), 5, 1);
  const parseCpu = await cpuTime(() => new MemoryStore(memory.store.dir).read(), 5, 1);
  row(`memory.json parse (${mb(fs.statSync(memory.store.file).size)}, a new MemoryStore: read, parse, validate, freeze)`, parse, parseCpu, 5);
  // after one new failure: the store keeps what it wrote; recall rebuilds its index and embeds the new document
  const afterChange = [];
  const afterChangeCpu = [];
  for (let i = 0; i < 5; i++) {
    await memory.store.update(d => {
      const a = Object.values(d.approaches)[i];
      const key = `${a.key}:new${i}`;
      d.approaches[key] = { ...a, key, command: `${a.command} --new ${i}`, label: `${a.label} --new ${i}`, lastErrorSignature: `Error: new failure number ${i} in step ${i}` };
    });
    const s = performance.now();
    const c = process.cpuUsage();
    await memory.recall(`cannot find module number ${i + 200}`, 5);
    const d = process.cpuUsage(c);
    afterChange.push(performance.now() - s);
    afterChangeCpu.push((d.user + d.system) / 1000);
  }
  row(`recall at ${n.toLocaleString('en')} approaches, the first after one new failure (long-lived process)`, medianP95(afterChange), medianP95(afterChangeCpu), 5);
  const [oneShot] = cliRecall(ws, 5);
  if (oneShot) row(`recall at ${n.toLocaleString('en')} approaches, one-shot CLI (\`dist/cli.js recall --json\`, a new process each)`, oneShot, undefined, 5);
  fs.rmSync(ws, { recursive: true, force: true });

  const rows = 100000;
  const dim = 384;
  const dir = path.join(tmp, 'vec-scaling');
  const store = new VectorStore(dir);
  await store.replaceAll('bench', dim, Array.from({ length: rows }, (_, i) => ({ id: `doc-${i}`, vector: randomUnit(dim, i + 1) })));
  const snap = await store.load();
  const q = randomUnit(dim, 999);
  const search = await time(() => snap.search(q, 5), 15, 3);
  const searchCpu = await cpuTime(() => snap.search(q, 5), 15, 1);
  row(`top-5 over ${rows.toLocaleString('en')} vectors (${dim}-d, VectorSnapshot.search, ${snap.kernelKind === 'wasm' ? 'WebAssembly SIMD kernel' : 'JS loop'})`, search, searchCpu, 15);
  fs.rmSync(dir, { recursive: true, force: true });
  line('');
}

/**
 * The search kernel: the same 100,000 stored rows searched by the JS loop and by
 * the WebAssembly SIMD kernel, side by side in one run (same load), plus what the kernel costs once
 * per snapshot (the copy into wasm memory) and whether both return the same top 5.
 */
async function vectorKernel() {
  line('### Vector search kernel: JS loop vs WebAssembly SIMD (top-5 over 100,000 rows)');
  line('');
  line('The same stored rows searched by each loop in one run (so under the same load); query already embedded, 20 runs after 3 warm-ups. "load" = reading vectors.bin + vectors.json into a snapshot, 3 runs: JS = the previous code path (readFile, the snapshot views the Buffer), wasm = VectorStore.load now (the file read straight into WebAssembly memory, which is then the snapshot\'s only copy of the rows). CPU time (process.cpuUsage) beside the wall clock: the machine is shared.');
  line('');
  line('| rows × dim | loop | top-5 wall: median / p95 | top-5 CPU: median / p95 | load (once per change on disk) | storage | same top 5 as JS |');
  line('|---|---|---|---|---|---|---|');
  for (const dim of [384, 356]) {
    const n = 100000;
    const dir = path.join(tmp, `vec-kernel-${dim}`);
    await new VectorStore(dir).replaceAll('bench', dim, Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, vector: randomUnit(dim, i + 1) })));
    const q = randomUnit(dim, 999);
    let expected;
    for (const kernel of ['js', 'wasm']) {
      const loadJs = async () => {
        const index = JSON.parse(fs.readFileSync(path.join(dir, 'vectors.json'), 'utf8'));
        const bin = await fs.promises.readFile(path.join(dir, 'vectors.bin'));
        return new VectorSnapshot('bench', dim, index.ids, new Float32Array(bin.buffer, bin.byteOffset + 32, n * dim), { kernel: 'js' });
      };
      const load = kernel === 'js' ? loadJs : () => new VectorStore(dir).load();
      const loaded = await time(load, 3, 1);
      const snap = await load();
      if (snap.kernelKind !== kernel) throw new Error(`asked for the ${kernel} kernel, got ${snap.kernelKind}`);
      const wall = await time(() => snap.search(q, 5), 20, 3);
      const cpu = await cpuTime(() => snap.search(q, 5), 20, 1);
      const top = snap.search(q, 5);
      expected ??= top;
      const same = top.every((t, i) => t.id === expected[i].id && Math.abs(t.score - expected[i].score) < 1e-5) ? 'yes' : 'NO';
      const storage = kernel === 'wasm' ? `${mb(snap.vectors.buffer.byteLength)} wasm memory (file + query + scores)` : `${mb(snap.vectors.buffer.byteLength)} Buffer`;
      line(`| ${n.toLocaleString('en')} × ${dim} | ${kernel === 'js' ? 'JS (4 f64 sums)' : 'wasm SIMD (f32x4)'} | ${ms(wall.median)} / ${ms(wall.p95)} | ${ms(cpu.median)} / ${ms(cpu.p95)} | ${ms(loaded.median)} | ${storage} | ${same} |`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  line('');
}

/**
 * A memory of `n` approaches with one failed attempt each. Adding them one by one through
 * applyAttempt is quadratic (eviction checks), so each approach is the template of an approach
 * built that way, with its own command, attempt and error.
 */
function wideMemory(n) {
  const data = emptyMemory();
  const redactor = createRedactor();
  const settings = { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxApproaches: n, maxTotalBytes: 1024 * 1024 * 1024 } };
  const kinds = [
    i => `Traceback (most recent call last):\n  File "job${i}.py", line ${i % 90}, in <module>\nModuleNotFoundError: No module named 'pkg${i % 997}'`,
    i => `Error: listen EADDRINUSE: address already in use :::${3000 + (i % 1000)}`,
    i => `src/file${i}.ts(${i % 50},7): error TS2307: Cannot find module 'lib${i % 889}' or its corresponding type declarations.`,
    i => `error[E0425]: cannot find value \`v${i % 883}\` in this scope\n  --> src/main.rs:${i % 70}:5`,
    i => `npm ERR! code ENOENT\nnpm ERR! enoent ENOENT: no such file or directory, open '/home/dev/p${i % 500}/package.json'`,
  ];
  applyAttempt(data, prepareAttempt({ command: 'template run', cwd: '.', exitCode: 1, source: 'cli', output: 'x\n' }, settings, redactor, new Date(Date.UTC(2026, 0, 1))), settings);
  const template = data.approaches['.::template run'];
  delete data.approaches['.::template run'];
  for (let i = 0; i < n; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
    const attempt = prepareAttempt({ command: `tool${i} run --step ${i % 7}`, cwd: '.', exitCode: 1, source: 'cli', output: `${'building…\n'.repeat(20 + (i % 60))}${kinds[i % kinds.length](i)}\n` }, settings, redactor, at);
    const approach = { ...template, key: attempt.key, command: attempt.command, label: attempt.command, lastErrorSignature: attempt.errorSignature, attempts: [attempt], alternativesTried: [], learnedFacts: [], updatedAt: at.toISOString(), firstFailure: at.toISOString(), lastFailure: at.toISOString() };
    data.approaches[attempt.key] = approach;
  }
  return data;
}

/** A memory of `approaches` approaches with `perApproach` failed attempts each (outputs ~0.5–1.5 KB). */
function buildMemory(approaches, perApproach) {
  const data = emptyMemory();
  const redactor = createRedactor();
  const settings = { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxApproaches: Math.max(approaches, 500), maxTotalBytes: 256 * 1024 * 1024 } };
  const kinds = [
    i => `Traceback (most recent call last):\n  File "job${i}.py", line ${i % 90}, in <module>\nModuleNotFoundError: No module named 'pkg${i % 97}'`,
    i => `Error: listen EADDRINUSE: address already in use :::${3000 + (i % 100)}\n    at Server.setupListenHandle [as _listen2] (node:net:1817:16)`,
    i => `src/file${i}.ts(${i % 50},7): error TS2307: Cannot find module 'lib${i % 89}' or its corresponding type declarations.`,
    i => `error[E0425]: cannot find value \`v${i % 83}\` in this scope\n  --> src/main.rs:${i % 70}:5`,
    i => `npm ERR! code ENOENT\nnpm ERR! enoent ENOENT: no such file or directory, open '/home/dev/p${i % 50}/package.json'`,
  ];
  let n = 0;
  for (let a = 0; a < approaches; a++) {
    for (let k = 0; k < perApproach; k++) {
      const output = `${'building…\n'.repeat(20 + (n % 60))}${kinds[a % kinds.length](a)}\n`;
      const attempt = prepareAttempt({ command: `tool${a} run --step ${k}`, cwd: '.', exitCode: 1, source: 'cli', output }, settings, redactor, new Date(Date.UTC(2026, 0, 1) + n * 1000));
      applyAttempt(data, attempt, settings);
      n++;
    }
  }
  return data;
}

function randomUnit(dim, seed) {
  let s = seed >>> 0;
  const v = new Float32Array(dim);
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s / 4294967296 - 0.5;
    norm += v[i] * v[i];
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i] /= norm;
  return v;
}

async function engine() {
  line('### Engine: record and check on a store with 10,000 attempts');
  line('');
  const ws = path.join(tmp, 'ws-engine');
  const memory = new WorkspaceMemory(ws);
  const t0 = performance.now();
  const data = buildMemory(500, 20);
  await memory.store.replace(data);
  const build = performance.now() - t0;
  const total = Object.values(data.approaches).reduce((s, a) => s + a.totalAttempts, 0);
  const size = fs.statSync(memory.store.file).size;
  line(`Store: ${total.toLocaleString('en')} attempts recorded over ${Object.keys(data.approaches).length} approaches (each keeps its last ${DEFAULT_SETTINGS.shortTermWindow} attempts with output), memory.json ${mb(size)}; built in ${ms(build)}.`);
  line('');
  line('| operation | through | median | p95 | runs |');
  line('|---|---|---|---|---|');
  const runs = quick ? 10 : 40;
  const load = await time(() => new WorkspaceMemory(ws).store.read(), runs, 3);
  line(`| load memory.json (read, parse, validate, freeze; no lock; a new store each time) | MemoryStore.read | ${ms(load.median)} | ${ms(load.p95)} | ${runs} |`);
  const save = await time(() => memory.store.update(() => undefined), runs, 3);
  line(`| save memory.json (lock, re-read, write, fsync, rename) | MemoryStore.update | ${ms(save.median)} | ${ms(save.p95)} | ${runs} |`);
  let i = 0;
  const rec = await time(() => memory.record({ command: `tool${i++ % 500} run --step x`, cwd: '.', exitCode: 1, source: 'cli', output: "ModuleNotFoundError: No module named 'x'\n" }), runs, 3);
  line(`| record (failing run of a known approach) | WorkspaceMemory | ${ms(rec.median)} | ${ms(rec.p95)} | ${runs} |`);
  const recNew = await time(() => memory.record({ command: `newtool${i++} build`, cwd: '.', exitCode: 1, source: 'cli', output: 'Error: boom\n' }), runs, 3);
  line(`| record (new approach; evicts the oldest at the 500 limit) | WorkspaceMemory | ${ms(recNew.median)} | ${ms(recNew.p95)} | ${runs} |`);
  const chk = await time(() => memory.check(`tool${i++ % 500} run`), runs * 2, 3);
  line(`| check | WorkspaceMemory | ${ms(chk.median)} | ${ms(chk.p95)} | ${runs * 2} |`);
  const cli = packaged ? path.join(packaged.extension, 'dist/cli.js') : path.join(root, 'dist/cli.js');
  const through = packaged ? 'packaged dist/cli.js (new process each)' : 'dist/cli.js (new process each)';
  if (!fs.existsSync(cli)) {
    line('| record / check | dist/cli.js | not built | | |');
  } else {
    const cliRuns = quick ? 5 : 15;
    const run = (a, input) => {
      const r = spawnSync(process.execPath, [cli, ...a, '--workspace', ws], { input, encoding: 'utf8' });
      if (r.status !== 0 && r.status !== 2) throw new Error(r.stderr);
    };
    const startup = await time(() => run(['version'], ''), cliRuns, 1);
    const cRec = await time(() => run(['record', '--command', `tool${i++ % 500} run`, '--exit-code', '1'], "ModuleNotFoundError: No module named 'x'\n"), cliRuns, 1);
    const cChk = await time(() => run(['check', '--command', `tool${i++ % 500} run`], ''), cliRuns, 1);
    const cRecall = await time(() => run(['recall', '--query', 'cannot find module lib7', '--json'], ''), cliRuns, 1);
    line(`| record | ${through} | ${ms(cRec.median)} | ${ms(cRec.p95)} | ${cliRuns} |`);
    line(`| check | ${through} | ${ms(cChk.median)} | ${ms(cChk.p95)} | ${cliRuns} |`);
    line(`| recall --json (offline embedder; vectors cached after the first run) | ${through} | ${ms(cRecall.median)} | ${ms(cRecall.p95)} | ${cliRuns} |`);
    line(`| \`version\` (Node start + bundle load, for reference) | ${through} | ${ms(startup.median)} | ${ms(startup.p95)} | ${cliRuns} |`);
  }
  line('');
}

async function sizes() {
  line('### Package size added by semantic recall');
  line('');
  const table = loadWordTable();
  const f = p => (fs.existsSync(p) ? fs.statSync(p).size : 0);
  const dirSize = full => {
    if (!fs.existsSync(full)) return 0;
    let s = 0;
    for (const e of fs.readdirSync(full, { withFileTypes: true, recursive: true })) if (e.isFile()) s += fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size;
    return s;
  };
  const ext = packaged?.extension;
  const ortDir = ext && path.join(ext, 'dist/node_modules/onnxruntime-node');
  line('| file | size (unpacked) | ships in |');
  line('|---|---|---|');
  line(`| media/offline-embedder.bin (${table.size} words × 100 int8 + scales, ranks, weights) | ${kb(f(path.join(root, 'media/offline-embedder.bin')))} | every VSIX |`);
  if (ext) {
    line(`| dist/embed-worker.js (bundled @huggingface/transformers, production build) | ${kb(f(path.join(ext, 'dist/embed-worker.js')))} | every VSIX |`);
    line(`| dist/node_modules/onnxruntime-node (package.json, dist/*.js, bin/napi-v6/${process.platform}/${process.arch}: addon + libonnxruntime) | ${mb(dirSize(ortDir))} | the ${process.platform}-${process.arch} VSIX (each target gets its own) |`);
    line(`| dist/node_modules/onnxruntime-common (package.json, dist/cjs/*.js) | ${kb(dirSize(path.join(ext, 'dist/node_modules/onnxruntime-common')))} | every VSIX |`);
  }
  line(`| node_modules/onnxruntime-node (all platforms, as npm installs it) | ${mb(dirSize(path.join(root, 'node_modules/onnxruntime-node')))} | never whole: one platform's bin/ per VSIX |`);
  line('| Xenova/all-MiniLM-L6-v2 q8 (model_quantized.onnx + tokenizer) | ≈ 23 MB (published size, not downloaded here) | not shipped by default: downloaded once into global storage when the user allows it, or bundled into models/ with `npm run package -- --with-model DIR` |');
  line('');
}

const ALL_SECTIONS = [packaging, extensionHost, recallQuality, embeddingSpeed, rss, vectorSearch, vectorKernel, recallScaling, engine, sizes];
// --only a,b: just these sections, written between their own markers (bench:only:<names>)
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const SECTIONS = only ? ALL_SECTIONS.filter(f => only.includes(f.name)) : ALL_SECTIONS;

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const measured = () =>
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${os.cpus().length} cores, ${mb(os.totalmem())} RAM, ${os.type()} ${os.release()} ${os.arch()}, Node ${process.version}${quick ? ' (--quick)' : ''}, load average ${os.loadavg()[0].toFixed(1)} at the start.`;

// A section whose own markers (<!-- bench:only:<name>:start ... -->) are in BENCHMARKS.md is written
// there, with its own "Measured" line, whether run alone or in a full run: text kept beside it (a
// "before" table) survives the next run. The other sections go to the main block (or, with --only,
// to the block of that list of names).
const md = path.join(root, 'BENCHMARKS.md');
let doc = fs.existsSync(md) ? fs.readFileSync(md, 'utf8') : '# Benchmarks\n';
const ownStart = name => `<!-- bench:only:${name}:start (written by npm run bench -- --only ${name}) -->`;
const ownEnd = name => `<!-- bench:only:${name}:end -->`;
const hasOwn = name => doc.includes(ownStart(name)) && doc.includes(ownEnd(name));
const rest = [];
for (const section of SECTIONS) {
  out = [];
  if (hasOwn(section.name)) {
    line(measured());
    line('');
  }
  await section();
  if (hasOwn(section.name)) doc = between(doc, ownStart(section.name), ownEnd(section.name), out);
  else rest.push(...out);
}
if (rest.length) {
  const START = only ? `<!-- bench:only:${only.join(',')}:start (written by npm run bench -- --only ${only.join(',')}) -->` : '<!-- bench:start (written by npm run bench) -->';
  const END = only ? `<!-- bench:only:${only.join(',')}:end -->` : '<!-- bench:end -->';
  if (!doc.includes(START)) doc += `\n${START}\n${END}\n`;
  doc = between(doc, START, END, [measured(), '', ...rest]);
}
fs.writeFileSync(md, doc);
console.log(`\nwritten to ${md}`);

function between(text, start, end, lines) {
  return text.slice(0, text.indexOf(start) + start.length) + `\n${lines.join('\n')}\n` + text.slice(text.indexOf(end));
}
