// The property-based, fault-injection and stress tests at full scale (test/support/fuzz.ts): the unit
// tier runs the same tests small (100 cases per property, inputs of kilobytes) on every check.
//   `npm run test:fuzz`  FM_FUZZ_RUNS cases per property, default 25,000: a nightly-sized run of a
//                        few minutes;
//   `npm test`           its fuzz tier, after the integration tier: 1,000 cases (scripts/tiers.mjs).
// The stress inputs (megabytes) are full-size in both. FM_FUZZ_SEED=<seed> replays the case a
// failure printed. One process per file, as the integration tier runs them.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const runs = process.env.FM_FUZZ_RUNS || '25000';
/** Every test file that scales with test/support/fuzz.ts (imports it): the unit and integration tiers' alike. */
const files = ['test/unit', 'test/integration']
  .flatMap(dir => readdirSync(dir, { recursive: true }).map(f => join(dir, String(f))))
  .filter(f => f.endsWith('.test.ts') && /from '(?:\.\.\/)+support\/fuzz'/.test(readFileSync(f, 'utf8')))
  .sort();
const r = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'integration', ...files], { stdio: 'inherit', env: { ...process.env, FM_FUZZ_RUNS: runs } });
process.exit(r.status ?? 1);
