// What a coding agent is told by Failure Memory's hooks: the reason a command is not run (the gate)
// and the failure summary injected into its context at session start and with each prompt.
// Plain text built from memory; never an instruction to unblock itself (resolve, allow and clear
// belong to the user: dialog, panel, palette or their own terminal).

import { printedErrorLine, signatureHead } from './signature';
import type { CheckResult } from './check';
import { describeApproach } from './memory';
import type { Approach, MemoryData } from './types';

/** The summary injected into an agent's context stays under this many characters. */
export const AGENT_SUMMARY_MAX_CHARS = 1500;

const oneLine = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const code = (s: string, max = 200) => `\`${oneLine(s, max).replace(/`/g, "'")}\``;
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
/**
 * A command line that would change what the user decided: `failure-memory resolve|allow|clear`
 * (also through npx, node …/cli.js or the launcher path). Those are the user's, never an agent's.
 */
export function userOnlySubcommand(commandLine: string): 'resolve' | 'allow' | 'clear' | undefined {
  // linear: one pass of a bounded alternation per segment; no nested quantifiers
  const m = /(?:^|[\s/;&|(`'"])(?:failure-memory(?:\.cmd)?|cli\.js|hook\.js)['"]?\s+(?:--?[\w-]+(?:[= ](?!resolve\b|allow\b|clear\b)\S+)?\s+)*(resolve|allow|clear)\b/.exec(commandLine.slice(0, 10_000));
  return m ? (m[1] as 'resolve' | 'allow' | 'clear') : undefined;
}

/** Why an agent may not run `failure-memory resolve|allow|clear`. */
export function userOnlyReason(sub: string): string {
  return [
    `Failure Memory: NOT RUN — \`failure-memory ${sub}\` is for the user, not for an agent.`,
    'Unblocking an exhausted approach or clearing the memory is the user\'s decision (the Failure Memory dialog, panel or command palette, or their own terminal).',
    'Instead: fix the cause of the failure and try a different approach, or ask the user.',
  ].join('\n');
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
  ];
  const err = a ? lastErrorLine(a) : c.lastError;
  if (err) lines.push(`Last error: ${oneLine(err, 300)}`);
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
  for (const l of learned) lines.push(`Learned (${l.type}): ${oneLine(l.text, 240)}`);
  lines.push(
    'What to do instead: read the last error and change its cause first (code, configuration, dependencies, the environment); ' +
      'then try an approach different from everything above — not another flag on the same command; or stop and ask the user.',
  );
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
    return `- ${state}: ${code(a.command, 120)} in ${where(a.cwd)}, ${a.failures} failure(s)${err ? ` — ${oneLine(err, 160)}` : ''}`;
  };
  const candidates = [
    ...exhausted.map(a => entry(a, 'EXHAUSTED')),
    ...failing.map(a => entry(a, 'failing')),
    ...learnings.map(l => `- learned (${l.type}): ${oneLine(l.text, 200)}`),
  ];
  const lines = [head];
  let size = head.length + tail.length + 2;
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
