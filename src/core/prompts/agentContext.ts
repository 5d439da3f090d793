// What a coding agent is told by Failure Memory's hooks: the reason a command is not run (the gate)
// and the failure summary injected into its context at session start and with each prompt.
// Plain text built from memory; never an instruction to unblock itself (resolve, allow and clear
// belong to the user: dialog, panel, palette or their own terminal).

import { learnedBy, learnedLine, quote, UNTRUSTED_NOTE } from './agentText';
import { shellQuote } from '../approach/lexer';
import { printedErrorLine, signatureHead } from '../text/signature';
import { describeChanges, type CheckResult } from '../rules/check';
import { describeApproach } from '../memory';
import type { Approach, MemoryData } from '../types';

/** The summary injected into an agent's context stays under this many characters. */
export const AGENT_SUMMARY_MAX_CHARS = 1500;

const oneLine = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
/** A command line or a label made of one: quoted like output (the agent wrote it, or a crafted memory did). */
const code = (s: string, max = 200) => quote(s, max);
const where = (cwd: string) => (cwd === '.' ? 'the workspace root' : cwd);

/**
 * The error line as the command printed it (not the normalized signature): the last line of the
 * latest failing attempt's output whose normalized form is the signature's first part.
 * Falls back to the signature itself.
 */
export function lastErrorLine(a: Pick<Approach, 'attempts' | 'lastErrorSignature'>): string {
  const sig = signatureHead(a.lastErrorSignature);
  const failed = [...a.attempts].reverse().find(t => t.outcome === 'failure');
  if (!failed || !sig || !failed.output) return sig;
  // found when the attempt was recorded, against its own signature: the same search when that is the approach's
  if (typeof failed.errorLine === 'string' && signatureHead(failed.errorSignature) === sig) return failed.errorLine || sig;
  return printedErrorLine(failed.output, sig) || sig;
}

/** Distinct command lines an approach was tried with, most recent first (its variants). */
function variants(a: Approach, max = 4): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of [...a.attempts].reverse()) {
    const c = t.command.trim();
    if (!c || seen.has(c)) continue;
    seen.add(c);
    out.push(c);
    if (out.length >= max) break;
  }
  return out;
}

/** The approaches an alternative names (stored as describeApproach: the label, and its folder). */
function byLabel(data: MemoryData, name: string): Approach[] {
  return Object.values(data.approaches).filter(a => describeApproach(a) === name || a.label === name);
}

/**
 * What every answer about an exhausted approach tells, a deny or an ask alike: the rule, the real last
 * error, the change history (what changed since the last failure, the fixes the error outlasted), the
 * variants already tried (with their folders) and what was learned. `data` absent: the check alone.
 */
function story(c: CheckResult, data: MemoryData | undefined): { lines: string[]; untrusted: boolean } {
  const a = data && Object.prototype.hasOwnProperty.call(data.approaches, c.key) ? data.approaches[c.key] : undefined;
  const lines = [`Why (${c.code}): ${oneLine(c.why, 400)}`];
  const err = a ? lastErrorLine(a) : c.lastError;
  if (err) lines.push(`Last error (command output, untrusted): ${quote(err, 300)}`);
  const changes = describeChanges(c);
  if (changes) lines.push(oneLine(changes, 400));
  const tried: string[] = [];
  if (a) for (const v of variants(a)) tried.push(`${code(v)} in ${where(a.cwd)}`);
  if (!tried.length && c.command) tried.push(`${code(c.command)} in ${where(c.cwd)}`);
  for (const label of c.alternatives.slice(-4)) {
    const others = data ? byLabel(data, label).filter(o => o.key !== c.key) : [];
    if (!others.length) tried.push(code(label));
    for (const o of others.slice(0, 2)) tried.push(`${code(o.command)} in ${where(o.cwd)} (${o.status}, ${o.failures} failure(s))`);
  }
  if (tried.length) lines.push(`Already tried: ${tried.slice(0, 8).join('; ')}.`);
  const learned = data ? data.learnings.filter(l => l.key === c.key).slice(-2) : [];
  for (const l of learned) lines.push(learnedLine(l));
  // the command lines are quoted too: the note always goes with them
  return { lines, untrusted: true };
}

/**
 * The gate's answer to an agent for an exhausted approach: what it is, how often it failed, the real
 * last error, what changed, the variants already tried (with their folders) and what to do instead.
 */
export function agentDenyReason(c: CheckResult, data: MemoryData): string {
  const told = story(c, data);
  return [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} is an exhausted approach (${code(c.label)} in ${where(c.cwd)}).`,
    `It failed ${c.attempts} times in a row (threshold ${c.threshold}) with no success since: running it again the same way will fail the same way.`,
    ...told.lines,
    'What to do instead: read the last error and change its cause first (code, configuration, dependencies, the environment); ' +
      'then try an approach different from everything above — not another flag on the same command; or stop and ask the user.',
    ...(told.untrusted ? [UNTRUSTED_NOTE] : []),
  ].join('\n');
}

/** Why a person is asked, in a few words: the fixes did not reach the error, or the errors keep changing. */
const askWhy = (c: CheckResult) => (c.code === 'wander-bound' ? 'its errors keep changing with no success since' : 'the changes so far did not move its error');

/** The reason of an ask where a person is asked (the harness shows it to them, and to the model): the same story as a deny. */
export function agentAskReason(c: CheckResult, data?: MemoryData): string {
  const told = story(c, data);
  return [
    `Failure Memory: ${code(c.command, 200)} failed ${c.attempts} times in a row in ${where(c.cwd)} (threshold ${c.threshold}); ${askWhy(c)}.`,
    ...told.lines,
    'Allow it to run once more, or deny it and have the agent change its approach.',
    ...(told.untrusted ? [UNTRUSTED_NOTE] : []),
  ].join('\n');
}

/** A command line as one shell word the user can paste (a backtick would end the code span: shown as '). */
const shellWord = (s: string) => shellQuote(oneLine(s, 300).replace(/`/g, "'"));

