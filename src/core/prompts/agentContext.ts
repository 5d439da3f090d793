// What a coding agent is told by Failure Memory's hooks: the reason a command is not run (the gate)
// and the failure summary injected into its context at session start and with each prompt.
// Plain text built from memory; never an instruction to unblock itself (resolve, allow and clear
// belong to the user: dialog, panel, palette or their own terminal).

import { learnedBy, learnedLine, quote, UNTRUSTED_NOTE } from './agentText';
import { shellQuote } from '../approach/lexer';
import { printedErrorLine, signatureHead } from '../text/signature';
import { describeChanges, type CheckResult } from '../rules/check';
import { patternSentence, type PatternBrief } from '../rules/causePolicy';
import { activeApproaches, lastFix, shownPatterns } from '../rules/patternRecords';
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
  const cause = causeOf(c);
  if (cause) return causeStory(c, cause);
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

/** "last time: `docker compose up -d db` (worked 2 times)": the fix that worked before, the team's said so. */
function fixLine(p: PatternBrief): string {
  if (!p.fix) return '';
  const whose = p.fix.from === 'team' ? ` — the team's fix${p.fix.machine ? `, on ${oneLine(p.fix.machine, 60)}` : ''}` : '';
  return `Last time it was fixed by ${code(p.fix.command, 200)}${p.fix.worked > 1 ? ` (worked ${p.fix.worked} times)` : ''}${whose}.`;
}

/** The cause a check was decided by (a systemic pattern), if it was. */
const causeOf = (c: Pick<CheckResult, 'code' | 'pattern'>): PatternBrief | undefined => (c.code === 'systemic-cause' ? c.pattern : undefined);

/** What every answer stopped by a cause tells: the rule, the cause and the commands it broke, its last error, the fix that worked before. */
function causeStory(c: Pick<CheckResult, 'why'>, p: PatternBrief): { lines: string[]; untrusted: boolean } {
  const lines = [
    `Why (systemic-cause): ${oneLine(c.why, 400)}.`,
    `One cause: ${oneLine(p.subject, 200)} — it already broke ${p.commands.length} command(s): ${p.commands.slice(-5).map(x => code(x, 80)).join(', ')}.`,
  ];
  if (p.lastError) lines.push(`Last error (command output, untrusted): ${quote(p.lastError, 300)}`);
  const fix = fixLine(p);
  if (fix) lines.push(fix);
  return { lines, untrusted: !!p.lastError };
}

/**
 * The gate's answer to an agent when a systemic cause stops a command: the cause, the commands it
 * already broke, its last error, the fix that worked before, and what to do first.
 */
export function agentCauseReason(c: Pick<CheckResult, 'command' | 'cwd' | 'why'>, p: PatternBrief): string {
  const told = causeStory(c, p);
  return [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} in ${where(c.cwd)} fails on a cause that keeps failing other commands too.`,
    ...told.lines,
    `What to do instead: fix the cause first (${p.remedy}); any other command that needs it fails the same way, so do not switch to another one. A run of a command that needs it and passes lifts this stop; or stop and ask the user.`,
    ...(told.untrusted ? [UNTRUSTED_NOTE] : []),
  ].join('\n');
}

/** What an agent is told with a command the gate lets run while a cause is active (a change since, or a command not seen with it). */
export function agentCauseWarning(c: Pick<CheckResult, 'command' | 'why'>, p: PatternBrief): string {
  const fix = fixLine(p);
  return [`Failure Memory (warning): ${code(c.command, 200)} — ${oneLine(c.why, 400)}.`, ...(fix ? [fix] : [])].join('\n');
}

/**
 * The gate's answer to an agent for an exhausted approach: what it is, how often it failed, the real
 * last error, what changed, the variants already tried (with their folders) and what to do instead.
 */
export function agentDenyReason(c: CheckResult, data: MemoryData): string {
  const cause = causeOf(c);
  if (cause) return agentCauseReason(c, cause);
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

/** What an ask is about, in a few words: the approach's own failures, or the cause it shares with other commands. */
const askAbout = (c: CheckResult) =>
  causeOf(c) ? `fails on a cause that keeps failing other commands too (${c.attempts} of its own failures)` : `failed ${c.attempts} times in a row in ${where(c.cwd)} (threshold ${c.threshold}); ${askWhy(c)}`;

/** The reason of an ask where a person is asked (the harness shows it to them, and to the model): the same story as a deny. */
export function agentAskReason(c: CheckResult, data?: MemoryData): string {
  const told = story(c, data);
  return [
    `Failure Memory: ${code(c.command, 200)} ${askAbout(c)}.`,
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
    `Failure Memory: NOT RUN — ${code(c.command, 300)} needs a person's decision (${code(c.label)} in ${where(c.cwd)}: ${causeOf(c) ? 'it fails on a cause that keeps failing other commands too' : `${c.attempts} failures in a row, threshold ${c.threshold}; ${askWhy(c)}`}), and ${opts.headless ? 'no one can be asked in this headless session' : 'this harness cannot put the question to the user'}.`,
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
  // a cause failing other commands too: what it broke and the fix that worked before, before this one runs
  if (c.code === 'systemic-cause' && c.pattern) return agentCauseWarning(c, c.pattern);
  const a = Object.prototype.hasOwnProperty.call(data.approaches, c.key) ? data.approaches[c.key] : undefined;
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
export function agentSummary(data: MemoryData, threshold: number, max = AGENT_SUMMARY_MAX_CHARS, now: Date = new Date()): string {
  const byRecent = (x: Approach, y: Approach) => (x.updatedAt < y.updatedAt ? 1 : x.updatedAt > y.updatedAt ? -1 : 0);
  const all = Object.values(data.approaches);
  const exhausted = all.filter(a => a.status === 'exhausted').sort(byRecent);
  const failing = all.filter(a => a.status === 'active' && a.failures > 0).sort(byRecent);
  const learnings = [...data.learnings].reverse();
  const causes = shownPatterns(data).filter(p => p.status === 'active');
  if (!exhausted.length && !failing.length && !learnings.length && !causes.length) return '';

  const head = `Failure Memory for this workspace (commands that keep failing here; threshold ${threshold}):`;
  const tail = 'Do not re-run an exhausted approach: it is blocked. Change the cause first or try something different.';
  const entry = (a: Approach, state: string) => {
    const err = lastErrorLine(a);
    return `- ${state}: ${code(a.command, 120)} in ${where(a.cwd)}, ${a.failures} failure(s)${err ? ` — last error ${quote(err, 160)}` : ''}`;
  };
  const candidates = [
    // one cause failing several commands first: fixing it is worth more than any one command
    ...causes.map(p => {
      const fix = lastFix(p);
      const error = p.kind === 'error' && p.lastError ? ` — ${quote(p.lastError, 160)}` : '';
      return `- ONE CAUSE${p.systemic ? '' : ' (in the code)'}: ${patternSentence(p, now)}${error} (${activeApproaches(p).map(a => code(a.label, 60)).join(', ')})${fix ? `; last time fixed by ${code(fix.command, 120)}` : ''}`;
    }),
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
