// Untrusted text shown by VS Code: never a link, never a secret in the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logText, inertText as plainText } from '../../src/core/text/untrusted';
import { errorSignature } from '../../src/core/text/signature';

const ZWSP = '\u200b';
/** What VS Code's notification and markdown renderers would turn into a link. */
const LINKISH = /\]\(|\]\[|\b(?:command|vscode|file|javascript|data|mailto):|\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|<[a-z!/]/i;

test('an output line crafted as a command link becomes inert text, readable once the zero-width spaces are gone', () => {
  const line = '[Open the fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)';
  const sig = errorSignature(`Error: boom\n${line}\n`);
  for (const s of [line, sig, `${line} <https://evil.example> www.evil.example ![img](data:x) [a][b] <img src=x>`]) {
    const safe = plainText(s);
    assert.doesNotMatch(safe, LINKISH, safe);
    assert.equal(safe.replaceAll(ZWSP, ''), s.replace(/\s+$/, ''));
  }
});

test('plainText drops escapes, control and bidi characters, and bounds the length', () => {
  assert.equal(plainText('\u001b[31mred\u001b[0m \u202eevil'), 'red evil');
  assert.equal(plainText('x'.repeat(5000), 100).length, 100);
  assert.equal(plainText(undefined), '');
});

test('log lines are redacted and defused', () => {
  const line = logText('[guard] BLOCKED (interrupted) terminal `curl -H "Authorization: Bearer abcdef0123456789abcdef" https://api.example.com`');
  assert.doesNotMatch(line, /abcdef0123456789/);
  assert.match(line, /\[REDACTED:authorization\]/);
  assert.doesNotMatch(line, LINKISH);
});
