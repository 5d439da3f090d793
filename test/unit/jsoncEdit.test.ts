// The JSONC editor of setup-agents (src/agents/jsoncEdit.ts) on large and odd files: every edit of a
// plan from one parse (linear in the file's size), giving the text that edits made one after the
// other give; a file nested 100,000 deep is a sentence, not a stack overflow; a byte order mark is
// read past. The setup and doctor of such files, end to end: test/integration/setupFiles.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { appendAll, appendElement, appendProperty, MAX_JSONC_DEPTH, nestingDepth, parseJsonc, removeAll, removeAt, splitBom, styleOf, type Addition } from '../../src/agents/jsoncEdit';
import { params } from '../support/fuzz';

/** A JSON value printed as a person might: compact, indented by 2 or 4 spaces or a tab, with comments. */
function layout(value: unknown, how: number): string {
  if (how === 0) return JSON.stringify(value);
  const unit = ['  ', '    ', '\t'][how % 3];
  const text = JSON.stringify(value, null, unit);
  return how > 3 ? text.replace(/\n(\s*)"/, '\n$1// a comment\n$1"') : text;
}

const leaf = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('x', 'y z', 'a"b', 'c\\d'));
const lists = fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D'), fc.array(fc.oneof(leaf, fc.record({ command: leaf })), { maxLength: 4 }));
const doc = fc.record({ model: leaf, hooks: lists, tail: fc.array(leaf, { maxLength: 2 }) });

describe('one parse for a whole plan', () => {
  test('removeAll gives what removeAt one after the other gives (elements from the last, then whole lists)', () => {
    fc.assert(
      fc.property(doc, fc.nat(5), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), (value, how, pick) => {
        const text = layout(value, how);
        const paths: Array<Array<string | number>> = [];
        let k = 0;
        for (const [event, list] of Object.entries(value.hooks)) {
          let removed = 0;
          for (let i = list.length - 1; i >= 0; i--) {
            if (!pick[k++ % pick.length]) continue;
            paths.push(['hooks', event, i]);
            removed++;
          }
          if (removed === list.length && list.length) paths.push(['hooks', event]);
        }
        let sequential = text;
        for (const p of paths) sequential = removeAt(sequential, p);
        assert.equal(removeAll(text, paths), sequential);
      }),
      params(),
    );
  });

  test('appendAll gives what appendProperty and appendElement one after the other give', () => {
    fc.assert(
      fc.property(doc, fc.nat(5), fc.array(fc.tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E'), leaf), { maxLength: 6 }), (value, how, adds) => {
        const text = layout(value, how);
        const style = styleOf(text);
        const additions: Addition[] = [];
        const fresh = new Map<string, unknown[]>();
        for (const [event, v] of adds) {
          if (Array.isArray((value.hooks as Record<string, unknown>)[event])) additions.push({ path: ['hooks', event], value: v });
          else fresh.set(event, [...(fresh.get(event) ?? []), v]);
        }
        for (const [event, list] of fresh) additions.push({ path: ['hooks'], key: event, value: list });
        let sequential = text;
        for (const a of additions) sequential = a.key === undefined ? appendElement(sequential, a.path, a.value, style) : appendProperty(sequential, a.path, a.key, a.value, style);
        assert.equal(appendAll(text, additions, style), sequential);
        // and removing what was added (the last added first) gives the text back
        const added = new Map<string, number>();
        const removals = additions
          .map(a => {
            if (a.key !== undefined) return [...a.path, a.key];
            const event = a.path[1] as string;
            const n = added.get(event) ?? (value.hooks as Record<string, unknown[]>)[event].length;
            added.set(event, n + 1);
            return [...a.path, n];
          })
          .reverse();
        assert.equal(removeAll(appendAll(text, additions, style), removals), text.replace(/^\{\n\}/, '{}'));
      }),
      params(),
    );
  });
});

describe('odd files', () => {
  test('nested 100,000 deep: its depth is counted without recursion, and parsing it is a sentence', () => {
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.ok(nestingDepth(deep) > MAX_JSONC_DEPTH);
    assert.deepEqual(parseJsonc(deep), { error: `nested more than ${MAX_JSONC_DEPTH} levels deep` });
    assert.equal(nestingDepth('{"a": "[[[[{{{", /* [[[ */ "b": [1, {"c": []}] // ]]]\n}'), 4, 'brackets in strings and comments do not count');
    assert.equal(nestingDepth('{"a": "\\\\"}'), 1, 'an escaped backslash ends before the quote');
    assert.equal(nestingDepth('{"a": "\\"[["}'), 1, 'an escaped quote does not end the string');
  });

  test('a byte order mark is read past and kept', () => {
    assert.deepEqual(splitBom('\ufeff{"a":1}'), { bom: '\ufeff', body: '{"a":1}' });
    assert.deepEqual(splitBom('{"a":1}'), { bom: '', body: '{"a":1}' });
    assert.ok('root' in parseJsonc(splitBom('\ufeff{\n  "a": 1\n}\n').body));
  });

  test('the indentation of a large file is read from its head and tail', () => {
    const big = `{\n    "a": [\n${'        "x",\n'.repeat(200_000)}        "y"\n    ],\n    "b": 1\n}\n`;
    assert.deepEqual(styleOf(big), { unit: '    ', eol: '\n' });
  });
});
