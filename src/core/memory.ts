// The engine: turns a finished command into an attempt, updates its approach, links
// alternatives and keeps the memory inside its caps. Loop patterns and progress are in
// ./patterns.ts; "may I run this?" is in ./check.ts.
// Pure functions over MemoryData: the store persists, the host and the CLI show.

import { approachKey, CHARGE_TESTS, exitStatusOwner, keyLabel, lastPipeline, normalizeCwd, parseCommand, shownLabel } from './approach';
import { resolveLine, type ScriptTables } from './approach/scripts';
import { judgedLines, stepWork } from './rules/steps';
import { boundOutput, sanitizeText } from './text/output';
import type { Redactor } from './text/redact';
import { PlainOutput, stripAnsi } from './text/ansi';
import { errorSignature, printedErrorLine, signatureHead } from './text/signature';
import { clearStreak, failedStep, hidesExitCode, isProbeAnswer, pushStreakError, streakError } from './rules/judgement';
import { addEdits, addStart, changedBeforeFailure, shellEditInputs } from './rules/edits';
import { shellEffects } from './rules/shellEffects';
import { addToLedger, type LedgerUpdate } from './rules/ledger';
import { computeProgress, detectPatterns, type Pattern, type ProgressStatus } from './rules/patterns';
import { flakyVerdict } from './rules/flaky';
import { causeOf } from './rules/causes';
import { logsIn, mayFixCause, notePatternFailure, notePatternRun, resolvePatternsOf, successAnswers } from './rules/patternRecords';
import { parseTestResults } from './testResults';
import type {
  Approach,
  Attempt,
  RunInput,
  EngineSettings,
  JudgingSettings,
  MemoryData,
  MemoryLimits,
  Outcome,
  PatternRecord,
  TestResults,
} from './types';

/** What recording one attempt did, with the reason, for logs and UI. */
export interface AttemptEffect {
  attempt: Attempt;
  approach: Approach;
  patterns: Pattern[];
  progress: ProgressStatus;
  /** This attempt pushed the approach over the threshold. */
  becameExhausted: boolean;
  /** This attempt succeeded after failures, and cleared them. */
  resolved: boolean;
  /** The attempt ran because the user allowed one run of an exhausted approach. */
  usedAllowOnce: boolean;
  /** Approaches evicted to respect the limits. */
  evicted: string[];
  /** What the run ledger learned: a fix (files changed since the last failure) or a regression's changes. */
  ledger: LedgerUpdate;
  /** The approach alternates pass and fail on the same code (see ./flaky.ts): never exhausted for it. */
  flaky: boolean;
  /** [patterns] The pattern record this failure joined (its cause across approaches), when its cause is known. */
  pattern?: PatternRecord;
  /** [patterns] Patterns this run resolved (a success of a command that needed the same thing). */
  resolvedPatterns: PatternRecord[];
  /** false when nothing was kept (a success or interrupt of a command that never failed here). */
  stored: boolean;
  reason: string;
}

// Exit codes that mean "the user or the system stopped it", not "it failed".
// 128 + n for SIGHUP(1), SIGINT(2), SIGQUIT(3), SIGTERM(15), SIGTSTP(20); Windows STATUS_CONTROL_C_EXIT.
// Crashes (SIGSEGV 139, SIGABRT 134, SIGBUS 135, SIGFPE 136) and SIGKILL 137 (often the OOM killer) stay failures.
const INTERRUPT_EXIT_CODES = new Set([129, 130, 131, 143, 148, 0xc000013a, -1073741510]);

export function classifyExit(exitCode: number | null | undefined): Outcome {
  if (!isExitCode(exitCode)) return 'unknown';
  if (exitCode === 0) return 'success';
  if (INTERRUPT_EXIT_CODES.has(exitCode)) return 'interrupted';
  return 'failure';
}

/**
 * A value a shell or a runner can report as an exit code: an integer in the 32-bit range (POSIX
 * 0–255, Windows NTSTATUS values, also as negative numbers). `1e23` or `2.5` is no exit code: unknown.
 */
export function isExitCode(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 4294967295;
}

/** Nothing runs: only variable assignments, a comment, or blank (the key names no program). */
export function runsNothing(key: string): boolean {
  return key.endsWith('::');
}

