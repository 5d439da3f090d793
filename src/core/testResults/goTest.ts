// Test-run parser: go test.

import { LOOKAHEAD, Failures, isBlank, indentOf, candidate, type Counts, type Candidate } from './common';

const GO_TEST_RE = /^(\s*)--- (PASS|FAIL|SKIP): (\S+)/;
const GO_OK_RE = /^ok\s+(\S+)\s+(?:\d+(?:\.\d+)?s\b|\(cached\)|\[no tests to run\])/;
const GO_FAIL_RE = /^FAIL\s+(\S+)\s+(?:\d+(?:\.\d+)?s\b|\[([a-z ]+ failed)\]|\(cached\))/;
const GO_COMPILE_RE = /^\S+\.go:\d+(?::\d+)?: \S/;

interface GoTest {
  name: string;
  status: string;
  line: number;
}

export function goTest(lines: string[], text: string): Candidate | null {
  if (!text.includes('--- ') && !/^(ok|FAIL)\s/m.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures = new Failures();
  let last = -1;
  let segment: GoTest[] = [];

  const closeSegment = (): void => {
    if (segment.length === 0) return;
    const parents = new Set<string>();
    const failedParents = new Set<string>();
    for (const t of segment) {
      for (let k = t.name.indexOf('/'); k > 0; k = t.name.indexOf('/', k + 1)) {
        const p = t.name.slice(0, k);
        parents.add(p);
        if (t.status === 'FAIL') failedParents.add(p);
      }
    }
    for (const t of segment) {
      const isParent = parents.has(t.name);
      // a parent counts only when it failed on its own (no failing subtest explains it)
      if (isParent && !(t.status === 'FAIL' && !failedParents.has(t.name))) continue;
      if (t.status === 'PASS') counts.passed++;
      else if (t.status === 'SKIP') counts.skipped++;
      else {
        counts.failed++;
        failures.add(t.name, () => goMessage(lines, t));
      }
    }
    segment = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = GO_TEST_RE.exec(line);
    if (t) {
      segment.push({ name: t[3], status: t[2], line: i });
      last = i;
      continue;
    }
    const ok = GO_OK_RE.exec(line);
    const fail = ok ? null : GO_FAIL_RE.exec(line);
    if (!ok && !fail) continue;
    last = i;
    if (segment.length > 0) {
      closeSegment();
      continue;
    }
    // no per-test lines for this package: the package counts as one test
    if (ok) counts.passed++;
    else if (fail) {
      counts.failed++;
      let message = fail[2] ?? '';
      if (fail[2]) {
        for (let j = i - 1; j >= Math.max(0, i - 30); j--) {
          if (GO_COMPILE_RE.test(lines[j].trim())) message = lines[j].trim();
          else if (/^(ok|FAIL)\s/.test(lines[j])) break;
        }
      } else {
        for (let j = i - 1; j >= Math.max(0, i - 30); j--) {
          if (/^panic: /.test(lines[j])) {
            message = lines[j];
            break;
          }
        }
      }
      failures.add(fail[1], message);
    }
  }
  closeSegment();
  if (last < 0) return null;
  return candidate('go', counts, failures, last);
}

/** The t.Error/t.Fatal lines of a failed go test: printed after "--- FAIL" without -v, after "=== RUN" with -v. */
function goMessage(lines: string[], t: GoTest): string {
  const own = indentOf(lines[t.line]);
  const body: string[] = [];
  for (let j = t.line + 1; j < Math.min(lines.length, t.line + LOOKAHEAD) && body.length < 8; j++) {
    const l = lines[j];
    if (isBlank(l)) continue;
    if (indentOf(l) <= own) break;
    if (/^\s*(---|===) /.test(l)) continue;
    body.push(l.trim());
  }
  if (body.length === 0) {
    let start = -1;
    for (let j = t.line - 1; j >= Math.max(0, t.line - 200); j--) {
      const r = /^\s*=== (?:RUN|CONT)\s+(\S+)/.exec(lines[j]);
      if (r && r[1] === t.name) {
        start = j;
        break;
      }
    }
    for (let j = start + 1; start >= 0 && j < t.line && body.length < 8; j++) {
      const l = lines[j];
      if (isBlank(l) || /^\s*(---|===) /.test(l)) continue;
      body.push(l.trim());
    }
  }
  if (body.length === 0) {
    // a panic is printed unindented right after the failing test
    for (let j = t.line + 1; j < Math.min(lines.length, t.line + 5); j++) {
      if (/^panic: /.test(lines[j])) return lines[j].replace(/ \[recovered\]$/, '');
    }
  }
  // testify: "Error Trace: ... Error: Not equal: expected: 5 actual: 6"
  const e = body.findIndex((l) => /^Error:\s/.test(l));
  const from = e >= 0 ? e : 0;
  return body.slice(from, from + 3).join(' ');
}
