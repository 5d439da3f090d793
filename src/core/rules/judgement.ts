// Judgement: is an exhausted approach a loop or an agent making progress?
// Pure functions over an approach's streak (its failures since the last success). Designed and measured on
// real agents' command histories (bench/judgement.mjs over the development corpora): each rule names the
// behaviour it captures; none is tuned to one trajectory.

import { keyLabel, parseCommand } from '../approach';
import { errorCategory } from '../text/signature';
import type { Approach, MemoryData, TestResults } from '../types';

/** How many errors of a streak are remembered (the streak itself may be longer: `failures` counts it). */
export const MAX_STREAK_ERRORS = 20;

/** Streaks of changing errors still stop after this many times the threshold (endless wandering is a loop too). */
export const WANDER_FACTOR = 4;

/** A syntax error in the code the run loads: the typo of the agent's own last edit, not the approach failing. */
const EDIT_TYPO_RE = /^(?:[\w.]+\.)?(?:SyntaxError|IndentationError|TabError)\b/;

/** True for an error that is the typo of an edit (Python's SyntaxError/IndentationError/TabError, JavaScript's SyntaxError). */
export function isEditTypo(error: string): boolean {
  return EDIT_TYPO_RE.test(error);
}

export interface StreakVerdict {
  /** true: the same error keeps coming back (or the wandering bound is reached): block. */
  loop: boolean;
  reason: string;
}

/** The comparable part of an error signature: its first (most telling) line. */
function primaryError(signature: string): string {
  const bar = signature.indexOf(' | ');
  // numbers fold: `3 != 4` then `2 != 4` is the same assertion failing, not a new error
  return (bar >= 0 ? signature.slice(0, bar) : signature).trim().replace(/\d+/g, '<n>');
}

/**
 * What a failure's error is, for telling a loop from progress: the failing tests when the run named them
 * (a test run failing on the same tests is the same error, whatever each message printed this time), else
 * the first line of its error signature.
 */
export function streakError(signature: string, testResults?: TestResults | null): string {
  const names = testResults?.failures.map(f => f.name.trim()).filter(Boolean) ?? [];
  if (names.length) return `failing tests: ${[...new Set(names)].sort().slice(0, 8).join(', ')}`.replace(/\d+/g, '<n>');
  return primaryError(signature);
}

/**
 * Remembers the error of a failure in the approach's streak (bounded, oldest dropped), and whether
 * something changed since the failure before it (edits, git state, an edit chained in the line).
 */
export function pushStreakError(a: Approach, signature: string, testResults?: TestResults | null, changed = true): void {
  if (!Array.isArray(a.streakErrors)) a.streakErrors = [];
  const errors = a.streakErrors;
  errors.push(streakError(signature, testResults));
  if (errors.length > MAX_STREAK_ERRORS) errors.splice(0, errors.length - MAX_STREAK_ERRORS);
  const changes = Array.isArray(a.streakChanged) ? a.streakChanged : [];
  changes.push(changed);
  a.streakChanged = changes.slice(-errors.length);
}

/** A success (or a manual resolve) ends the streak. */
export function clearStreak(a: Approach): void {
  a.streakErrors = [];
  a.streakChanged = [];
}

/**
 * Loop or progress, for an approach that reached the threshold.
 * - the loop is the same error twice in a row: the last attempt, whatever was edited before it, failed
 *   exactly as the one before it (numbers folded), so the next one will too: blocked;
 * - the edit–rerun loop whose error changes from one attempt to the next (ModuleNotFoundError →
 *   AttributeError → TypeError, or an error that comes back only after others) is progress: warned;
 * - a syntax error is the typo of the agent's last edit: it is skipped when comparing errors (it neither
 *   breaks a loop nor makes one), and the run right after it is the typo's fix: warned, unless the very
 *   same typo came twice in a row;
 * - wandering has a bound: WANDER_FACTOR × threshold failures without a success block whatever the errors;
 * - a streak we know nothing about (no error text, or streaks recorded before this rule) keeps the
 *   seed's rule: exhausted is blocked.
 * Measured on real agents' histories: bench/judgement.mjs, BENCHMARKS.md.
 */
export function judgeStreak(a: Approach, threshold: number): StreakVerdict {
  const errors = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  const bound = WANDER_FACTOR * threshold;
  if (a.failures >= bound) return { loop: true, reason: `${a.failures} failures without a success (bound ${bound}, even with changing errors)` };
  if (errors.filter(Boolean).length < 2) return { loop: true, reason: 'no error history to tell progress from a loop' };
  const last = errors[errors.length - 1];
  const times = errors.filter(e => e === last).length;
  if (last && last === errors[errors.length - 2]) return { loop: true, reason: `the same error twice in a row (${times} times in this streak): ${last}` };
  if (isEditTypo(last)) return { loop: false, reason: `the last run failed on a syntax error (the typo of an edit), not on the approach: ${last}` };
  const real = errors.filter(e => e && !isEditTypo(e));
  const lastReal = real[real.length - 1];
  if (lastReal === real[real.length - 2]) {
    return { loop: true, reason: `the same error twice in a row, a syntax error between them aside (${times} times in this streak): ${last}` };
  }
  return { loop: false, reason: `the error changed from the attempt before (${new Set(errors).size} different errors in ${a.failures} failures): progress, not a loop` };
}

// ---------------------------------------------------------------------------------------------
// What a run's exit code means: the outcome the engine counts.
// ---------------------------------------------------------------------------------------------

