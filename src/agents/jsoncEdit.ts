// Edits a user's JSON/JSONC configuration file in place, as a person would by hand: the new value
// goes at the end of its object or array, indented like the file, and everything else (comments,
// key order, indentation, line endings, the user's own empty lists) keeps its bytes. Removing what
// was added is the exact reverse, so that add-then-remove gives the file back byte for byte.
// jsonc-parser finds the nodes (the parser VS Code uses for settings.json); the edits are computed
// here because its `modify` reformats the lines it touches and removes a last array item unevenly.

import { applyEdits, findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Edit, type JSONPath, type Node, type ParseError } from 'jsonc-parser';

export interface JsoncStyle {
  /** One level of indentation: '\t' or some spaces. */
  unit: string;
  eol: '\n' | '\r\n';
}

/** How much of a large file styleOf reads: its head (where the top-level keys start their lines) and its tail. */
const STYLE_SAMPLE = 256 * 1024;

/**
 * The file's line ending and indentation unit (the smallest indentation of a line that starts with a
 * key or value). A file larger than twice STYLE_SAMPLE is judged on its head and tail, where its
 * outermost lines are: the same answer, without a pass over megabytes of nested values.
 */
export function styleOf(text: string): JsoncStyle {
  // the tail from a line's start: a line cut in its middle would look indented
  const sample = text.length > 2 * STYLE_SAMPLE ? `${text.slice(0, STYLE_SAMPLE)}${text.slice(text.indexOf('\n', text.length - STYLE_SAMPLE))}` : text;
  const eol = sample.includes('\r\n') ? '\r\n' : '\n';
  let unit: string | undefined;
  for (const m of sample.matchAll(/\n([ \t]+)["{[\]}\w-]/g)) {
    const ws = m[1];
    if (ws.startsWith('\t')) return { unit: '\t', eol };
    if (unit === undefined || ws.length < unit.length) unit = ws;
  }
  return { unit: unit ?? '  ', eol };
}

/** Deeper than this, a configuration file is refused (the parser and every reader of its value recurse). */
export const MAX_JSONC_DEPTH = 512;

/**
 * How deeply the text's objects and arrays nest (strings and comments skipped), counted only up to
 * `limit` + 1: one pass, no recursion, whatever the text. A file nested 100,000 deep is then a
 * sentence, not a stack overflow.
 */
export function nestingDepth(text: string, limit = MAX_JSONC_DEPTH): number {
  // the regular expression finds the next character that matters; strings and comments are skipped whole
  const next = /["{}[\]/]/g;
  let depth = 0;
  let max = 0;
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const at = m.index;
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      const close = stringEnd(text, at + 1);
      if (close < 0) return max;
      next.lastIndex = close + 1;
    } else if (c === 0x2f) {
      const after = text.charCodeAt(at + 1);
      const end = after === 0x2f ? text.indexOf('\n', at) : after === 0x2a ? text.indexOf('*/', at + 2) : at;
      next.lastIndex = end < 0 ? text.length : after === 0x2a ? end + 2 : end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max && (max = depth) > limit) return max;
    } else {
      depth--;
    }
  }
  return max;
}

/** Where the string opened before `from` ends (its closing quote), -1 when it does not. */
function stringEnd(text: string, from: number): number {
  for (let i = from; ; ) {
    const q = text.indexOf('"', i);
    if (q < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}

/** A UTF-8 byte order mark, as Windows editors write one: read past, and kept where it was. */
export const BOM = '\ufeff';

/** The text without its byte order mark, and the mark (or '') to put back in front of what is written. */
export function splitBom(text: string): { bom: string; body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text };
}

/**
 * The parse tree of a JSONC text, or the first syntax error in words (line and column), or why it is
 * not read at all (nested deeper than MAX_JSONC_DEPTH). A byte order mark is the caller's (splitBom).
 */
export function parseJsonc(text: string): { root: Node } | { error: string } {
  // setup's plan, doctor's checks and its harness lines read the same file one after the other: parsed once
  if (lastParsed?.text === text) return lastParsed.result;
  const result = parseOnce(text);
  lastParsed = { text, result };
  return result;
}

let lastParsed: { text: string; result: { root: Node } | { error: string } } | undefined;

function parseOnce(text: string): { root: Node } | { error: string } {
  const depth = nestingDepth(text);
  if (depth > MAX_JSONC_DEPTH) return { error: `nested more than ${MAX_JSONC_DEPTH} levels deep` };
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (e) {
    if (e instanceof RangeError) return { error: 'nested too deeply to read' };
    throw e;
  }
  if (errors.length || !root) {
    const e = errors[0];
    if (!e) return { error: 'empty document' };
    const before = text.slice(0, e.offset);
    const line = before.split('\n').length;
    return { error: `${printParseErrorCode(e.error)} at line ${line}, column ${e.offset - before.lastIndexOf('\n')}` };
  }
  return { root };
}

/** The value of a (small) part of a tree: a hooks object, one entry; never the whole of a large file. */
export function valueAt(root: Node, path: JSONPath): unknown {
  const node = path.length ? findNodeAtLocation(root, path) : root;
  return node ? getNodeValue(node) : undefined;
}

/** The whitespace a line starts with. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = start;
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(start, end);
}

/** Whether only whitespace stands between the start of its line and `offset`. */
function startsLine(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0 && text[i] !== '\n'; i--) if (text[i] !== ' ' && text[i] !== '\t') return false;
  return true;
}

