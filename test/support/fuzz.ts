// How many cases each property runs: 1,000 in `npm test` (a few seconds in all), more in the
// nightly-sized `npm run test:fuzz` (FM_FUZZ_RUNS). A failure prints fast-check's seed and path:
// `FM_FUZZ_SEED=<seed>` replays it.
import fc from 'fast-check';

export const RUNS = Math.max(1000, Number(process.env.FM_FUZZ_RUNS) || 1000);
const SEED = process.env.FM_FUZZ_SEED ? Number(process.env.FM_FUZZ_SEED) : undefined;

/** fast-check's parameters for one property: RUNS cases (or `runs`), the seed when one is given. */
export function params(runs = RUNS): fc.Parameters<unknown> {
  return { numRuns: runs, ...(SEED !== undefined ? { seed: SEED } : {}) };
}

/** Characters a shell line is made of, weighted towards the ones with meaning. */
export const SHELL_CHARS = [...' \t\n"\'\\&|;<>()$`#=-/*?{}[]!~@%^+,.:0123456789abcdefghijklmnopqrstuvwxyzABCXYZ', '\u0000', '\u00e9', '\u200b', '😀'];
