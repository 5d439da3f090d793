// The transformer embedder: a sentence-embedding model (default Xenova/all-MiniLM-L6-v2, int8
// quantized, 384-d) run by @huggingface/transformers on onnxruntime-node in a worker thread, so
// the extension host's main thread never runs inference. The worker starts on the first embed()
// (never at activation) and is terminated after an idle period; the next embed() starts it again.
//
// Models are only ever loaded from local folders (env.allowRemoteModels = false in the worker).
// resolveModel() looks in order: the extension's own models/ folder, a folder named in a setting,
// the extension's global storage. downloadModel() fetches one into global storage, with progress,
// when the user allows it; nothing here downloads on its own.

import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { Embedder, ProgressCallback } from './types';
import type { WorkerReply, WorkerRequest } from './workerProtocol';

export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
export type ModelDtype = 'q8' | 'fp32';
/** What a model folder must hold (besides the ONNX weights of the chosen dtype). */
export const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
const IDLE_MS = 5 * 60 * 1000;

export function onnxFileFor(dtype: ModelDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

/** A model on disk: transformers.js loads `<root>/<modelId>/…` with env.localModelPath = root. */
export interface ModelLocation {
  root: string;
  modelId: string;
  dtype: ModelDtype;
  source: 'extension' | 'setting' | 'globalStorage';
}

export function modelDir(loc: Pick<ModelLocation, 'root' | 'modelId'>): string {
  return path.join(loc.root, ...loc.modelId.split('/'));
}

/** True when `dir` holds a complete model for `dtype`. */
export function isModelFolder(dir: string, dtype: ModelDtype = 'q8'): boolean {
  return [...MODEL_FILES, onnxFileFor(dtype)].every(f => existsSync(path.join(dir, ...f.split('/'))));
}

export interface ResolveModelOptions {
  modelId?: string;
  dtype?: ModelDtype;
  /** The extension's models folder (<extensionPath>/models), holding <modelId>/… */
  extensionModelsDir?: string;
  /** A folder named in a setting: either a model folder itself or a root holding <modelId>/… */
  settingDir?: string;
  /** The extension's global storage folder; models live in <globalStorage>/models/<modelId>/… */
  globalStorage?: string;
}

/** The first complete model folder in the documented order, or undefined. Only looks at the disk. */
export function resolveModel(options: ResolveModelOptions): ModelLocation | undefined {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const dtype = options.dtype ?? 'q8';
  const candidates: ModelLocation[] = [];
  if (options.extensionModelsDir) candidates.push({ root: options.extensionModelsDir, modelId, dtype, source: 'extension' });
  if (options.settingDir) {
    const dir = path.resolve(options.settingDir);
    // a model folder named directly: its parent is the root and its name the id
    candidates.push({ root: path.dirname(dir), modelId: path.basename(dir), dtype, source: 'setting' });
    candidates.push({ root: dir, modelId, dtype, source: 'setting' });
  }
  if (options.globalStorage) candidates.push({ root: globalModelsRoot(options.globalStorage), modelId, dtype, source: 'globalStorage' });
  return candidates.find(c => isModelFolder(modelDir(c), dtype));
}

export function globalModelsRoot(globalStorage: string): string {
  return path.join(globalStorage, 'models');
}

export interface DownloadOptions {
  globalStorage: string;
  modelId?: string;
  dtype?: ModelDtype;
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
  /** Default https://huggingface.co (tests point it at a local server). */
  remoteHost?: string;
  fetch?: typeof fetch;
}

/**
 * Downloads the model's files once into <globalStorage>/models/<modelId>/ and returns its location.
 * Files go to a temporary folder first and the folder is renamed into place when all are complete,
 * so an interrupted download never looks like a model. Already present: returns at once.
 */
export async function downloadModel(options: DownloadOptions): Promise<ModelLocation> {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const dtype = options.dtype ?? 'q8';
  const root = globalModelsRoot(options.globalStorage);
  const location: ModelLocation = { root, modelId, dtype, source: 'globalStorage' };
  const target = modelDir(location);
  if (isModelFolder(target, dtype)) return location;
  const host = (options.remoteHost ?? 'https://huggingface.co').replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const staging = path.join(root, `.download-${process.pid}-${randomBytes(4).toString('hex')}`);
  const files = [...MODEL_FILES, onnxFileFor(dtype)];
  try {
    for (const [i, file] of files.entries()) {
      const url = `${host}/${modelId}/resolve/main/${file}`;
      const res = await doFetch(url, { signal: options.signal, redirect: 'follow' });
      if (!res.ok || !res.body) throw new Error(`Downloading ${url} failed: HTTP ${res.status} ${res.statusText}`);
      const total = Number(res.headers.get('content-length')) || 0;
      const dest = path.join(staging, ...file.split('/'));
      await mkdir(path.dirname(dest), { recursive: true });
      let done = 0;
      const label = `Downloading ${modelId} (${i + 1}/${files.length}): ${file}`;
      const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
      body.on('data', (chunk: Buffer) => {
        done += chunk.length;
        options.onProgress?.({ message: label, done, total: total || done });
      });
      await streamPipeline(body, createWriteStream(dest), { signal: options.signal });
    }
    await mkdir(path.dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true }); // an incomplete folder from an older version
    await rename(staging, target);
    return location;
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface TransformerEmbedderOptions {
  location: ModelLocation;
  /** Terminate the worker after this long without requests. Default 5 minutes. */
  idleMs?: number;
  /** onnxruntime intra-op threads in the worker. Default 1 (leave the other cores to the editor). */
  threads?: number;
  /** Characters of a text given to the model; longer texts are cut (the tokenizer truncates too). Default 2000. */
  maxChars?: number;
  /** The worker script; default dist/embed-worker.js beside the bundle (worker.ts under tsx). */
  workerPath?: string;
}

interface Pending {
  resolve: (v: WorkerReply) => void;
  reject: (e: Error) => void;
}

/** An Embedder whose model runs in a worker thread, started lazily and stopped when idle. */
export class TransformerEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  readonly location: ModelLocation;
  private readonly idleMs: number;
  private readonly threads: number;
  private readonly maxChars: number;
  private readonly workerPath: string;
  private worker: Worker | undefined;
  private ready: Promise<number> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Times the worker was started (for tests and the log). */
  starts = 0;

  constructor(options: TransformerEmbedderOptions) {
    this.location = options.location;
    const dir = modelDir(options.location);
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as { hidden_size?: number; dim?: number };
    this.dim = config.hidden_size ?? config.dim ?? 0;
    if (!this.dim) throw new Error(`${dir}/config.json does not give the model's hidden_size.`);
    const onnx = statSync(path.join(dir, ...onnxFileFor(options.location.dtype).split('/')));
    // the model, its weights and the pooling are what make two vectors comparable
    this.id = `transformer-v1:${options.location.modelId}:${options.location.dtype}:${onnx.size}:mean-norm`;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.threads = options.threads ?? 1;
    this.maxChars = options.maxChars ?? 2000;
    this.workerPath = options.workerPath ?? defaultWorkerPath();
  }

  /** True while a worker (and its model) is in memory. */
  get loaded(): boolean {
    return this.worker !== undefined;
  }

  /** Starts the worker and loads the model (if not yet); resolves to the load time in ms. */
  load(): Promise<number> {
    this.ensureWorker();
    return this.ready!;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (!texts.length) return [];
    await this.load();
    const reply = await this.request({ type: 'embed', id: 0, texts: texts.map(t => t.slice(0, this.maxChars)) });
    if (reply.type !== 'vectors') throw new Error('unexpected reply from the embedding worker');
    const { data, dims } = reply;
    const [n, dim] = dims;
    if (n !== texts.length || dim !== this.dim) throw new Error(`the model returned ${n}×${dim}, expected ${texts.length}×${this.dim}`);
    const all = new Float32Array(data);
    return Array.from({ length: n }, (_, i) => all.slice(i * dim, (i + 1) * dim));
  }

  async dispose(): Promise<void> {
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    this.failAll(new Error('the embedding worker was stopped'));
    if (w) await w.terminate();
  }

  // -------------------------------------------------------------------------------------------

  private ensureWorker(): void {
    if (this.worker) return;
    const { root, modelId, dtype } = this.location;
    const workerData = { root, modelId, dtype, threads: this.threads };
    // onnxruntime's native library has a telemetry client; it reads the PROCESS environment (a
    // worker's process.env never reaches it), so it must be switched off here, before it loads.
    // Nothing leaves the machine.
    process.env.ORT_DISABLE_TELEMETRY = '1';
    // From source (tests, tsx) the worker is TypeScript: Node 20 does not apply --import loaders to
    // a worker's entry file, so a one-line CommonJS bootstrap registers tsx and requires it.
    const worker = this.workerPath.endsWith('.ts')
      ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(this.workerPath)});`, { eval: true, workerData })
      : new Worker(this.workerPath, { workerData });
    this.worker = worker;
    this.starts++;
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.type === 'error') p.reject(new Error(reply.message));
      else p.resolve(reply);
      this.afterRequest();
    });
    const gone = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.ready = undefined;
      this.failAll(err);
    };
    worker.on('error', err => gone(err));
    worker.on('exit', code => gone(new Error(`the embedding worker stopped (exit code ${code})`)));
    this.ready = this.request({ type: 'load', id: 0 }).then(r => (r.type === 'loaded' ? r.ms : 0));
    // a failed load must not leave a half-started worker behind
    this.ready.catch(() => undefined);
  }

  private request(req: WorkerRequest): Promise<WorkerReply> {
    this.ensureWorker();
    const worker = this.worker!;
    clearTimeout(this.idleTimer);
    worker.ref(); // keep the process alive while a request is under way
    const id = this.nextId++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id });
    });
  }

  private afterRequest(): void {
    if (this.pending.size || !this.worker) return;
    this.worker.unref(); // an idle worker never keeps a CLI process alive
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.dispose(), this.idleMs);
    this.idleTimer.unref();
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** dist/embed-worker.js next to the running bundle; src/embeddings/worker.ts when running from source. */
export function defaultWorkerPath(): string {
  const here = path.dirname(__filename); // __dirname is not reliable when tsx loads this file from ESM
  if (__filename.endsWith('.ts')) return path.join(here, 'worker.ts');
  return path.join(here, 'embed-worker.js');
}

/**
 * Whether the worker would find onnxruntime-node (a native addon that cannot be bundled): the
 * package must ship it beside dist/ (node_modules/onnxruntime-node with the platform's bin/).
 */
export function onnxRuntimeAvailable(workerPath: string = defaultWorkerPath()): boolean {
  try {
    createRequire(workerPath).resolve('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
}

