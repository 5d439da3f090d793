// The embedding worker (bundled as dist/embed-worker.js): loads a sentence-embedding model with
// @huggingface/transformers on onnxruntime-node from a local folder only, and answers embed
// requests with mean-pooled, L2-normalized vectors. One request at a time, in order.

import { parentPort, workerData } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers' with { 'resolution-mode': 'import' };
import type { WorkerData, WorkerReply, WorkerRequest } from './workerProtocol';

const data = workerData as WorkerData;
let extractor: Promise<FeatureExtractionPipeline> | undefined;

async function load(): Promise<FeatureExtractionPipeline> {
  const t = await import('@huggingface/transformers');
  // local files only, whatever the defaults: a model is downloaded by downloadModel(), never here
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.localModelPath = data.root;
  t.env.useFSCache = false;
  t.env.useBrowserCache = false;
  return t.pipeline('feature-extraction', data.modelId, {
    dtype: data.dtype,
    local_files_only: true,
    session_options: { intraOpNumThreads: data.threads, interOpNumThreads: 1 },
  });
}

function reply(msg: WorkerReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(msg, transfer);
}

let queue: Promise<void> = Promise.resolve();

parentPort!.on('message', (req: WorkerRequest) => {
  queue = queue.then(() => handle(req));
});

async function handle(req: WorkerRequest): Promise<void> {
  try {
    if (req.type === 'load') {
      const started = performance.now();
      extractor ??= load();
      await extractor;
      reply({ type: 'loaded', id: req.id, ms: performance.now() - started });
      return;
    }
    extractor ??= load();
    const pipe = await extractor;
    const out = await pipe(req.texts, { pooling: 'mean', normalize: true });
    const [n, dim] = out.dims as [number, number];
    const values = Float32Array.from(out.data as Float32Array); // a copy we own, to transfer
    out.dispose?.();
    reply({ type: 'vectors', id: req.id, data: values.buffer, dims: [n, dim] }, [values.buffer]);
  } catch (err) {
    if (req.type === 'load') extractor = undefined; // let a later request try again
    reply({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
}
