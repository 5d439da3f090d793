// Installs the pinned agent harness CLIs from the npm registry into <repo>/.agents (git-ignored),
// once: a stamp written after a complete install names the versions and the Node ABI, so a second
// run only reads it (a clean CI clone installs them once, about two minutes). Two installs at once
// (CI and a developer) are serialized by a lock file.
//
// usage: node test/agents/install.mjs      (or imported: ensureHarnesses())
//   env: AGENTS_DIR (default <repo>/.agents)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '../..');

/** The harness programs the suite runs, at the versions it was written against. */
export const HARNESS_PACKAGES = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  cline: { pkg: 'cline', version: '3.0.65', bin: 'cline' },
};

export const agentsDir = () => path.resolve(process.env.AGENTS_DIR || path.join(REPO_ROOT, '.agents'));
export const binOf = id => path.join(agentsDir(), 'harnesses', 'node_modules', '.bin', HARNESS_PACKAGES[id].bin);

const want = () => `${Object.values(HARNESS_PACKAGES).map(p => `${p.pkg}@${p.version}`).join(' ')} node-abi=${process.versions.modules}`;

/** Installs what is missing; returns { installed, ms }. Throws with npm's message when it fails. */
export function ensureHarnesses(log = msg => console.log(`[agents] ${msg}`)) {
  const t0 = Date.now();
  const dir = path.join(agentsDir(), 'harnesses');
  const stamp = path.join(dir, '.installed');
  const read = () => { try { return fs.readFileSync(stamp, 'utf8'); } catch { return ''; } };
  if (read() === want()) return { installed: false, ms: Date.now() - t0 };
  fs.mkdirSync(dir, { recursive: true });
  // flock through the shell: Node has no file lock of its own
  const lockFile = path.join(agentsDir(), '.install.lock');
  const script = [
    'set -e',
    // its own package.json first, or npm would walk up and install into the repository
    `[ -f package.json ] || printf '{ "name": "agents-harnesses", "private": true, "version": "0.0.0" }\\n' > package.json`,
    `npm install --no-audit --no-fund --save-exact --loglevel=error ${Object.values(HARNESS_PACKAGES).map(p => `${p.pkg}@${p.version}`).join(' ')}`,
  ].join('\n');
  log(`installing ${want()} into ${dir} (once; about two minutes)`);
  fs.rmSync(stamp, { force: true });
  const r = spawnSync('flock', [lockFile, 'bash', '-c', `[ "$(cat .installed 2>/dev/null)" = "${want()}" ] && exit 0; ${script}`], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  if (r.error) throw new Error(`installing the harnesses: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`installing the harnesses: npm exited ${r.status}`);
  for (const id of Object.keys(HARNESS_PACKAGES)) {
    if (!fs.existsSync(binOf(id))) throw new Error(`${HARNESS_PACKAGES[id].pkg}: ${binOf(id)} missing after the install`);
  }
  fs.writeFileSync(stamp, want());
  return { installed: true, ms: Date.now() - t0 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { installed, ms } = ensureHarnesses();
  console.log(`[agents] harnesses ${installed ? 'installed' : 'present'} in ${ms} ms: ${agentsDir()}`);
}