/** `value` as JSON, indented for a line that starts with `indent` (undefined: on one line). */
function pretty(value: unknown, indent: string | undefined, style: JsoncStyle): string {
  if (indent === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent);
}

function treeOf(text: string): Node {
  const tree = parseJsonc(text);
  if ('error' in tree) throw new Error(`not valid JSON: ${tree.error}`);
  return tree.root;
}

function containerAt(root: Node, path: JSONPath, type: 'object' | 'array'): Node {
  const node = path.length ? findNodeAtLocation(root, path) : root;
  if (!node || node.type !== type) throw new Error(`${path.join('.') || 'the document'} is not ${type === 'object' ? 'an object' : 'a list'}`);
  return node;
}

/** What to add at the end of the object or array at `path`: properties (`key` given) or elements. */
export interface Addition {
  path: JSONPath;
  key?: string;
  value: unknown;
}

/**
 * The edit that adds `items` (each formatted for the indent it gets) at the end of `container`, as
 * adding them one after the other would: an empty container gets one indented line each; siblings on
 * their own lines get new lines like theirs; a container written on one line stays on one line.
 */
function insertLast(text: string, container: Node, items: Array<(indent: string | undefined) => string>, style: JsoncStyle): Edit {
  const children = container.children ?? [];
  const end = container.offset + container.length;
  if (!children.length) {
    const outer = lineIndent(text, container.offset);
    const inner = outer + style.unit;
    return { offset: container.offset + 1, length: end - 1 - (container.offset + 1), content: `${style.eol}${inner}${items.map(i => i(inner)).join(`,${style.eol}${inner}`)}${style.eol}${outer}` };
  }
  const last = children[children.length - 1];
  const at = last.offset + last.length;
  if (!startsLine(text, last.offset)) return { offset: at, length: 0, content: items.map(i => `, ${i(undefined)}`).join('') };
  const indent = lineIndent(text, last.offset);
  return { offset: at, length: 0, content: items.map(i => `,${style.eol}${indent}${i(indent)}`).join('') };
}

/**
 * The text with every addition made, from one parse: the additions to one container go in one edit,
 * in their order; each container is at a path of the text as it is (not one an addition creates).
 */
export function appendAll(text: string, additions: readonly Addition[], style: JsoncStyle = styleOf(text), root: Node = treeOf(text)): string {
  const byContainer = new Map<Node, Array<(indent: string | undefined) => string>>();
  for (const a of additions) {
    const node = containerAt(root, a.path, a.key === undefined ? 'array' : 'object');
    const item = a.key === undefined ? (indent: string | undefined) => pretty(a.value, indent, style) : (indent: string | undefined) => `${JSON.stringify(a.key)}: ${pretty(a.value, indent, style)}`;
    const list = byContainer.get(node);
    if (list) list.push(item);
    else byContainer.set(node, [item]);
  }
  return applyEdits(text, [...byContainer].map(([node, items]) => insertLast(text, node, items, style)));
}

/** Adds `"key": value` as the last property of the object at `path`. */
export function appendProperty(text: string, path: JSONPath, key: string, value: unknown, style: JsoncStyle = styleOf(text)): string {
  return appendAll(text, [{ path, key, value }], style);
}

/** Adds `value` as the last element of the array at `path`. */
export function appendElement(text: string, path: JSONPath, value: unknown, style: JsoncStyle = styleOf(text)): string {
  return appendAll(text, [{ path, value }], style);
}

/**
 * The text with the properties and elements at `paths` removed, as removing them one after the other
 * in that order would (removeAt), from one parse: the exact reverse of the additions. Each path names
 * a node of the text as it is: an array's elements are removed from the last.
 */
export function removeAll(text: string, paths: readonly JSONPath[], root: Node = treeOf(text)): string {
  const removed = new Set<Node>();
  const ranges: Array<[number, number]> = [];
  for (const path of paths) {
    if (!path.length) throw new Error('the document itself cannot be removed');
    const target = findNodeAtLocation(root, path);
    if (!target) continue;
    // a property is removed whole (key and value): its node is the value's parent
    const node = typeof path[path.length - 1] === 'string' ? target.parent! : target;
    if (removed.has(node)) continue;
    const container = node.parent!;
    const left = (container.children ?? []).filter(c => !removed.has(c));
    const i = left.indexOf(node);
    if (left.length === 1) ranges.push([container.offset + 1, container.offset + container.length - 1]);
    else if (i > 0) ranges.push([left[i - 1].offset + left[i - 1].length, node.offset + node.length]);
    else ranges.push([node.offset, left[1].offset]);
    removed.add(node);
  }
  return applyEdits(text, merged(ranges).map(([from, to]) => ({ offset: from, length: to - from, content: '' })));
}

/** Ranges (removed one after the other: each lies between bytes still there) as their union, in order. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Removes the property or element at `path`: the exact reverse of appendProperty / appendElement
 * (from the end of the one before it to its own end; an only child leaves its container empty).
 */
export function removeAt(text: string, path: JSONPath): string {
  return removeAll(text, [path]);
}
