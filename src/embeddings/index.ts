// Semantic recall for the CLI and the extension: factories that put the embedders, the vector cache
// and the lexical scorer together behind the core's `Scorer` interface.
//
//   CLI, MCP:   openWorkspaceMemory({ workspace, scorer: memoryDir => createOfflineScorer({ memoryDir, claim: false }) })
//   extension:  const s = createSemanticScorer({ memoryDir, extensionModelsDir, modelDir, globalStorage, allowDownload })
//               s.mode === 'offline' && s.canDownload → offer s.download({ onProgress }) (never at activation)

import { ConceptBoostScorer, withConcepts } from '../core/text/errorConcepts';
import { createLexicalScorer, lexicalScorer, type Scorer } from '../core/recall';
import { OfflineEmbedder } from './offline';
import { EmbeddingScorer, HybridScorer, StoredVectorScorer } from './scorer';
import { downloadModel, onnxRuntimeAvailable, resolveModel, TransformerEmbedder, type ModelDtype, type ModelLocation } from './transformer';
import type { Embedder, ProgressCallback } from './types';

export { OfflineEmbedder } from './offline';
export { EmbeddingScorer, HybridScorer } from './scorer';
export { downloadModel, isModelFolder, modelDir, resolveModel, TransformerEmbedder, type ModelLocation } from './transformer';

/**
 * Share of the lexical TF-IDF score in recall's fused score (the rest is embedding similarity).
 * 0.5 was fixed on the development queries of test/fixtures/recall-set.json; see BENCHMARKS.md.
 */
export const HYBRID_LEXICAL_WEIGHT = 0.5;

/**
 * Share of the error-concept overlap (core/text/errorConcepts.ts) in recall's final score. 0.15 was chosen
 * on the dev queries of bench/recall-families.json (0.1 and 0.15 equal there, 0.2+ costs the older
 * recall set a query); see BENCHMARKS.md.
 */
export const CONCEPT_WEIGHT = 0.15;

export interface OfflineScorerOptions {
  /** Folder of memory.json, to cache vectors in vectors.bin; none: in memory only. */
  memoryDir?: string;
  /** May replace another embedder's vector file (see EmbeddingScorerOptions.claim). Default false. */
  claim?: boolean;
  onWarning?: (message: string) => void;
}

/**
 * Recall with no model: TF-IDF fused with the offline embedder (hashed n-grams + GloVe words).
 * If the offline embedder's word table cannot be loaded (a broken install), TF-IDF alone, with a warning.
 */
export function createOfflineScorer(options: OfflineScorerOptions = {}): Scorer {
  let embedder: OfflineEmbedder;
  try {
    embedder = new OfflineEmbedder();
  } catch (err) {
    options.onWarning?.(`semantic recall is off: ${(err as Error).message}`);
    return lexicalScorer;
  }
  const semantic = new EmbeddingScorer({ embedder, memoryDir: options.memoryDir, claim: options.claim ?? false, onWarning: options.onWarning });
  return withConcepts(new HybridScorer(lexicalScorer, semantic, HYBRID_LEXICAL_WEIGHT), CONCEPT_WEIGHT);
}

/**
 * Team recall's scorer: local recall's fusion (TF-IDF · HYBRID_LEXICAL_WEIGHT + cosine of the
 * vectors, then the error concepts · CONCEPT_WEIGHT) over the candidates the team database returned,
 * with the vectors stored there instead of a local cache. Without an embedder, words and concepts only.
 * Its own TF-IDF index (the shared one stays the local memory's).
 */
export function createTeamRecallScorer(embedder: Embedder | undefined, vectors: ReadonlyMap<string, Float32Array>): Scorer {
  const lexical = createLexicalScorer();
  return withConcepts(embedder ? new HybridScorer(lexical, new StoredVectorScorer(embedder, vectors), HYBRID_LEXICAL_WEIGHT) : lexical, CONCEPT_WEIGHT);
}

/** The embedder whose vectors go to the team database: the offline one, which every machine (CI too) has. */
export function createTeamEmbedder(): Embedder {
  return new OfflineEmbedder();
}

/** What the front doors give team memory for vectors: the offline embedder (made on first push or recall) and recall's fused scorer. */
export function teamRecallParts(): { embedder: () => Embedder; recallScorer: typeof createTeamRecallScorer } {
  return { embedder: createTeamEmbedder, recallScorer: createTeamRecallScorer };
}

export interface SemanticScorerOptions {
  /** Folder of memory.json (vector cache); none: in memory only. */
  memoryDir?: string;
  /** <extensionPath>/models: a model shipped inside the extension. */
  extensionModelsDir?: string;
  /** A model folder named in a setting. */
  modelDir?: string;
  /** The extension's global storage folder (downloaded models live in <globalStorage>/models). */
  globalStorage?: string;
  /** Whether download() may fetch the model (a setting, on by default). */
  allowDownload: boolean;
  modelId?: string;
  dtype?: ModelDtype;
  /** Unload the model after this long unused. Default 5 minutes. */
  idleMs?: number;
  /** May replace another embedder's vector file. Default true (the extension's embedder wins). */
  claim?: boolean;
  /** Progress of embedding the memory in the background (after a switch of embedder). */
  onProgress?: ProgressCallback;
  onWarning?: (message: string) => void;
  /** For tests: the worker script. */
  workerPath?: string;
}

