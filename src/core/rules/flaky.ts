// Flaky detection over the run ledger: an approach that alternates pass and fail on the same git
// state (same HEAD, same uncommitted changes) is flaky. The same code giving both answers means the
// failure is not caused by what was tried, so repeating it is not a loop.
//
// Policy (README "Flaky commands"): a flaky approach is reported as flaky and is never exhausted or
// blocked for its failures; its failures still count and show, and check warns instead of blocking.
// Without git context there is no "same state" and nothing is called flaky.

import type { LedgerRun } from '../types';

/** Outcome switches on one git state needed to call it flaky: pass→fail→pass or fail→pass→fail. */
export const FLAKY_SWITCHES = 2;

export interface FlakyVerdict {
  flaky: boolean;
  /** Passes and failures on the git state that showed it (when flaky). */
  passes: number;
  failures: number;
  reason: string;
}

const NOT_FLAKY: FlakyVerdict = { flaky: false, passes: 0, failures: 0, reason: '' };

/** Is this ledger flaky? Looks at counted runs (pass/fail) grouped by git fingerprint, in order. */
export function flakyVerdict(ledger: readonly LedgerRun[] | undefined): FlakyVerdict {
  if (!ledger?.length) return NOT_FLAKY;
  const byState = new Map<string, { last: LedgerRun['outcome']; switches: number; passes: number; failures: number }>();
  let best: FlakyVerdict = NOT_FLAKY;
  for (const run of ledger) {
    if ((run.outcome !== 'success' && run.outcome !== 'failure') || !run.git?.fingerprint) continue;
    const s = byState.get(run.git.fingerprint);
    if (!s) {
      byState.set(run.git.fingerprint, { last: run.outcome, switches: 0, passes: run.outcome === 'success' ? 1 : 0, failures: run.outcome === 'failure' ? 1 : 0 });
      continue;
    }
    if (s.last !== run.outcome) s.switches++;
    s.last = run.outcome;
    if (run.outcome === 'success') s.passes++;
    else s.failures++;
    if (s.switches >= FLAKY_SWITCHES && s.passes + s.failures > best.passes + best.failures) {
      best = {
        flaky: true,
        passes: s.passes,
        failures: s.failures,
        reason: `flaky: passed ${s.passes} and failed ${s.failures} time(s) on the same code (same commit and changes)`,
      };
    }
  }
  return best;
}
