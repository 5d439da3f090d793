// Writes a tiny random-weight BERT-like model in the layout transformers.js loads from a local
// folder, for tests and benchmarks that must run offline (no model hub here or in CI):
//
//   <out>/<modelId>/config.json, tokenizer.json, tokenizer_config.json,
//   <out>/<modelId>/onnx/model.onnx and onnx/model_quantized.onnx (the same float model)
//
// The ONNX protobuf is written by hand (no python3-onnx, no protobuf library): inputs input_ids,
// attention_mask, token_type_ids (int64 [batch, sequence]) → last_hidden_state (float
// [batch, sequence, hidden]) through word + position + token-type embeddings, a layer norm, one
// masked self-attention and a dense layer with tanh. The tokenizer is a small WordPiece vocabulary
// (special tokens, characters, ##characters and some error-output words). Weights come from a seeded
// generator: the same options give the same bytes. Nothing here is meant to be semantically good.
//
//   node --import tsx scripts/make-tiny-model.ts <outDir> [modelId]

import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { mulberry32 } from './seededRandom';

export interface TinyModelOptions {
  modelId?: string;
  hidden?: number;
  maxPositions?: number;
  seed?: number;
}

export interface TinyModel {
  /** Folder to use as the local model root (transformers.js env.localModelPath). */
  root: string;
  modelId: string;
  dir: string;
  vocab: string[];
  hidden: number;
  bytes: number;
}

export const TINY_MODEL_ID = 'test/tiny-bert';

const WORDS =
  'error errors failed cannot find module package not found no such file directory permission denied port address already in use connection refused timeout npm node python import install missing command the a of to is'.split(
    ' ',
  );

export function makeTinyModel(outDir: string, options: TinyModelOptions = {}): TinyModel {
  const modelId = options.modelId ?? TINY_MODEL_ID;
  const H = options.hidden ?? 32;
  const P = options.maxPositions ?? 128;
  const rand = mulberry32(options.seed ?? 42);
  nodeCount = 0; // node names are numbered per model: the same options give the same bytes
  const vocab = buildVocab();
  const V = vocab.length;
  const dir = path.join(outDir, ...modelId.split('/'));
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });

  const normal = (n: number, scale: number) => Float32Array.from({ length: n }, () => gaussian(rand) * scale);
  const initializers = [
    floatTensor('word_embeddings', [V, H], normal(V * H, 0.5)),
    floatTensor('position_embeddings', [P, H], normal(P * H, 0.1)),
    floatTensor('token_type_embeddings', [2, H], normal(2 * H, 0.1)),
    floatTensor('ln_gamma', [H], Float32Array.from({ length: H }, () => 1)),
    floatTensor('ln_beta', [H], new Float32Array(H)),
    floatTensor('dense_w', [H, H], normal(H * H, 1 / Math.sqrt(H))),
    floatTensor('dense_b', [H], normal(H, 0.02)),
    floatTensor('attn_scale', [], Float32Array.of(1 / Math.sqrt(H))),
    floatTensor('one', [], Float32Array.of(1)),
    floatTensor('neg_big', [], Float32Array.of(-10000)),
    int64Tensor('zero_i', [], [0n]),
    int64Tensor('one_i', [], [1n]),
    int64Tensor('axis1', [1], [1n]),
  ];
  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], ['we']),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['te']),
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'one_i'], ['seq_len'], [intAttr('axis', 0)]),
    node('Range', ['zero_i', 'seq_len', 'one_i'], ['positions']),
    node('Gather', ['position_embeddings', 'positions'], ['pe']),
    node('Add', ['we', 'te'], ['e1']),
    node('Add', ['e1', 'pe'], ['e2']),
    node('LayerNormalization', ['e2', 'ln_gamma', 'ln_beta'], ['x'], [intAttr('axis', -1), floatAttr('epsilon', 1e-12)]),
    // masked self-attention: softmax(x·xᵀ/√H + (1 − mask)·(−10000))·x
    node('Transpose', ['x'], ['xt'], [intsAttr('perm', [0, 2, 1])]),
    node('MatMul', ['x', 'xt'], ['scores_raw']),
    node('Mul', ['scores_raw', 'attn_scale'], ['scores']),
    node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', 1)]),
    node('Sub', ['one', 'mask_f'], ['inv_mask']),
    node('Mul', ['inv_mask', 'neg_big'], ['mask_bias']),
    node('Unsqueeze', ['mask_bias', 'axis1'], ['mask_bias3']),
    node('Add', ['scores', 'mask_bias3'], ['scores_masked']),
    node('Softmax', ['scores_masked'], ['attn'], [intAttr('axis', -1)]),
    node('MatMul', ['attn', 'x'], ['ctx']),
    node('MatMul', ['ctx', 'dense_w'], ['d1']),
    node('Add', ['d1', 'dense_b'], ['d2']),
    node('Tanh', ['d2'], ['d3']),
    node('Add', ['d3', 'x'], ['last_hidden_state']),
  ];
  const int64Input = (name: string) => valueInfo(name, 7, ['batch_size', 'sequence_length']);
  const graph = message([
    ...nodes.map(n => bytesField(1, n)),
    stringField(2, 'tiny_bert'),
    ...initializers.map(t => bytesField(5, t)),
    bytesField(11, int64Input('input_ids')),
    bytesField(11, int64Input('attention_mask')),
    bytesField(11, int64Input('token_type_ids')),
    bytesField(12, valueInfo('last_hidden_state', 1, ['batch_size', 'sequence_length', H])),
  ]);
  const model = message([
    varintField(1, 8), // ir_version 8
    stringField(2, 'failure-memory make-tiny-model'),
    bytesField(7, graph),
    bytesField(8, message([stringField(1, ''), varintField(2, 17)])), // opset 17 (LayerNormalization)
  ]);
  writeFileSync(path.join(dir, 'onnx', 'model.onnx'), model);
  writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), model);

  writeJson(path.join(dir, 'config.json'), {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: H,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: H,
    max_position_embeddings: P,
    type_vocab_size: 2,
    vocab_size: V,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
  });
  writeJson(path.join(dir, 'tokenizer_config.json'), {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: P,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
  });
  writeJson(path.join(dir, 'tokenizer.json'), tokenizerJson(vocab));
  return { root: outDir, modelId, dir, vocab, hidden: H, bytes: model.length };
}

