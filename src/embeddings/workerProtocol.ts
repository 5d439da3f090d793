// Messages between TransformerEmbedder (main thread) and the embedding worker (worker.ts).

export interface WorkerData {
  /** env.localModelPath for transformers.js */
  root: string;
  modelId: string;
  dtype: 'q8' | 'fp32';
  threads: number;
}

export type WorkerRequest = { type: 'load'; id: number } | { type: 'embed'; id: number; texts: string[] };

export type WorkerReply =
  | { type: 'loaded'; id: number; ms: number }
  /** data: n × dim float32 values, row after row (transferred, not copied); dims: [n, dim] */
  | { type: 'vectors'; id: number; data: ArrayBuffer; dims: [number, number] }
  | { type: 'error'; id: number; message: string };