let idCounter = 0;
export function newId(now: number = Date.now()): string {
  idCounter = (idCounter + 1) % 1679616;
  return `${now.toString(36)}-${idCounter.toString(36).padStart(4, '0')}-${Math.floor(Math.random() * 1679616).toString(36)}`;
}

/** The command line a run is recorded and judged with: control bytes out, secrets redacted, trimmed. */
export function preparedCommand(command: string, redactor: Redactor): string {
  return redactor.redact(sanitizeText(command).trim()).text;
}

/** Work signatures kept per attempt, and their length. */
const MAX_WORKS = 8;
const MAX_WORK_CHARS = 300;

/** What a run did for its approach `key`: the work of each step of its line that is that approach (see Attempt.work). */
function worksFor(command: string, cwd: string, key: string, first: string, scripts: ScriptTables | undefined, redact: (t: string) => string): string[] {
  const works = new Set([first.slice(0, MAX_WORK_CHARS)]);
  const { lines } = judgedLines(command, cwd, scripts, redact);
  // one step (a plain command): its work is the one just read
  if (lines.length <= 1) return [...works];
  for (const l of lines) {
    if (works.size >= MAX_WORKS) break;
    if (l.key === key) works.add(l.work.slice(0, MAX_WORK_CHARS));
  }
  return [...works];
}

/**
 * Builds the stored attempt from raw input: strips terminal escapes and control bytes, redacts
 * secrets, finds the error signature and test results, and bounds the output.
 * Nothing unredacted leaves this function. `scripts`: the project's script tables the line needs
 * (src/app/scripts.ts), so that `npm test` is recorded as the approach its script runs.
 */
export function prepareAttempt(
  input: RunInput,
  settings: EngineSettings,
  redactor: Redactor,
  now: Date = new Date(),
  scripts?: ScriptTables,
): Attempt {
  const raw = input.output ?? '';
  // Cap the work on huge output first (the host already bounds while streaming; the CLI may not).
  const firstCut = boundOutput(raw, Math.max(settings.maxOutputBytes * 8, 256 * 1024));
  // escapes are stripped before redaction (a colour code inside a token must not hide it), and the
  // redacted text is read once by every reader below: the test parsers, the judgement, the signature
  const redacted = new PlainOutput(redactor.redact(stripAnsi(firstCut.text)).text);
  const command = preparedCommand(input.command, redactor);
  const cwd = normalizeCwd(input.cwd);
  const judged = judgeOutcome(command, input.exitCode, redacted);
  const resolved = resolveLine(command, cwd, scripts, judged.charge);
  const work = worksFor(command, cwd, resolved.key, stepWork(resolved.line, resolved.key), scripts, t => redactor.redact(t).text);
  const outcome = judged.outcome;
  const stored = boundOutput(redacted.source, settings.maxOutputBytes);
  const endedAt = input.endedAt ?? now.toISOString();
  const durationMs =
    input.startedAt && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(input.startedAt)) || undefined : undefined;
  // a success through a pipe keeps only a real error line (never the fallback), to compare with the approach's errors
  // a real error line (never the fallback) first: it also says whether the output has one at all
  const real = outcome !== 'success' || judged.hidden ? errorSignature(redacted, 300, { fallback: false }) : '';
  const signature = outcome !== 'success' ? real || errorSignature(redacted) : real;
  const output = settings.storeOutput ? stored.text : '';
  // the stored output is the one read above unless it had to be cut
  const errorLine = signature && output ? printedErrorLine(stored.truncated ? output : redacted, signatureHead(signature)) : undefined;
  // [patterns] the cause, read once from the whole redacted output (the stored one may be cut, or off)
  const noErrorLine = outcome === 'failure' && !!redacted.source.trim() && !real;
  const cause =
    outcome === 'failure'
      ? causeOf({ exitCode: isExitCode(input.exitCode) ? input.exitCode : null, errorSignature: signature, errorLine: errorLine ?? printedErrorLine(redacted, signatureHead(signature)), output: redacted.source, noErrorLine })
      : undefined;
  return {
    id: newId(now.getTime()),
    command,
    key: resolved.key,
    cwd,
    exitCode: isExitCode(input.exitCode) ? input.exitCode : null,
    outcome,
    ...(judged.note ? { note: judged.note } : {}),
    source: input.source,
    startedAt: input.startedAt,
    endedAt,
    durationMs,
    output,
    outputTruncated: !!input.outputTruncated || firstCut.truncated || stored.truncated,
    outputBytes: input.outputBytes ?? firstCut.bytes,
    errorSignature: signature,
    ...(errorLine !== undefined ? { errorLine } : {}),
    // no output line reads like an error: the signature is only the output's last line (a JSON brace, a pip notice)
    ...(noErrorLine ? { noErrorLine: true } : {}),
    testResults: judged.testResults,
    timestamp: now.toISOString(),
    work,
    ...(cause ? { cause } : {}),
  };
}

