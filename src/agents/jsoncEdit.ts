// Edits a user's JSON/JSONC configuration file in place, as a person would by hand: the new value
// goes at the end of its object or array, indented like the file, and everything else (comments,
// key order, indentation, line endings, the user's own empty lists) keeps its bytes. Removing what
// was added is the exact reverse, so that add-then-remove gives the file back byte for byte.
// jsonc-parser finds the nodes (the parser VS Code uses for settings.json); the edits are computed
// here because its `modify` reformats the lines it touches and removes a last array item unevenly.

import { applyEdits, findNodeAtLocation, parseTree, printParseErrorCode, type Edit, type JSONPath, type Node, type ParseError } from 'jsonc-parser';

export interface JsoncStyle {
  /** One level of indentation: '\t' or some spaces. */
  unit: string;
  eol: '\n' | '\r\n';
}

/** The file's line ending and indentation unit (the smallest indentation of a line that starts with a key or value). */
export function styleOf(text: string): JsoncStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let unit: string | undefined;
  for (const m of text.matchAll(/\n([ \t]+)["{[\]}\w-]/g)) {
    const ws = m[1];
    if (ws.startsWith('\t')) return { unit: '\t', eol };
    if (unit === undefined || ws.length < unit.length) unit = ws;
  }
  return { unit: unit ?? '  ', eol };
}

/** The parse tree of a JSONC text, or the first syntax error in words (line and column). */
export function parseJsonc(text: string): { root: Node } | { error: string } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    if (!e) return { error: 'empty document' };
    const before = text.slice(0, e.offset);
    const line = before.split('\n').length;
    return { error: `${printParseErrorCode(e.error)} at line ${line}, column ${e.offset - before.lastIndexOf('\n')}` };
  }
  return { root };
}

/** The whitespace a line starts with. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only whitespace stands between the start of its line and `offset`. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** `value` as JSON, indented for a line that starts with `indent` (undefined: on one line). */
function pretty(value: unknown, indent: string | undefined, style: JsoncStyle): string {
  if (indent === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent);
}

function containerAt(text: string, path: JSONPath, type: 'object' | 'array'): Node {
  const tree = parseJsonc(text);
  if ('error' in tree) throw new Error(`not valid JSON: ${tree.error}`);
  const node = path.length ? findNodeAtLocation(tree.root, path) : tree.root;
  if (!node || node.type !== type) throw new Error(`${path.join('.') || 'the document'} is not ${type === 'object' ? 'an object' : 'a list'}`);
  return node;
}

/** The text with `item` (a `"key": value` or a value, already formatted) added at the end of `container`. */
function insertLast(text: string, container: Node, item: (indent: string | undefined) => string, style: JsoncStyle): string {
  const children = container.children ?? [];
  const end = container.offset + container.length;
  let edit: Edit;
  if (!children.length) {
    // an empty container: its inside (whitespace only) becomes one indented line
    const outer = lineIndent(text, container.offset);
    const inner = outer + style.unit;
    edit = { offset: container.offset + 1, length: end - 1 - (container.offset + 1), content: `${style.eol}${inner}${item(inner)}${style.eol}${outer}` };
  } else {
    const last = children[children.length - 1];
    const at = last.offset + last.length;
    // the siblings each on their own line: a new line like theirs; written on one line: stay on it
    edit = startsLine(text, last.offset)
      ? { offset: at, length: 0, content: `,${style.eol}${lineIndent(text, last.offset)}${item(lineIndent(text, last.offset))}` }
      : { offset: at, length: 0, content: `, ${item(undefined)}` };
  }
  return applyEdits(text, [edit]);
}

/** Adds `"key": value` as the last property of the object at `path`. */
export function appendProperty(text: string, path: JSONPath, key: string, value: unknown, style: JsoncStyle = styleOf(text)): string {
  const node = containerAt(text, path, 'object');
  return insertLast(text, node, indent => `${JSON.stringify(key)}: ${pretty(value, indent, style)}`, style);
}

/** Adds `value` as the last element of the array at `path`. */
export function appendElement(text: string, path: JSONPath, value: unknown, style: JsoncStyle = styleOf(text)): string {
  const node = containerAt(text, path, 'array');
  return insertLast(text, node, indent => pretty(value, indent, style), style);
}

/**
 * Removes the property or element at `path`: the exact reverse of appendProperty / appendElement
 * (from the end of the one before it to its own end; an only child leaves its container empty).
 */
export function removeAt(text: string, path: JSONPath): string {
  const tree = parseJsonc(text);
  if ('error' in tree || !path.length) throw new Error('error' in tree ? `not valid JSON: ${tree.error}` : 'the document itself cannot be removed');
  const target = findNodeAtLocation(tree.root, path);
  if (!target) return text;
  // a property is removed whole (key and value): its node is the value's parent
  const node = typeof path[path.length - 1] === 'string' ? target.parent! : target;
  const container = node.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(node);
  let edit: Edit;
  if (siblings.length === 1) edit = { offset: container.offset + 1, length: container.length - 2, content: '' };
  else if (i > 0) {
    const previous = siblings[i - 1];
    edit = { offset: previous.offset + previous.length, length: node.offset + node.length - (previous.offset + previous.length), content: '' };
  } else edit = { offset: node.offset, length: siblings[1].offset - node.offset, content: '' };
  return applyEdits(text, [edit]);
}
