// The brute-force scoring kernel of VectorSnapshot.search: one dot product per stored row, in
// WebAssembly SIMD (f32x4). The rows live in the module's memory — that memory IS the snapshot's
// storage: VectorStore reads vectors.bin straight into it (readVectorFile), and a snapshot built from
// any other Float32Array copies its rows in once, when it is built, never per query. The query is
// copied in per search and the scores come back in a buffer behind the rows (4 bytes a row), from
// which VectorSnapshot keeps the top k in JS.
//
// The module is hand-encoded below (521 bytes, no build step, no dependency). It exports one
// function, assembled from the opcodes named here (WebAssembly core spec 2.0, SIMD proposal):
//
//   dots(rows, q, out, n, dim)   ; byte addresses rows, q, out; n rows of dim f32 each
//     for each row: four f32x4 accumulators over 16 floats at a time, then one f32x4 over the
//     remaining groups of 4, the four accumulators summed ((a0+a1)+(a2+a3)) and their lanes summed
//     ((l0+l1)+(l2+l3)), then the last dim % 4 values in scalar f32; the sum is stored at out[r].
//
// The sums are f32 (the JS loop sums in f64): a score differs from the JS one by float rounding
// (relative ~1e-6 for 384-d unit vectors), never by more. No approximation otherwise: every row is scored.

import { open, readFile } from 'node:fs/promises';

// ---- encoding helpers -------------------------------------------------------------------------

/** Unsigned LEB128 (sizes, indices, memarg offsets). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (i32.const immediates). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** A section: id, byte size, contents. */
function section(id: number, contents: number[]): number[] {
  return [id, ...uleb(contents.length), ...contents];
}

/** A name: length, UTF-8 (ASCII here) bytes. */
function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, c => c.charCodeAt(0))];
}

// value types
const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;

// instructions
const block = [0x02, 0x40]; // block with no result
const loop = [0x03, 0x40]; // loop with no result
const end = 0x0b;
const brIf = (depth: number) => [0x0d, ...uleb(depth)];
const get = (l: number) => [0x20, ...uleb(l)];
const set = (l: number) => [0x21, ...uleb(l)];
const i32Const = (v: number) => [0x41, ...sleb(v)];
const i32Add = 0x6a;
const i32And = 0x71;
const i32Shl = 0x74;
const i32LtU = 0x49;
const i32GeU = 0x4f;
const f32Load = (offset: number) => [0x2a, 0x02, ...uleb(offset)]; // align 2^2
const f32Store = [0x38, 0x02, 0x00];
const f32Add = 0x92;
const f32Mul = 0x94;
// SIMD: prefix 0xfd, then the LEB128 sub-opcode
const v128Load = (offset: number) => [0xfd, 0x00, 0x04, ...uleb(offset)]; // align hint 2^4 (unaligned is allowed)
const v128Zero = [0xfd, 0x0c, ...new Array<number>(16).fill(0)]; // v128.const 0
const f32x4ExtractLane = (lane: number) => [0xfd, 0x1f, lane];
const f32x4Add = [0xfd, ...uleb(0xe4)];
const f32x4Mul = [0xfd, ...uleb(0xe6)];

// ---- the function body ----------------------------------------------------------------------

// params
const ROWS = 0;
const Q = 1;
const OUT = 2;
const N = 3;
const DIM = 4;
// locals: 8 × i32, 4 × v128, 1 × f32
const DIM_BYTES = 5; // dim * 4: the byte length of a row
const END16 = 6; // bytes of a row covered by the 16-float loop
const END4 = 7; // bytes of a row covered by the 16- and 4-float loops
const P = 8; // the current row's address
const J = 9; // byte offset inside the row
const OUT_END = 10; // out + n * 4
const X = 11; // P + J
const Y = 12; // Q + J
const A = [13, 14, 15, 16]; // f32x4 accumulators
const S = 17; // the f32 sum

/** acc += v128.load(X + offset) * v128.load(Y + offset) */
const fma = (acc: number, offset: number) => [...get(acc), ...get(X), ...v128Load(offset), ...get(Y), ...v128Load(offset), ...f32x4Mul, ...f32x4Add, ...set(acc)];
/** X = P + J; Y = Q + J */
const addresses = [...get(P), ...get(J), i32Add, ...set(X), ...get(Q), ...get(J), i32Add, ...set(Y)];
/** J += step; br_if depth (J < limit) */
const advance = (step: number, limit: number) => [...get(J), ...i32Const(step), i32Add, ...set(J), ...get(J), ...get(limit), i32LtU, ...brIf(0)];

