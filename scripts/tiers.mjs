// The test tiers, timed. One entry point so that `npm test` builds once and says where the time went.
//   check  typecheck and lint side by side (two cores, each single-threaded), then the pure unit
//          tests (test/unit, one process, no build): the fast gate a contributor runs before a commit;
//   all    what is missing installed (scripts/ensure-deps.mjs), check, one build, then the
//          integration tier (test/integration: the built CLI and hooks, PostgreSQL, store stress,
//          real time), the property-based and stress tests at full scale (scripts/fuzz.mjs), the
//          end-to-end tier (test/e2e) and the real agent harnesses (test/agents).
// Stops at the first tier that fails and prints the time of every tier that ran.
// usage: node scripts/tiers.mjs check|all
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const node = process.execPath;
const bin = name => resolve(root, 'node_modules', '.bin', name);

/** Runs one command with the terminal's stdio (and `env` over this process's); resolves to its exit code. */
function run([cmd, ...args], env = {}) {
  return new Promise(done => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', err => { console.error(`${cmd}: ${err.message}`); done(1); });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

// tsc keeps what it checked in node_modules/.cache/tsc/, one folder per clone (worktrees may share
// one node_modules): the build-info file and the declarations it compares, so that a check after an
// edit checks again only the files that changed and those whose imports' declarations changed. The
// declarations are emitted (nowhere else) because without them tsc cannot tell that a change left a
// file's exports as they were, and checks all its importers again.
const tscCache = join(root, 'node_modules', '.cache', 'tsc', createHash('sha256').update(root).digest('hex').slice(0, 12));
const tsc = (project, name) => run([
  bin('tsc'), '-p', project, '--incremental', '--tsBuildInfoFile', join(tscCache, `${name}.tsbuildinfo`),
  '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--outDir', join(tscCache, name),
]);
const typecheck = async () => (await tsc('.', 'main')) || tsc('webview', 'webview');
// the cache keeps a second lint of unchanged files to a few seconds; by content, so that a checkout or
// a merge that only touched files' times costs nothing
const lint = () => run([bin('eslint'), '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '--no-error-on-unmatched-pattern', 'src', 'test', 'bench', 'scripts', 'webview', '*.mjs', '.vscode-test.mjs']);

const TIERS = {
  deps: () => run([node, 'scripts/ensure-deps.mjs']),
  'typecheck+lint': async () => {
    const [t, l] = await Promise.all([typecheck(), lint()]);
    return t || l;
  },
  unit: () => run([node, 'scripts/run-tests.mjs', 'unit']),
  build: () => run([node, 'esbuild.mjs']),
  integration: () => run([node, 'scripts/run-tests.mjs', 'integration']),
  // the property-based and stress tests again at full scale (1,000 cases, inputs of megabytes): the unit tier runs them small
  fuzz: () => run([node, 'scripts/fuzz.mjs'], { FM_FUZZ_RUNS: '1000' }),
  e2e: () => run([node, 'test/e2e/run.mjs']),
  agents: () => run([node, 'test/agents/run.mjs']),
};
const PLANS = {
  check: ['typecheck+lint', 'unit'],
  all: ['deps', 'typecheck+lint', 'unit', 'build', 'integration', 'fuzz', 'e2e', 'agents'],
};

const plan = PLANS[process.argv[2]];
if (!plan) {
  console.error(`usage: node scripts/tiers.mjs ${Object.keys(PLANS).join('|')}`);
  process.exit(2);
}
const times = [];
const started = performance.now();
let status = 0;
for (const name of plan) {
  // the CI summary (.ci/run) labels the test counts that follow with this line's tier
  console.log(`\n== tier ${name}`);
  const t0 = performance.now();
  status = await TIERS[name]();
  times.push([name, (performance.now() - t0) / 1000, status]);
  if (status) break;
}
const total = (performance.now() - started) / 1000;
const fmt = s => (s >= 90 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(1)} s`);
console.log(`\n== tier times (${process.argv[2]})`);
for (const [name, s, code] of times) console.log(`  ${name.padEnd(18)} ${fmt(s).padStart(10)}${code ? `  FAILED (exit ${code})` : ''}`);
console.log(`  ${'total'.padEnd(18)} ${fmt(total).padStart(10)}`);
process.exit(status);
