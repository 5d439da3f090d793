// The gate's policy for an exhausted approach: a graded answer with the rule that decided.
// - deny: the loop shape is there and nothing changed since the last failure (no edit, the same git
//   state, no edit chained in the line): the run will fail the same way;
// - ask: the loop shape came back after each of the last CHANGE_BUDGET changes (fixes that did not reach
//   it), or the bound on wandering is reached: a person decides;
// - warn: a change earns a run (the fix is verified: a pass clears the approach), and new work, progress
//   and waiting are not loops: run it and say so.
// The rules are a table (EXHAUSTED_RULES, RULES_BEFORE): each names the behaviour it captures and its
// answer, was measured on both development corpora (bench/judgement.mjs, BENCHMARKS.md) and is pinned by
// a unit test citing the corpus case it came from. The cause across approaches: ./causePolicy.ts.

import { quote } from '../prompts/agentText';
import { changedSinceLastFailure, editsSince, latestStart, startsSince, type ChangeVerdict, type StepContext } from './edits';
import { isEditTypo, WANDER_FACTOR } from './judgement';
import { pollingStatus, POLL_WINDOW_MS } from './polling';
import { shellEffects } from './shellEffects';
import { DECLARED_SETTINGS } from '../settingsDeclared';
import type { Approach, Attempt, Decision, GitState, MemoryData } from '../types';

/**
 * Changes in a row that each ended in the same loop shape before the gate stops the run again (ask):
 * below it, a change earns a run — the fix is verified, and so is a second fix after a wrong one.
 * failureMemory.gate.changeBudget's default, chosen on both development corpora (bench/judgement.mjs
 * --budget, BENCHMARKS.md).
 */
export const CHANGE_BUDGET: number = DECLARED_SETTINGS['gate.changeBudget'].default;

/**
 * The rules decided before the chain of an exhausted approach (./check.ts, and the cause across
 * approaches, ./causePolicy.ts): what each captures and what it answers.
 */
const RULES_BEFORE = {
  clear: { answer: 'allow', captures: 'never failed here, or the last run passed' },
  'runs-nothing': { answer: 'allow', captures: 'the line runs no program' },
  'below-threshold': { answer: 'warn', captures: 'failing, but fewer failures than the threshold' },
  'allowed-once': { answer: 'allow', captures: 'the user allowed one more run' },
  flaky: { answer: 'warn', captures: 'passes and fails on the same code: not a loop' },
  'environment-loop': { answer: 'loop', captures: 'a test runner broken by its environment fails the same whatever the test file: another test file is no change' },
  'systemic-cause': {
    answer: 'deny or warn',
    captures:
      'one cause (a service refusing, a program, module or variable missing, credentials refused, a full disk…) failed several approaches as often as the threshold, and nothing changed since: any approach it failed is denied; a command not seen with it is warned',
  },
  team: { answer: 'warn', captures: 'the team saw it fail (team memory)' },
} as const satisfies Record<string, { answer: RuleAnswer; captures: string }>;

type CodesOf<R> = R extends { code: infer C extends string } ? C | (R extends { afterChange: { code: infer D extends string } } ? D : never) : never;
/** A rule's name: the reason code every answer carries (the decision log, the benchmark's per-rule figures). */
export type ReasonCode = keyof typeof RULES_BEFORE | CodesOf<(typeof EXHAUSTED_RULES)[number]>;

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
  const f = factsOf(input);
  return { ...judge(f), evidence: evidenceOf(input, f.change) };
}

