// The one source of an approach's numbers: how many times it failed in a row, against which limit,
// and how many of those failures had the same error. The status bar, the help dialog, the panel,
// terminal links, the reflection and the CLI all read an approach through approachCounts(), so no
// two of them can disagree (one counting the short-term window of five attempts, another the streak).

import { streakError } from './judgement';
import { errorTextOf, readableSignature } from '../text/shownText';
import { currentStreak } from './streak';
import type { Approach, Attempt } from '../types';

/** One error of the streak, as a person reads it, and how often it came. */
export interface ErrorCount {
  /** The error as the output printed it (the latest run that had it); never a normalized signature. */
  text: string;
  /** Failures of the streak that had this error. */
  times: number;
  /** Failures whose error is known (the streak's remembered errors; all of them unless the streak is very long). */
  of: number;
}

export interface ApproachCounts {
  /** Failures in a row since the last success or "Mark Resolved": what the limit counts. */
  failures: number;
  /** Failures after which the approach is exhausted. */
  threshold: number;
  exhausted: boolean;
  /** The last failure's error and how many failures of the streak had it. */
  last?: ErrorCount;
  /** The error most failures of the streak had (ties go to the latest). */
  recurring?: ErrorCount;
  /** Tests that failed in the last failing run, by name. */
  failingTests: string[];
}

/**
 * The identity of each failure's error in the current streak, oldest first: what the engine
 * remembered while recording (`streakErrors`, one per failure), else what the short-term window
 * still holds (memories written before the engine remembered them).
 */
function streakKeys(a: Approach, streak: readonly Attempt[]): string[] {
  const remembered = Array.isArray(a.streakErrors) ? a.streakErrors.slice(-Math.max(0, a.failures)) : [];
  const fromWindow = streak.filter(t => t.outcome === 'failure').map(t => streakError(t.errorSignature, t.testResults));
  return remembered.length >= fromWindow.length ? remembered : fromWindow;
}

/** The latest failure of the window whose error is `key`. */
function latestWith(streak: readonly Attempt[], key: string): Attempt | undefined {
  for (let i = streak.length - 1; i >= 0; i--) {
    const t = streak[i];
    if (t.outcome === 'failure' && streakError(t.errorSignature, t.testResults) === key) return t;
  }
  return undefined;
}

function errorCount(key: string, keys: readonly string[], streak: readonly Attempt[]): ErrorCount | undefined {
  if (!key) return undefined;
  const attempt = latestWith(streak, key);
  return { text: attempt ? errorTextOf(attempt) : readableSignature(key), times: keys.filter(k => k === key).length, of: keys.length };
}

/** The most frequent key; ties go to the one seen last. */
function mostFrequent(keys: readonly string[]): string | undefined {
  const seen = new Map<string, { n: number; last: number }>();
  keys.forEach((k, i) => {
    if (!k) return;
    const e = seen.get(k);
    if (e) {
      e.n++;
      e.last = i;
    } else seen.set(k, { n: 1, last: i });
  });
  let best: [string, { n: number; last: number }] | undefined;
  for (const e of seen) if (!best || e[1].n > best[1].n || (e[1].n === best[1].n && e[1].last > best[1].last)) best = e;
  return best?.[0];
}

/** Every number a person is shown about an approach, computed once. */
export function approachCounts(a: Approach, threshold: number): ApproachCounts {
  const streak = currentStreak(a);
  const keys = streakKeys(a, streak);
  const lastFailure = [...streak].reverse().find(t => t.outcome === 'failure');
  const lastKey = keys[keys.length - 1] ?? '';
  const out: ApproachCounts = {
    failures: a.failures,
    threshold,
    exhausted: a.status === 'exhausted',
    failingTests: (lastFailure?.testResults?.failures ?? []).map(f => f.name).filter(Boolean),
  };
  const last = errorCount(lastKey, keys, streak);
  if (last?.text) out.last = last;
  // a failure whose error the window no longer holds still has its signature on the approach
  else if (a.failures > 0 && a.lastErrorSignature) out.last = { text: readableSignature(a.lastErrorSignature), times: last?.times || 1, of: Math.max(1, keys.length) };
  const top = mostFrequent(keys);
  const recurring = top ? errorCount(top, keys, streak) : undefined;
  if (recurring) out.recurring = recurring;
  return out;
}
