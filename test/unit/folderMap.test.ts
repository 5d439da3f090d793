// The README's folder map (under "## Development") is where a newcomer starts: it names every folder
// of src/ and test/, every bundle entry at src/'s top, and every folder of the repository (what git
// ignores aside), so that a new one cannot go unexplained.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '../..');

/** The code block that follows the README's "## Development" heading. */
function folderMap(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^## Development\n[^]*?^```\n([^]*?)^```$/m.exec(readme);
  assert.ok(m, 'README.md has a folder map under "## Development"');
  return m[1];
}

const folders = (dir: string) => readdirSync(join(ROOT, dir), { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name);

/** Top-level names .gitignore leaves out (a build's output, what an install or a test run leaves). */
function ignored(): Set<string> {
  const lines = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n');
  return new Set(lines.map(l => l.trim().replace(/^\//, '').replace(/\/$/, '')).filter(l => l && !l.includes('/') && !l.includes('*')));
}

test('the README folder map names every folder of src and test, every entry of src, and every folder of the repository', () => {
  const map = folderMap();
  const skip = ignored();
  const expected = [
    ...folders('.').filter(d => !d.startsWith('.') && !skip.has(d)).map(d => `${d}/`),
    ...folders('src').map(d => `src/${d}/`),
    ...folders('test').map(d => `test/${d}/`),
    ...readdirSync(join(ROOT, 'src')).filter(f => f.endsWith('.ts')),
  ];
  const missing = expected.filter(name => !new RegExp(`(?:^|[\\s(/])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').test(map));
  assert.deepEqual(missing, [], `named nowhere in README.md's folder map: ${missing.join(', ')}`);
});
