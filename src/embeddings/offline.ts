// The offline embedder: shipped with the extension, no model, no download, microseconds per text.
// Two parts, concatenated and normalized, so that cosine = share·cos(lexical) + (1−share)·cos(words):
//  - lexical: signed feature hashing of words, word pairs and character n-grams of the error words
//    (catches the same identifiers, codes and inflections: install/installed, numpy);
//  - word vectors: SIF-weighted average of GloVe vectors from the shipped table, common component
//    removed (catches synonyms: missing/not found/cannot find, unable/cannot, folder/directory).
// Which part earns its place is measured on the recall-quality set (BENCHMARKS.md).

import { errorWords } from './errorText';
import { normalizeInPlace, type Embedder } from './types';
import { GLOVE_VOCABULARY, loadWordTable, type WordTable } from './wordTable';

export interface OfflineEmbedderOptions {
  /** Dimension of the hashed lexical part; 0 leaves it out. Default 256. */
  lexicalDim?: number;
  /** Character 3- and 4-grams in the lexical part. Default true. */
  charNgrams?: boolean;
  /** Include the GloVe word-vector part. Default true. */
  wordVectors?: boolean;
  /** Share of the similarity from the lexical part when both parts are on. Default 0.5. */
  lexicalShare?: number;
  /** Expand opaque codes (EADDRINUSE…) into their words. Default true. */
  glossary?: boolean;
  /** Remove the corpus' common component from word-vector averages (SIF). Default true. */
  removeCommonComponent?: boolean;
  /** How words are weighed: 'idf' from the GloVe frequency rank (default), 'sif' (Arora et al.), 'none'. */
  weighting?: Weighting;
  /** Lower the weight of words found in most error lines (error, failed, npm…). Default true. */
  domainWeights?: boolean;
  /** Exponent on the 'idf' weight: above 1 favours rare words more. Default 1. */
  idfPower?: number;
  /** The word table; default the one shipped in media/. */
  table?: WordTable;
}

export const DEFAULT_LEXICAL_DIM = 256;

export type Weighting = 'idf' | 'sif' | 'none';

/**
 * Weight of a word from its GloVe frequency rank and its share of error lines in the build corpus.
 * 'idf': log(1+rank)/log(1+V) (≈ an inverse document frequency under Zipf's law); 'sif':
 * a/(a+p(w)) with p from Zipf and a = 1e-3. Words in more than 2% of error lines are lowered, down
 * to a quarter for a word in every line. A word not in the table weighs 1 (it is rare in English).
 */
export function wordWeight(rank: number, domainShare: number, weighting: Weighting = 'idf', domain = true, idfPower = 1): number {
  let w = 1;
  if (weighting === 'idf') w = Math.pow(Math.log(1 + rank) / Math.log(1 + GLOVE_VOCABULARY), idfPower);
  else if (weighting === 'sif') w = 1e-3 / (1e-3 + 1 / ((rank + 1) * (Math.log(GLOVE_VOCABULARY) + 0.5772)));
  if (domain && domainShare > 0.02) w *= Math.max(0.25, 1 - Math.log(domainShare / 0.02) / Math.log(1 / 0.02));
  return w;
}

