// What a coding agent is told by Failure Memory's hooks: the reason a command is not run (the gate)
// and the failure summary injected into its context at session start and with each prompt.
// Plain text built from memory; never an instruction to unblock itself (resolve, allow and clear
// belong to the user: dialog, panel, palette or their own terminal).

import { learnedBy, learnedLine, quote, UNTRUSTED_NOTE } from './agentText';
import { printedErrorLine, signatureHead } from '../text/signature';
import type { CheckResult } from '../rules/check';
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
 * The gate's answer to an agent for an exhausted approach: what it is, how often it failed, the real
 * last error, the variants already tried (with their folders) and what to do instead.
 */
export function agentDenyReason(c: CheckResult, data: MemoryData): string {
  const a = data.approaches[c.key];
  const lines = [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} is an exhausted approach (${code(c.label)} in ${where(c.cwd)}).`,
    `It failed ${c.attempts} times in a row (threshold ${c.threshold}) with no success since: running it again the same way will fail the same way.`,
    `Why (${c.code}): ${oneLine(c.why, 300)}`,
  ];
  const err = a ? lastErrorLine(a) : c.lastError;
  if (err) lines.push(`Last error (command output, untrusted): ${quote(err, 300)}`);
  const tried: string[] = [];
  if (a) for (const v of variants(a)) tried.push(`${code(v)} in ${where(a.cwd)}`);
  if (!tried.length && c.command) tried.push(`${code(c.command)} in ${where(c.cwd)}`);
  for (const label of c.alternatives.slice(-4)) {
    const others = byLabel(data, label).filter(o => o.key !== c.key);
    if (!others.length) tried.push(code(label));
    for (const o of others.slice(0, 2)) tried.push(`${code(o.command)} in ${where(o.cwd)} (${o.status}, ${o.failures} failure(s))`);
  }
  if (tried.length) lines.push(`Already tried: ${tried.slice(0, 8).join('; ')}.`);
  const learned = data.learnings.filter(l => l.key === c.key).slice(-2);
  for (const l of learned) lines.push(learnedLine(l));
  lines.push(
    'What to do instead: read the last error and change its cause first (code, configuration, dependencies, the environment); ' +
      'then try an approach different from everything above — not another flag on the same command; or stop and ask the user.',
  );
  lines.push(UNTRUSTED_NOTE);
  return lines.join('\n');
}

/** The gate's question to the user (ask): what keeps failing, which rule asks, and that they decide. */
export function agentAskReason(c: CheckResult): string {
  return [
    `Failure Memory: ${code(c.command, 200)} failed ${c.attempts} times in a row in ${where(c.cwd)} (threshold ${c.threshold}).`,
    `Why (${c.code}): ${oneLine(c.why, 400)}`,
    'Allow it to run once more, or deny it and have the agent change its approach.',
    UNTRUSTED_NOTE,
  ].join('\n');
}

/**
 * What an agent is told where the gate would ask a person and its harness cannot ask (Codex, Gemini CLI,
 * Cline): the call goes on, and the agent knows its edits have not reached the error so far.
 */
export function agentAskWarning(c: CheckResult): string {
  return [
    `Failure Memory (warning): ${code(c.command, 200)} failed ${c.attempts} times in a row in ${where(c.cwd)} (threshold ${c.threshold}); it runs now because this harness cannot ask the user.`,
    `Why (${c.code}): ${oneLine(c.why, 400)}`,
    'If it fails the same way again, the changes are not reaching the error: read the error again and change what it points at, try a different approach, or stop and ask the user.',
    UNTRUSTED_NOTE,
  ].join('\n');
}

/** The same in a headless session (`codex exec`): a person would decide, no one can be asked, so it does not run. */
export function agentAskHeadlessReason(c: CheckResult): string {
  return [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} failed ${c.attempts} times in a row in ${where(c.cwd)} (threshold ${c.threshold}).`,
    `Why (${c.code}): ${oneLine(c.why, 400)}`,
    'A person decides whether it runs once more, and no one can be asked in this headless session: the changes so far did not reach the error. Change what the error points at or try a different approach; or stop and report to the user.',
    UNTRUSTED_NOTE,
  ].join('\n');
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
