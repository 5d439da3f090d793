// Test-run parser: jest.

import { MAX_FAILURES, num, Failures, gather, candidate, type Counts, type Candidate } from './common';

const JEST_TESTS_RE = /^\s*Tests:\s+((?:\d+ [a-z]+, )*\d+ total)\s*$/;
const JEST_FILE_RE = /^\s*(FAIL|PASS)\s+(\S.*?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$/;
const JEST_BULLET_RE = /^\s*● (.+?)\s*$/;
const JEST_NOT_TEST_RE = /^(Console|Validation (Warning|Error)|Deprecation Warning|Multiple configurations found)\b|:$/;
const JEST_STOP = (l: string): boolean =>
  /^\s*>?\s*\d+\s*\|/.test(l) || /^\s*●/.test(l) || /^\s*(FAIL|PASS)\s/.test(l) || /^\s*(Test Suites|Tests):/.test(l);

export function jest(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests:')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = JEST_TESTS_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) ([a-z]+)/g)) {
      const v = num(n);
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else if (word === 'skipped' || word === 'todo') counts.skipped += v;
      else if (word === 'total') counts.total = (counts.total ?? 0) + v;
    }
  }
  if (last < 0) return null;
  const failures = new Failures();
  const failedFiles: string[] = [];
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = JEST_FILE_RE.exec(line);
    if (f) {
      file = f[1] === 'FAIL' ? f[2] : '';
      if (file && failedFiles.length < MAX_FAILURES) failedFiles.push(file);
      continue;
    }
    const b = JEST_BULLET_RE.exec(line);
    if (!b) continue;
    let name = b[1];
    if (JEST_NOT_TEST_RE.test(name)) continue;
    if (name === 'Test suite failed to run' && file) name = file;
    failures.add(name, () => gather(lines, i + 1, { max: 3, stop: JEST_STOP }));
  }
  if (failures.size === 0) for (const f of failedFiles) failures.add(f);
  return candidate('jest', counts, failures, last);
}
