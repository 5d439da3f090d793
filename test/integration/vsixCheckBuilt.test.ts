// The packaging check (scripts/vsixCheck.mjs) on this repository's own build: it needs `node esbuild.mjs`
// first (the tiers build before the integration tests), so it is not a pure unit test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const check = import('../../scripts/vsixCheck.mjs');

test('the repository itself: every asset the host loads is a runtime file (the reflection view script among them)', async () => {
  const { runtimeFiles } = await check;
  const root = join(__dirname, '..', '..');
  const paths = runtimeFiles(root).map(f => f.path);
  for (const p of ['dist/extension.js', 'dist/reflection.js', 'dist/webview.js', 'media/panel.css', 'media/reflection.css', 'dist/codicon.ttf', 'media/offline-embedder.bin']) {
    assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
  }
});
