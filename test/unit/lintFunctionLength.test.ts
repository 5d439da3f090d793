// The function-length rule of eslint.config.mjs on fixture texts at virtual paths (no real file is
// touched): over 80 lines fails in src/ and webview/, blank lines and comments do not count, and an
// eslint-disable comment with its reason lets a longer one through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: path.join(root, 'eslint.config.mjs'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'max-lines-per-function',
});

/**
 * A function of `lines` lines in all (its header, `lines - 2` statements, its closing brace);
 * `between` follows each statement, `above` stands on the line above the function.
 */
function fn(lines: number, between = '', above = ''): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  n += ${i};${between}`).join('\n');
  return `let n = 0;\n${above}export function long(): void {\n${body}\n}\nexport const m = n;\n`;
}

async function tooLong(file: string, source: string): Promise<boolean> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  assert.equal(result.fatalErrorCount, 0, result.messages.map(m => m.message).join('\n'));
  return result.messages.some(m => m.ruleId === 'max-lines-per-function');
}

test('a function over 80 lines fails in src and webview; 80 passes', async () => {
  for (const file of ['src/core/__fn_fixture__.ts', 'src/host/__fn_fixture__.ts', 'webview/__fn_fixture__.ts']) {
    assert.equal(await tooLong(file, fn(80)), false, `${file}: 80 lines`);
    assert.equal(await tooLong(file, fn(81)), true, `${file}: 81 lines`);
  }
});

test('blank lines and comments do not count', async () => {
  assert.equal(await tooLong('src/core/__fn_fixture__.ts', fn(80, '\n\n  // why')), false);
});

test('a longer function passes with an eslint-disable comment that says why', async () => {
  const reasoned = fn(120, '', '// eslint-disable-next-line max-lines-per-function -- one scan over shared state\n');
  assert.equal(await tooLong('src/core/__fn_fixture__.ts', fn(120)), true);
  assert.equal(await tooLong('src/core/__fn_fixture__.ts', reasoned), false);
});
