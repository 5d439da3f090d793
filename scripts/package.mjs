// Builds the production bundles and a platform-specific VSIX per target.
//
// usage: node scripts/package.mjs [--target linux-x64[,darwin-arm64…] | --target all] [--out DIR]
//                                 [--with-model DIR [--model-id ID]] [--no-build]
//
// What ships (nothing else): the bundles in dist/ (extension, cli, webview, embed-worker, codicons),
// media/ (icons, panel CSS, walkthrough, the offline embedder's word table), the README's images,
// and for the transformer embedder the ONNX runtime of that target only:
//   dist/node_modules/onnxruntime-node/   package.json, dist/*.js, bin/napi-v6/<os>/<arch>/ (the
//                                          addon and the libraries it loads; no CUDA/TensorRT/…
//                                          execution providers, no other platform)
//   dist/node_modules/onnxruntime-common/ package.json, dist/cjs/*.js
// dist/embed-worker.js resolves require('onnxruntime-node') from dist/, so dist/node_modules is the
// first folder Node looks in. With --with-model DIR, a transformer model folder (config.json,
// tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx) is copied into
// models/<ID>/ (ID: --model-id, default Xenova/all-MiniLM-L6-v2, the id the extension looks for).
//
// The VSIX is assembled in a staging folder: the repository's dist/ never gets a node_modules of
// another platform. Everything is checked after packaging: a stray source map, TypeScript file or
// foreign binary fails the script.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtBundles, missingFromVsix, runtimeFiles as extensionRuntimeFiles } from './vsixCheck.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
/** Bundles that must exist after the build (every other file the build writes ships too). */
// hook.js runs hook-main.js (the agent hooks' small bundle) or, for a post, hook-post.js; hook-record.js is the
// store's; team-sync.js is the detached team sync; webview.js is the memory panel, reflection.js the reflection view
const DIST_REQUIRED = ['extension.js', 'cli.js', 'embed-worker.js', 'hook.js', 'hook-main.js', 'hook-post.js', 'hook-record.js', 'team-sync.js', 'webview.js', 'reflection.js'];
/** Execution providers loaded by name only when asked for (GPUs, NPUs): never shipped. */
const PROVIDER_LIB = /onnxruntime_providers_/i;
const ORT = join(ROOT, 'node_modules', 'onnxruntime-node');
const ORT_COMMON = join(ROOT, 'node_modules', 'onnxruntime-common');

class PackageError extends Error {}
function fail(message) {
  throw new PackageError(message);
}

const args = process.argv.slice(2);
// the last one wins: `npm run package -- --target darwin-arm64` comes after the script's own --target
const opt = (name, def) => {
  const i = args.lastIndexOf(`--${name}`);
  if (i < 0) return def;
  if (!args[i + 1] || args[i + 1].startsWith('--')) fail(`--${name} needs a value`);
  return args[i + 1];
};

/** The folder of onnxruntime-node's prebuilt addon for a target, or undefined. */
function ortBinDir(target) {
  const [os, arch] = target.split('-');
  const bin = join(ORT, 'bin');
  if (!existsSync(bin)) return undefined;
  for (const napi of readdirSync(bin).filter(d => d.startsWith('napi-v')).sort().reverse()) {
    const dir = join(bin, napi, os, arch);
    if (existsSync(join(dir, 'onnxruntime_binding.node'))) return dir;
  }
  return undefined;
}

/** Targets whose onnxruntime-node binary is in node_modules. */
function availableTargets() {
  return TARGETS.filter(t => ortBinDir(t));
}

/**
 * The files of a target's bin folder that run: the addon and, transitively, every library of the
 * folder whose name one of them names (libonnxruntime.so.1; DirectML.dll…), minus execution
 * providers. On macOS this also drops libonnxruntime.<version>.dylib, a copy the addon never loads.
 */
function runtimeFiles(binDir) {
  const files = readdirSync(binDir).filter(f => statSync(join(binDir, f)).isFile() && !PROVIDER_LIB.test(f));
  const keep = new Set(['onnxruntime_binding.node']);
  for (let grew = true; grew; ) {
    grew = false;
    const texts = [...keep].map(f => readFileSync(join(binDir, f)).toString('latin1'));
    for (const f of files) {
      if (!keep.has(f) && texts.some(t => t.includes(f))) {
        keep.add(f);
        grew = true;
      }
    }
  }
  return [...keep].sort();
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile())
    .map(e => relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join('/'));
}

