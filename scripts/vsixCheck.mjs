// What a VSIX must hold for the extension to work: every file it loads at run time. Used by
// scripts/package.mjs after packaging (a missing file fails the build) and pinned by
// test/unit/vsixCheck.test.ts.
//
// The files loaded at run time are found from what ships, not from a hand-kept list:
//   - package.json: `main`, `bin`, `icon` and every file path in `contributes` (view icons,
//     walkthrough pages and their media)
//   - every bundle the build writes into dist/ (source maps aside)
//   - every file of dist/ or media/ that a shipped bundle names in a string literal
//     ('reflection.js', 'panel.css', 'hook-main.js', 'offline-embedder.bin'…): a webview script,
//     a worker, a data file
//   - every url(…) of a shipped stylesheet (the icon font) and every image a shipped walkthrough page shows
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Extensions of files the extension itself loads (scripts, styles, fonts, data, images, pages). */
const ASSET_RE = /["'`]((?:(?:dist|media)\/)?[\w.-]+\.(?:js|css|ttf|woff2?|bin|svg|png|md))["'`]/g;

/** Top-level files of dist/ a build writes and that ship (source maps do not). */
export function builtBundles(distDir) {
  if (!existsSync(distDir)) return [];
  return readdirSync(distDir)
    .filter(f => !f.endsWith('.map') && statSync(join(distDir, f)).isFile())
    .sort();
}

/** File paths (relative, posix) named anywhere in package.json's contributes, plus main, bin and icon. */
export function manifestFiles(pkg) {
  const out = new Set();
  const add = v => {
    if (typeof v !== 'string') return;
    const p = v.replace(/^\.\//, '');
    if (/^(?:dist|media|docs|models)\/[^\s?#]+\.\w+$/.test(p)) out.add(p);
  };
  add(pkg.main && (pkg.main.endsWith('.js') ? pkg.main : `${pkg.main}.js`));
  add(pkg.icon);
  for (const v of typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {})) add(v);
  const walk = v => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else add(v);
  };
  walk(pkg.contributes ?? {});
  return [...out].sort();
}

/**
 * Files of dist/ or media/ that a text names in a string literal: `'reflection.js'`, `"media/x.png"`.
 * `has(path)` says whether the repository holds that file (a name nothing of ours has is not ours).
 */
export function namedAssets(text, has) {
  const out = new Set();
  for (const m of text.matchAll(ASSET_RE)) {
    const name = m[1];
    const candidates = name.includes('/') ? [name] : [`dist/${name}`, `media/${name}`];
    for (const c of candidates) if (has(c)) out.add(c);
  }
  return [...out].sort();
}

/** `url(./codicon.ttf?hash)` of a stylesheet at `cssPath`, as paths relative to the extension root. */
export function cssUrls(cssText, cssPath) {
  const out = [];
  for (const m of cssText.matchAll(/url\(\s*["']?([^"')?#]+)[^)]*\)/g)) {
    if (/^(?:data:|https?:|\/\/)/.test(m[1])) continue;
    out.push(posix.normalize(posix.join(posix.dirname(cssPath), m[1])));
  }
  return out;
}

/** Images a Markdown page at `mdPath` shows, relative to the extension root. */
export function markdownImages(mdText, mdPath) {
  const out = [];
  for (const m of mdText.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
    if (/^(?:https?:|data:)/.test(m[1])) continue;
    out.push(posix.normalize(posix.join(posix.dirname(mdPath), m[1])));
  }
  return out;
}

/**
 * Every file the extension loads at run time, each with why it is needed, read from the repository
 * at `root` after a production build.
 */
export function runtimeFiles(root) {
  const has = p => existsSync(join(root, ...p.split('/')));
  const read = p => readFileSync(join(root, ...p.split('/')), 'utf8');
  const pkg = JSON.parse(read('package.json'));
  const need = new Map();
  const want = (p, why) => {
    if (!need.has(p)) need.set(p, why);
  };
  for (const p of manifestFiles(pkg)) want(p, 'named in package.json');
  const bundles = builtBundles(join(root, 'dist')).map(f => `dist/${f}`);
  for (const b of bundles) want(b, 'written by the build');
  for (const b of bundles.filter(b => b.endsWith('.js'))) {
    for (const p of namedAssets(read(b), has)) want(p, `loaded by ${b}`);
  }
  for (const p of [...need.keys()]) {
    if (p.endsWith('.css') && has(p)) for (const u of cssUrls(read(p), p)) want(u, `url() in ${p}`);
    if (p.endsWith('.md') && has(p)) for (const u of markdownImages(read(p), p)) want(u, `shown by ${p}`);
  }
  return [...need].map(([path, why]) => ({ path, why }));
}

/** The runtime files a VSIX lacks (`entries`: its paths under extension/, without that prefix). */
export function missingFromVsix(entries, required) {
  const shipped = new Set(entries);
  return required.filter(r => !shipped.has(r.path));
}
