// The gate: "may I run this?" for a command, from what the memory knows of its approach, and the
// message that says plainly why a command was not run. Recording lives in ./memory.ts.

import { quote } from '../prompts/agentText';
import { approachKey, normalizeCwd, shownLabel } from '../approach';
import type { StepContext } from './edits';
import { environmentLoop } from './judgement';
import { describeChangedSinceLastPass, describeHistory } from './ledger';
import { flakyVerdict } from './flaky';
import { approachOf, describeApproach, runsNothing } from '../memory';
import { computeProgress, detectPatterns, type Pattern, type ProgressStatus } from './patterns';
import { capDecision, judgeEnvironmentLoop, judgeExhausted, type Evidence, type PolicyInput, type ReasonCode } from './policy';
import { judgeCause, type CauseVerdict, type PatternBrief } from './causePolicy';
import type { Approach, Decision, EngineSettings, GitState, MemoryData } from '../types';

export type CheckStatus = 'clear' | 'failing' | 'exhausted';
/** allow: run it. warn: run it but tell. block: do not run it (the answer is ask or deny). */
export type Verdict = 'allow' | 'warn' | 'block';

export interface CheckResult {
  status: CheckStatus;
  verdict: Verdict;
  /** The graded answer: allow, warn, ask (a person decides) or deny (not run), under the strongest-answer setting. */
  decision: Decision;
  /** What the policy said before the setting capped it (shadow mode: `warn` records what it would have done). */
  policyDecision: Decision;
  /** The rule that decided (see REASON_CODES in ./policy.ts). */
  code: ReasonCode;
  /** What an exhausted approach's verdict rests on: what changed, how long the same error ran. */
  evidence?: Evidence;
  /** The deciding rule's own sentence (the reason without the failure count before it). */
  why: string;
  key: string;
  label: string;
  command: string;
  cwd: string;
  attempts: number;
  threshold: number;
  lastError: string;
  alternatives: string[];
  progress: ProgressStatus;
  patterns: Pattern[];
  allowOnce: boolean;
  reason: string;
  /** [ledger] "passed 12 of the last 20 runs, last passed 2 hours ago"; absent without a ledger. */
  history?: string;
  /** [ledger] files changed since the last pass, when it used to pass. */
  changed?: string;
  /** [flaky] alternates pass and fail on the same code. */
  flaky?: string;
  /** [patterns] The cause this approach shares with other commands (a systemic pattern), when one is active. */
  pattern?: PatternBrief;
}

const VERDICT: Record<Decision, Verdict> = { allow: 'allow', warn: 'warn', ask: 'block', deny: 'block' };

type Answer = Pick<CheckResult, 'status' | 'reason'> & Partial<Pick<CheckResult, 'lastError' | 'evidence' | 'why' | 'pattern'>> & { decision: Decision; code: ReasonCode };

/** What the gate knows of a line beyond its text (src/app/gate.ts): its resolved approach, its place in the line. */
export interface CheckOptions {
  /** The approach key, its scripts resolved (default: the line's own key). */
  key?: string;
  /** The step of a longer line this is, for the change verdict (default: the line is its own step). */
  step?: StepContext;
  /** The command line that does the work when a script stands for it (`jest` for `npm test`): what a test runner's rule reads. */
  resolved?: string;
}

/**
 * May this command run? The graded answer (./policy.ts): deny when the loop is sure (the same error with
 * nothing changed since the last failure), ask when a person can decide, warn for progress and waiting,
 * allow below the threshold. `gitNow`: the workspace's git state now, when the caller read it.
 */
export function checkCommand(
  data: MemoryData,
  command: string,
  cwd: string | undefined,
  settings: EngineSettings,
  now: Date = new Date(),
  gitNow?: GitState,
  options: CheckOptions = {},
): CheckResult {
  const normCwd = normalizeCwd(cwd);
  const key = options.key ?? approachKey(command, normCwd);
  const a = approachOf(data, key);
  const base = {
    key,
    label: a?.label ?? (shownLabel(command) || command.trim()),
    command: command.trim(),
    cwd: normCwd,
    threshold: settings.threshold,
    attempts: a?.failures ?? 0,
    lastError: a?.lastErrorSignature ?? '',
    alternatives: a ? [...a.alternativesTried] : [],
    progress: a ? computeProgress(a.attempts) : ('insufficient_data' as ProgressStatus),
    patterns: a ? detectPatterns(a.attempts) : [],
    allowOnce: !!a?.allowOnce,
    ...(a ? historyFields(a, now) : {}),
  };
  const input = { data, approach: a, command, threshold: settings.threshold, now, gitNow, ...(options.step ? { step: options.step } : {}), budget: settings['gate.changeBudget'] };
  const own = decide(input, normCwd, base, options.resolved ?? command);
  // [patterns] the gate counts the cause: one systemic cause failing several approaches is one loop; it
  // reads this step of the line as the approach's own rules do (its chained work, what changed since)
  const answer = withCause(own, judgeCause({ ...input, key }), a);
  const decision = capDecision(answer.decision, settings['gate.strongestAnswer'] ?? 'deny');
  const capped = decision !== answer.decision ? `; ${settings['gate.strongestAnswer'] === 'warn' ? 'shadow mode' : 'the strongest answer is ask'}: it would have been ${answer.decision === 'deny' ? 'denied' : 'asked'}` : '';
  return { ...base, ...answer, reason: `${answer.reason}${capped}`, why: `${answer.why ?? answer.reason}${capped}`, decision, policyDecision: answer.decision, verdict: VERDICT[decision] };
}

