// Shapes: the stored formats' schemas, written once as data and read by every reader. A shape is a
// type guard built from a few combinators, its TypeScript type inferred from it (Infer). It is zod's
// idea at a hook's cost: zod/mini adds 22 KB and about 10 ms of CPU to a process that loads it
// (building its schemas, compiling their checks), which is most of what a hook costs above a bare
// Node start; these are plain closures, built in microseconds. The webview and the MCP tools, where
// that does not matter, use zod (src/shared/protocol.ts, src/agents/tools.ts).
//
// A shape checks what it names and ignores what it does not: fields a newer version added are kept
// by the reader, never a reason to refuse a record. It never changes what it checks.

/** A shape: is `v` of type T? */
export type Shape<T> = (v: unknown) => v is T;
/** The type a shape checks. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

type Fields = Record<string, Shape<unknown>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<R extends Fields, O extends Fields> = Simplify<{ -readonly [K in keyof R]: Infer<R[K]> } & { -readonly [K in keyof O]?: Infer<O[K]> }>;

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str: Shape<string> = (v): v is string => typeof v === 'string';
export const bool: Shape<boolean> = (v): v is boolean => typeof v === 'boolean';
/** A finite number. */
export const num: Shape<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
/** A finite number, 0 or more (a size, a count read from a file that may hold fractions). */
export const count: Shape<number> = (v): v is number => num(v) && v >= 0;
export const int: Shape<number> = (v): v is number => typeof v === 'number' && Number.isInteger(v);
export const positiveInt: Shape<number> = (v): v is number => int(v) && v >= 1;

/** A string of `min` to `max` characters. */
export const text = (min: number, max: number): Shape<string> => (v): v is string => typeof v === 'string' && v.length >= min && v.length <= max;

/** One of the listed values. */
export function oneOf<const L extends readonly (string | number | boolean)[]>(...values: L): Shape<L[number]> {
  const set = new Set<unknown>(values);
  return (v): v is L[number] => set.has(v);
}

export const nullable = <T>(s: Shape<T>): Shape<T | null> => (v): v is T | null => v === null || s(v);

/** A list whose every entry is of `s` (and, when given, no longer than `max`). */
export function list<T>(s: Shape<T>, max = Infinity): Shape<T[]> {
  return (v): v is T[] => {
    if (!Array.isArray(v) || v.length > max) return false;
    for (let i = 0; i < v.length; i++) if (!s(v[i])) return false;
    return true;
  };
}

/** An object used as a map: every value of `s`. */
export function dict<T>(s: Shape<T>): Shape<Record<string, T>> {
  return (v): v is Record<string, T> => {
    if (!isRecord(v)) return false;
    for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && !s(v[k])) return false;
    return true;
  };
}

/** Of one of the shapes (a union: each names its own `kind`). */
export function anyOf<const S extends readonly Shape<unknown>[]>(...shapes: S): Shape<Infer<S[number]>> {
  return (v): v is Infer<S[number]> => shapes.some(s => s(v));
}

/** A fixed-length list of positional fields. */
export function tuple<const S extends readonly Shape<unknown>[]>(...shapes: S): Shape<{ -readonly [K in keyof S]: Infer<S[K]> }> {
  return (v): v is { -readonly [K in keyof S]: Infer<S[K]> } => Array.isArray(v) && v.length === shapes.length && shapes.every((s, i) => s(v[i]));
}

/** An object with the `required` fields and, when present (not undefined), the `optional` ones. */
export function object<R extends Fields, O extends Fields = Record<never, never>>(required: R, optional?: O): Shape<ObjectOf<R, O>> {
  // plain arrays and index loops: a hook runs these once, cold, over every attempt of a whole read
  const reqKeys = Object.keys(required);
  const reqShapes = reqKeys.map(k => required[k]);
  const optKeys = Object.keys(optional ?? {});
  const optShapes = optKeys.map(k => optional![k]);
  return (v): v is ObjectOf<R, O> => {
    if (!isRecord(v)) return false;
    for (let i = 0; i < reqKeys.length; i++) if (!reqShapes[i](v[reqKeys[i]])) return false;
    for (let i = 0; i < optKeys.length; i++) {
      const x = v[optKeys[i]];
      if (x !== undefined && !optShapes[i](x)) return false;
    }
    return true;
  };
}

// ---- compile-time agreement of a shape with a type declared elsewhere ------------------------------

/** true when A and B have the same keys and each is assignable to the other. */
export type Same<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? ([A] extends [B] ? ([B] extends [A] ? true : false) : false) : false) : false;
/** true when A has B's keys and every B is an A (what a writer of B writes, a reader of A accepts). */
export type Accepts<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? ([B] extends [A] ? true : false) : false) : false;
/** Compiles only when T is true. */
export type Assert<T extends true> = T;
