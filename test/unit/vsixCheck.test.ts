// The packaging check (scripts/vsixCheck.mjs): the files the extension loads at run time are found
// from what ships (package.json, the bundles the build writes, the assets the bundles name, the
// stylesheets' urls, the walkthrough's images), and a VSIX without one of them is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempFolders } from '../support/tempFolders';

const check = import('../../scripts/vsixCheck.mjs');
const newRoot = tempFolders('fm-vsixcheck-');

/** An extension folder after a build: package.json, dist/ bundles and media/. */
function extensionFolder(files: Record<string, string>): string {
  const root = newRoot();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const PKG = JSON.stringify({
  main: './dist/extension.js',
  bin: { tool: 'dist/cli.js' },
  icon: 'media/icon.png',
  contributes: {
    viewsContainers: { activitybar: [{ id: 'x', title: 'X', icon: 'media/activity.svg' }] },
    walkthroughs: [{ steps: [{ media: { markdown: 'media/walkthrough/one.md' } }] }],
    commands: [{ command: 'x.run', title: 'Run' }],
  },
});

const BUILT = {
  'package.json': PKG,
  // the host names its webview assets by file name, as src/host/panel.ts does
  'dist/extension.js': "const page = { css: 'panel.css', script: 'webview.js' }; const other = { script: \"reflection.js\" }; require('./other.js');",
  'dist/extension.js.map': '{}',
  'dist/cli.js': "const table = path.join(__dirname, '..', 'media', 'words.bin');",
  'dist/webview.js': '',
  'dist/reflection.js': '',
  'dist/codicon.css': '@font-face { src: url("./codicon.ttf?abc") format("truetype"); }',
  'dist/codicon.ttf': '',
  'media/icon.png': '',
  'media/activity.svg': '',
  'media/panel.css': '',
  'media/words.bin': '',
  'media/walkthrough/one.md': '# One\n![the panel](../shot.png)\n![remote](https://example.com/x.png)\n',
  'media/shot.png': '',
};

test('runtime files: package.json paths, every built bundle, assets the bundles name, css urls, walkthrough images', async () => {
  const { runtimeFiles } = await check;
  const files = runtimeFiles(extensionFolder(BUILT));
  const paths = files.map(f => f.path).sort();
  assert.deepEqual(paths, [
    'dist/cli.js',
    'dist/codicon.css',
    'dist/codicon.ttf',
    'dist/extension.js',
    'dist/reflection.js',
    'dist/webview.js',
    'media/activity.svg',
    'media/icon.png',
    'media/panel.css',
    'media/shot.png',
    'media/walkthrough/one.md',
    'media/words.bin',
  ]);
  assert.ok(!paths.some(p => p.endsWith('.map')), 'source maps are not runtime files');
  assert.ok(!paths.includes('dist/other.js'), 'a name the repository does not have is not ours');
  assert.equal(files.find(f => f.path === 'media/panel.css')?.why, 'loaded by dist/extension.js');
  assert.equal(files.find(f => f.path === 'media/shot.png')?.why, 'shown by media/walkthrough/one.md');
});

test('a VSIX without the reflection view script is refused, naming the file and why it is needed', async () => {
  const { runtimeFiles, missingFromVsix } = await check;
  const required = runtimeFiles(extensionFolder(BUILT));
  const everything = required.map(r => r.path);
  assert.deepEqual(missingFromVsix([...everything, 'package.json'], required), []);
  const withoutReflection = everything.filter(p => p !== 'dist/reflection.js');
  assert.deepEqual(missingFromVsix(withoutReflection, required), [{ path: 'dist/reflection.js', why: 'written by the build' }]);
});

test('a VSIX holding only the main bundle lacks the worker that bundle starts', async () => {
  const { runtimeFiles, missingFromVsix } = await check;
  const root = extensionFolder({ ...BUILT, 'dist/extension.js': "new Worker(path.join(__dirname, 'embed-worker.js'))", 'dist/embed-worker.js': '' });
  const missing = missingFromVsix(['package.json', 'dist/extension.js'], runtimeFiles(root)).map(m => m.path);
  assert.ok(missing.includes('dist/embed-worker.js'), missing.join(', '));
});

test('manifest paths: main without .js, a string bin, and nothing that is not a file path', async () => {
  const { manifestFiles } = await check;
  assert.deepEqual(manifestFiles({ main: 'dist/extension', bin: 'dist/cli.js', contributes: { commands: [{ title: 'media/not a path' }], x: 'https://example.com/a.png' } }), [
    'dist/cli.js',
    'dist/extension.js',
  ]);
});
