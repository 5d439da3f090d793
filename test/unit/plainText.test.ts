import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { helpFacts, reactionTo } from '../../src/core/rules/guardVerdict';
import { checkCommand } from '../../src/core/rules/check';
import { plainText } from '../../src/core/text/plainText';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';
import { makeRecorder } from '../support/reflection';

// VS Code's notification renderer links `[text](target)` for http(s), command: and file: targets.
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/;

describe('plainText: untrusted text shown where markup renders', () => {
  test('an output line with a command link can never become a clickable link', () => {
    const line = '[Open the fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)';
    const out = plainText(line);
    assert.doesNotMatch(out, NOTIFICATION_LINK);
    assert.doesNotMatch(out, /command:\S/);
    assert.match(out, /Open the fix/, 'the words stay readable');
  });

  test('http links, autolinks and file links are broken too', () => {
    for (const s of ['[x](https://evil.example/a)', '<https://evil.example>', '[y](file:///etc/passwd)', 'see [z] (command:foo)']) {
      const out = plainText(s);
      assert.doesNotMatch(out, NOTIFICATION_LINK, s);
      assert.doesNotMatch(out, /<https?:/, s);
    }
  });

  test('icons, control and bidi characters, newlines', () => {
    assert.equal(plainText('$(alert) fake'), '$ (alert) fake');
    assert.equal(plainText('a\nb\r\n\tc'), 'a b c');
    assert.equal(plainText('ok\u202eevil\u0007'), 'okevil', 'what a person sees is what a model reads: invisible characters go');
  });

  test('long text is cut with an ellipsis', () => {
    const out = plainText('x'.repeat(1000), 50);
    assert.equal(out.length, 50);
    assert.ok(out.endsWith('…'));
  });

  test('ordinary error lines are unchanged', () => {
    const line = "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: (3 !== 4) at test/a.js:3:5";
    assert.equal(plainText(line), line);
  });
});

describe('the crafted output line, through the real pipeline (#12)', () => {
  const LINK = 'Error: [Open the fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)';

  test('"same error twice" and the help dialog show it as text that cannot link', () => {
    const { run } = makeRecorder();
    const data = emptyMemory();
    for (let i = 0; i < 4; i++) run(data, 'node build.js', 1, LINK);
    const r = run(data, 'node build.js', 1, LINK);
    const check = checkCommand(data, 'node build.js', '.', DEFAULT_SETTINGS);
    const shown = [helpFacts(check, r.approach).lastErrorLine];
    const again = emptyMemory();
    run(again, 'node build.js', 1, LINK);
    const twice = reactionTo(run(again, 'node build.js', 1, LINK), true);
    assert.equal(twice.kind, 'sameError');
    if (twice.kind === 'sameError') shown.push(twice.line);
    for (const line of shown) {
      assert.match(line, /command:workbench/, 'the raw line does carry the link');
      assert.doesNotMatch(plainText(line), NOTIFICATION_LINK);
      assert.doesNotMatch(plainText(line), /command:\S/);
    }
  });
});
