// The guard's decisions, without VS Code: what to do when a remembered approach starts again,
// what the help dialog should say, what a finished run is worth telling, and whether an interrupt
// really stopped the run. The host's Guard only carries these out (Ctrl+C, dialogs, status bar).

import type { BlockMode } from '../config';
import type { CheckResult } from './check';
import { classifyExit } from '../memory';
import { computeProgress, detectPatterns, type Pattern } from './patterns';
import { approachCounts } from './counts';
import { cameText, shownError } from '../text/shownText';
import { currentStreak, lastErrorLine, variantsTried } from './streak';
import type { Approach } from '../types';

/**
 * What the guard does with a starting command. The terminal's own policy (a person is at the keyboard):
 * it interrupts only a run the gate denies — the loop repeated with nothing changed since the last failure
 * (the same git state, no saved edits); after a change it lets the run go and says so quietly.
 * - run: nothing to say (never failed, failing below the threshold)
 * - runOnce: the user allowed one more run
 * - notice: exhausted but let through (a change since the last failure, progress, waiting, shadow mode):
 *   one quiet status-bar line
 * - remember: denied, blockMode off: only logged
 * - warn: denied with blockMode warn, or what would be denied asked instead (strongest answer ask): the
 *   help dialog, no interrupt
 * - stop: denied, blockMode interrupt: interrupt it (if it still runs) and show the help dialog
 */
export type StartAction = 'run' | 'runOnce' | 'notice' | 'remember' | 'warn' | 'stop';

export function decideStart(check: CheckResult, blockMode: BlockMode): StartAction {
  // a clear approach can still be blocked by the team's failures (failureMemory.team.blockOnTeamFailures)
  if (check.status === 'clear' && check.verdict !== 'block') return 'run';
  if (check.verdict === 'allow' && check.allowOnce) return 'runOnce';
  if (check.decision === 'deny' || (check.decision === 'ask' && check.status !== 'exhausted')) {
    if (blockMode === 'off') return 'remember';
    return blockMode === 'interrupt' ? 'stop' : 'warn';
  }
  // the gate would deny, the setting says ask: the person decides in the dialog, the run is not interrupted
  if (check.decision === 'ask' && check.policyDecision === 'deny') return blockMode === 'off' ? 'remember' : 'warn';
  return check.status === 'exhausted' ? 'notice' : 'run';
}

/** One "exhausted but not stopped" notice per streak: the key changes when a new streak starts. */
export function noticeKey(folder: string, check: CheckResult, approach: Approach | undefined): string {
  return `${folder}\u0000${check.key}\u0000${approach?.firstFailure ?? ''}`;
}

/** What the help dialog tells, in facts; the host words them (localized). */
export interface HelpFacts {
  label: string;
  cwd: string;
  failures: number;
  threshold: number;
  /** The last error as the output printed it (redacted); '' when none was captured. */
  lastErrorLine: string;
  /** How often that error came in the streak ("came 6 times"); '' when it came once or is unknown. */
  lastErrorCame: string;
  /** Tests that failed in the last failing run, by name. */
  failingTests: string[];
  /** Other command lines of this same approach that failed in this streak (not the one just run). */
  variants: string[];
  /** Other approaches tried for the same problem. */
  alternatives: string[];
  /** The run history: "passed 12 of the last 20 runs…", what changed since the last pass, flakiness. */
  history: string[];
  /** Team memory: what the team saw; teamOnly when it is not exhausted here (team failures alone). */
  team?: { summary: string; teamOnly: boolean };
}

const MAX_LISTED = 5;

export function helpFacts(check: CheckResult, approach: Approach | undefined): HelpFacts {
  const streak = approach ? currentStreak(approach) : [];
  const counts = approach ? approachCounts(approach, check.threshold) : undefined;
  const last = counts?.last;
  return {
    label: check.label,
    cwd: check.cwd,
    failures: check.attempts,
    threshold: check.threshold,
    // what a person reads: the line as printed, never the signature it is matched by
    lastErrorLine: last?.text || shownError(check.lastError),
    lastErrorCame: last && last.times > 1 ? cameText(last, counts.failures) : '',
    failingTests: counts?.failingTests ?? [],
    variants: variantsTried(streak)
      .filter(c => c !== check.command)
      .slice(-MAX_LISTED),
    alternatives: check.alternatives.slice(-MAX_LISTED),
    history: [check.history && `History: ${check.history}.`, check.changed, check.flaky].filter((l): l is string => !!l),
  };
}