const body = [
  // locals
  ...uleb(3), ...uleb(8), I32, ...uleb(4), V128, ...uleb(1), F32,
  // DIM_BYTES = dim << 2; END16 = (dim & -16) << 2; END4 = (dim & -4) << 2; OUT_END = out + (n << 2); P = rows
  ...get(DIM), ...i32Const(2), i32Shl, ...set(DIM_BYTES),
  ...get(DIM), ...i32Const(-16), i32And, ...i32Const(2), i32Shl, ...set(END16),
  ...get(DIM), ...i32Const(-4), i32And, ...i32Const(2), i32Shl, ...set(END4),
  ...get(OUT), ...get(N), ...i32Const(2), i32Shl, i32Add, ...set(OUT_END),
  ...get(ROWS), ...set(P),
  ...block, // $done
  ...get(OUT), ...get(OUT_END), i32GeU, ...brIf(0), // no rows
  ...loop, // $row
  ...v128Zero, ...set(A[0]), ...v128Zero, ...set(A[1]), ...v128Zero, ...set(A[2]), ...v128Zero, ...set(A[3]),
  ...i32Const(0), ...set(J),
  // 16 floats per step, four independent accumulators
  ...block,
  ...get(J), ...get(END16), i32GeU, ...brIf(0),
  ...loop,
  ...addresses, ...fma(A[0], 0), ...fma(A[1], 16), ...fma(A[2], 32), ...fma(A[3], 48),
  ...advance(64, END16),
  end,
  end,
  // 4 floats per step
  ...block,
  ...get(J), ...get(END4), i32GeU, ...brIf(0),
  ...loop,
  ...addresses, ...fma(A[0], 0),
  ...advance(16, END4),
  end,
  end,
  // A0 = (A0 + A1) + (A2 + A3); S = (l0 + l1) + (l2 + l3)
  ...get(A[0]), ...get(A[1]), ...f32x4Add, ...get(A[2]), ...get(A[3]), ...f32x4Add, ...f32x4Add, ...set(A[0]),
  ...get(A[0]), ...f32x4ExtractLane(0), ...get(A[0]), ...f32x4ExtractLane(1), f32Add,
  ...get(A[0]), ...f32x4ExtractLane(2), ...get(A[0]), ...f32x4ExtractLane(3), f32Add, f32Add, ...set(S),
  // the last dim % 4 values, one at a time
  ...block,
  ...get(J), ...get(DIM_BYTES), i32GeU, ...brIf(0),
  ...loop,
  ...addresses,
  ...get(S), ...get(X), ...f32Load(0), ...get(Y), ...f32Load(0), f32Mul, f32Add, ...set(S),
  ...advance(4, DIM_BYTES),
  end,
  end,
  // out[r] = S; P += DIM_BYTES; out += 4; continue while out < OUT_END
  ...get(OUT), ...get(S), ...f32Store,
  ...get(P), ...get(DIM_BYTES), i32Add, ...set(P),
  ...get(OUT), ...i32Const(4), i32Add, ...set(OUT),
  ...get(OUT), ...get(OUT_END), i32LtU, ...brIf(0),
  end, // $row
  end, // $done
  end, // function
];

const MODULE_BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, // magic "\0asm"
  0x01, 0x00, 0x00, 0x00, // version 1
  // type section: one function type (i32 × 5) -> ()
  ...section(1, [...uleb(1), 0x60, ...uleb(5), I32, I32, I32, I32, I32, ...uleb(0)]),
  // import section: memory "env" "mem", limits: no maximum, minimum 0 pages (JS makes it)
  ...section(2, [...uleb(1), ...name('env'), ...name('mem'), 0x02, 0x00, ...uleb(0)]),
  // function section: function 0 has type 0
  ...section(3, [...uleb(1), ...uleb(0)]),
  // export section: "dots" = function 0
  ...section(7, [...uleb(1), ...name('dots'), 0x00, ...uleb(0)]),
  // code section: one body (size, locals, instructions)
  ...section(10, [...uleb(1), ...uleb(body.length), ...body]),
]);

// ---- the JS side ----------------------------------------------------------------------------

type Dots = (rows: number, q: number, out: number, n: number, dim: number) => void;

