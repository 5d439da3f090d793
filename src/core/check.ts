// The gate: "may I run this?" for a command, from what the memory knows of its approach, and the
// message that says plainly why a command was not run. Recording lives in ./memory.ts.

import { approachKey, approachLabel, normalizeCwd } from './approach';
import { environmentLoop, judgeStreak } from './judgement';
import { describeChangedSinceLastPass, describeHistory } from './ledger';
import { flakyVerdict } from './flaky';
import { approachOf, describeApproach, runsNothing } from './memory';
import { computeProgress, detectPatterns, type Pattern, type ProgressStatus } from './patterns';
import { pollingStatus } from './polling';
import type { Approach, EngineSettings, MemoryData } from './types';

export type CheckStatus = 'clear' | 'failing' | 'exhausted';
/** allow: run it. warn: run it but tell. block: do not run it. */
export type Verdict = 'allow' | 'warn' | 'block';

export interface CheckResult {
  status: CheckStatus;
  verdict: Verdict;
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
}

/**
 * May this command run? Exhausted approaches are blocked unless the user allowed one more run,
 * or unless they are making progress (tests passing more each time): progress is not a loop.
 */
export function checkCommand(
  data: MemoryData,
  command: string,
  cwd: string | undefined,
  settings: EngineSettings,
  now: Date = new Date(),
): CheckResult {
  const normCwd = normalizeCwd(cwd);
  const key = approachKey(command, normCwd);
  const a = approachOf(data, key);
  const base = {
    key,
    label: a?.label ?? (approachLabel(command) || command.trim()),
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
  if (runsNothing(key)) {
    return { ...base, status: 'clear', verdict: 'allow', reason: 'runs nothing (only variable assignments, a comment or blank)' };
  }
  if (!a || a.status !== 'exhausted') {
    // [judgement] a test runner broken by its environment fails the same way whatever the test file
    const sibling = environmentLoop(data, command, normCwd, settings.threshold);
    if (sibling) {
      return {
        ...base,
        status: 'exhausted',
        verdict: 'block',
        lastError: sibling.lastErrorSignature,
        reason: `${describeApproach(sibling)} failed ${sibling.failures} times with the same environment error, whatever the test file: another test file is the same loop`,
      };
    }
  }
  if (!a || a.failures === 0) {
    return { ...base, status: 'clear', verdict: 'allow', reason: a ? clearedReason(a) : 'never failed here' };
  }
  if (a.status !== 'exhausted') {
    const warn = base.patterns.length > 0;
    return {
      ...base,
      status: 'failing',
      verdict: warn ? 'warn' : 'allow',
      reason: `failed ${a.failures} of ${settings.threshold} times${warn ? `; ${base.patterns.map(p => p.kind).join(', ')}` : ''}`,
    };
  }
  if (a.allowOnce) {
    return { ...base, status: 'exhausted', verdict: 'allow', reason: 'exhausted, but the user allowed one more run' };
  }
  if (base.flaky) {
    return { ...base, status: 'exhausted', verdict: 'warn', reason: `exhausted after ${a.failures} failures, but ${base.flaky}: not a loop` };
  }
  if (base.progress === 'improving') {
    return {
      ...base,
      status: 'exhausted',
      verdict: 'warn',
      reason: `exhausted after ${a.failures} failures, but more tests pass each time (improving): not a loop`,
    };
  }
  // [judgement — see ./judgement.ts] errors that keep changing are an agent making progress, not a loop
  // (test counts that improve are progress too: see 'improving' above; a test run failing the same way is not)
  const streak = judgeStreak(a, settings.threshold);
  if (streak && !streak.loop) {
    return { ...base, status: 'exhausted', verdict: 'warn', reason: `exhausted after ${a.failures} failures, but ${streak.reason}` };
  }
  // [polling — see ./polling.ts] a status probe polled while something starts is waiting, not looping
  const poll = pollingStatus(a, now);
  if (poll.polling) {
    return { ...base, status: 'exhausted', verdict: 'warn', reason: `exhausted after ${a.failures} failures, but ${poll.reason}` };
  }
  return {
    ...base,
    status: 'exhausted',
    verdict: 'block',
    reason: `exhausted: failed ${a.failures} times since the last success (threshold ${settings.threshold})${streak ? `; ${streak.reason}` : ''}`,
  };
}

/** The gate's message for a person or an agent: says plainly the command was not run, and why. */
export function explainBlock(c: CheckResult): string {
  const lines = [
    `Failure Memory: NOT RUN — \`${c.command}\` is an exhausted approach.`,
    `It failed ${c.attempts} times in ${c.cwd === '.' ? 'this workspace' : c.cwd} (threshold ${c.threshold}) with no success since.`,
  ];
  if (c.lastError) lines.push(`Last error: ${c.lastError}`);
  if (c.alternatives.length) lines.push(`Already tried as well: ${c.alternatives.join('; ')}`);
  if (c.history) lines.push(`History: ${c.history}.`);
  if (c.changed) lines.push(`${c.changed[0].toUpperCase()}${c.changed.slice(1)}.`);
  // never an instruction to unblock: a model reads this too (resolve / allow are the user's)
  lines.push(
    'Running it again the same way will fail the same way. Instead: read the error and change something first,',
    `try a different approach, or ask the user. Reflect: failure-memory reflect --command '${c.command.replace(/'/g, `'\\''`)}'`,
    'Only the user unblocks it (Failure Memory: Mark Resolved, or Run Anyway Once).',
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
