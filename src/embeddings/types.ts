// The one interface every embedder implements, whatever runs underneath (hashing + word vectors on
// the main thread, or a transformer in a worker thread).

/** Turns texts into unit-length vectors of a fixed dimension. */
export interface Embedder {
  /**
   * Names the vector space: two vectors are comparable only if they come from embedders with the
   * same id (the model, its dimension and every option that changes the numbers are part of it).
   */
  readonly id: string;
  readonly dim: number;
  /** One L2-normalized vector of length `dim` per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Frees what the embedder holds (a worker, a model). It may be used again afterwards. */
  dispose?(): Promise<void>;
}

/** Progress of a long job (a model download, re-embedding a memory). */
export interface Progress {
  /** What is being done, for a person ("Downloading model_quantized.onnx"). */
  message: string;
  done: number;
  total: number;
}

export type ProgressCallback = (p: Progress) => void;

/** Scales `v` in place to unit length (a zero vector stays zero) and returns it. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

/** The cosine of unit vectors, defined once in core (team recall in the store uses it too). */
export { dot } from '../core/recall';