/** The part of the WebAssembly JS API used here (the project's lib is ES2022 without DOM types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}
type WasmModule = { readonly __wasmModule: unique symbol };

const WASM = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/** The compiled module, or null where WebAssembly or its SIMD is unavailable (then search stays in JS). */
function wasmModule(): WasmModule | null {
  if (compiled === undefined) {
    try {
      compiled = WASM && WASM.validate(MODULE_BYTES) ? new WASM.Module(MODULE_BYTES) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

export function wasmSimdAvailable(): boolean {
  return wasmModule() !== null;
}

/** The module's bytes (for tests and the curious). */
export const VECTOR_KERNEL_WASM = MODULE_BYTES;

const PAGE = 65536;
/** wasm32 addresses: at most 4 GiB, less a page of headroom. */
const MAX_BYTES = 2 ** 32 - PAGE;

type WasmMemory = { buffer: ArrayBuffer };

/** Memories filled by readVectorFile, with the first byte free for the query and scores. */
const adoptable = new WeakMap<ArrayBuffer, { memory: WasmMemory; free: number }>();

/**
 * n rows of dim float32 values in WebAssembly memory, scored against a query by the SIMD kernel.
 * Memory layout: the rows (at 0 when copied, or where readVectorFile put them), then the query
 * (16-byte aligned), then n f32 scores. The memory never grows, so the views below stay valid.
 */
export class WasmRows {
  private readonly query: Float32Array;
  private readonly scores: Float32Array;
  private readonly dots: Dots;

  private constructor(
    memory: WasmMemory,
    /** The rows (a view on the wasm memory: the snapshot's storage). */
    readonly vectors: Float32Array,
    free: number,
    readonly n: number,
    readonly dim: number,
  ) {
    const queryAt = align16(free);
    this.query = new Float32Array(memory.buffer, queryAt, dim);
    this.scores = new Float32Array(memory.buffer, align16(queryAt + dim * 4), n);
    const instance = new WASM!.Instance(compiled!, { env: { mem: memory } });
    this.dots = instance.exports.dots as Dots;
  }

  /**
   * The rows in WebAssembly memory, or undefined when WebAssembly SIMD is unavailable or the memory
   * cannot be had (over 4 GiB, out of memory): the caller then keeps its Float32Array. Rows that
   * readVectorFile read into wasm memory are used where they are (no copy); others are copied.
   */
  static from(values: Float32Array, n: number, dim: number): WasmRows | undefined {
    const module = wasmModule();
    if (!module || values.length !== n * dim) return undefined;
    const scratch = align16(dim * 4) + n * 4 + 16;
    try {
      const owned = adoptable.get(values.buffer as ArrayBuffer);
      if (owned && align16(owned.free) + scratch <= owned.memory.buffer.byteLength && values.byteOffset % 4 === 0) {
        adoptable.delete(values.buffer as ArrayBuffer); // one snapshot owns the scratch space
        return new WasmRows(owned.memory, values, owned.free, n, dim);
      }
      const rowBytes = n * dim * 4;
      if (rowBytes + scratch > MAX_BYTES) return undefined;
      const memory = new WASM!.Memory({ initial: Math.max(1, Math.ceil((rowBytes + scratch) / PAGE)) });
      const rows = new Float32Array(memory.buffer, 0, n * dim);
      rows.set(values);
      return new WasmRows(memory, rows, rowBytes, n, dim);
    } catch {
      return undefined;
    }
  }

  /** One score per row (the dot product with `query`), in a buffer reused by the next call. */
  score(query: Float32Array): Float32Array {
    this.query.set(query);
    this.dots(this.vectors.byteOffset, this.query.byteOffset, this.scores.byteOffset, this.n, this.dim);
    return this.scores;
  }
}

/**
 * A whole file read into a new WebAssembly memory, with room behind it for the kernel's query and
 * scores (sized from `dim`, the dimension the index announces): as fs.promises.readFile, but a
 * VectorSnapshot built on rows inside the returned buffer uses them where they are (the memory is
 * the snapshot's storage: no second copy, and the kernel is ready without copying 4 bytes a value).
 * Without WebAssembly SIMD (or for a file too large for wasm32) a plain readFile.
 */
export async function readVectorFile(file: string, dim: number | undefined): Promise<Buffer> {
  if (!wasmModule() || !dim || dim < 1) return readFile(file);
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const scratch = align16(dim * 4) + Math.ceil(size / dim) + 64;
    if (size + scratch > MAX_BYTES) return await readFile(file);
    let memory: WasmMemory;
    try {
      memory = new WASM!.Memory({ initial: Math.max(1, Math.ceil((size + scratch) / PAGE)) });
    } catch {
      return await readFile(file);
    }
    const bytes = Buffer.from(memory.buffer, 0, size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(bytes, done, size - done, done);
      if (bytesRead === 0) break; // truncated meanwhile: the caller sees a shorter file
      done += bytesRead;
    }
    adoptable.set(memory.buffer, { memory, free: align16(done) });
    return bytes.subarray(0, done);
  } finally {
    await handle.close();
  }
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}
