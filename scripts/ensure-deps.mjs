// Installs what the build and the tests need, when it is missing, before anything uses it: the
// npm packages of package-lock.json (`npm ci` when node_modules is absent or stale against the
// lock file) and the Debian packages of the tests. Plain Node, no dependency: it runs first on a
// fresh clone, where node_modules does not exist yet. When everything is present it only reads
// two JSON files and asks dpkg once (a few tens of ms).
//
// usage: node scripts/ensure-deps.mjs [--npm-only]
//   env: E2E_SKIP_APT=1  never call apt-get (report the missing Debian packages and fail)
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

// chromium: the browser of the end-to-end tests; libkrb5-dev: headers for code-server's kerberos
// module; ripgrep: seeds @vscode/ripgrep's download cache (no GitHub needed); postgresql: the
// team-memory tests start a throwaway cluster; zsh: the shell-hook tests run the zsh snippet too, and
// the Enter gate's tests (integration and end-to-end) run in zsh; fish: the Enter gate's tests run in fish.
export const DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep', 'postgresql', 'zsh', 'fish'];

const log = msg => console.log(`[deps] ${msg}`);

/** Why node_modules does not match package-lock.json, or null when it does. */
export function npmStaleness(dir = root) {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return 'node_modules is missing';
  let want, have;
  try {
    want = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')).packages ?? {};
  } catch (err) {
    return `package-lock.json is unreadable (${err.message})`;
  }
  try {
    // npm's own record of what it installed (npm 7+)
    have = JSON.parse(readFileSync(join(modules, '.package-lock.json'), 'utf8')).packages ?? {};
  } catch {
    return 'node_modules/.package-lock.json is missing (not installed by npm ci)';
  }
  for (const [key, pkg] of Object.entries(want)) {
    if (key === '' || pkg.link) continue;
    const got = have[key];
    if (!got) {
      if (pkg.optional) continue; // optional packages of other platforms are never installed
      return `${key.replace(/^.*node_modules\//, '')} is not installed`;
    }
    if (got.version !== pkg.version) return `${key.replace(/^.*node_modules\//, '')} is ${got.version}, the lock file says ${pkg.version}`;
  }
  for (const key of Object.keys(have)) {
    if (!(key in want)) return `${key.replace(/^.*node_modules\//, '')} is installed but not in the lock file`;
  }
  return null;
}

/** Debian packages of `names` that are not installed; null when this is not a Debian system. */
export function missingDebianPackages(names = DEBIAN_PACKAGES) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${Status}\n', ...names], { encoding: 'utf8' });
  if (r.error) return null; // no dpkg-query
  const installed = new Set(r.stdout.split('\n')
    .filter(line => line.endsWith(' install ok installed'))
    .map(line => line.split(' ')[0].split(':')[0]));
  return names.filter(n => !installed.has(n));
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`\`${[cmd, ...args].join(' ')}\` failed (exit ${r.status ?? r.signal})`);
}

function ensureNpm() {
  const why = npmStaleness();
  if (!why) return;
  const modules = join(root, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    // a shared node_modules (a git worktree's link to the main checkout): `npm ci` would wipe it
    log(`${why}, but node_modules is a symbolic link: not reinstalling it (run \`npm ci\` where it points)`);
    return;
  }
  log(`${why}: npm ci`);
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function ensureDebian() {
  const missing = missingDebianPackages();
  if (missing === null) {
    log(`not a Debian system: make sure ${DEBIAN_PACKAGES.join(', ')} (or their equivalents) are installed`);
    return;
  }
  if (!missing.length) return;
  const howto = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.env.E2E_SKIP_APT === '1') throw new Error(`missing Debian packages: ${missing.join(' ')} (E2E_SKIP_APT=1: not installing). Run as root: ${howto}`);
  let sudo = [];
  if (process.getuid?.() !== 0) {
    const probe = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
    if (probe.error || (probe.status !== 0 && !process.stdin.isTTY)) {
      throw new Error(`missing Debian packages: ${missing.join(' ')}, and this is neither root nor able to use sudo. Run as root: ${howto}`);
    }
    sudo = ['sudo'];
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = args => sudo.length ? run('sudo', ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]) : run('apt-get', args, { env });
  apt(['update', '-q']);
  apt(['install', '-y', '-q', ...missing]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    ensureNpm();
    if (!process.argv.includes('--npm-only')) ensureDebian();
  } catch (err) {
    console.error(`[deps] ${err.message}`);
    process.exit(1);
  }
}
