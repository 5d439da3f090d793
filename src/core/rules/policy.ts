// The gate's policy for an exhausted approach: a graded answer with the rule that decided.
// - deny: the loop shape is there and nothing changed since the last failure (no edit, the same git
//   state, no edit chained in the line): the run will fail the same way;
// - ask: the loop shape came back after each of the last CHANGE_BUDGET changes (fixes that did not reach
//   it), or the bound on wandering is reached: a person decides;
// - warn: a change earns a run (the fix is verified: a pass clears the approach), and new work, progress
//   and waiting are not loops: run it and say so.
// Each rule names the behaviour it captures, was measured on both development corpora
// (bench/judgement.mjs, BENCHMARKS.md) and is pinned by a unit test citing the corpus case it came from.

import { quote } from '../prompts/agentText';
import { changedSinceLastFailure, changingEditsSince, editsSince, PACKAGES_PATH, lastFailedAttempt, lastFailureDirty, latestStart, lineStep, startsSince, type ChangeVerdict, type StepContext } from './edits';
import { isEditTypo, WANDER_FACTOR } from './judgement';
import { pollingStatus, POLL_WINDOW_MS } from './polling';
import { shellEffects, workSignature } from './shellEffects';
import { causeRemedy } from './causes';
import { activeApproaches, causeHeadline, lastFix, liveCauses, logsIn, mayFixCause } from './patternRecords';
import type { Approach, Attempt, Decision, GitState, MemoryData, PatternRecord } from '../types';

/**
 * Changes in a row that each ended in the same loop shape before the gate stops the run again (ask):
 * below it, a change earns a run — the fix is verified, and so is a second fix after a wrong one.
 * Chosen on both development corpora (bench/judgement.mjs --budget, BENCHMARKS.md).
 */
export const CHANGE_BUDGET = 3;

/** The rules, by reason code: what each one decides and the behaviour it names. */
export const REASON_CODES = {
  clear: 'never failed here, or the last run passed',
  'runs-nothing': 'the line runs no program',
  'below-threshold': 'failing, but fewer failures than the threshold',
  'allowed-once': 'the user allowed one more run',
  flaky: 'passes and fails on the same code: not a loop',
  improving: 'more tests pass each time, or fewer fail: progress',
  'edit-chained': 'an edit chained before the check (sed -i … && run): new work',
  'waiting-on-job': 'a poll that waits (sleep 30; tail log) while a background job started in the last 10 minutes runs: waiting, not a failure streak',
  'probe-waiting': 'a status probe failing "not up yet" while what it waits for was started in the last 10 minutes: waiting',
  'input-changed': 'a script or input file the command names was rewritten since the last failure: other code or data',
  'edit-typo': 'the last failure was a syntax error, the typo of an edit: its fix comes next',
  'error-changed': 'the error changed from the attempt before: progress',
  'same-error-unchanged': 'the same error again with nothing changed since the last failure: the surest loop',
  'same-error-after-change': `the same error again after a change: a fix attempt, it runs (warned); once the same error followed each of the last ${CHANGE_BUDGET} changes, a person decides`,
  'error-cycle': 'the errors cycle between two (A, B, A, B): a loop',
  'no-test-passing': 'no test passed in three attempts, whatever the detail printed: no progress (after a change it runs, within the same budget)',
  'wander-bound': 'the errors kept changing for four times the threshold: a person decides',
  'environment-loop': 'a test runner broken by its environment fails the same whatever the test file: another test file is no change',
  'no-error-text': 'failed again and again with no error line: denied when nothing changed, else warned',
  'systemic-cause':
    'one cause (a service refusing, a program, module or variable missing, credentials refused, a full disk…) failed several approaches as often as the threshold, and nothing changed since: any approach it failed is denied; a command not seen with it is warned',
  team: 'the team saw it fail (team memory)',
} as const;

export type ReasonCode = keyof typeof REASON_CODES;

export interface PolicyVerdict {
  decision: Decision;
  code: ReasonCode;
  reason: string;
  /** What the verdict rests on (for the benchmark's per-rule figures and the decision log). */
  evidence?: Evidence;
}

