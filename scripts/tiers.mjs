// The test tiers, timed. One entry point so that `npm test` builds once and says where the time went.
//   check  typecheck and lint side by side (two cores, each single-threaded), then the pure unit
//          tests (test/unit, one process, no build): the fast gate a contributor runs before a commit;
//   all    what is missing installed (scripts/ensure-deps.mjs), check, one build, then the
//          integration tier (test/integration: the built CLI and hooks, PostgreSQL, store stress),
//          the end-to-end tier (test/e2e) and the real agent harnesses (test/agents).
// Stops at the first tier that fails and prints the time of every tier that ran.
// usage: node scripts/tiers.mjs check|all
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const node = process.execPath;
const bin = name => resolve(root, 'node_modules', '.bin', name);

/** Runs one command with the terminal's stdio; resolves to its exit code. */
function run([cmd, ...args]) {
  return new Promise(done => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('error', err => { console.error(`${cmd}: ${err.message}`); done(1); });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

const typecheck = async () => (await run([bin('tsc'), '-p', '.', '--noEmit'])) || run([bin('tsc'), '-p', 'webview', '--noEmit']);
// the cache keeps a second lint of unchanged files to a few seconds
const lint = () => run([bin('eslint'), '--cache', '--cache-location', 'node_modules/.cache/eslint/', '--no-error-on-unmatched-pattern', 'src', 'test', 'bench', 'scripts', 'webview', '*.mjs', '.vscode-test.mjs']);

const TIERS = {
  deps: () => run([node, 'scripts/ensure-deps.mjs']),
  'typecheck+lint': async () => {
    const [t, l] = await Promise.all([typecheck(), lint()]);
    return t || l;
  },
  unit: () => run([node, 'scripts/run-tests.mjs', 'unit']),
  build: () => run([node, 'esbuild.mjs']),
  integration: () => run([node, 'scripts/run-tests.mjs', 'integration']),
  e2e: () => run([node, 'test/e2e/run.mjs']),
  agents: () => run([node, 'test/agents/run.mjs']),
};
const PLANS = {
  check: ['typecheck+lint', 'unit'],
  all: ['deps', 'typecheck+lint', 'unit', 'build', 'integration', 'e2e', 'agents'],
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