function buildVocab(): string[] {
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const punct = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`;
  for (const c of punct + chars) vocab.push(c);
  for (const c of chars) vocab.push(`##${c}`);
  for (const w of WORDS) if (!vocab.includes(w)) vocab.push(w);
  for (const piece of ['##s', '##ed', '##ing', '##er', '##or', '##ion']) if (!vocab.includes(piece)) vocab.push(piece);
  return vocab;
}

function tokenizerJson(vocab: string[]): unknown {
  const id = (t: string) => vocab.indexOf(t);
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map(t => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map(t => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

// ---- protobuf encoding (the few ONNX messages needed) ------------------------------------------

type Bytes = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value)); // negative int64 → two's complement, 10 bytes
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const varintField = (field: number, v: number | bigint): Bytes => Uint8Array.from([...key(field, 0), ...varint(v)]);
function bytesField(field: number, data: Bytes): Bytes {
  const head = [...key(field, 2), ...varint(data.length)];
  const out = new Uint8Array(head.length + data.length);
  out.set(head);
  out.set(data, head.length);
  return out;
}
const stringField = (field: number, s: string): Bytes => bytesField(field, new TextEncoder().encode(s));
function floatField(field: number, f: number): Bytes {
  const out = new Uint8Array([...key(field, 5), 0, 0, 0, 0]);
  new DataView(out.buffer).setFloat32(out.length - 4, f, true);
  return out;
}
function message(fields: Bytes[]): Bytes {
  const out = new Uint8Array(fields.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of fields) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}

// TensorProto: dims=1, data_type=2, name=8, raw_data=9
function floatTensor(name: string, dims: number[], data: Float32Array): Bytes {
  return message([...dims.map(d => varintField(1, d)), varintField(2, 1), stringField(8, name), bytesField(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength))]);
}
function int64Tensor(name: string, dims: number[], data: bigint[]): Bytes {
  const raw = new Uint8Array(data.length * 8);
  data.forEach((v, i) => new DataView(raw.buffer).setBigInt64(i * 8, v, true));
  return message([...dims.map(d => varintField(1, d)), varintField(2, 7), stringField(8, name), bytesField(9, raw)]);
}
// NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
let nodeCount = 0;
function node(op: string, inputs: string[], outputs: string[], attributes: Bytes[] = []): Bytes {
  return message([...inputs.map(i => stringField(1, i)), ...outputs.map(o => stringField(2, o)), stringField(3, `${op}_${nodeCount++}`), stringField(4, op), ...attributes.map(a => bytesField(5, a))]);
}
// AttributeProto: name=1, f=2, i=3, ints=8, type=20 (FLOAT=1, INT=2, INTS=7)
const intAttr = (name: string, v: number): Bytes => message([stringField(1, name), varintField(3, v), varintField(20, 2)]);
const floatAttr = (name: string, v: number): Bytes => message([stringField(1, name), floatField(2, v), varintField(20, 1)]);
const intsAttr = (name: string, vs: number[]): Bytes => message([stringField(1, name), ...vs.map(v => varintField(8, v)), varintField(20, 7)]);
// ValueInfoProto: name=1, type=2 → TypeProto.tensor_type=1 → {elem_type=1, shape=2 → dim=1 → {dim_value=1 | dim_param=2}}
function valueInfo(name: string, elemType: number, dims: (number | string)[]): Bytes {
  const shape = message(dims.map(d => bytesField(1, typeof d === 'number' ? varintField(1, d) : stringField(2, d))));
  const tensorType = message([varintField(1, elemType), bytesField(2, shape)]);
  return message([stringField(1, name), bytesField(2, message([bytesField(1, tensorType)]))]);
}

// ---- helpers -------------------------------------------------------------------------------------

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

if (process.argv[1] && /make-tiny-model\.[cm]?[jt]s$/.test(process.argv[1])) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node --import tsx scripts/make-tiny-model.ts <outDir> [modelId]');
    process.exit(1);
  }
  const m = makeTinyModel(path.resolve(out), { modelId: process.argv[3] });
  console.log(`wrote ${m.dir} (${m.vocab.length} tokens, hidden ${m.hidden}, model ${m.bytes} bytes)`);
}
