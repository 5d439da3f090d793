// What a person reads about a failure, written one way for every surface (status bar, help dialog,
// panel, terminal links, reflection, CLI). Two rules hold everywhere:
// - an error is shown as the output printed it: a normalized signature (`port <port> after <dur>`,
//   two lines joined by ` | `) is a matching key, never text for a person;
// - Markdown only where it renders: our own sentences quote commands and files with “…”, and text
//   that carries backticks is turned into quotes before a plain-text surface shows it.
// Numbers come from ./counts.ts; the words for them are here.

import type { ApproachCounts, ErrorCount } from '../rules/counts';
import { errorLine } from './signature';
import type { Attempt } from '../types';

/** The placeholders normalizeErrorLine() and the streak's error keys put into text. */
const PLACEHOLDER_RE = /<(?:tmp|uuid|time|addr|port|pid|dur|hex|n)>/g;
/** How a signature joins its two lines (see signature.ts): a key's separator, not a character of the output. */
const SIGNATURE_JOIN = ' | ';

/** True when text still holds a normalization placeholder or a signature's line join. */
export function hasPlaceholder(text: string): boolean {
  PLACEHOLDER_RE.lastIndex = 0;
  return PLACEHOLDER_RE.test(text) || text.includes(SIGNATURE_JOIN);
}

/**
 * A normalized signature made readable, for when no real line of output is left: its two lines
 * joined as the output had them (`…equal: 10 !== 13`), and each masked value as “…”.
 */
export function readableSignature(signature: string): string {
  return signature
    .split(SIGNATURE_JOIN)
    .join(' ')
    .replace(PLACEHOLDER_RE, '…')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One attempt's error as its output printed it; its readable signature when no output was kept. */
export function errorTextOf(t: Pick<Attempt, 'output' | 'errorSignature'>): string {
  return (t.output ? errorLine(t.output) : '') || readableSignature(t.errorSignature);
}

/**
 * Text that may be a signature (older records, team memory, a run without output) made fit to show:
 * a real line passes unchanged, a signature is made readable.
 */
export function shownError(text: string): string {
  return hasPlaceholder(text) ? readableSignature(text) : text.replace(/\s+/g, ' ').trim();
}

/** Our own Markdown sentence for a surface that shows text as is: `code` becomes “code”. */
export function plainFromMarkdown(text: string): string {
  return text.replace(/`([^`\n]+)`/g, '“$1”').replace(/\*\*([^*\n]+)\*\*/g, '$1');
}

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/**
 * "failed 3 times in a row (the limit is 5)" — the sentence for the streak, the same in the
 * dialog, the status bar, the reflection and the CLI.
 */
export function failedText(c: Pick<ApproachCounts, 'failures' | 'threshold'>): string {
  if (c.failures === 0) return 'has no failure since its last success';
  if (c.failures === 1) return `failed once (the limit is ${c.threshold})`;
  return `failed ${times(c.failures)} in a row (the limit is ${c.threshold})`;
}

/**
 * How often one error came in the streak of `failures`: "came 11 times" (every failure had it),
 * "came 3 of 4 times", "came 18 of the last 20 times" (a streak longer than the errors remembered).
 */
export function cameText(e: Pick<ErrorCount, 'times' | 'of'>, failures: number): string {
  if (e.of > 0 && e.of < failures) return `came ${e.times} of the last ${e.of} times`;
  if (e.times < failures) return `came ${e.times} of ${failures} times`;
  return `came ${times(e.times)}`;
}

/** The panel's badge: failures against the limit while failing ("3/5"), the failures once exhausted ("11×"). */
export function failureBadge(c: Pick<ApproachCounts, 'failures' | 'threshold' | 'exhausted'>): { text: string; label: string } {
  const label = `${c.failures === 1 ? '1 failure' : `${c.failures} failures`} in a row, limit ${c.threshold}`;
  if (c.exhausted || c.failures >= c.threshold) return { text: `${c.failures}×`, label: `${label}: exhausted` };
  return { text: `${c.failures}/${c.threshold}`, label };
}