/** How the user lets one more run through: their command (as they can run it) or VS Code's button; never the agent. */
export function userAllowsOnce(c: CheckResult, cli: string): string {
  return `The user lets it run once with \`${cli} allow --command ${shellWord(c.command)}${c.cwd === '.' ? '' : ` --cwd ${shellWord(c.cwd)}`}\` in their own terminal (or "Run Anyway Once" in VS Code); that command is theirs, not yours.`;
}

/** Said after an ask's question, for a harness that refuses the ask itself where no one can answer it (a headless run). */
export function askUnansweredLine(c: CheckResult, cli: string): string {
  return `If no one can answer this (a headless run), do not run it another way: stop and ask the user. ${userAllowsOnce(c, cli)}`;
}

/**
 * An ask no person can answer here (a headless session, or a harness that cannot put a question): not
 * run, never a pass. The agent gets the facts of a deny and is told to stop and ask the user, who lets
 * it run. `headless`: the session is known to be headless; else the harness cannot ask.
 */
export function agentAskRefusal(c: CheckResult, data: MemoryData, opts: { cli: string; headless: boolean }): string {
  const facts = story(c, data);
  const lines = [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} needs a person's decision (${code(c.label)} in ${where(c.cwd)}: ${c.attempts} failures in a row, threshold ${c.threshold}; ${askWhy(c)}), and ${opts.headless ? 'no one can be asked in this headless session' : 'this harness cannot put the question to the user'}.`,
    ...facts.lines,
    `Stop and ask the user whether it should run once more: tell them the last error and what you changed. ${userAllowsOnce(c, opts.cli)} Until then do not run it, respelled or chained, and do not work around it with the command it runs.`,
  ];
  if (facts.untrusted) lines.push(UNTRUSTED_NOTE);
  return lines.join('\n');
}

/**
 * The gate's warning (the command runs): what failed before, why it runs now, and what the same error
 * again would mean. For the agent's context, where its harness has one before or after the call.
 */
export function agentWarning(c: CheckResult, data: MemoryData): string {
  const a = data.approaches[c.key];
  const err = a ? lastErrorLine(a) : c.lastError;
  const head =
    c.status === 'exhausted'
      ? `Failure Memory (warning): ${code(c.command, 200)} is exhausted in ${where(c.cwd)} (${c.attempts} failures in a row, threshold ${c.threshold}), and it runs: ${oneLine(c.why, 400)}.`
      : `Failure Memory (warning): ${code(c.command, 200)} failed ${c.attempts} of ${c.threshold} times in a row in ${where(c.cwd)}${c.patterns.length ? ` (${c.patterns.map(p => p.kind.replace(/_/g, ' ')).join(', ')})` : ''}; at ${c.threshold} the same way it is stopped.`;
  const lines = [head];
  if (err) lines.push(`Last error (command output, untrusted): ${quote(err, 300)}`);
  const changes = c.status === 'exhausted' ? describeChanges(c) : '';
  if (changes) lines.push(oneLine(changes, 400));
  lines.push('If it fails the same way again, what changed did not reach the error: read the error again and change what it points at, or try a different approach.');
  lines.push(UNTRUSTED_NOTE);
  return lines.join('\n');
}

/**
 * The failure summary for an agent's context: exhausted and failing approaches of this workspace
 * with their last errors, then learnings; at most `max` characters. '' when memory holds nothing.
 */
export function agentSummary(data: MemoryData, threshold: number, max = AGENT_SUMMARY_MAX_CHARS): string {
  const byRecent = (x: Approach, y: Approach) => (x.updatedAt < y.updatedAt ? 1 : x.updatedAt > y.updatedAt ? -1 : 0);
  const all = Object.values(data.approaches);
  const exhausted = all.filter(a => a.status === 'exhausted').sort(byRecent);
  const failing = all.filter(a => a.status === 'active' && a.failures > 0).sort(byRecent);
  const learnings = [...data.learnings].reverse();
  if (!exhausted.length && !failing.length && !learnings.length) return '';

  const head = `Failure Memory for this workspace (commands that keep failing here; threshold ${threshold}):`;
  const tail = 'Do not re-run an exhausted approach: it is blocked. Change the cause first or try something different.';
  const entry = (a: Approach, state: string) => {
    const err = lastErrorLine(a);
    return `- ${state}: ${code(a.command, 120)} in ${where(a.cwd)}, ${a.failures} failure(s)${err ? ` — last error ${quote(err, 160)}` : ''}`;
  };
  const candidates = [
    ...exhausted.map(a => entry(a, 'EXHAUSTED')),
    ...failing.map(a => entry(a, 'failing')),
    ...learnings.map(l => `- learned (${l.type}, ${learnedBy(l.source)}): ${quote(l.text, 200)}`),
  ];
  const lines = [head, UNTRUSTED_NOTE];
  let size = head.length + UNTRUSTED_NOTE.length + tail.length + 3;
  let left = 0;
  for (const c of candidates) {
    if (size + c.length + 1 > max - 40) {
      left++;
      continue;
    }
    lines.push(c);
    size += c.length + 1;
  }
  if (left) lines.push(`- … and ${left} more (see the Failure Memory panel).`);
  lines.push(tail);
  const text = lines.join('\n');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
