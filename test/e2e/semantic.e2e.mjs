// Semantic recall in the real extension host with a model named in the settings
// (failureMemory.embeddings.modelPath): the first recall builds the scorer, which picks that
// model; the worker thread loads it on onnxruntime-node and embeds the memory; the answer comes
// back through the language-model tool. (install.e2e.mjs covers a model shipped inside the VSIX.)
//
// The model is the tiny random-weight BERT of scripts/make-tiny-model.ts: it proves the path,
// not the quality (TF-IDF carries the ranking here).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';
import { makeTinyModel, readExtensionLog } from './install.e2e.mjs';

export const timeout = 150_000;

const CLI = path.join(REPO_ROOT, 'dist/cli.js');
const FAILURES = [
  ['pip install -r requirements.txt', "Traceback (most recent call last):\n  File \"app.py\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy'\n"],
  ['npm start', 'Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1817:16)\n'],
  ['cargo build', 'error[E0425]: cannot find value `cfg` in this scope\n  --> src/main.rs:4:5\n'],
];

let modelDir;

export async function prepare() {
  modelDir = makeTinyModel();
  return { settings: { 'failureMemory.embeddings.modelPath': modelDir } };
}

export async function run(h) {
  await h.waitForActivation();
  for (const [command, output] of FAILURES) {
    const r = spawnSync(process.execPath, [CLI, 'record', '--command', command, '--exit-code', '1', '--workspace', h.workspace], { input: output, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }

  const first = await h.invokeTool('failure_memory_recall', { query: "ModuleNotFoundError: No module named 'numpy'" });
  assert.equal(first.error, undefined, first.error);
  assert.equal(first.json.hits[0]?.key, '.::pip install');

  const log = () => readExtensionLog(h);
  const ready = await h.waitFor(() => log().split('\n').find(l => l.includes('[recall] semantic recall ready')), 10000, 'the "semantic recall ready" log line');
  assert.ok(ready.includes(`transformer (${path.dirname(modelDir)})`), ready);

  // the worker embedded every approach with the model named in the settings
  const index = await h.waitFor(() => {
    const f = path.join(h.workspace, '.vscode/failure-memory/vectors.json');
    const j = fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
    return j?.embedder?.startsWith('transformer-v1:') && j.ids.filter(Boolean).length >= FAILURES.length ? j : undefined;
  }, 20000, 'vectors.json written by the transformer embedder');
  assert.match(index.embedder, /^transformer-v1:tiny-bert:q8:\d+:mean-norm$/);
  assert.equal(index.dim, 32);

  // a second recall reuses the loaded worker and the stored vectors
  const second = await h.invokeTool('failure_memory_recall', { query: 'address already in use :::3000' });
  assert.equal(second.error, undefined, second.error);
  assert.equal(second.json.hits[0]?.key, '.::npm start');
  assert.doesNotMatch(log(), /semantic recall failed|onnxruntime-node is not installed|cannot be used/, 'no fallback to the offline embedder');
  assert.equal(log().split('\n').filter(l => l.includes('[recall] semantic recall ready')).length, 1, 'the scorer is built once');
}