interface JudgedOutcome {
  outcome: Outcome;
  /** The program a failing chain is charged to, when the shell named it. */
  charge?: string;
  /** A successful exit code that a pipeline may have hidden (checked against the approach's errors in applyAttempt). */
  hidden?: boolean;
  testResults: TestResults | null;
  note?: string;
}

/**
 * What the run's exit code means for the count (each rule in ./judgement.ts names its behaviour):
 * a read-only probe's exit 1 is an answer; an exit-0 pipeline whose output shows failing tests failed;
 * a chain's failure is charged to the step the shell named.
 */
function judgeOutcome(command: string, exitCode: number | null | undefined, read: PlainOutput): JudgedOutcome {
  const outcome = classifyExit(exitCode);
  const testResults = parseTestResults(read);
  const output = read.source;
  if (outcome === 'failure') {
    const program = parseCommand(command).program;
    const step = failedStep(output);
    if (step && step !== program) return { outcome, testResults, charge: step };
    if (isProbeAnswer(exitCode, program, lastPipeline(command), output)) {
      return { outcome: 'success', testResults, note: 'exit 1 of a read-only probe: an answer, not a failure' };
    }
    // failing tests in the output: the chain failed at its test step (`npm test && npm run build` is not the build's failure)
    if (testResults && testResults.failed > 0) return { outcome, testResults, charge: CHARGE_TESTS };
    return { outcome, testResults };
  }
  // a pipe's exit status is its last stage's; after `;` or `||` (`npm test; echo done`, `npm test || true`) a later step's
  const owner = outcome === 'success' ? exitStatusOwner(command) : 'chosen';
  if (outcome === 'success' && (hidesExitCode(lastPipeline(command)) || owner === 'later' || owner === 'or')) {
    if (testResults && testResults.failed > 0) {
      return { outcome: 'failure', testResults, note: `exit 0 ${owner === 'later' || owner === 'or' ? 'from a later step' : 'through a pipe'}, but ${testResults.failed} test(s) failed` };
    }
    return { outcome, testResults, hidden: true };
  }
  return { outcome, testResults };
}

/**
 * A success the agent reported itself where its harness's hooks see its runs: it does not clear the
 * approach's failures (an agent cannot clear its own block), nor does a failure it reports of an
 * exhausted approach change that approach's error; either is kept as unknown, with the reason.
 * Mutates `attempt`; true when it did.
 */
export function distrustReportedSuccess(data: MemoryData, attempt: Attempt): boolean {
  if (attempt.source !== 'reported') return false;
  const a = approachOf(data, attempt.key);
  // a failure it reports of an exhausted approach would be its newest error: "the error changed" would let it run again
  if (attempt.outcome === 'failure' && a?.status === 'exhausted') {
    attempt.outcome = 'unknown';
    attempt.note = 'a failure the agent reported itself of an exhausted approach: only a run its harness or the terminal saw changes its error';
    return true;
  }
  if (attempt.outcome !== 'success') return false;
  if (!a || (a.failures === 0 && a.status !== 'exhausted')) return false;
  attempt.outcome = 'unknown';
  attempt.note = 'a success the agent reported itself: only a run its harness or the terminal saw clears failures';
  return true;
}

