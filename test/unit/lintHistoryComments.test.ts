// The comment rule of eslint.config.mjs on fixture texts at virtual paths (no real file is touched):
// an issue or seed number in a comment under src/ or webview/ is an error, in a line or block comment,
// while the same words in code (a string) or outside src pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintWithRule } from '../support/lintRule';

const flagged = lintWithRule('local/no-history-comments');

test('an issue or seed number in a comment under src is an error, whatever the comment style', async () => {
  for (const comment of ['// the gate (issue 10)', '/** approach identity (seed 001) */', '/* see Issue #24 */', '// seeds 3 and 4']) {
    const messages = await flagged('src/core/x.ts', `${comment}\nexport const x = 1;\n`);
    assert.equal(messages.length, 1, comment);
    assert.match(messages[0], /say why the code is as it is/);
  }
  assert.equal((await flagged('webview/x.ts', '// issue 4\nexport const x = 1;\n')).length, 1);
});

test('a comment that says why passes, and so do the same words in code', async () => {
  assert.deepEqual(await flagged('src/core/x.ts', '// an issue with 3 retries: the seed of the random walk\nexport const x = 1;\n'), []);
  assert.deepEqual(await flagged('src/core/x.ts', "export const x = 'issue 10';\n"), []);
  assert.deepEqual(await flagged('bench/x.mjs', "line('### Engine (issue 2)');\n"), []);
});

test('tests, benchmarks and scripts cite none either, in a comment or in a test\'s name', async () => {
  assert.equal((await flagged('test/unit/x.test.ts', '// issue 12: hostile file systems\nexport const x = 1;\n')).length, 1);
  assert.equal((await flagged('bench/x.mjs', '// the engine (issue 2)\nexport const x = 1;\n')).length, 1);
  assert.equal((await flagged('test/e2e/x.e2e.mjs', '/* as issue 26 tells it */\nexport const x = 1;\n')).length, 1);
  const named = await flagged('test/unit/x.test.ts', "import { describe, test } from 'node:test';\ndescribe('misses found in issue 12', () => {\n  test(`patterns (seed 000)`, () => {});\n  void test('bounded, as it should be', () => {});\n});\n");
  assert.equal(named.length, 2, named.join('\n'));
  assert.match(named[0], /^Test name cites "issue 12": say what holds/);
});
