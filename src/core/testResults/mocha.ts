// Test-run parser: mocha.

import { MAX_FAILURES, num, Failures, isBlank, gather, candidate, type Counts, type Candidate } from './common';

const MOCHA_PASSING_RE = /^\s*(\d+) passing \([^)]*\)\s*$/;
const MOCHA_OTHER_RE = /^\s*(\d+) (pending|failing)\s*$/;
const MOCHA_ENTRY_RE = /^\s*(\d+)\) (.*)$/;

export function mocha(lines: string[], text: string): Candidate | null {
  if (!text.includes(' passing (')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  const failingAt: Array<{ line: number; count: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MOCHA_PASSING_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    counts.passed += num(m[1]);
    for (let j = i + 1; j < Math.min(lines.length, i + 5); j++) {
      const o = MOCHA_OTHER_RE.exec(lines[j]);
      if (!o) {
        if (isBlank(lines[j])) continue;
        break;
      }
      last = j;
      if (o[2] === 'failing') {
        counts.failed += num(o[1]);
        failingAt.push({ line: j, count: num(o[1]) });
      } else counts.skipped += num(o[1]);
    }
  }
  if (last < 0) return null;
  const failures = new Failures();
  for (let k = 0; k < failingAt.length; k++) {
    const end = k + 1 < failingAt.length ? failingAt[k + 1].line : lines.length;
    // entries are numbered 1..count right after "N failing"; numbers restart in a later run's tree
    let expect = 1;
    for (let i = failingAt[k].line + 1; i < end && expect <= failingAt[k].count && failures.size < MAX_FAILURES; i++) {
      const e = MOCHA_ENTRY_RE.exec(lines[i]);
      if (!e || num(e[1]) !== expect) continue;
      expect++;
      // title lines, the last one ends with ':'
      const title: string[] = [e[2].trim()];
      let j = i + 1;
      while (!title[title.length - 1].endsWith(':') && j < end && j < i + 8 && !isBlank(lines[j])) {
        title.push(lines[j].trim());
        j++;
      }
      const name = title.join(' ').replace(/:$/, '');
      const message = gather(lines, j, {
        max: 2,
        colonOnly: true,
        stop: (l) => MOCHA_ENTRY_RE.test(l) || /^\s*\+ expected - actual/.test(l),
      });
      failures.add(name, message);
      i = j - 1;
    }
  }
  return candidate('mocha', counts, failures, last);
}
