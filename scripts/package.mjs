// Builds the production bundles and a platform-specific VSIX.
// usage: node scripts/package.mjs [--target linux-x64] [--out DIR]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const target = opt('target', `${process.platform}-${process.arch}`);
const outDir = opt('out', 'dist-vsix');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = join(outDir, `${pkg.name}-${pkg.version}-${target}.vsix`);

mkdirSync(outDir, { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
// everything the extension runs is bundled into dist/: no node_modules in the package
execFileSync(
  process.execPath,
  [join('node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--target', target, '--out', out],
  { stdio: 'inherit' },
);
console.log(`VSIX: ${out} (${(statSync(out).size / 1024).toFixed(0)} KB, target ${target})`);
