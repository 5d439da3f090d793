// `npm run test:fuzz`: the property-based and fault-injection tests with many more cases than
// `npm test` runs (FM_FUZZ_RUNS, default 25,000 per property; a nightly-sized run of a few minutes).
// FM_FUZZ_SEED=<seed> replays the case a failure printed.
import { spawnSync } from 'node:child_process';

const runs = process.env.FM_FUZZ_RUNS || '25000';
const files = ['test/unit/property.test.ts', 'test/unit/fastPathProperty.test.ts', 'test/integration/storeFaults.test.ts'];
const r = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'integration', ...files], { stdio: 'inherit', env: { ...process.env, FM_FUZZ_RUNS: runs } });
process.exit(r.status ?? 1);
