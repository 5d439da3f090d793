// Which remembered failure a line of terminal output belongs to (for the terminal link provider).

import { normalizeErrorLine } from './normalize';
import { stripAnsi } from './ansi';
import { approachCounts } from '../rules/counts';
import { DEFAULT_SETTINGS, type Approach } from '../types';

const matches = (signature: string, norm: string) =>
  signature.split(' | ').some(p => p === norm || (p.length >= 12 && norm.includes(p)) || (norm.length >= 12 && p.includes(norm)));

/**
 * The failing approach whose error signature matches this output line, if any: the line,
 * normalized like a signature (timestamps, ports, temp paths… masked), equals one part of the
 * signature, or one contains the other when both are long enough to mean something.
 */
export function matchKnownFailure(
  rawLine: string,
  approaches: Iterable<Approach>,
): { approach: Approach; start: number; length: number; count: number } | undefined {
  const line = stripAnsi(rawLine).trim();
  if (line.length < 8 || line.length > 2000) return undefined;
  const norm = normalizeErrorLine(line);
  if (norm.length < 8) return undefined;
  for (const a of approaches) {
    if (a.failures === 0 || !a.lastErrorSignature) continue;
    if (matches(a.lastErrorSignature, norm)) {
      // how often THIS error (the last one) came in the streak: the count every other surface shows
      const count = approachCounts(a, DEFAULT_SETTINGS.threshold).last?.times ?? 1;
      return { approach: a, start: Math.max(0, rawLine.indexOf(line)), length: line.length, count: Math.max(1, count) };
    }
  }
  return undefined;
}