function newApproach(attempt: Attempt, now: string): Approach {
  return {
    key: attempt.key,
    command: attempt.command,
    label: shownLabel(attempt.command) || attempt.command,
    cwd: attempt.cwd,
    status: 'active',
    failures: 0,
    totalAttempts: 0,
    lastErrorSignature: '',
    alternativesTried: [],
    learnedFacts: [],
    attempts: [],
    updatedAt: now,
  };
}

/** How an approach is named to a person: its label, and its folder when not the root. */
export function describeApproach(a: Pick<Approach, 'label' | 'cwd'>): string {
  return a.cwd && a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label;
}

const MAX_ALTERNATIVES = 10;
/** Other approaches that failed within this long of each other count as alternatives of one stretch. */
const STRETCH_MS = 6 * 60 * 60 * 1000;

function addAlternative(a: Approach, alt: string): void {
  if (!alt || a.alternativesTried.includes(alt)) return;
  a.alternativesTried.push(alt);
  if (a.alternativesTried.length > MAX_ALTERNATIVES) a.alternativesTried.shift();
}

/**
 * Applies a prepared attempt to the memory (mutates `data`) and returns what happened.
 * - failure: count += 1; exhausted at the threshold; alternatives linked both ways
 * - success: the approach is resolved and its failure count cleared
 * - interrupted / unknown: kept in the short-term window, never counted
 */
export function applyAttempt(data: MemoryData, attempt: Attempt, settings: JudgingSettings, sizeOf: (a: Approach) => number = approachBytes): AttemptEffect {
  const now = attempt.timestamp;
  const existing = approachOf(data, attempt.key);
  const approach = existing ?? newApproach(attempt, now);
  // Only failures (and runs whose outcome is unknown, which may be failures) start a memory:
  // a command that only ever succeeded or was interrupted here is not worth remembering.
  // A line that runs nothing (`FOO=bar`, `# comment`, blank) is never an approach to remember or block.
  const stored = !!existing || (!runsNothing(attempt.key) && (attempt.outcome === 'failure' || attempt.outcome === 'unknown'));
  if (stored) data.approaches[attempt.key] = approach;

  // [edits — see ./edits.ts] what changed since this approach's last failure, judged before this run is added
  const changedBefore = changedBeforeFailure(data, approach, attempt);
  noteWorkspaceEffects(data, attempt);

  approach.command = attempt.command;
  // named as last typed (a label made of the key's own words is never shown)
  approach.label = shownLabel(attempt.command) || attempt.command;
  approach.totalAttempts += 1;
  approach.updatedAt = now;
  approach.attempts.push(attempt);
  const window = Math.max(1, settings.shortTermWindow);
  if (approach.attempts.length > window) approach.attempts.splice(0, approach.attempts.length - window);

  // an exit-0 pipeline whose output shows the error this approach keeps failing with failed (the pipe hid it)
  if (attempt.outcome === 'success' && attempt.errorSignature && approach.failures > 0 && (approach.streakErrors ?? []).includes(streakError(attempt.errorSignature, attempt.testResults))) {
    attempt.outcome = 'failure';
    attempt.note = 'exit 0 through a pipe or from a later step, but the output shows the error this approach keeps failing with';
  }
  if (attempt.outcome === 'success') {
    attempt.errorSignature = '';
    delete attempt.errorLine;
  }
  // [ledger — see ./ledger.ts] every run of a remembered approach, passes included, with its git state
  const wasFailing = approach.failures > 0 || approach.status === 'exhausted';
  const ledger: LedgerUpdate = stored ? addToLedger(approach, attempt, wasFailing, data.edits) : {};
  // [flaky — see ./flaky.ts] pass and fail on the same code: not a loop, never exhausted for it
  const flaky = stored && flakyVerdict(approach.ledger).flaky;

  // An interrupted run (e.g. the one the guard stopped) does not use up "run anyway once"; any other
  // run does, exhausted or not (a cause shared with other approaches may stop one that is not)
  const usedAllowOnce = !!approach.allowOnce && attempt.outcome !== 'interrupted';
  if (usedAllowOnce) approach.allowOnce = false;

  let becameExhausted = false;
  let resolved = false;
  let reason: string;

  switch (attempt.outcome) {
    case 'failure': {
      if (approach.failures === 0) approach.firstFailure = now;
      approach.failures += 1;
      approach.lastFailure = now;
      if (attempt.errorSignature) approach.lastErrorSignature = attempt.errorSignature;
      pushStreakError(approach, attempt.noErrorLine ? '' : attempt.errorSignature, attempt.testResults, changedBefore);
      if (approach.status === 'resolved') approach.status = 'active';
      if (approach.status !== 'exhausted' && approach.failures >= settings.threshold && !flaky) {
        approach.status = 'exhausted';
        approach.exhaustedAt = now;
        becameExhausted = true;
      }
      linkAlternatives(data, approach, now);
      reason = becameExhausted
        ? `failed ${approach.failures} times since the last success (threshold ${settings.threshold}): exhausted`
        : approach.status === 'exhausted'
          ? `failure ${approach.failures}, still exhausted (threshold ${settings.threshold}; exit ${attempt.exitCode})`
          : `failure ${approach.failures} of ${settings.threshold} (exit ${attempt.exitCode})${flaky ? '; flaky (passes and fails on the same code): not exhausted' : ''}`;
      break;
    }
    case 'success': {
      resolved = approach.failures > 0 || approach.status !== 'active';
      approach.failures = 0;
      clearStreak(approach);
      approach.lastSuccess = now;
      approach.allowOnce = false;
      if (resolved) {
        approach.status = 'resolved';
        approach.resolvedAt = now;
        approach.resolvedBy = 'success';
        reason = 'succeeded: failure history cleared, approach resolved';
      } else {
        reason = stored ? 'succeeded' : 'succeeded; never failed here, nothing to remember';
      }
      break;
    }
    case 'interrupted':
      reason = `interrupted (exit ${attempt.exitCode}): not counted`;
      break;
    default:
      reason = attempt.note && attempt.source === 'reported' ? `${attempt.note}: recorded, not counted` : 'exit code unknown: recorded, not counted';
  }

  const patterns = detectPatterns(approach.attempts);
  const progress = computeProgress(approach.attempts);
  const evicted = stored ? enforceLimits(data, settings.limits, attempt.key, sizeOf) : [];
  if (stored) data.updatedAt = now;
  return { attempt, approach, patterns, progress, becameExhausted, resolved, usedAllowOnce, evicted, stored, reason, ledger, flaky, ...notePatterns(data, attempt, approach, stored, ledger) };
}