/** What a recorded run is worth telling the user (never a notification: the status bar). */
export type Reaction =
  | { kind: 'none' }
  | { kind: 'exhausted'; failures: number }
  | { kind: 'resolved' }
  | { kind: 'sameError'; line: string; times: number }
  | { kind: 'sameTest'; test: string };

export interface RecordFacts {
  approach: Approach;
  becameExhausted: boolean;
  resolved: boolean;
  stored: boolean;
}

/**
 * Loop patterns of the current streak only (nothing from before "Mark Resolved" or a success),
 * and none while the suite improves: a test still failing while more pass each time is work in
 * progress, not a loop (the card says "Improving" next to it).
 */
export function streakPatterns(a: Approach): Pattern[] {
  const streak = currentStreak(a);
  if (computeProgress(streak) === 'improving') return [];
  return detectPatterns(streak);
}

export function reactionTo(r: RecordFacts, notifySameError: boolean): Reaction {
  if (!r.stored) return { kind: 'none' };
  if (r.becameExhausted) return { kind: 'exhausted', failures: r.approach.failures };
  if (r.resolved) return { kind: 'resolved' };
  if (!notifySameError || r.approach.status === 'exhausted') return { kind: 'none' };
  const patterns = streakPatterns(r.approach);
  // a test name says more than the error line it printed
  const sameTest = patterns.find(p => p.kind === 'same_test_failure');
  if (sameTest?.subject) return { kind: 'sameTest', test: sameTest.subject };
  const sameError = patterns.find(p => p.kind === 'same_error');
  if (sameError) return { kind: 'sameError', line: lastErrorLine(currentStreak(r.approach), sameError.subject ?? ''), times: sameErrorInARow(r.approach) };
  return { kind: 'none' };
}

/** How many of the streak's last failures in a row had the last failure's error (at least 2: the pattern saw two). */
function sameErrorInARow(a: Approach): number {
  const keys = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  let n = 0;
  for (let i = keys.length - 1; i >= 0 && keys[i] === keys[keys.length - 1]; i--) n++;
  return Math.max(2, n);
}

/**
 * What became of a run the guard denied. notStarted: the Enter gate kept it from starting (nothing ran).
 * Otherwise the interrupt was sent: only an end with an interrupt exit (130, 143…) within the wait is
 * "stopped", with how long the run lasted; an end with another code means it finished first; no end
 * means it is still running, unless its process is known to be gone (ended: it did end, by what is unknown).
 */
export type StopResult =
  | { kind: 'notStarted' }
  | { kind: 'stopped'; afterMs?: number }
  | { kind: 'endedFirst'; exitCode: number | undefined }
  | { kind: 'ended' }
  | { kind: 'stillRunning' };

/** What ended a run after the interrupt, as the host saw it: its end event, or that its process is gone. */
export interface RunEnd {
  exitCode: number | undefined;
  /** ms from the run's start to its end, when both are known. */
  ranMs?: number;
  /** The end event never came, but the run's processes are gone. */
  gone?: boolean;
}

export function stopResult(end: RunEnd | undefined): StopResult {
  if (!end) return { kind: 'stillRunning' };
  if (end.gone) return { kind: 'ended' };
  if (classifyExit(end.exitCode) !== 'interrupted') return { kind: 'endedFirst', exitCode: end.exitCode };
  return end.ranMs !== undefined && end.ranMs >= 0 ? { kind: 'stopped', afterMs: Math.round(end.ranMs) } : { kind: 'stopped' };
}

/**
 * The line the Enter gate prints in the terminal for a line it kept from running: what happened and
 * where to read more. One line of plain text; `label` comes cleaned by the caller (no control characters).
 */
export function notRunLine(attempts: number, label: string): string {
  const what = attempts > 0 ? `failed ${attempts} times in a row; run again unchanged, it would fail the same way` : 'repeats a loop that keeps failing the same way';
  return `Failure Memory: NOT RUN — “${label}” ${what}. VS Code shows what to do; Up brings the line back.`;
}
