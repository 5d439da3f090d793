// How large the property-based and stress tests run. The pure unit tier (`npm run check`) runs a
// small version of each, so that every property still holds on every check: 100 cases per property,
// inputs of kilobytes. `npm test` runs the same tests again at full scale after the integration
// tier (its fuzz tier: 1,000 cases, inputs of megabytes), and `npm run test:fuzz` at a nightly size
// (FM_FUZZ_RUNS cases, default 25,000). Both go through scripts/fuzz.mjs, which sets FM_FUZZ_RUNS.
// A failure prints fast-check's seed and path: `FM_FUZZ_SEED=<seed>` replays it.
import fc from 'fast-check';

/** Set by scripts/fuzz.mjs: the full-scale run. */
export const FULL_SCALE = Number(process.env.FM_FUZZ_RUNS) > 0;
export const RUNS = FULL_SCALE ? Number(process.env.FM_FUZZ_RUNS) : 100;
const SEED = process.env.FM_FUZZ_SEED ? Number(process.env.FM_FUZZ_SEED) : undefined;

/** `small` in the unit tier, `full` in the full-scale run (an input's size, a count). */
export function scaled<T>(small: T, full: T): T {
  return FULL_SCALE ? full : small;
}

/** fast-check's parameters for one property: RUNS cases (or `runs`), the seed when one is given. */
export function params(runs = RUNS): fc.Parameters<unknown> {
  return { numRuns: runs, ...(SEED !== undefined ? { seed: SEED } : {}) };
}

/** Characters a shell line is made of, weighted towards the ones with meaning. */
export const SHELL_CHARS = [...' \t\n"\'\\&|;<>()$`#=-/*?{}[]!~@%^+,.:0123456789abcdefghijklmnopqrstuvwxyzABCXYZ', '\u0000', '\u00e9', '\u200b', '😀'];