/**
 * [patterns — see ./patternRecords.ts] The cause across approaches: a failure joins its cause's pattern; a success of a command that needed the same thing resolves
 * it; a service start, an install or a login is noted as a candidate fix. A run of a command not
 * remembered here changes the records only when it touches them (a frozen memory is read, not written).
 */
function notePatterns(data: MemoryData, attempt: Attempt, approach: Approach, stored: boolean, ledger: LedgerUpdate): Pick<AttemptEffect, 'pattern' | 'resolvedPatterns'> {
  if (attempt.outcome === 'failure') {
    const pattern = notePatternFailure(data, attempt, approach);
    // the cause is in its pattern now (and in the journal's record, for every reader that applies it): memory.json need not keep it per attempt
    delete attempt.cause;
    return { ...(pattern ? { pattern } : {}), resolvedPatterns: [] };
  }
  delete attempt.cause;
  const resolvedPatterns = stored || touchesPatterns(data, attempt) ? notePatternRun(data, attempt, ledger.fix?.files) : [];
  if (resolvedPatterns.length) data.updatedAt = attempt.timestamp;
  return { resolvedPatterns };
}

/**
 * Whether recording a run of a command that is not remembered changes the pattern records: a success
 * that answers for an active one, or a command that may fix one (a service started, an install, a login).
 */
export function touchesPatterns(data: Pick<MemoryData, 'patterns'>, attempt: Pick<Attempt, 'key' | 'command' | 'timestamp' | 'outcome'>): boolean {
  const active = (data.patterns ?? []).filter(p => p.status === 'active');
  if (!active.length || attempt.outcome === 'interrupted') return false;
  if (mayFixCause(attempt.command)) return true;
  return attempt.outcome === 'success' && active.some(p => successAnswers(p, attempt));
}

