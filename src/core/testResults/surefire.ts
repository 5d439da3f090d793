// Test-run parser: Maven Surefire / Failsafe.

import { num, Failures, gather, candidate, type Counts, type Candidate } from './common';

const MVN_LEVEL_RE = /^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\] ?/;
const SUREFIRE_COUNT_RE = /^Tests run:\s*(\d+),\s*Failures:\s*(\d+),\s*Errors:\s*(\d+),\s*Skipped:\s*(\d+)(.*)$/;
const SUREFIRE_SECTION_RE = /^(Failures|Errors|Failed tests|Tests in error|Flakes|Flaked tests)\s*:\s*$/;
const SUREFIRE_ENTRY_RE = /^(\S+?)(?::\d+)?(?:\s+(?:»\s*)?(.*))?$/;

function mvn(line: string): string {
  return line.replace(MVN_LEVEL_RE, '');
}

export function surefire(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests run:')) return null;
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const perClass: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let haveTotals = false;
  let last = -1;
  const failures = new Failures();
  let inResults = false;
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = mvn(lines[i]);
    const c = SUREFIRE_COUNT_RE.exec(line.trim());
    if (c) {
      last = i;
      const run = num(c[1]);
      const failed = num(c[2]) + num(c[3]);
      const skipped = num(c[4]);
      const isClass = /Time elapsed|\bin\s+\S/.test(c[5]);
      const into = isClass ? perClass : totals;
      if (!isClass) haveTotals = true;
      into.total = (into.total ?? 0) + run;
      into.failed += failed;
      into.skipped += skipped;
      into.passed += Math.max(0, run - failed - skipped);
      inResults = false;
      section = '';
      continue;
    }
    if (/^Results\s*:\s*$/.test(line.trim())) {
      inResults = true;
      section = '';
      continue;
    }
    if (inResults) {
      const s = SUREFIRE_SECTION_RE.exec(line.trim());
      if (s) {
        section = /^Flake/.test(s[1]) ? '' : s[1];
        continue;
      }
      if (!section || !/^\s+\S/.test(line)) continue;
      const entry = line.trim();
      const run = /^Run \d+:\s*(.*)$/.exec(entry);
      if (run) continue;
      const e = SUREFIRE_ENTRY_RE.exec(entry);
      if (e) {
        let message = e[2] ?? '';
        if (!message) {
          const next = i + 1 < lines.length ? /^Run \d+:\s*\S+?(?::\d+)?\s+(?:»\s*)?(.*)$/.exec(mvn(lines[i + 1]).trim()) : null;
          if (next) message = next[1];
        }
        failures.add(javaName(e[1]), message);
      }
      continue;
    }
    // "com.x.CalculatorTest.testAdd -- Time elapsed: 0.037 s <<< FAILURE!" (JUnit 4: "testAdd(com.x.CalculatorTest)  Time…")
    const k = line.indexOf('Time elapsed:');
    if (k > 0 && /<<<\s*(?:FAILURE|ERROR)!/.test(line.slice(k))) {
      const name = line.slice(0, k).trim().replace(/\s*--$/, '');
      if (name && !name.startsWith('Tests run:')) {
        failures.add(javaName(name), () => gather(lines, i + 1, { max: 1, stop: (l) => /^\[(INFO|ERROR|WARNING)\]/.test(l) }));
      }
    }
  }
  if (last < 0) return null;
  return candidate('surefire', haveTotals ? totals : perClass, failures, last);
}

/** "testAdd(com.x.CalculatorTest)" and "com.x.CalculatorTest.testAdd" -> "CalculatorTest.testAdd". */
function javaName(raw: string): string {
  const junit4 = /^([\w$]+)\(([\w.$]+)\)$/.exec(raw);
  if (junit4) return `${simpleClass(junit4[2])}.${junit4[1]}`;
  const base = /^[^([]+/.exec(raw);
  const head = base ? base[0] : raw;
  const segs = head.split('.');
  let cls = -1;
  for (let k = segs.length - 2; k >= 0; k--) {
    if (/^[A-Z]/.test(segs[k])) {
      cls = k;
      break;
    }
  }
  return cls > 0 ? segs.slice(cls).join('.') : head;
}

function simpleClass(fqn: string): string {
  const k = fqn.lastIndexOf('.');
  return k >= 0 ? fqn.slice(k + 1) : fqn;
}