export interface Evidence {
  change: ChangeVerdict['kind'];
  /** What changed since the last failure, for a person ("src/a.ts changed since the last failure"; "nothing changed"). */
  what: string;
  /** The same error at the end of the streak, this many failures in a row (syntax errors left out). */
  sameRun: number;
  /** How many failures of that run came after a change: fixes that did not reach the error. */
  changedInRun: number;
  failures: number;
}

/** How long after a job or service was started a probe or a poll counts as waiting for it. */
export const WAIT_WINDOW_MS = POLL_WINDOW_MS;

export interface PolicyInput {
  data: MemoryData;
  approach: Approach;
  /** The command line about to run (redacted). */
  command: string;
  threshold: number;
  now: Date;
  /** The workspace's git state now, when the caller read it. */
  gitNow?: GitState;
  /** The step of a longer line this is (src/core/rules/steps.ts); default: the line is its own step. */
  step?: StepContext;
  /** Changes in a row that each ended in the same loop before a person decides (default CHANGE_BUDGET). */
  budget?: number;
}

/** The failures of the current streak in the short-term window, oldest first. */
function windowFailures(a: Approach): Attempt[] {
  const out: Attempt[] = [];
  for (let i = a.attempts.length - 1; i >= 0; i--) {
    const t = a.attempts[i];
    if (t.outcome === 'success') break;
    if (t.outcome === 'failure') out.unshift(t);
  }
  return out;
}

/**
 * A loop shape: with nothing changed since the last failure the run will fail the same way (deny); after a
 * change it is a fix attempt, which runs (warn), until the shape came back after each of the last
 * CHANGE_BUDGET changes (`fixes`): then a person decides (ask).
 */
function loop(change: ChangeVerdict, codes: [ReasonCode, ReasonCode], what: string, fixes: number, budget: number): PolicyVerdict {
  if (!change.changed) return { decision: 'deny', code: codes[0], reason: `${what}, and nothing changed since the last failure` };
  if (fixes < budget) {
    const before = fixes ? `; ${fixes === 1 ? 'one change' : `${fixes} changes`} before ended the same way, a person decides after ${budget}` : '';
    return { decision: 'warn', code: codes[1], reason: `${what}; ${change.what}: a fix attempt, it runs${before}` };
  }
  return { decision: 'ask', code: codes[1], reason: `${what}, and it came back after each of the last ${fixes} changes: the changes do not reach it; the user decides whether it runs again` };
}

/**
 * The failures of the streak that compare, oldest first: each error and whether something changed since
 * the comparable failure before it (a syntax error — the typo of an edit — or an uncaptured error is
 * folded into the failure after it, with its changes).
 */
function comparable(a: Approach): Array<{ error: string; changed: boolean }> {
  const errors = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  const changes = Array.isArray(a.streakChanged) ? a.streakChanged : [];
  const offset = errors.length - changes.length;
  const out: Array<{ error: string; changed: boolean }> = [];
  let pending = false;
  errors.forEach((error, i) => {
    const changed = i >= offset && changes[i - offset] === true;
    if (!error || isEditTypo(error)) pending ||= changed;
    else {
      out.push({ error, changed: changed || pending });
      pending = false;
    }
  });
  return out;
}

/** The same error at the end of the streak: how many times in a row, and how many of those came after a change. */
export function sameErrorRun(a: Approach): { run: number; fixes: number } {
  const list = comparable(a);
  const last = list[list.length - 1];
  let run = 0;
  let fixes = 0;
  for (let i = list.length - 1; i >= 0 && list[i].error === last.error; i--) {
    run++;
    if (i < list.length - 1 && list[i + 1].changed) fixes++;
  }
  return { run, fixes };
}

const budgetOf = (input: PolicyInput): number => (Number.isInteger(input.budget) && input.budget! >= 1 ? input.budget! : CHANGE_BUDGET);

/** Changes among the last `span` comparable failures (each one's change since the one before it, the first's left out). */
function fixesAmong(a: Approach, span: number): number {
  return comparable(a).slice(-span).slice(1).filter(x => x.changed).length;
}

/** How many failures at the end of the streak ran tests of which none passed (the short-term window's). */
function noTestPassingRun(a: Approach): number {
  const failures = windowFailures(a);
  let n = 0;
  for (let i = failures.length - 1; i >= 0; i--) {
    const t = failures[i].testResults;
    if (!(t && t.total > 0 && t.passed === 0 && t.failed > 0)) break;
    n++;
  }
  return n;
}