/**
 * A recorded command line's effects on the workspace: the files it wrote and the packages it installed
 * become edit events, a background job or service it started becomes a start (a probe may wait for it).
 * A run whose end is unknown (backgrounded, or still running when the harness moved on) counts as started.
 */
function noteWorkspaceEffects(data: MemoryData, attempt: Attempt): void {
  const effects = shellEffects(attempt.command);
  if (effects.firstEdit >= 0) {
    // a failing line's edit ran when a later step is the one that failed (`sed -i … && python x.py`)
    const ok = attempt.outcome !== 'failure' || (effects.runIndex > effects.firstEdit);
    addEdits(data, shellEditInputs(effects, ok, attempt.timestamp, 'shell'), attempt.timestamp);
  }
  // a login is something a refused or expired credential waits for, as a service is for a refused connection
  if (effects.starts || logsIn(attempt.command) || (attempt.outcome === 'unknown' && !effects.readOnly && !runsNothing(attempt.key))) addStart(data, attempt.command, attempt.timestamp);
}

/** True when recording this line changes more than its approach: it edits, installs, starts something or logs in. */
export function hasWorkspaceEffects(command: string, outcome: Outcome): boolean {
  const effects = shellEffects(command);
  return effects.firstEdit >= 0 || effects.starts || logsIn(command) || (outcome === 'unknown' && !effects.readOnly);
}

function linkAlternatives(data: MemoryData, approach: Approach, now: string): void {
  const t = Date.parse(now);
  const mine = salientWords(approach);
  for (const other of Object.values(data.approaches)) {
    if (other.key === approach.key || other.failures === 0 || !other.lastFailure) continue;
    if (t - parsedTime(other.lastFailure) > STRETCH_MS) continue;
    if (!isAlternative(approach, mine, other)) continue;
    addAlternative(approach, describeApproach(other));
    addAlternative(other, describeApproach(approach));
  }
}

// Words every error shares: they say nothing about WHAT failed.
const GENERIC = new Set(
  ('error errors failed failure fatal cannot could find found module modules package packages command exit code ' +
    'with from file files such directory this that there have none were when while into line lines stack require ' +
    'time tmp port exception traceback recent call last npm yarn pnpm node python run test tests true false null ' +
    'undefined expected received tobe expect assert assertion warning warn info debug').split(' '),
);

/** Date.parse, remembered: applying a run compares it with every approach's last failure (a hook applies up to a journal's runs). */
const parsed = new Map<string, number>();
function parsedTime(iso: string): number {
  let t = parsed.get(iso);
  if (t === undefined) {
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(iso, (t = Date.parse(iso)));
  }
  return t;
}

/** The words that name what an approach is about: its program, targets, modules, packages. */
function salientWords(a: Approach): Set<string> {
  const text = `${keyLabel(a.key)} ${a.lastErrorSignature}`.toLowerCase();
  const words = new Set<string>();
  for (const w of text.match(/[a-z0-9@][a-z0-9@/._-]{2,}/g) ?? []) {
    for (const part of [w, ...w.split(/[/._-]+/)]) {
      if (part.length >= 4 && !GENERIC.has(part) && !/^\d+$/.test(part) && !part.startsWith('<')) words.add(part);
    }
  }
  return words;
}

/**
 * Another approach counts as an alternative tried for the same problem when it failed in
 * the same stretch, in the same folder, and is about the same thing: the same program
 * (`prisma migrate` for `prisma generate`) or a shared salient word in the command or the error
 * (`npm install @prisma/client` for "Cannot find module '@prisma/client'"). Unrelated failures of
 * the same afternoon (a failing jest run next to a prisma problem) are not alternatives.
 */
function isAlternative(a: Approach, aWords: Set<string>, b: Approach): boolean {
  if (a.cwd !== b.cwd) return false;
  const program = keyLabel(a.key).split(' ')[0];
  if (program === keyLabel(b.key).split(' ')[0] && !GENERIC.has(program)) return true;
  for (const w of salientWords(b)) if (aWords.has(w)) return true;
  return false;
}

/**
 * The approach stored under `key`, never an inherited property: `__proto__`, `constructor` and
 * `toString` are commands a person (or a crafted memory.json) may name.
 */