/** What the verdict rests on, with the change since the last failure the caller worked out (once per call). */
function evidenceOf(input: PolicyInput, change: ChangeVerdict): Evidence {
  const a = input.approach;
  const { run, fixes } = comparable(a).length ? sameErrorRun(a) : { run: 0, fixes: 0 };
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
  return { ...v, evidence: evidenceOf(input, change) };
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

/** What a rule answers: a fixed decision, or a loop's (deny with nothing changed, warn after a change, ask past the change budget). */
export type RuleAnswer = 'allow' | 'warn' | 'ask' | 'deny' | 'loop' | 'deny or warn' | 'warn, then ask';

/** What the rules of the chain read, worked out once per judgement. */
interface Facts {
  input: PolicyInput;
  change: ChangeVerdict;
  /** The streak's error lines, and those that compare (syntax errors, the typos of edits, left out). */
  errors: string[];
  real: string[];
  last: string;
  /** The same error at the last two failures (an uncaptured one neither breaks nor makes the chain). */
  sameTwice: boolean;
}

/** A rule whose answer is fixed: its test gives the reason when it applies. */
interface FixedRule {
  code: string;
  answer: 'warn' | 'ask';
  captures: string;
  test: (f: Facts) => string | undefined;
}

/** A loop shape: its test gives the shape in words and the changes it came back after (see loop()). */
interface LoopRule {
  code: string;
  answer: 'loop';
  captures: string;
  /** The code when the shape comes back after a change (default: the rule's own). */
  afterChange?: { code: string; captures: string };
  test: (f: Facts) => { what: string; fixes: number } | undefined;
}

/** Files a command reads as data, not code: rewriting one gives it other data each time. */
const DATA_FILE_RE = /\.(?:json|jsonl|csv|tsv|txt|log|ya?ml)$/i;

/**
 * The chain for an exhausted approach that is not allowed once and not flaky (./check.ts decides those):
 * the first rule that applies answers. A new rule is one entry here (its code, its answer, the behaviour
 * it captures, its test); the reason codes, their words and the benchmark's per-rule counts follow.
 */
const EXHAUSTED_RULES = [
  {
    code: 'edit-chained',
    answer: 'warn',
    captures: 'an edit chained before the check (sed -i … && run): new work',
    test: f => (f.change.kind === 'chained' ? 'an edit is chained before the run, in a line not tried before: new work, not a loop' : undefined),
  },
  {
    code: 'waiting-on-job',
    answer: 'warn',
    captures: 'a poll that waits (sleep 30; tail log) while a background job started in the last 10 minutes runs: waiting, not a failure streak',
    test: f => waitingOnJob(f.input),
  },
  {
    code: 'probe-waiting',
    answer: 'warn',
    captures: 'a status probe failing "not up yet" while what it waits for was started in the last 10 minutes: waiting',
    test: f => probeWaiting(f.input),
  },
  {
    code: 'improving',
    answer: 'warn',
    captures: 'more tests pass each time, or fewer fail: progress',
    test: f => (testsImproving(f.input.approach) ? 'the failing set shrank or more tests pass than the attempt before: progress, not a loop' : undefined),
  },
  {
    // the change budget holds for a rewritten script too (a test file edited again and again, the same
    // test failing the same way); data the line reads (out.json) is other data each time: it runs
    code: 'input-changed-same-error',
    answer: 'ask',
    captures: `a script the command names was rewritten, but the same error followed each of the last ${CHANGE_BUDGET} changes: the changes do not reach it, a person decides`,
    test: f => {
      const fixes = f.sameTwice ? sameErrorRun(f.input.approach).fixes : 0;
      const file = fixes >= budgetOf(f.input) ? editedInput(f.input) : undefined;
      return file && !DATA_FILE_RE.test(file) ? `${file} changed again, but the same error followed each of the last ${fixes} changes: the changes do not reach it; the user decides whether it runs again` : undefined;
    },
  },
  {
    code: 'input-changed',
    answer: 'warn',
    captures: 'a script or input file the command names was rewritten since the last failure: other code or data',
    test: f => {
      const file = editedInput(f.input);
      return file ? `${file}, named by the command, changed since the last failure: it runs other code or data` : undefined;
    },
  },
  {
    // failures that printed no error line (a JSON brace, a pip notice, nothing): unchanged they fail the
    // same way; after a change nothing says it is a loop
    code: 'no-error-text',
    answer: 'loop',
    captures: 'failed again and again with no error line: denied when nothing changed, else warned',
    test: ({ errors, real, last, input }) =>
      real.length < 2 && (errors.length < 2 || (!last && !errors[errors.length - 2])) ? { what: `failed ${input.approach.failures} times with no error line to compare`, fixes: 0 } : undefined,
  },
  {
    code: 'same-error-unchanged',
    answer: 'loop',
    captures: 'the same error again with nothing changed since the last failure: the surest loop',
    afterChange: {
      code: 'same-error-after-change',
      captures: `the same error again after a change: a fix attempt, it runs (warned); once the same error followed each of the last ${CHANGE_BUDGET} changes, a person decides`,
    },
    test: f => (f.sameTwice ? { what: `the same error ${trailingRun(f.real)} times in a row`, fixes: sameErrorRun(f.input.approach).fixes } : undefined),
  },
  {
    code: 'no-test-passing',
    answer: 'loop',
    captures: 'no test passed in three attempts, whatever the detail printed: no progress (after a change it runs, within the same budget)',
    test: ({ input: { approach: a } }) => (noTestPassing(a) ? { what: 'no test passed in the last three attempts, whatever each printed', fixes: fixesAmong(a, noTestPassingRun(a)) } : undefined),
  },
  {
    code: 'error-cycle',
    answer: 'loop',
    captures: 'the errors cycle between two (A, B, A, B): a loop',
    test: f => (cyclesBetweenTwo(f.errors) ? { what: 'the errors take turns between the same two', fixes: fixesAmong(f.input.approach, cycleRun(f.input.approach)) } : undefined),
  },
  {
    code: 'edit-typo',
    answer: 'warn',
    captures: 'the last failure was a syntax error, the typo of an edit: its fix comes next',
    test: f => (isEditTypo(f.last) ? 'the last run failed on a syntax error (the typo of an edit), not on the approach' : undefined),
  },
  {
    code: 'wander-bound',
    answer: 'ask',
    captures: 'the errors kept changing for four times the threshold: a person decides',
    test: ({ input: { approach: a, threshold } }) => (a.failures >= WANDER_FACTOR * threshold ? `${a.failures} failures without a success (bound ${WANDER_FACTOR * threshold}), even with changing errors` : undefined),
  },
  {
    code: 'error-changed',
    answer: 'warn',
    captures: 'the error changed from the attempt before: progress',
    test: f => `the error changed from the attempt before (${new Set(f.errors).size} different errors in ${f.input.approach.failures} failures): progress, not a loop`,
  },
] as const satisfies ReadonlyArray<FixedRule | LoopRule>;

function factsOf(input: PolicyInput): Facts {
  const a = input.approach;
  const errors = Array.isArray(a.streakErrors) ? a.streakErrors : [];
  const real = realErrors(errors);
  const last = errors[errors.length - 1];
  const sameTwice = (!!last && last === errors[errors.length - 2]) || (!isEditTypo(last) && real.length >= 2 && real[real.length - 1] === real[real.length - 2]);
  return { input, change: changedSinceLastFailure(input.data, a, input.command, input.gitNow, input.step), errors, real, last, sameTwice };
}

function judge(f: Facts): PolicyVerdict {
  for (const rule of EXHAUSTED_RULES as ReadonlyArray<FixedRule | LoopRule>) {
    if (rule.answer === 'loop') {
      const shape = rule.test(f);
      if (shape) return loop(f.change, [rule.code, rule.afterChange?.code ?? rule.code] as [ReasonCode, ReasonCode], shape.what, shape.fixes, budgetOf(f.input));
    } else {
      const reason = rule.test(f);
      if (reason) return { decision: rule.answer, code: rule.code as ReasonCode, reason };
    }
  }
  throw new Error('the chain ends with a rule that always answers');
}

/** Every rule, by reason code, with what it answers and the behaviour it captures: the words of the docs and the benchmark. */
export const RULES: ReadonlyArray<{ code: ReasonCode; answer: RuleAnswer; captures: string }> = [
  ...Object.entries(RULES_BEFORE).map(([code, r]) => ({ code: code as ReasonCode, answer: r.answer, captures: r.captures })),
  ...EXHAUSTED_RULES.flatMap(r => [
    // a loop with its own code after a change denies under this one
    { code: r.code as ReasonCode, answer: 'afterChange' in r ? ('deny' as const) : r.answer, captures: r.captures },
    ...('afterChange' in r ? [{ code: r.afterChange.code as ReasonCode, answer: 'warn, then ask' as const, captures: r.afterChange.captures }] : []),
  ]),
];

/** The rules, by reason code: the behaviour each one names. */
export const REASON_CODES = Object.fromEntries(RULES.map(r => [r.code, r.captures])) as Readonly<Record<ReasonCode, string>>;

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