/** Read-only probes: their exit 1 answers a question ("no match", "not installed", "differs", "false"). */
const PROBES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'which', 'where', 'whereis', 'test', '[', '[[', 'diff', 'cmp', 'pgrep', 'command', 'type', 'git diff']);
/** Probes whose output on exit 1 is data (a diff), never an error message. */
const DATA_PROBES = new Set(['diff', 'cmp', 'git diff']);
/** An error message of the probe itself (grep: No such file; rg: regex parse error), not its answer. */
const PROBE_ERROR_RE = /no such file|permission denied|not a directory|is a directory|invalid|unrecognized|unknown option|usage:|error|syntax|unmatched|missing|cannot|can't/i;

/**
 * `grep` finding nothing, `which` not finding, `test`/`[` false, `diff`/`cmp` seeing a difference, `command -v`
 * not finding: exit 1 of a read-only probe is an answer, not a failure. It is the probe that set the exit code
 * when it is the line's approach, or the last stage of its last pipeline (`ps aux | grep apt`).
 */
export function isProbeAnswer(exitCode: number | null | undefined, approachProgram: string, pipeline: readonly string[], output: string): boolean {
  if (exitCode !== 1) return false;
  const last = pipeline.length > 1 ? pipeline[pipeline.length - 1] : approachProgram;
  if (!PROBES.has(last) && !PROBES.has(approachProgram)) return false;
  const probe = PROBES.has(last) ? last : approachProgram;
  if (DATA_PROBES.has(probe)) return true;
  // anything the probe printed that reads like an error of its own makes it a failure again
  return !PROBE_ERROR_RE.test(output.split('\n').filter(l => l.trim()).slice(-5).join('\n'));
}

/**
 * The program the shell named as the failing step of a chain: `bash: line 1: killall: command not found`,
 * `/bin/sh: 1: ffmpeg: not found`, `zsh: command not found: jq`. undefined when none is named.
 */
export function failedStep(output: string): string | undefined {
  const m =
    /(?:^|\n)[^\n]*?(?:^|: )(?:line \d+: )?([A-Za-z0-9_.+-]+): (?:command )?not found\s*(?:\n|$)/.exec(output) ??
    /(?:^|\n)[^\n]*command not found: ([A-Za-z0-9_.+-]+)/.exec(output);
  return m?.[1].toLowerCase();
}

/** A pipeline (`… 2>&1 | tail -30`): its exit code is the last stage's, which hides the real run's status. */
export function hidesExitCode(pipeline: readonly string[]): boolean {
  return pipeline.length > 1;
}

// ---------------------------------------------------------------------------------------------
// Test runners: another test file is another approach, unless the runner itself is broken.
// ---------------------------------------------------------------------------------------------

const TEST_RUNNERS = new Set(['pytest', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'rspec', 'phpunit', 'pest', 'behave', 'jasmine']);
/** Errors of the environment, not of a test: the same whatever test file is run. */
const ENVIRONMENT_CATEGORIES = new Set(['missing_module', 'command_not_found', 'permission_denied', 'dependency_conflict']);
const ENVIRONMENT_RE = /conftest|while loading|INTERNALERROR|unrecognized arguments|no tests ran|collection error|error while importing|ImproperlyConfigured|settings are not configured/i;

/** True when an error is environment-level: an import, a setup or a runner error, not a failing assertion. */
export function isEnvironmentError(error: string): boolean {
  if (!error) return false;
  return ENVIRONMENT_CATEGORIES.has(errorCategory(error)) || ENVIRONMENT_RE.test(error);
}

/** Exhausted approaches by folder and program, per memory the store handed out (frozen: it cannot change under it). */
const EXHAUSTED = new WeakMap<object, Map<string, Approach[]>>();

/**
 * The exhausted approaches of a frozen memory by `<cwd>\0<program>`, built once per memory: the terminal
 * asks at every Enter, and must not walk every approach each time. undefined for a memory being written
 * (not frozen), which is walked whole.
 */
function exhaustedIn(approaches: MemoryData['approaches']): Map<string, Approach[]> | undefined {
  if (!Object.isFrozen(approaches)) return undefined;
  let index = EXHAUSTED.get(approaches);
  if (!index) {
    index = new Map();
    for (const a of Object.values(approaches)) {
      if (a.status !== 'exhausted') continue;
      const key = `${a.cwd}\u0000${a.label.split(' ')[0]}`;
      const list = index.get(key);
      if (list) list.push(a);
      else index.set(key, [a]);
    }
    EXHAUSTED.set(approaches, index);
  }
  return index;
}

/**
 * When a test runner's earlier failures were environment-level (the same import or setup error whatever
 * the test file), running another test file is the same loop: the exhausted sibling (same runner, same
 * folder, another test file) whose streak loops on such an error. undefined otherwise (a test file whose
 * own assertions failed does not block another test file).
 */
export function environmentLoop(data: MemoryData, command: string, cwd: string, threshold: number): Approach | undefined {
  const parsed = parseCommand(command);
  if (!TEST_RUNNERS.has(parsed.program)) return undefined;
  const candidates = exhaustedIn(data.approaches)?.get(`${cwd}\u0000${parsed.program}`) ?? (Object.isFrozen(data.approaches) ? [] : Object.values(data.approaches));
  for (const other of candidates) {
    if (other.status !== 'exhausted' || other.cwd !== cwd || other.failures < threshold) continue;
    if (keyLabel(other.key).split(' ')[0] !== parsed.program) continue;
    const errors = Array.isArray(other.streakErrors) ? other.streakErrors : [];
    const last = errors[errors.length - 1] ?? '';
    if (isEnvironmentError(last) && judgeStreak(other, threshold).loop) return other;
  }
  return undefined;
}
