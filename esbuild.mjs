// Bundles the extension host code, the CLI and (when present) the webview.
// usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints esbuild problems in a form VS Code's $esbuild-watch problem matcher understands. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd(result => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  plugins: watch ? [problemMatcher] : [],
  // jsonc-parser's "main" is a UMD build whose require()s esbuild cannot follow: bundle its ES modules
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

// The embedding worker (src/embeddings/worker.ts → dist/embed-worker.js), started by the transformer
// embedder on first use. @huggingface/transformers is bundled into it; onnxruntime-node (a native
// .node addon) and onnxruntime-common (which must be the very instance onnxruntime-node registers
// its backend with) stay external and load from node_modules at run time; sharp (images only) is
// replaced by a stub so that its native libvips need not ship.
const stubSharp = {
  name: 'stub-sharp',
  setup(build) {
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: 'sharp', namespace: 'stub' }));
    build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: 'module.exports = function sharp() { throw new Error("sharp (image processing) is not bundled with Failure Memory"); };',
      loader: 'js',
    }));
  },
};

const configs = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { cli: 'src/cli.ts' }, outdir: 'dist', external: ['vscode'], banner: { js: '#!/usr/bin/env node' } },
  // the team sync that the CLI, the hooks and MCP start detached (src/app/teamSync.ts)
  { ...node, entryPoints: { 'team-sync': 'src/teamSync.ts' }, outdir: 'dist', external: ['vscode'] },
  // the hook path alone: no MCP SDK, no zod, no embeddings (a hook costs about one Node start)
  // dist/hook.js runs dist/hook-main.js (a post call: dist/hook-post.js) with a V8 code cache; the
  // store's dist/hook-record.js is loaded only to fold the journal, for team memory or an old memory.json
  { ...node, entryPoints: { hook: 'src/hookLoader.ts', 'hook-main': 'src/hook.ts', 'hook-post': 'src/hookPost.ts', 'hook-record': 'src/agents/hooks/record.ts' }, outdir: 'dist', external: ['vscode'], minify: true, sourcemap: false },
  { ...node, entryPoints: { 'embed-worker': 'src/embeddings/worker.ts' }, outdir: 'dist', external: ['vscode', 'onnxruntime-node', 'onnxruntime-common'], plugins: [...node.plugins, stubSharp] },
];
if (existsSync('webview/main.ts')) {
  configs.push({
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', minify: production, metafile: true,
    sourcemap: !production, sourcesContent: false, logLevel: 'warning', plugins: watch ? [problemMatcher] : [],
    entryPoints: { webview: 'webview/main.ts', reflection: 'webview/reflection.ts' }, outdir: 'dist',
  });
  // the panel's icon font, served from dist/ (the webview may load nothing outside dist/ and media/)
  mkdirSync('dist', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/${f}`);
}

if (watch) {
  for (const c of configs) await (await esbuild.context(c)).watch();
} else {
  const results = await Promise.all(configs.map(c => esbuild.build(c)));
  // what each bundle holds, for its size budget (test/integration/bundles.test.ts); in a folder of
  // its own, which nothing ships (the VSIX takes dist/'s top-level files)
  mkdirSync('dist/meta', { recursive: true });
  writeFileSync('dist/meta/bundles.json', JSON.stringify({ outputs: Object.assign({}, ...results.map(r => r.metafile.outputs)) }));
}
