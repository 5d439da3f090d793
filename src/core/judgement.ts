// Judgement: is an exhausted approach a loop or an agent making progress? (issue 10)
// Pure functions over an approach's streak (its failures since the last success). Designed and measured on
// real agents' command histories (bench/judgement.mjs over ../shared/trajectories): each rule names the
// behaviour it captures; none is tuned to one trajectory.

import type { Approach } from './types';

/** How many errors of a streak are remembered (the streak itself may be longer: `failures` counts it). */
export const MAX_STREAK_ERRORS = 20;

/** Errors-keep-changing streaks still stop after this many times the threshold (endless wandering is a loop too). */
export const WANDER_FACTOR = 2;

export interface StreakVerdict {
  /** true: the same error keeps coming back (or the wandering bound is reached): block. */
  loop: boolean;
  reason: string;
}

/** The comparable part of an error signature: its first (most telling) line. */
export function primaryError(signature: string): string {
  const bar = signature.indexOf(' | ');
  return (bar >= 0 ? signature.slice(0, bar) : signature).trim();
}

/** Remembers the error of a failure in the approach's streak (bounded, oldest dropped). */
export function pushStreakError(a: Approach, signature: string): void {
  if (!Array.isArray(a.streakErrors)) a.streakErrors = [];
  const errors = a.streakErrors;
  errors.push(primaryError(signature));
  if (errors.length > MAX_STREAK_ERRORS) errors.splice(0, errors.length - MAX_STREAK_ERRORS);
}

/** A success (or a manual resolve) ends the streak. */
export function clearStreak(a: Approach): void {
  a.streakErrors = [];
}

/**
 * Loop or progress, for an approach that reached the threshold.
 * - the edit–rerun loop: `python reproduce.py` after each edit, the error changing every time
 *   (ModuleNotFoundError → AttributeError → TypeError) is progress: warned, not blocked;
 * - the same error recurring (the latest failure's error was seen before in the streak, even with
 *   other errors or edits in between) is the loop: blocked;
 * - wandering has a bound: WANDER_FACTOR × threshold failures without a success block whatever the errors;
 * - a streak we know nothing about (no error text, or streaks recorded before this rule) keeps the
 *   seed's rule: exhausted is blocked.
 */
export function judgeStreak(a: Approach, threshold: number): StreakVerdict {
  const errors = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  const bound = WANDER_FACTOR * threshold;
  if (a.failures >= bound) return { loop: true, reason: `${a.failures} failures without a success (bound ${bound}, even with changing errors)` };
  if (errors.length < 2) return { loop: true, reason: 'no error history to tell progress from a loop' };
  const last = errors[errors.length - 1];
  const seen = errors.slice(0, -1).filter(e => e === last).length;
  if (seen > 0) return { loop: true, reason: `the same error came back (${seen + 1} times in this streak)${last ? `: ${last}` : ''}` };
  return { loop: false, reason: `the error changed on each attempt (${new Set(errors).size} different errors): progress, not a loop` };
}