/** Copies the model in `dir` (a model folder, or a root holding <modelId>/) into <stage>/models/<modelId>/. */
function copyModel(dir, modelId, stage) {
  const src = [dir, join(dir, ...modelId.split('/'))].find(d => MODEL_FILES.every(f => existsSync(join(d, ...f.split('/')))));
  if (!src) fail(`--with-model ${dir}: no complete model there (needs ${MODEL_FILES.join(', ')}, in the folder or in ${modelId}/)`);
  const dest = join(stage, 'models', ...modelId.split('/'));
  for (const f of MODEL_FILES) copy(join(src, ...f.split('/')), join(dest, ...f.split('/')));
  // weights stored beside the graph (models over 2 GB) go along
  for (const f of readdirSync(join(src, 'onnx')).filter(f => f.startsWith('model_quantized.onnx_data'))) copy(join(src, 'onnx', f), join(dest, 'onnx', f));
  return dest;
}

function stageTarget(target, stage, modelDir, modelId) {
  const binDir = ortBinDir(target);
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) {
    if (existsSync(join(ROOT, f))) copy(join(ROOT, f), join(stage, f));
  }
  for (const f of DIST_REQUIRED) if (!existsSync(join(ROOT, 'dist', f))) fail(`dist/${f} missing after the build`);
  for (const f of builtBundles(join(ROOT, 'dist'))) copy(join(ROOT, 'dist', f), join(stage, 'dist', f));
  // media/: everything but the icon's SVG source (scripts/render-icon.mjs draws media/icon.png from it)
  cpSync(join(ROOT, 'media'), join(stage, 'media'), { recursive: true, filter: src => basename(src) !== 'icon.svg' });
  // only the images the README and the changelog show
  for (const doc of ['README.md', 'CHANGELOG.md']) {
    if (!existsSync(join(ROOT, doc))) continue;
    for (const m of readFileSync(join(ROOT, doc), 'utf8').matchAll(/\]\((\.\/)?(docs\/images\/[^)\s]+)\)/g)) {
      if (existsSync(join(ROOT, m[2]))) copy(join(ROOT, m[2]), join(stage, m[2]));
    }
  }
  // the ONNX runtime for this target only
  const ortOut = join(stage, 'dist', 'node_modules', 'onnxruntime-node');
  copy(join(ORT, 'package.json'), join(ortOut, 'package.json'));
  for (const f of readdirSync(join(ORT, 'dist')).filter(f => f.endsWith('.js'))) copy(join(ORT, 'dist', f), join(ortOut, 'dist', f));
  const binRel = relative(ORT, binDir);
  for (const f of runtimeFiles(binDir)) copy(join(binDir, f), join(ortOut, binRel, f));
  const commonOut = join(stage, 'dist', 'node_modules', 'onnxruntime-common');
  copy(join(ORT_COMMON, 'package.json'), join(commonOut, 'package.json'));
  // dist/cjs/package.json says {"type": "commonjs"} (the package itself is "type": "module")
  for (const f of listFiles(join(ORT_COMMON, 'dist', 'cjs')).filter(f => f.endsWith('.js') || f.endsWith('package.json'))) copy(join(ORT_COMMON, 'dist', 'cjs', f), join(commonOut, 'dist', 'cjs', f));
  if (modelDir) copyModel(modelDir, modelId, stage);
  return binRel.split(sep).join('/');
}

