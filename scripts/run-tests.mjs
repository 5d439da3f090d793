// Runs one tier of the Node test suites (test/<tier>/**/*.test.ts) on Node's own test runner, through
// tsx for TypeScript. The folder is the tier, and the unit tier holds its rule at run time:
//   unit         pure tests: all files in one process, under test/support/pureTier.mjs (no child
//                process, no worker thread, no socket: each throws), no build needed; their temp
//                folders in memory where the machine has a tmpfs (/dev/shm): no pure test needs a
//                disk, and every store write's fsync would wait on one;
//   integration  tests that start processes (the built CLI and hooks, git, shells), PostgreSQL
//                clusters, worker threads and store stress: one process per file, against dist/.
// usage: node scripts/run-tests.mjs unit|integration [FILE...]   (Node 20's --test takes no globs)
//   env: FM_TEST_REPORTER  node:test reporter (default spec)
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const TIERS = ['unit', 'integration'];

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const [tier, ...only] = process.argv.slice(2);
if (!TIERS.includes(tier)) {
  console.error(`usage: node scripts/run-tests.mjs ${TIERS.join('|')} [FILE...]`);
  process.exit(2);
}
const files = only.length ? only : find(join('test', tier)).sort();
const reporter = `--test-reporter=${process.env.FM_TEST_REPORTER || 'spec'}`;
const args = tier === 'unit'
  ? ['--import', 'tsx', '--import', './test/support/pureTier.mjs', reporter, 'test/support/runInProcess.mjs', ...files]
  : ['--import', 'tsx', '--test', reporter, ...files];
const tmp = tier === 'unit' ? memoryTemp() : undefined;
// the gates' copies (~/.failure-memory/state) of the tests' throwaway workspaces go to a folder of this run
const state = process.env.FAILURE_MEMORY_STATE_DIR ? undefined : mkdtempSync(join(tmp ?? tmpdir(), 'fm-test-state-'));
const env = { ...process.env, ...(tmp ? { TMPDIR: tmp } : {}), ...(state ? { FAILURE_MEMORY_STATE_DIR: state } : {}) };
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env });
if (state) rmSync(state, { recursive: true, force: true });
process.exit(r.status ?? 1);

/**
 * This user's folder on the machine's tmpfs, kept between runs (tsx caches its compiled files in the
 * temp dir too); undefined where there is none, or where the path is not a private folder of this
 * user's (/dev/shm is everyone's): then the OS temp dir is used.
 */
function memoryTemp() {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = `/dev/shm/failure-memory-tests-${uid}`;
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // there already, or no tmpfs: judged below
  }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}