/** How many comparable failures at the end of the streak take turns between two errors (A, B, A, B…). */
function cycleRun(a: Approach): number {
  const e = comparable(a).map(x => x.error);
  let n = Math.min(2, e.length);
  while (n < e.length && e[e.length - 1 - n] === e[e.length - 1 - n + 2] && e[e.length - 1 - n] !== e[e.length - n]) n++;
  return n;
}

/** The errors of the streak that compare (syntax errors, the typos of edits, left out). */
function realErrors(errors: readonly string[]): string[] {
  return errors.filter(e => e && !isEditTypo(e));
}

/** How many of the last errors are the same in a row. */
function trailingRun(errors: readonly string[]): number {
  let n = 0;
  while (n < errors.length && errors[errors.length - 1 - n] === errors[errors.length - 1]) n++;
  return n;
}

/** A–B–A–B at the end of the streak: two errors taking turns, with nothing else in between. */
export function cyclesBetweenTwo(errors: readonly string[]): boolean {
  const e = realErrors(errors).slice(-4);
  return e.length === 4 && e[0] !== e[1] && e[0] === e[2] && e[1] === e[3];
}

/** The last three failures were test runs in which no test passed. */
export function noTestPassing(a: Approach): boolean {
  const last = windowFailures(a).slice(-3);
  return last.length === 3 && last.every(t => t.testResults && t.testResults.total > 0 && t.testResults.passed === 0 && t.testResults.failed > 0);
}

/** The failing set shrank at the last run (5 failed → 1 failed, 4 passed) or more tests pass: progress. */
export function testsImproving(a: Approach): boolean {
  const last = windowFailures(a).slice(-2);
  if (last.length < 2 || !last.every(t => t.testResults)) return false;
  const [x, y] = last.map(t => t.testResults!);
  return y.passed > x.passed || (y.failed < x.failed && y.total >= x.total - x.failed + y.failed);
}

/**
 * Waiting on a background job: a read-only poll that waits before it looks (`sleep 30; tail log`) while a
 * job started within the window runs. A poll that does not wait (`ps; tail; ls out.json` every few
 * seconds) and keeps getting the same answer with nothing changed is a loop: waiting first is the fix.
 */
function waitingOnJob(input: PolicyInput): string | undefined {
  const effects = shellEffects(input.step?.whole ?? input.command);
  if (!effects.readOnly || !effects.waits) return undefined;
  const since = input.now.getTime() - WAIT_WINDOW_MS;
  const job = latestStart(input.data, since);
  if (!job) return undefined;
  return `a read-only poll while ${quote(job.command.split('\n')[0], 80)} (started ${Math.max(1, Math.round((input.now.getTime() - Date.parse(job.at)) / 1000))} s ago) runs: waiting, not a failure streak`;
}

/** A status probe waits only while something it waits for was started, for a bounded time. */
function probeWaiting(input: PolicyInput): string | undefined {
  const since = input.now.getTime() - WAIT_WINDOW_MS;
  const starts = startsSince(input.data, since);
  if (!starts.length) return undefined;
  const poll = pollingStatus(input.approach, input.now, Date.parse(starts[starts.length - 1].at));
  if (!poll.polling) return undefined;
  // the commands that started it during this streak: a changed one is a restart, the wait starts again
  const first = Date.parse(input.approach.firstFailure ?? '');
  const during = Number.isNaN(first) ? starts : startsSince(input.data, first - WAIT_WINDOW_MS);
  const distinct = new Set(during.map(s => s.command)).size;
  return `${poll.reason}${distinct > 1 ? `; the start command changed ${distinct - 1} time(s)` : ''}`;
}

/**
 * The graded answer for an exhausted approach that is not allowed once, not flaky and whose tests are not
 * improving (the caller checks those): waiting and progress warn, loops deny or ask.
 */
export function judgeExhausted(input: PolicyInput): PolicyVerdict {
  const v = judge(input);
  return { ...v, evidence: evidenceOf(input) };
}