/**
 * The extension's recall scorer: the transformer when a model folder is found (fused with TF-IDF,
 * the offline embedder answering while the memory is first embedded), else the offline scorer.
 * Creating it only checks which model folders exist; the word table is read on the first recall,
 * and the model loads in a worker thread on the first recall that needs it.
 */
export class SemanticScorer implements Scorer {
  private current: Scorer | undefined;
  private transformer: TransformerEmbedder | undefined;
  private _model: ModelLocation | undefined;
  /** onnxruntime-node can be loaded by the worker (false in a package built without it). */
  readonly runtimeAvailable: boolean;

  constructor(private readonly options: SemanticScorerOptions) {
    this.runtimeAvailable = onnxRuntimeAvailable(options.workerPath);
    if (!this.runtimeAvailable) {
      options.onWarning?.('onnxruntime-node is not installed beside the extension: recall uses the offline embedder only.');
      return;
    }
    this._model = resolveModel({
      modelId: options.modelId,
      dtype: options.dtype,
      extensionModelsDir: options.extensionModelsDir,
      settingDir: options.modelDir,
      globalStorage: options.globalStorage,
    });
  }

  get id(): string {
    return this.scorer().id;
  }

  get mode(): 'transformer' | 'offline' {
    return this._model ? 'transformer' : 'offline';
  }

  /** Where the model in use is, when mode is 'transformer'. */
  get model(): ModelLocation | undefined {
    return this._model;
  }

  /** No model found, downloads allowed and a place to put it: the host may offer download(). */
  get canDownload(): boolean {
    return !this._model && this.runtimeAvailable && this.options.allowDownload && !!this.options.globalStorage;
  }

  /** True while the transformer's worker (and model) is in memory. */
  get modelLoaded(): boolean {
    return this.transformer?.loaded ?? false;
  }

  /**
   * Downloads the model into global storage (once; progress through onProgress) and switches
   * recall to it. Throws when downloads are not allowed or there is no global storage.
   */
  async download(opts: { onProgress?: ProgressCallback; signal?: AbortSignal; remoteHost?: string; fetch?: typeof fetch } = {}): Promise<ModelLocation> {
    if (this._model) return this._model;
    if (!this.runtimeAvailable) throw new Error('onnxruntime-node is not installed beside the extension: a model could not run.');
    if (!this.options.allowDownload) throw new Error('Model downloads are turned off in the settings.');
    if (!this.options.globalStorage) throw new Error('There is no global storage folder to download the model into.');
    const location = await downloadModel({ globalStorage: this.options.globalStorage, modelId: this.options.modelId, dtype: this.options.dtype, ...opts });
    this._model = location;
    this.current = undefined; // rebuilt with the transformer on the next recall
    return location;
  }

  score(query: string, documents: readonly string[]): Promise<number[]> | number[] {
    return this.scorer().score(query, documents);
  }

  async dispose(): Promise<void> {
    await this.transformer?.dispose();
  }

  private scorer(): Scorer {
    if (this.current) return this.current;
    const { options } = this;
    const offline = createOfflineScorer({ memoryDir: options.memoryDir, claim: options.claim ?? true, onWarning: options.onWarning });
    this.current = offline;
    if (!this._model) return offline;
    try {
      const embedder = new TransformerEmbedder({ location: this._model, idleMs: options.idleMs, workerPath: options.workerPath });
      // answers while the transformer embeds the memory: offline vectors, in memory only (no file churn)
      const fused = offline instanceof ConceptBoostScorer ? offline.base : offline;
      const interim = fused instanceof HybridScorer && fused.b instanceof EmbeddingScorer ? new EmbeddingScorer({ embedder: fused.b.embedder, onWarning: options.onWarning }) : lexicalScorer;
      const semantic = new EmbeddingScorer({
        embedder,
        memoryDir: options.memoryDir,
        claim: options.claim ?? true,
        // a first recall over a large memory must not wait for the model: embed in the background
        inlineLimit: 32,
        fallback: interim,
        onProgress: options.onProgress,
        onWarning: options.onWarning,
      });
      this.transformer = embedder;
      this.current = withConcepts(new HybridScorer(lexicalScorer, semantic, HYBRID_LEXICAL_WEIGHT), CONCEPT_WEIGHT);
    } catch (err) {
      options.onWarning?.(`the model in ${this._model.root} cannot be used (${(err as Error).message}); recall stays offline.`);
      this._model = undefined;
    }
    return this.current;
  }
}

export function createSemanticScorer(options: SemanticScorerOptions): SemanticScorer {
  return new SemanticScorer(options);
}
