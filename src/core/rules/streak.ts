// The current streak of an approach: its attempts since the last success or "Mark Resolved", and
// what recurs across them (the error most failures share, the tests that keep failing, the command
// lines actually tried). The help dialog, the reflection and the panel read an approach through
// these, so none of them shows a pattern from before a resolution or trusts only the last run.

import { errorLine } from '../text/signature';
import type { Approach, Attempt } from '../types';

/** Attempts after the last success or manual resolution, oldest first (interrupted runs included). */
export function currentStreak(a: Pick<Approach, 'attempts' | 'resolvedAt' | 'lastSuccess'>): Attempt[] {
  const since = [a.resolvedAt ?? '', a.lastSuccess ?? ''].reduce((x, y) => (y > x ? y : x), '');
  return since ? a.attempts.filter(t => t.timestamp > since) : [...a.attempts];
}

/** Runs that ran to an end: failures and successes (interrupted and unknown runs are not runs of the approach). */
export function countedRuns(attempts: readonly Attempt[]): Attempt[] {
  return attempts.filter(t => t.outcome === 'failure' || t.outcome === 'success');
}

export interface RecurringError {
  /** The (normalized) error signature the failures share. */
  signature: string;
  /** How many of the failures had it. */
  count: number;
  /** Failures considered. */
  of: number;
  /** The latest failure that had it. */
  attempt: Attempt;
}

/**
 * The error that recurs across the failures: the most frequent signature; ties go to the most
 * recent. One odd last run (a typo) does not hide the error three runs before it had.
 */
export function recurringError(attempts: readonly Attempt[]): RecurringError | undefined {
  const failures = attempts.filter(t => t.outcome === 'failure');
  const bySig = new Map<string, { count: number; last: Attempt; lastIndex: number }>();
  failures.forEach((t, i) => {
    if (!t.errorSignature) return;
    const e = bySig.get(t.errorSignature);
    if (e) {
      e.count++;
      e.last = t;
      e.lastIndex = i;
    } else bySig.set(t.errorSignature, { count: 1, last: t, lastIndex: i });
  });
  let best: [string, { count: number; last: Attempt; lastIndex: number }] | undefined;
  for (const entry of bySig) {
    if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[1].lastIndex > best[1].lastIndex)) best = entry;
  }
  return best ? { signature: best[0], count: best[1].count, of: failures.length, attempt: best[1].last } : undefined;
}

/** Tests that failed in at least two of the runs, most often first (then by first appearance). */
export function recurringTests(attempts: readonly Attempt[]): Array<{ name: string; count: number }> {
  const counts = new Map<string, number>();
  for (const t of attempts) {
    if (t.outcome !== 'failure') continue;
    for (const name of new Set((t.testResults?.failures ?? []).map(f => f.name))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n >= 2)
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count);
}

/** The distinct command lines that failed in this streak, most recent last. */
export function variantsTried(attempts: readonly Attempt[]): string[] {
  const out: string[] = [];
  for (const t of attempts) {
    if (t.outcome !== 'failure') continue;
    const i = out.indexOf(t.command);
    if (i >= 0) out.splice(i, 1);
    out.push(t.command);
  }
  return out;
}

/**
 * The last error as the output printed it (redacted, not normalized): the real line from the last
 * failure with output, else its signature, else ''.
 */
export function lastErrorLine(attempts: readonly Attempt[], fallback = ''): string {
  for (let i = attempts.length - 1; i >= 0; i--) {
    const t = attempts[i];
    if (t.outcome !== 'failure') continue;
    return errorLineOf(t) || fallback;
  }
  return fallback;
}

/** One attempt's real error line; its signature when no output was kept. */
export function errorLineOf(t: Attempt): string {
  return (t.output ? errorLine(t.output) : '') || t.errorSignature;
}