function evidenceOf(input: PolicyInput): Evidence {
  const a = input.approach;
  const { run, fixes } = comparable(a).length ? sameErrorRun(a) : { run: 0, fixes: 0 };
  const change = changedSinceLastFailure(input.data, a, input.command, input.gitNow, input.step);
  return { change: change.kind, what: change.what, sameRun: run, changedInRun: run > 1 ? fixes : 0, failures: a.failures };
}

/**
 * Another test file of a test runner its environment broke (the exhausted sibling, `input.approach`):
 * another test file is no change (that is the loop); an edit or a moved git state earns a run, within
 * the same budget.
 */
export function judgeEnvironmentLoop(input: PolicyInput): PolicyVerdict {
  const change = changedSinceLastFailure(input.data, input.approach, input.command, input.gitNow, input.step);
  const real = change.kind === 'line' ? { changed: false, kind: 'none' as const, what: 'nothing changed' } : change;
  const v = loop(real, ['environment-loop', 'environment-loop'], 'another test file is the same loop', sameErrorRun(input.approach).fixes, budgetOf(input));
  return { ...v, evidence: evidenceOf(input) };
}

/** A file the command line names (its script, its input) that an edit changed since the last failure, if any. */
export function editedInput(input: PolicyInput): string | undefined {
  const words = new Set((input.step?.whole ?? input.command).split(/[\s'"=<>|;&()]+/).map(w => w.replace(/^\.\//, '')).filter(w => w.length > 2));
  for (const e of editsSince(input.data, input.approach.lastFailure)) {
    const base = e.path.split('/').pop() ?? '';
    if (!base.includes('.')) continue;
    for (const w of words) if (w === e.path || w.endsWith(`/${base}`) || w === base) return e.path;
  }
  return undefined;
}

function judge(input: PolicyInput): PolicyVerdict {
  const { approach: a, threshold, data, command, gitNow } = input;
  const change = changedSinceLastFailure(data, a, command, gitNow, input.step);
  // an edit chained before the check (`sed -i … && python x.py`, `cat > f <<EOF … && run`) is new work
  if (change.kind === 'chained') return { decision: 'warn', code: 'edit-chained', reason: 'an edit is chained before the run, in a line not tried before: new work, not a loop' };
  // waiting on a background job (`sleep 30; tail log`) is not a failure streak
  const job = waitingOnJob(input);
  if (job) return { decision: 'warn', code: 'waiting-on-job', reason: job };
  // a probe polled while its service's start command changes is waiting (only while something was started)
  const probe = probeWaiting(input);
  if (probe) return { decision: 'warn', code: 'probe-waiting', reason: probe };
  if (testsImproving(a)) return { decision: 'warn', code: 'improving', reason: 'the failing set shrank or more tests pass than the attempt before: progress, not a loop' };
  // a script or an input the line names was rewritten since the last failure: it runs other code or data
  const input_ = editedInput(input);
  if (input_) return { decision: 'warn', code: 'input-changed', reason: `${input_}, named by the command, changed since the last failure: it runs other code or data` };

  const errors = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  const real = realErrors(errors);
  const last = errors[errors.length - 1];
  // failures that printed no error line (a JSON brace, a pip notice, nothing): unchanged they fail the same
  // way; after a change nothing says it is a loop
  if (real.length < 2 && (errors.length < 2 || (!last && !errors[errors.length - 2]))) {
    return loop(change, ['no-error-text', 'no-error-text'], `failed ${a.failures} times with no error line to compare`, 0, budgetOf(input));
  }
  // the same error with nothing changed since the last failure is the surest loop
  // (a failure whose output was not captured says nothing of its error: it neither breaks nor makes the chain)
  const sameTwice = (!!last && last === errors[errors.length - 2]) || (!isEditTypo(last) && real.length >= 2 && real[real.length - 1] === real[real.length - 2]);
  if (sameTwice) {
    const { fixes } = sameErrorRun(a);
    return loop(change, ['same-error-unchanged', 'same-error-after-change'], `the same error ${trailingRun(real)} times in a row`, fixes, budgetOf(input));
  }
  // no test passing in three attempts is no progress, whatever the detail printed
  if (noTestPassing(a)) return loop(change, ['no-test-passing', 'no-test-passing'], 'no test passed in the last three attempts, whatever each printed', fixesAmong(a, noTestPassingRun(a)), budgetOf(input));
  // cycling between two errors (A, B, A, B) is a loop
  if (cyclesBetweenTwo(errors)) return loop(change, ['error-cycle', 'error-cycle'], 'the errors take turns between the same two', fixesAmong(a, cycleRun(a)), budgetOf(input));
  if (isEditTypo(last)) return { decision: 'warn', code: 'edit-typo', reason: 'the last run failed on a syntax error (the typo of an edit), not on the approach' };
  // wandering has a bound: a person decides
  const bound = WANDER_FACTOR * threshold;
  if (a.failures >= bound) return { decision: 'ask', code: 'wander-bound', reason: `${a.failures} failures without a success (bound ${bound}), even with changing errors` };
  return { decision: 'warn', code: 'error-changed', reason: `the error changed from the attempt before (${new Set(errors).size} different errors in ${a.failures} failures): progress, not a loop` };
}

/** The answer given under the strongest-answer setting: deny → ask under `ask`; ask and deny → warn under `warn`. */
export function capDecision(decision: Decision, strongest: 'deny' | 'ask' | 'warn'): Decision {
  if (strongest === 'warn' && (decision === 'ask' || decision === 'deny')) return 'warn';
  if (strongest === 'ask' && decision === 'deny') return 'ask';
  return decision;
}

/** Ask and deny stop the run until someone decides. */
export function isBlocking(decision: Decision): boolean {
  return decision === 'ask' || decision === 'deny';
}

// ---------------------------------------------------------------------------------------------
// The gate counts the cause: one systemic pattern failing several approaches is one loop.

/** A pattern as the gate's answer tells it: the cause, the commands it broke, the fix that worked before. */
export interface PatternBrief {
  id: string;
  /** The cause in words: "the database at localhost:5432". */
  subject: string;
  kind: string;
  systemic: boolean;
  /** Failures with the cause in the current stretch, and the commands (approach labels) they were, most recent last. */
  failures: number;
  commands: string[];
  since: string;
  lastSeen: string;
  lastError: string;
  /** "refused 6 runs of 3 commands since 14:02": the stretch in one sentence, with the cause first. */
  sentence: string;
  /** "one cause: database on :5432 — 3 commands": the same in a status bar's words. */
  headline: string;
  /** What to do first: "start it first". */
  remedy: string;
  /** The fix that worked the last time(s) it came ("last time: ⟦docker compose up -d db⟧"). */
  fix?: { command: string; worked: number; from?: 'team'; machine?: string };
  /** This command's approach failed with the cause in this stretch. */
  seen: boolean;
}

/** "14:02" today, else "2026-11-20 14:02" (the reader's own clock). */
export function clockTime(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay ? hm : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
const commands = (n: number) => `${n} command${n === 1 ? '' : 's'}`;

/** The stretch in one sentence, worded for its cause: "the database at localhost:5432 refused 6 runs of 3 commands since 14:02". */
export function patternSentence(p: PatternRecord, now: Date): string {
  const n = activeApproaches(p).length;
  const tally = `${runs(p.failures)} of ${commands(n)}`;
  const since = `since ${clockTime(p.since, now)}`;
  switch (p.kind) {
    case 'conn_refused':
      return `${p.subject} refused ${tally} ${since}`;
    case 'docker_daemon':
      return `${p.subject} did not answer ${tally} ${since}`;
    case 'auth':
    case 'expired':
      return `${p.subject} were refused in ${tally} ${since}`;
    case 'error':
      return `the same error in ${tally} ${since}`;
    default:
      return `${p.subject}: ${tally} failed on it ${since}`;
  }
}

/** The gate's brief of a pattern for this command's approach (`seen`: it failed with the cause in this stretch). */
export function patternBrief(p: PatternRecord, key: string, now: Date): PatternBrief {
  const active = activeApproaches(p);
  const fix = lastFix(p);
  return {
    id: p.id,
    subject: p.subject,
    kind: p.kind,
    systemic: p.systemic,
    failures: p.failures,
    commands: active.map(a => (a.cwd && a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label)),
    since: p.since,
    lastSeen: p.lastSeen,
    lastError: p.lastError,
    sentence: patternSentence(p, now),
    headline: causeHeadline(p),
    remedy: causeRemedy(p.kind),
    ...(fix ? { fix } : {}),
    seen: active.some(a => a.key === key),
  };
}

/**
 * What changed since a pattern's last failure that could affect its cause, with the policy's notion of
 * a change (./edits.ts): a service started, an install or a login since; an edit that left a file other
 * than it was at that failure (the same bytes again is no change); a moved git state.
 */
export function patternChange(data: MemoryData, p: PatternRecord, gitNow?: GitState, editsLift = true): string | undefined {
  const started = startsSince(data, Date.parse(p.lastSeen) + 1);
  if (started.length) return `\`${started[started.length - 1].command.split('\n')[0].slice(0, 80)}\` ran since its last failure`;
  const edits = changingEditsSince(data, p.lastSeen, () => patternDirty(data, p)).filter(e => editsLift || e.path === PACKAGES_PATH);
  if (edits.length) {
    const names = [...new Set(edits.map(e => e.path))];
    return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed since its last failure`;
  }
  if (gitNow && p.lastGit && gitNow.fingerprint !== p.lastGit) return 'the git state changed since its last failure';
  return undefined;
}

/** The content hashes git gave with the pattern's last failure (its latest approach's run), when memory holds them. */
function patternDirty(data: MemoryData, p: PatternRecord): Record<string, string> | undefined {
  const last = [...p.approaches].reverse().find(x => x.lastSeen === p.lastSeen);
  const a = last && Object.prototype.hasOwnProperty.call(data.approaches, last.key) ? data.approaches[last.key] : undefined;
  return a && a.lastFailure === p.lastSeen ? lastFailureDirty(a) : undefined;
}

/**
 * Work the line does before this step that could affect a cause: an edit or an install chained before
 * it (the step's `editBefore`, as the policy reads it: `npm install pg && npm test`), a service started
 * or a login before it (`docker compose up -d db && npm test`, `gh auth login && gh pr list`).
 */
function fixBefore(step: StepContext, editsLift: boolean): string | undefined {
  if (step.editBefore && (editsLift || shellEffects(step.whole).installs)) return 'an edit or an install is chained before the run';
  // the parts of the line that run before its last one whatever they exit with (`a; b`) or when they pass (`a && b`)
  const parts = step.whole.slice(0, 10_000).split(/&&|;|\n/);
  for (const part of parts.slice(0, -1)) {
    const e = shellEffects(part);
    if (e.starts || e.installs || logsIn(part)) return `\`${oneLineOf(part, 80)}\` runs before it in the line`;
  }
  return undefined;
}

const oneLineOf = (s: string, max: number) => s.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * What the line being judged (a step of it) does about a cause before its run: it sets up what the cause
 * lacks (lineSetsUp) or runs a fix before it (fixBefore). The same line as the approach's last failure
 * with the cause repeats what did not help (the policy's "the same line again is no new work").
 */
function lineChange(input: CauseInput, p: PatternRecord, editsLift: boolean): string | undefined {
  const step = input.step ?? lineStep(input.command);
  // the approach's history is read only when the line does something about the cause (a head's is not there for nothing)
  const last = () => (input.approach ? lastFailedAttempt(input.approach) : undefined);
  // a setup is in the words (`DATABASE_URL=…`), which the work signature leaves out: the same text is the same setup
  const setsUp = lineSetsUp(p, step.whole);
  if (setsUp) return oneLineOf(last()?.command ?? '', 2000) === oneLineOf(step.whole, 2000) ? undefined : setsUp;
  const fix = fixBefore(step, editsLift);
  return fix && workSignature(last()?.command ?? '') !== workSignature(step.whole) ? fix : undefined;
}

/**
 * The knobs of the cause rule, measured on the development corpora (bench/judgement.mjs): which
 * patterns count as systemic (default: the record's own flag), and whether a workspace edit lifts a stop.
 */
export interface CauseKnobs {
  systemic?: (p: PatternRecord) => boolean;
  /** Default true: a workspace change could affect the cause (a config, a .env, a script). */
  editsLift?: boolean;
}

/** A line that sets up the environment it runs in: another interpreter, another PATH, an activated environment. */
const ENV_SETUP_RE = /(?:^|[;&|(]\s*)(?:(?:source|\.)\s+\S*activate\b|(?:conda|mamba|micromamba) activate\b|nvm use\b|pyenv (?:shell|local)\b|volta run\b|(?:export )?PATH=|(?:uv|poetry|pipenv|hatch|pdm) run\b|nix(?:-shell| develop| shell)\b|devbox (?:run|shell)\b)/;

/**
 * The command line itself sets up what a cause lacks, so it is not the same loop: an environment
 * activated for a missing program or module (`source .venv/bin/activate && python …`), the missing
 * variable given on the line (`DATABASE_URL=… npm test`, `export DATABASE_URL=…`).
 */
export function lineSetsUp(p: Pick<PatternRecord, 'kind' | 'factors'>, command: string): string | undefined {
  if (p.kind === 'env_missing' && p.factors.variable && new RegExp(`(?:^|[\\s;&|(])(?:export\\s+)?${p.factors.variable}=`).test(command)) return `the line sets ${p.factors.variable}`;
  if ((p.kind === 'module_missing' || p.kind === 'command_missing' || p.kind === 'engine_version') && ENV_SETUP_RE.test(command)) return 'the line sets up its environment (an activated environment, another PATH)';
  return undefined;
}

export interface CauseInput {
  data: MemoryData;
  /** This command's approach key, and the approach when memory has it. */
  key: string;
  approach: Approach | undefined;
  command: string;
  threshold: number;
  now: Date;
  gitNow?: GitState;
  /** The step of a longer line this is (./steps.ts); default: the line is its own step. */
  step?: StepContext;
  knobs?: CauseKnobs;
}

export interface CauseVerdict {
  /** deny: an approach the cause failed, nothing changed; warn: something changed, or a command not seen with it. */
  decision?: 'deny' | 'warn';
  reason?: string;
  /** The pattern told with the answer (also when it decides nothing: one cause across commands). */
  pattern?: PatternBrief;
}

/**
 * The gate counts the cause: while a systemic pattern is active (several approaches failed with one
 * cause nothing in the workspace's code explains) and nothing changed that could affect it, a run of
 * any approach it failed is denied once the pattern's failures reach the threshold; after a change it
 * is warned (trying a fix). A command never seen with the cause is not stopped but told (warned). A
 * success of a command that needed the same thing resolves the pattern (./patternRecords.ts): its
 * stops lift. An approach whose latest failure had another cause has moved past it: not counted.
 */
export function judgeCause(input: CauseInput): CauseVerdict {
  const { data, key, approach, threshold, now } = input;
  const live = liveCauses(data, now, input.knobs?.systemic);
  const editsLift = input.knobs?.editsLift ?? true;
  const seen = live.filter(p => p.approaches.some(a => a.key === key && a.failures > 0));
  // its latest failure had another cause: it has moved past this one (not stopped, not warned)
  const movedOn = (p: PatternRecord) => !!approach?.lastFailure && approach.lastFailure > p.approaches.find(a => a.key === key)!.lastSeen;
  const mine = seen.find(p => !movedOn(p));
  if (!mine && seen.length) return {};
  if (mine) {
    const pattern = patternBrief(mine, key, now);
    if (mine.failures < threshold) return { pattern };
    const change = lineChange(input, mine, editsLift) ?? patternChange(data, mine, input.gitNow, editsLift);
    const fix = pattern.fix ? `; last time: ${quote(pattern.fix.command, 120)}` : '';
    if (!change) return { decision: 'deny', pattern, reason: `${pattern.sentence}, and nothing changed since: ${pattern.remedy}${fix}` };
    return { decision: 'warn', pattern, reason: `${pattern.sentence}, but ${change}: trying a fix, not a loop${fix}` };
  }
  // a command not seen with the cause: told, never stopped (only one that does work: not a probe, not the fix itself)
  const other = live.find(p => p.failures >= threshold && !patternChange(data, p, input.gitNow, editsLift));
  if (!other) return {};
  const effects = shellEffects(input.command);
  if (effects.readOnly || mayFixCause(input.command) || lineChange(input, other, editsLift)) return {};
  const pattern = patternBrief(other, key, now);
  const fix = pattern.fix ? ` (last time: ${quote(pattern.fix.command, 120)})` : '';
  return { decision: 'warn', pattern, reason: `not seen failing with it, but ${pattern.sentence}: if it needs it too, ${pattern.remedy}${fix}` };
}
