import assert from 'node:assert/strict';
import { parseTestResults } from '../../../src/core/testResults';
import type { TestResults } from '../../../src/core/types';

// Fixtures: node:test, pytest, cargo and Maven Surefire outputs were captured from the real tools (stack
// traces trimmed); the others are written after each tool's real output.

export function parsed(output: string): TestResults {
  const r = parseTestResults(output);
  assert.ok(r, 'expected a test run');
  assert.ok(r.total >= r.passed + r.failed, 'total >= passed + failed');
  return r;
}
export const names = (r: TestResults): string[] => r.failures.map((f) => f.name);
export const message = (r: TestResults, name: string): string => r.failures.find((f) => f.name === name)?.message ?? '<missing>';
export const counts = (r: TestResults) => ({ total: r.total, passed: r.passed, failed: r.failed, skipped: r.skipped });

/** Colors every word, uses CRLF and wraps the output in VS Code shell-integration sequences. */
export function noisy(s: string): string {
  let k = 0;
  const body = s.replace(/\S+/g, (w) => `\x1b[1;3${(k++ % 7) + 1}m${w}\x1b[0m\x1b[K`).replace(/\n/g, '\r\n');
  return `\x1b]633;E;npm test\x07\x1b]633;C\x07\x1b[?25l${body}\x1b[?25h\x1b]633;D;1\x07\x1b]633;P;Cwd=/home/u/proj\x07`;
}
