// Test-run parser: vitest.

import { num, Failures, gather, candidate, type Counts, type Candidate } from './common';

const VITEST_TESTS_RE = /^\s*Tests\s{2,}(\d.*?)\s*\((\d+)\)\s*$/;
const VITEST_PART_RE = /^\s*(\d+) ([a-z][a-z ]*?)\s*$/;
const VITEST_FAIL_RE = /^\s*FAIL\s+(?:\|[^|]*\|\s+)?(\S.*?)\s*$/;
const VITEST_CROSS_RE = /^\s*[×✗✕]\s+(.+?)(?:\s+\d+(?:\.\d+)?\s*m?s)?\s*$/;
const VITEST_ARROW_RE = /^\s*→\s+(.*)$/;
const VITEST_SEPARATOR_RE = /^\s*⎯/;

export function vitest(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests ')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = VITEST_TESTS_RE.exec(lines[i]);
    if (!m) continue;
    const parts = m[1].split('|').map((p) => VITEST_PART_RE.exec(p));
    if (parts.some((p) => !p)) continue;
    last = i;
    for (const p of parts) {
      if (!p) continue;
      const v = num(p[1]);
      const word = p[2];
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else if (word === 'skipped' || word === 'todo') counts.skipped += v;
    }
    counts.total = (counts.total ?? 0) + num(m[2]);
  }
  if (last < 0) return null;
  const failures = new Failures();
  const crosses = new Failures();
  const isFailHeader = (l: string): boolean => VITEST_FAIL_RE.test(l);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = VITEST_FAIL_RE.exec(line);
    if (f) {
      // "src/a.test.ts > suite > test", "src/a.test.ts [ src/a.test.ts ]" (the file itself failed)
      let body = f[1];
      const bracket = body.endsWith(' ]') ? body.lastIndexOf(' [ ') : -1;
      if (bracket > 0) body = body.slice(0, bracket).trimEnd();
      const segs = body.split(' > ');
      const name = segs.length > 1 ? segs.slice(1).join(' > ') : segs[0];
      failures.add(name, () =>
        gather(lines, i + 1, {
          max: 2,
          colonOnly: true,
          skip: isFailHeader,
          stop: (l) => VITEST_SEPARATOR_RE.test(l) || /^\s*❯ /.test(l),
        }),
      );
      continue;
    }
    const x = VITEST_CROSS_RE.exec(line);
    if (x) {
      const a = i + 1 < lines.length ? VITEST_ARROW_RE.exec(lines[i + 1]) : null;
      crosses.add(x[1], a ? a[1] : '');
    }
  }
  // the "Failed Tests" section is complete and has messages; the × tree lines are a fallback
  return candidate('vitest', counts, failures.size > 0 ? failures : crosses, last);
}
