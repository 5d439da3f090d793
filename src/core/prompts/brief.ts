// A brief to hand over: one failing approach as markdown for a chat or an issue — the command, the
// last error, the attempts and variants tried, the run history, what changed since it last passed and
// what fixed similar failures before. Everything in it comes from the (redacted) memory, and the
// whole text goes through the redactor once more before it leaves (the caller passes it).

import { approachCounts } from '../rules/counts';
import { cameText, errorTextOf, failedText, readableSignature } from '../text/shownText';
import { describeChangedSinceLastPass, describeHistory, fixLessonText, listFiles } from '../rules/ledger';
import { flakyVerdict } from '../rules/flaky';
import { describeApproach } from '../memory';
import type { RecallHit } from '../recall';
import type { Approach } from '../types';

export interface BriefInput {
  approach: Approach;
  threshold: number;
  /** Similar past failures of other approaches (recall), best first. */
  similar: readonly RecallHit[];
  /** The redactor applied to the finished text. */
  redact: (text: string) => string;
  now?: Date;
}

/** Longest error output excerpt in a brief. */
const MAX_OUTPUT_CHARS = 1500;

const fence = (text: string) => {
  // a fence longer than any backtick run inside: untrusted output cannot close it
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map(m => m.length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
};
const code = (s: string) => `\`${s.replace(/`/g, "'").replace(/\s+/g, ' ').trim()}\``;

export function buildBrief({ approach: a, threshold, similar, redact, now = new Date() }: BriefInput): string {
  const lines: string[] = [];
  const counts = approachCounts(a, threshold);
  const status = a.status === 'exhausted' ? `exhausted: ${failedText(counts)}` : a.failures > 0 ? `failing: ${failedText(counts)}` : a.status;
  lines.push(`# Failing command: ${code(a.command)}`, '');
  lines.push(`- Approach: ${code(describeApproach(a))} — ${status}`);
  const history = describeHistory(a, now);
  if (history) lines.push(`- History: ${history}`);
  const flaky = flakyVerdict(a.ledger);
  if (flaky.flaky) lines.push(`- Flaky: ${flaky.reason.replace(/^flaky: /, '')} — the failure may not come from the code at all`);
  const lastGit = [...(a.ledger ?? [])].reverse().find(r => r.git)?.git;
  if (lastGit) lines.push(`- Git: ${lastGit.branch ? `branch ${code(lastGit.branch)}, ` : ''}${lastGit.head ? `HEAD ${lastGit.head.slice(0, 12)}` : 'no commit yet'}${Object.keys(lastGit.dirty).length ? `, uncommitted changes in ${listFiles(Object.keys(lastGit.dirty).slice(0, 8), Math.max(0, Object.keys(lastGit.dirty).length - 8))}` : ''}`);
  lines.push('');

  if (counts.last) lines.push('## Last error', '', fence(counts.last.text), '');
  if (counts.recurring && counts.recurring.times > 1 && counts.recurring.text !== counts.last?.text) {
    lines.push(`The error that ${cameText(counts.recurring, counts.failures)}:`, '', fence(counts.recurring.text), '');
  }
  const last = [...a.attempts].reverse().find(t => t.outcome === 'failure' && t.output);
  if (last) {
    const out = last.output.length > MAX_OUTPUT_CHARS ? `…${last.output.slice(-MAX_OUTPUT_CHARS)}` : last.output;
    lines.push('## Output of the last failure (end)', '', fence(out.trimEnd()), '');
  }

  const counted = a.attempts.filter(t => t.outcome === 'failure' || t.outcome === 'success');
  if (counted.length) {
    lines.push('## Attempts (most recent last)', '');
    for (const t of counted) {
      const tests = t.testResults ? `, tests ${t.testResults.passed}/${t.testResults.total} passed` : '';
      lines.push(`- ${t.timestamp.slice(0, 16).replace('T', ' ')} ${code(t.command)} → ${t.outcome} (exit ${t.exitCode ?? '?'}${tests})${t.outcome === 'failure' && t.errorSignature ? `: ${errorTextOf(t).slice(0, 160)}` : ''}`);
    }
    const variants = [...new Set(a.attempts.map(t => t.command))];
    if (variants.length > 1) lines.push('', `Variants of the command tried: ${variants.map(code).join(', ')}`);
    lines.push('');
  }
  if (a.alternativesTried.length) lines.push('## Other approaches that failed in the same stretch', '', ...a.alternativesTried.map(x => `- ${code(x)}`), '');

  const changed = describeChangedSinceLastPass(a, now);
  if (changed) lines.push('## What changed since it last passed', '', changed, '');
  if (a.fix) lines.push('## What fixed it last time', '', fixLessonText(a.fix), '');

  const lessons = similar.filter(h => h.key !== a.key && h.lesson);
  if (lessons.length) {
    lines.push('## What fixed similar failures before', '');
    for (const h of lessons.slice(0, 5)) {
      const error = h.errorText ?? readableSignature(h.errorSignature);
      lines.push(`- ${code(h.label)}${error ? ` (${error.slice(0, 120)})` : ''}: ${h.lesson}`);
    }
    lines.push('');
  }
  lines.push('## Ask', '', 'Running the same command again the same way will fail the same way. Find the cause of the last error, change it, and only then run the command again.');
  return redact(lines.join('\n')).trimEnd() + '\n';
}