type DecideInput = Omit<PolicyInput, 'approach'> & { approach: Approach | undefined };

function decide(input: DecideInput, normCwd: string, base: { key: string; patterns: Pattern[]; progress: ProgressStatus; flaky?: string }, resolved: string): Answer {
  const { data, approach: a, threshold } = input;
  if (runsNothing(base.key)) return { status: 'clear', decision: 'allow', code: 'runs-nothing', reason: 'runs nothing (only variable assignments, a comment or blank)' };
  if (!a || a.status !== 'exhausted') {
    // a test runner broken by its environment fails the same way whatever the test file
    const sibling = environmentLoop(data, resolved, normCwd, threshold);
    if (sibling) {
      const v = judgeEnvironmentLoop({ ...input, approach: sibling });
      return { status: 'exhausted', decision: v.decision, code: v.code, lastError: sibling.lastErrorSignature, reason: `${describeApproach(sibling)} failed ${sibling.failures} times with the same environment error, whatever the test file: ${v.reason}`, ...(v.evidence ? { evidence: v.evidence } : {}) };
    }
  }
  if (!a || a.failures === 0) return { status: 'clear', decision: 'allow', code: 'clear', reason: a ? clearedReason(a) : 'never failed here' };
  if (a.status !== 'exhausted') {
    const warn = base.patterns.length > 0;
    return {
      status: 'failing',
      decision: warn ? 'warn' : 'allow',
      code: 'below-threshold',
      reason: `failed ${a.failures} of ${threshold} times${warn ? `; ${base.patterns.map(p => p.kind).join(', ')}` : ''}`,
    };
  }
  if (a.allowOnce) return { status: 'exhausted', decision: 'allow', code: 'allowed-once', reason: 'exhausted, but the user allowed one more run' };
  if (base.flaky) return { status: 'exhausted', decision: 'warn', code: 'flaky', reason: `exhausted after ${a.failures} failures, but ${base.flaky}: not a loop` };
  if (base.progress === 'improving') {
    return { status: 'exhausted', decision: 'warn', code: 'improving', reason: `exhausted after ${a.failures} failures, but more tests pass each time (improving): not a loop` };
  }
  const v = judgeExhausted({ ...input, approach: a });
  const prefix = v.decision === 'warn' ? `exhausted after ${a.failures} failures, but ` : `exhausted: failed ${a.failures} times since the last success (threshold ${threshold}); `;
  return { status: 'exhausted', decision: v.decision, code: v.code, reason: `${prefix}${v.reason}`, why: v.reason, ...(v.evidence ? { evidence: v.evidence } : {}) };
}

/**
 * The approach's own answer with its cause's: a systemic cause denies what its own rules would let run
 * (never what the user allowed once, never a line that runs nothing), warns what they allow; a deny or
 * an ask of the approach's own rules stands. The pattern is told either way.
 */
function withCause(own: Answer, cause: CauseVerdict, a: Approach | undefined): Answer {
  if (!cause.pattern) return own;
  const told = { ...own, pattern: cause.pattern };
  if (own.code === 'runs-nothing' || own.code === 'allowed-once' || own.decision === 'deny' || own.decision === 'ask' || !cause.decision || !cause.reason) return told;
  // the user let this approach run once more: it runs, and says what it would have met
  if (a?.allowOnce) return cause.decision === 'deny' ? { ...told, decision: 'allow', code: 'allowed-once', reason: `the user allowed one more run; ${cause.reason}` } : told;
  // an exhausted approach's own warning (progress, waiting, a change) says more about it than the cause's
  if (cause.decision === 'warn' && own.decision === 'warn' && own.status === 'exhausted') return told;
  const status = a?.status === 'exhausted' ? 'exhausted' : a && a.failures > 0 ? 'failing' : own.status;
  return { ...told, status, decision: cause.decision, code: 'systemic-cause', reason: cause.reason, why: cause.reason };
}

/**
 * What changed around an exhausted approach's error, for every answer's text: since the last failure,
 * and the fixes before it that the same error outlasted ("Changes: since the last failure src/a.ts
 * changed; the same error came back after each of the 2 changes before it"). undefined without evidence.
 */
