// Shared, read-only memory: the store hands the same parsed memory to every reader until the file
// changes (see MemoryStore.read), so what it hands out is deep-frozen — a caller that writes into it
// gets a TypeError instead of silently changing what every later reader sees. Writers get their own
// copy (cloneJson) and go through update().

/** Freezes `value` and everything reachable from it (plain JSON data: objects, arrays, primitives). */
export function deepFreeze<T>(value: T): T {
  // an explicit stack: memory is shallow, but a file nested deeper than the call stack must not overflow it
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) stack.push(v[i]);
    } else {
      for (const k of Object.keys(v)) {
        const child = (v as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) stack.push(child);
      }
    }
  }
  return value;
}

/**
 * A mutable deep copy of plain JSON data, as a JSON round trip would give it (an undefined property
 * is dropped, an undefined array entry becomes null) but without the text: strings are shared, only
 * objects and arrays are new. Several times faster than JSON.parse(JSON.stringify(v)) or structuredClone.
 */
export function cloneJson<T>(value: T): T {
  return copy(value) as T;
}

function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i] === undefined ? null : copy(v[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    // defineProperty: a key "__proto__" stays a plain entry instead of replacing the copy's prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: copy(x), enumerable: true, writable: true, configurable: true });
    else out[k] = copy(x);
  }
  return out;
}