export function approachOf(data: MemoryData, key: string): Approach | undefined {
  return Object.prototype.hasOwnProperty.call(data.approaches, key) ? data.approaches[key] : undefined;
}

export function findApproach(data: MemoryData, command: string, cwd?: string): Approach | undefined {
  return approachOf(data, approachKey(command, normalizeCwd(cwd))) ?? approachOf(data, command);
}

/** Marks an approach resolved by hand: failures cleared, unblocked; the active patterns it is in are resolved with it. */
export function markResolved(data: MemoryData, key: string, now: string = new Date().toISOString()): Approach | undefined {
  const a = approachOf(data, key);
  if (!a) return undefined;
  resolvePatternsOf(data, key, now);
  a.status = 'resolved';
  a.failures = 0;
  clearStreak(a);
  a.resolvedAt = now;
  a.resolvedBy = 'manual';
  a.allowOnce = false;
  a.updatedAt = now;
  data.updatedAt = now;
  return a;
}

/** Lets the next run of an exhausted approach through, once. */
export function allowOnce(data: MemoryData, key: string, now: string = new Date().toISOString()): Approach | undefined {
  const a = approachOf(data, key);
  if (!a) return undefined;
  a.allowOnce = true;
  a.updatedAt = now;
  data.updatedAt = now;
  return a;
}

export interface MemorySummary {
  exhausted: Approach[];
  failing: Approach[];
  resolved: Approach[];
}

/** Approaches by state, most recent first. */
export function summarize(data: MemoryData): MemorySummary {
  const all = Object.values(data.approaches).sort((a, b) => (b.updatedAt < a.updatedAt ? -1 : b.updatedAt > a.updatedAt ? 1 : 0));
  return {
    exhausted: all.filter(a => a.status === 'exhausted'),
    failing: all.filter(a => a.status === 'active' && a.failures > 0),
    resolved: all.filter(a => a.status === 'resolved'),
  };
}

/** What an approach counts toward `maxTotalBytes` (a rough size of its stored JSON). */
export function approachBytes(a: Approach): number {
  let n = 256 + a.command.length + a.lastErrorSignature.length + (a.ledger?.length ?? 0) * 200;
  for (const t of a.attempts) n += 256 + t.command.length + t.output.length + t.errorSignature.length;
  return n;
}

/**
 * Keeps the memory inside its caps: evicts the oldest resolved approaches first,
 * then the oldest failing ones; exhausted approaches go last. Never evicts `keep`.
 * Reflections and learnings are FIFO.
 */
export function enforceLimits(data: MemoryData, limits: MemoryLimits, keep?: string, sizeOf: (a: Approach) => number = approachBytes): string[] {
  const evicted: string[] = [];
  const rank = (a: Approach) => (a.status === 'resolved' ? 0 : a.status === 'active' ? 1 : 2);
  // each approach's rank and time read once, not at every comparison (a sort of 500 compares ~4,500 times)
  const candidates = () =>
    Object.values(data.approaches)
      .filter(a => a.key !== keep)
      .map(a => ({ a, rank: rank(a), at: a.updatedAt }))
      .sort((x, y) => x.rank - y.rank || (x.at < y.at ? -1 : x.at > y.at ? 1 : 0))
      .map(x => x.a);
  let count = Object.keys(data.approaches).length;
  if (count > limits.maxApproaches) {
    for (const a of candidates()) {
      if (count <= limits.maxApproaches) break;
      delete data.approaches[a.key];
      evicted.push(a.key);
      count--;
    }
  }
  let bytes = 0;
  for (const a of Object.values(data.approaches)) bytes += sizeOf(a);
  if (bytes > limits.maxTotalBytes) {
    for (const a of candidates()) {
      if (bytes <= limits.maxTotalBytes) break;
      bytes -= sizeOf(a);
      delete data.approaches[a.key];
      evicted.push(a.key);
    }
  }
  if (data.reflections.length > limits.maxReflections) data.reflections.splice(0, data.reflections.length - limits.maxReflections);
  if (data.learnings.length > limits.maxLearnings) data.learnings.splice(0, data.learnings.length - limits.maxLearnings);
  return evicted;
}