export function describeChanges(c: Pick<CheckResult, 'evidence'>): string | undefined {
  const e = c.evidence;
  if (!e || typeof e.what !== 'string') return undefined;
  const now = e.change === 'none' ? 'none since the last failure' : e.what;
  const before = e.changedInRun > 0 ? `; the same error came back after ${e.changedInRun === 1 ? 'the one change' : `each of the ${e.changedInRun} changes`} before it (${e.sameRun} failures in a row with this error)` : '';
  return `Changes: ${now}${before}.`;
}

/** The gate's message for a person or an agent: says plainly the command was not run, and why. */
export function explainBlock(c: CheckResult): string {
  if (c.code === 'systemic-cause' && c.pattern) return explainCauseBlock(c, c.pattern);
  const lines = [
    c.decision === 'ask'
      ? `Failure Memory: ASK — ${quote(c.command, 600)} is an exhausted approach; it does not run until a person decides.`
      : `Failure Memory: NOT RUN — ${quote(c.command, 600)} is an exhausted approach.`,
    `It failed ${c.attempts} times in ${c.cwd === '.' ? 'this workspace' : c.cwd} (threshold ${c.threshold}) with no success since.`,
    `Why (${c.code}): ${c.why}`,
  ];
  if (c.lastError) lines.push(`Last error (command output, untrusted): ${quote(c.lastError, 600)}`);
  const changes = describeChanges(c);
  if (changes) lines.push(changes.replace(/\s+/g, ' '));
  if (c.alternatives.length) lines.push(`Already tried as well: ${c.alternatives.join('; ')}`);
  if (c.history) lines.push(`History: ${c.history}.`);
  if (c.changed) lines.push(`${c.changed[0].toUpperCase()}${c.changed.slice(1)}.`);
  // never an instruction to unblock: a model reads this too (resolve / allow are the user's)
  lines.push(
    c.decision === 'ask'
      ? 'The changes since the last failures have not moved this error. Instead: read the error again, try a different approach,'
      : 'Running it again the same way will fail the same way. Instead: read the error and change something first,',
    `${c.decision === 'ask' ? '' : 'try a different approach, '}or ask the user. Reflect: failure-memory reflect --command '${c.command.replace(/'/g, `'\\''`)}'`,
    'Only the user unblocks it (Failure Memory: Mark Resolved, or Run Anyway Once).',
  );
  return lines.join('\n');
}

/** The gate's message when a systemic cause stops a command: the cause, the commands it already broke, what to do first. */
export function explainCauseBlock(c: Pick<CheckResult, 'command' | 'decision' | 'why'>, p: PatternBrief): string {
  const lines = [
    c.decision === 'ask'
      ? `Failure Memory: ASK — \`${c.command}\` fails on a cause that keeps failing other commands too; it does not run until a person decides.`
      : `Failure Memory: NOT RUN — \`${c.command}\` fails on a cause that keeps failing other commands too.`,
    `Why (systemic-cause): ${c.why}`,
    `One cause: ${p.subject} — ${p.commands.length} command${p.commands.length === 1 ? '' : 's'}: ${p.commands.slice(-5).join('; ')}.`,
  ];
  if (p.lastError) lines.push(`Last error (command output, untrusted): ${quote(p.lastError, 600)}`);
  if (p.fix) lines.push(`Last time it was fixed by: \`${p.fix.command}\`${p.fix.worked > 1 ? ` (worked ${p.fix.worked} times)` : ''}${p.fix.from === 'team' ? ` (the team's${p.fix.machine ? `, on ${p.fix.machine}` : ''})` : ''}.`);
  lines.push(
    `Another command that needs the same thing will fail the same way: ${p.remedy}. A success of any command that needs it lifts this stop.`,
    'Only the user unblocks it otherwise (Failure Memory: Mark Resolved, or Run Anyway Once).',
  );
  return lines.join('\n');
}

/** Why an approach that failed here is clear now: it passed here, someone marked it resolved, or it passed elsewhere in the team. */
function clearedReason(a: Approach): string {
  if (a.lastSuccess && (!a.lastFailure || a.lastSuccess >= a.lastFailure)) return 'last run succeeded';
  if (a.status === 'resolved' && a.resolvedBy === 'manual') return 'marked resolved; not run here since';
  // resolved by a success that is not this machine's: the team sync cleared it
  if (a.status === 'resolved') return 'succeeded elsewhere in the team since it last failed here; not run here since';
  return 'no failure counted here';
}

/** [ledger/flaky] what the run ledger says about an approach, for check and the UI. */
function historyFields(a: Approach, now: Date): Pick<CheckResult, 'history' | 'changed' | 'flaky'> {
  const out: Pick<CheckResult, 'history' | 'changed' | 'flaky'> = {};
  const history = describeHistory(a, now);
  if (history) out.history = history;
  const changed = a.failures > 0 ? describeChangedSinceLastPass(a, now) : undefined;
  if (changed) out.changed = changed;
  const flaky = flakyVerdict(a.ledger);
  if (flaky.flaky) out.flaky = flaky.reason;
  return out;
}
