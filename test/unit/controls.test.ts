import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { C0_AND_DEL, C0_AND_DEL_IN_TEXT, C1, CONTROL_IN_TEXT_RE, CONTROL_RE, CONTROL_RUNS_G, CONTROLS_IN_TEXT_G } from '../../src/core/text/controls';
import { stripAnsi } from '../../src/core/text/ansi';
import { hasHidden, removeHidden } from '../../src/core/text/hidden';
import { sanitizeText } from '../../src/core/text/output';
import { enterReply } from '../../src/core/enterProtocol';
import { validateWebviewMessage } from '../../src/shared/webviewMessages';

/** Every code point from U+0000 to U+00A0, one string each. */
const LOW = Array.from({ length: 0xa1 }, (_, i) => String.fromCharCode(i));
const inClass = (cls: string) => new RegExp(`^[${cls}]$`);

test('the named sets are the C0 controls, DEL and the C1 controls, with tab, line feed and carriage return kept in text', () => {
  assert.deepEqual(LOW.filter(c => inClass(C0_AND_DEL).test(c)).map(c => c.charCodeAt(0)), [...Array(0x20).keys(), 0x7f]);
  assert.deepEqual(LOW.filter(c => inClass(C1).test(c)).map(c => c.charCodeAt(0)), Array.from({ length: 0x20 }, (_, i) => 0x80 + i));
  const inText = LOW.filter(c => inClass(C0_AND_DEL_IN_TEXT).test(c));
  assert.deepEqual(LOW.filter(c => inClass(C0_AND_DEL).test(c) && !inText.includes(c)), ['\t', '\n', '\r']);
  assert.ok(CONTROL_IN_TEXT_RE.test('a\u0007b') && !CONTROL_IN_TEXT_RE.test('a\tb\r\n'));
  assert.ok(CONTROL_RE.test('a\tb') && !CONTROL_RE.test('a b'));
  assert.equal('a\u0000b\tc\u007f'.replace(CONTROLS_IN_TEXT_G, ''), 'ab\tc');
  assert.equal('a\u0000\u0085\u009bb'.replace(CONTROL_RUNS_G, ' '), 'a b');
});

test('stripAnsi takes out exactly the controls of text (its spelled-out class is the named one), the carriage return per line', () => {
  for (const c of LOW) {
    // a line end after it: an ESC before a printable character starts an escape sequence
    const out = stripAnsi(`a${c}\nb`);
    if (c === '\t' || c === '\n') assert.equal(out, `a${c}\nb`, `U+${c.charCodeAt(0).toString(16)}`);
    else if (c === '\r') assert.equal(out, 'a\nb');
    else if (inClass(C0_AND_DEL_IN_TEXT).test(c)) assert.equal(out, 'a\nb', `U+${c.charCodeAt(0).toString(16)}`);
    // a C1 OSC or CSI starts a sequence; every other character stays
    else if (c !== '\u009b' && c !== '\u009d') assert.equal(out, `a${c}\nb`, `U+${c.charCodeAt(0).toString(16)} stays`);
  }
});

test('every reader of control characters agrees with the named sets', () => {
  const controls = LOW.filter(c => inClass(C0_AND_DEL_IN_TEXT).test(c)).join('');
  assert.equal(sanitizeText(`x${controls}\r\ny`), 'x\ny');
  assert.equal(enterReply({ verdict: 'block', line: `stop${controls}\u0085\u009bhere\r\n` }), 'block stop here \n');
  // what a reader does not see: every control (C0, DEL, C1) but the tab and the line feed
  for (const c of LOW.filter(c => inClass(C0_AND_DEL).test(c) || inClass(C1).test(c))) {
    if (c === '\t' || c === '\n') continue;
    assert.ok(hasHidden(`a${c}`), `U+${c.charCodeAt(0).toString(16)}`);
    assert.equal(removeHidden(`a${c}b`), c === '\u0085' ? 'a\nb' : 'ab');
  }
  const typed = validateWebviewMessage({ type: 'search', query: 'bell\u0007' });
  const name = validateWebviewMessage({ type: 'resolve', folder: 'file:///w', key: 'npm\ttest' });
  assert.ok(!typed.ok && /control characters/.test(typed.reason), 'a query with a bell in it is refused');
  assert.ok(!name.ok && /control characters/.test(name.reason), 'a key with a tab in it is refused');
  assert.ok(validateWebviewMessage({ type: 'search', query: 'two\tcolumns\r\n' }).ok);
});
