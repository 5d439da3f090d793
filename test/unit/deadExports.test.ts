// No dead export in src/ or webview/: an export that no other file uses (not src, the tests, the
// benchmarks nor the scripts) and that its own file does not use either is code nobody runs, or a
// re-export nobody imports through. ../support/deadExports.ts finds them; the exports a bundle's entry
// offers (esbuild.mjs's entry points) count as used. An export used only inside its own file is
// allowed: a type in an exported signature reads better exported.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { deadExports, sourceFiles } from '../support/deadExports';
import { tempFolders } from '../support/tempFolders';

const ROOT = resolve(__dirname, '../..');
const temp = tempFolders('fm-dead-exports-');

/** The entry points esbuild.mjs bundles: what they export is called from outside (VS Code, a loader). */
function entries(): string[] {
  return [...readFileSync(join(ROOT, 'esbuild.mjs'), 'utf8').matchAll(/'((?:src|webview)\/[\w/.-]+\.ts)'/g)].map(m => join(ROOT, m[1]));
}

test('no export in src or webview is used nowhere', () => {
  const files = sourceFiles(ROOT, ['src', 'webview']);
  const consumers = [...sourceFiles(ROOT, ['test', 'bench', 'scripts']), ...['esbuild.mjs', '.vscode-test.mjs'].map(f => join(ROOT, f))];
  const dead = deadExports(ROOT, files, consumers, entries()).filter(d => !d.local);
  assert.deepEqual(dead.map(d => `${d.file}:${d.line} ${d.name}`), [], 'remove these (or use them): no other file imports them and their own file does not use them');
});

test('what counts as used: an import by name, a namespace member, a re-export that is used, a module loaded whole, an entry', () => {
  const root = temp();
  const put = (f: string, text: string) => {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  };
  put('src/a.ts', 'export const named = 1;\nexport const viaNamespace = 2;\nexport const viaBarrel = 3;\nexport const unused = 4;\nexport type Local = number;\nexport const typed: Local = 5;\n');
  put('src/b.ts', 'export function dynamic() {}\nexport function other() {}\n');
  put('src/index.ts', "export { viaBarrel, unused as renamed } from './a';\nexport * from './c';\n");
  put('src/c.ts', 'export const starred = 6;\nexport const notStarred = 7;\n');
  put('src/entry.ts', 'export function activate() {}\n');
  put('test/x.test.ts', "import { named } from '../src/a';\nimport * as a from '../src/a';\nimport { viaBarrel, starred } from '../src/index';\nexport const all = [named, a.viaNamespace, viaBarrel, starred, import('../src/b')];\n");
  const files = sourceFiles(root, ['src']);
  const dead = deadExports(root, files, sourceFiles(root, ['test']), [join(root, 'src/entry.ts')]);
  assert.deepEqual(dead.map(d => `${d.file} ${d.name}${d.local ? ' (local)' : ''}`).sort(), [
    'src/a.ts Local (local)',
    'src/a.ts typed',
    'src/a.ts unused',
    'src/c.ts notStarred',
    'src/index.ts renamed',
  ]);
});