/** Files of a VSIX (extension/… paths) with their uncompressed sizes. */
function vsixEntries(file) {
  const out = execFileSync('unzip', ['-Z', '-l', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const entries = [];
  for (const line of out.split('\n')) {
    const m = /^[-dl][^\s]*\s+\S+\s+\S+\s+(\d+)\s+\S+\s+(\d+)\s+\S+\s+\S+\s+\S+\s+(.+)$/.exec(line);
    if (m) entries.push({ path: m[3], size: Number(m[1]), compressed: Number(m[2]) });
  }
  return entries;
}

/** Fails when the VSIX holds something that should not ship. */
function checkVsix(file, target, binRel, withModel) {
  const entries = vsixEntries(file).filter(e => e.path.startsWith('extension/')).map(e => ({ ...e, path: e.path.slice('extension/'.length) }));
  const bad = entries.filter(
    e =>
      /\.(map|ts|tsx|mts|cts)$/.test(e.path) ||
      /^(src|test|bench|scripts|webview|node_modules)\//.test(e.path) ||
      /(^|\/)(onnxruntime-web|sharp|@img|typescript)\//.test(e.path) ||
      PROVIDER_LIB.test(e.path) ||
      (e.path.includes('/bin/napi-v') && !e.path.includes(`/${binRel}/`)) ||
      /^(tsconfig|eslint\.config|esbuild|package-lock)/.test(e.path),
  );
  if (bad.length) fail(`${file} holds files that must not ship:\n  ${bad.map(e => e.path).join('\n  ')}`);
  // every file the extension loads at run time (scripts/vsixCheck.mjs says how they are found)
  const missing = missingFromVsix(entries.map(e => e.path), extensionRuntimeFiles(ROOT));
  if (missing.length) fail(`${file} lacks files the extension loads at run time:\n  ${missing.map(m => `${m.path} (${m.why})`).join('\n  ')}`);
  for (const f of [...DIST_REQUIRED.map(f => `dist/${f}`), 'media/offline-embedder.bin', 'dist/node_modules/onnxruntime-node/package.json', 'dist/node_modules/onnxruntime-common/package.json', 'dist/node_modules/onnxruntime-common/dist/cjs/package.json', `dist/node_modules/onnxruntime-node/${binRel}/onnxruntime_binding.node`]) {
    if (!entries.some(e => e.path === f)) fail(`${file} lacks ${f}`);
  }
  // the Enter gate's scripts: the terminals' shells source them by path, no bundle names them
  for (const f of readdirSync(join(ROOT, 'media', 'shell'))) if (!entries.some(e => e.path === `media/shell/${f}`)) fail(`${file} lacks media/shell/${f}`);
  if (withModel && !entries.some(e => e.path.startsWith('models/') && e.path.endsWith('.onnx'))) fail(`${file} lacks the model`);
  return entries;
}

const kb = b => `${(b / 1024).toFixed(0)} KB`;
const mb = b => `${(b / 1024 / 1024).toFixed(1)} MB`;

/** Size of each part of a VSIX, uncompressed and compressed, for the summary line. */
function summarize(entries) {
  const groups = [
    ['onnxruntime', e => e.path.startsWith('dist/node_modules/')],
    ['model', e => e.path.startsWith('models/')],
    ['bundles', e => e.path.startsWith('dist/')],
    ['media', e => e.path.startsWith('media/')],
    ['other', () => true],
  ];
  const sums = groups.map(([name]) => ({ name, size: 0, compressed: 0, files: 0 }));
  for (const e of entries) {
    const i = groups.findIndex(([, match]) => match(e));
    sums[i].size += e.size;
    sums[i].compressed += e.compressed;
    sums[i].files++;
  }
  return sums.filter(s => s.files);
}

async function main() {
  const targetArg = opt('target', `${process.platform}-${process.arch}`);
  const targets = targetArg === 'all' ? availableTargets() : targetArg.split(',').map(t => t.trim()).filter(Boolean);
  const outDir = resolve(opt('out', join(ROOT, 'dist-vsix')));
  const modelArg = opt('with-model', undefined);
  const modelDir = modelArg ? resolve(modelArg) : undefined;
  const modelId = opt('model-id', DEFAULT_MODEL_ID);
  for (const t of targets) {
    if (!TARGETS.includes(t)) fail(`unknown target ${t}: use one of ${TARGETS.join(', ')} (or all)`);
    if (!ortBinDir(t)) {
      fail(
        `no onnxruntime-node binary for ${t} in node_modules/onnxruntime-node/bin/napi-v*/${t.replace('-', '/')}/ ` +
          `(this onnxruntime-node ships: ${availableTargets().join(', ') || 'none'}). A ${t} VSIX without it could not run the embedding model.`,
      );
    }
  }
  if (!targets.length) fail('no target');
  if (modelDir && !existsSync(modelDir)) fail(`--with-model ${modelArg}: no such folder`);

  // a development build (with source maps) in dist/ is put back afterwards: tests and F5 use it
  const devBuild = existsSync(join(ROOT, 'dist', 'extension.js.map'));
  const build = !args.includes('--no-build');
  if (build) execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
  try {
    await packageAll(targets, outDir, modelDir, modelId);
  } finally {
    if (build && devBuild) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  }
}

async function packageAll(targets, outDir, modelDir, modelId) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  mkdirSync(outDir, { recursive: true });
  const results = [];
  for (const target of targets) {
    const stage = mkdtempSync(join(tmpdir(), `fm-vsix-${target}-`));
    try {
      const binRel = stageTarget(target, stage, modelDir, modelId);
      const out = join(outDir, `${pkg.name}-${pkg.version}-${target}.vsix`);
      rmSync(out, { force: true });
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--target', target, '--out', out],
        { cwd: stage, stdio: ['ignore', 'inherit', 'inherit'] },
      );
      const entries = checkVsix(out, target, binRel, !!modelDir);
      const size = statSync(out).size;
      const parts = summarize(entries);
      results.push({ target, file: relative(process.cwd(), out) || out, size, unpacked: entries.reduce((s, e) => s + e.size, 0), files: entries.length, parts });
      console.log(`VSIX: ${relative(process.cwd(), out)} — ${mb(size)} (${kb(size)}), ${entries.length} files, target ${target}`);
      for (const p of parts) console.log(`  ${p.name.padEnd(12)} ${String(p.files).padStart(3)} files  ${mb(p.size).padStart(8)} unpacked  ${mb(p.compressed).padStart(8)} in the VSIX`);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
  // for bench/run.mjs and the README's size table
  const report = opt('report', undefined);
  if (report) writeFileSync(report, JSON.stringify({ version: pkg.version, model: modelDir ? modelId : null, results }, null, 2));
}

try {
  await main();
} catch (err) {
  if (!(err instanceof PackageError)) throw err;
  console.error(`package: ${err.message}`);
  process.exitCode = 1;
}