export class OfflineEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly lexicalDim: number;
  private readonly wordDim: number;
  private readonly lexScale: number;
  private readonly wordScale: number;
  private readonly table: WordTable | undefined;
  /** The table used for weights (also when the word-vector part is off). */
  private readonly weightTable: WordTable | undefined;
  private readonly opts: Required<Omit<OfflineEmbedderOptions, 'table' | 'lexicalDim' | 'lexicalShare' | 'wordVectors'>>;
  private readonly weights: Float32Array | undefined;

  constructor(options: OfflineEmbedderOptions = {}) {
    this.lexicalDim = options.lexicalDim ?? DEFAULT_LEXICAL_DIM;
    const useWords = options.wordVectors ?? true;
    this.table = useWords ? (options.table ?? loadWordTable()) : undefined;
    this.wordDim = this.table?.dim ?? 0;
    if (this.lexicalDim <= 0 && !this.table) throw new Error('The offline embedder needs at least one part.');
    const share = this.lexicalDim > 0 && this.table ? (options.lexicalShare ?? 0.5) : this.lexicalDim > 0 ? 1 : 0;
    this.lexScale = Math.sqrt(share);
    this.wordScale = Math.sqrt(1 - share);
    this.opts = {
      charNgrams: options.charNgrams ?? true,
      glossary: options.glossary ?? true,
      removeCommonComponent: options.removeCommonComponent ?? true,
      weighting: options.weighting ?? 'idf',
      domainWeights: options.domainWeights ?? true,
      idfPower: options.idfPower ?? 1,
    };
    const t = this.table ?? (this.lexicalDim > 0 && this.opts.weighting !== 'none' ? loadWordTable() : undefined);
    this.weightTable = t;
    this.weights = t ? Float32Array.from({ length: t.size }, (_, i) => wordWeight(t.rank(i), t.domainShare(i), this.opts.weighting, this.opts.domainWeights, this.opts.idfPower)) : undefined;
    this.dim = this.lexicalDim + this.wordDim;
    const lex = this.lexicalDim > 0 ? `h${this.lexicalDim}${this.opts.charNgrams ? 'c' : ''}` : '';
    const words = this.table ? `w${this.table.hash}${this.opts.removeCommonComponent ? 'p' : ''}` : '';
    const weighting = this.weights ? `${this.opts.weighting}${this.opts.idfPower !== 1 ? this.opts.idfPower : ''}${this.opts.domainWeights ? 'd' : ''}@${this.weightTable!.hash}` : 'none';
    this.id = `offline-v1:${[lex, words].filter(Boolean).join('+')}:${this.opts.glossary ? 'g' : ''}:${weighting}:s${share.toFixed(2)}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map(t => this.embedOne(t));
  }

  /** Synchronous form of embed() for one text (the offline embedder never needs to wait). */
  embedOne(text: string): Float32Array {
    const out = new Float32Array(this.dim);
    const words = errorWords(text, { glossary: this.opts.glossary });
    if (!words.length) return out;
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    if (this.lexicalDim > 0) {
      const lex = out.subarray(0, this.lexicalDim);
      this.lexical(words, counts, lex);
      normalizeInPlace(lex);
      for (let i = 0; i < lex.length; i++) lex[i] *= this.lexScale;
    }
    if (this.table) {
      const vec = out.subarray(this.lexicalDim);
      this.wordVectors(counts, vec);
      normalizeInPlace(vec);
      for (let i = 0; i < vec.length; i++) vec[i] *= this.wordScale;
    }
    return normalizeInPlace(out);
  }

  /** How much a word counts: the table's weight (common words little), 1 for words it does not know (rare ones). */
  private weightOf(word: string): number {
    if (!this.weights) return 1;
    const i = this.weightTable!.lookup(word);
    return i < 0 ? 1 : this.weights[i];
  }

  private lexical(words: string[], counts: Map<string, number>, out: Float32Array): void {
    const dim = out.length;
    const add = (feature: string, w: number) => {
      const h = fnv1a(feature);
      out[h % dim] += (mix(h) & 1 ? 1 : -1) * w;
    };
    for (const [word, c] of counts) {
      const w = this.weightOf(word) * (1 + Math.log(c));
      add(`w ${word}`, w);
      if (this.opts.charNgrams && word.length >= 4) {
        const padded = `<${word}>`;
        const grams: string[] = [];
        for (let n = 3; n <= 4; n++) for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
        const gw = (0.6 * w) / Math.sqrt(grams.length);
        for (const g of grams) add(`c ${g}`, gw);
      }
    }
    for (let i = 0; i + 1 < words.length; i++) {
      add(`b ${words[i]} ${words[i + 1]}`, 0.5 * Math.min(this.weightOf(words[i]), this.weightOf(words[i + 1])));
    }
  }

  private wordVectors(counts: Map<string, number>, out: Float32Array): void {
    const table = this.table!;
    let any = false;
    for (const [word, c] of counts) {
      const i = table.lookup(word);
      if (i < 0) continue;
      any = true;
      table.addTo(out, i, (this.weights ? this.weights[i] : 1) * c);
    }
    if (!any || !this.opts.removeCommonComponent) return;
    const pc = table.data.commonComponent;
    let p = 0;
    for (let d = 0; d < out.length; d++) p += out[d] * pc[d];
    for (let d = 0; d < out.length; d++) out[d] -= p * pc[d];
  }
}

/** 32-bit FNV-1a over UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finalizer: an independent-looking bit for the sign. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
