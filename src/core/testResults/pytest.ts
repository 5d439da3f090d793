// Test-run parser: pytest.

import { MAX_FAILURES, MAX_MAP, num, Failures, candidate, type Counts, type Candidate } from './common';

const PYTEST_WORDS = 'failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun|subtests passed|subtests failed';
const PYTEST_SUMMARY_RE = new RegExp(
  `^(?:=+ )?((?:\\d+ (?:${PYTEST_WORDS})(?:, )?)+|no tests ran) in \\d+(?:\\.\\d+)?\\s?s(?:econds)?\\b.*?(?: =+)?\\s*$`,
);
const PYTEST_HEADER_RE = /^_{3,} (.+?) _{3,}\s*$/;
const PYTEST_SHORT_RE = /^(FAILED|ERROR) (.+?)(?: - (.*))?\s*$/;
const PYTEST_VERBOSE_RE = /^(\S+::\S.*?) (FAILED|ERROR)(?:\s+\[\s*\d+%\])?\s*$/;

export function pytest(lines: string[], text: string): Candidate | null {
  if (!text.includes(' in ')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = PYTEST_SUMMARY_RE.exec(lines[i].trim());
    if (!m) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) ([a-z]+(?: [a-z]+)?)/g)) {
      const v = num(n);
      if (word === 'passed' || word === 'xpassed') counts.passed += v;
      else if (word === 'failed' || word === 'error' || word === 'errors') counts.failed += v;
      else if (word === 'skipped' || word === 'xfailed') counts.skipped += v;
    }
  }
  if (last < 0) return null;

  // "____ test_name ____" sections: their first "E   " line is the best message
  const headerMessage = new Map<string, string>();
  const headers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = PYTEST_HEADER_RE.exec(lines[i]);
    if (!h) continue;
    const name = h[1].trim();
    let message = '';
    for (let j = i + 1; j < Math.min(lines.length, i + 200); j++) {
      const l = lines[j];
      if (PYTEST_HEADER_RE.test(l) || /^={3,}/.test(l)) break;
      if (l.startsWith('E ')) {
        message = message ? `${message} ${l.slice(1).trim()}` : l.slice(1).trim();
        if (!message.endsWith(':')) break;
      } else if (message) break;
    }
    if (headerMessage.size < MAX_MAP) headerMessage.set(name, message);
    if (headers.length < MAX_FAILURES) headers.push(name);
  }
  const lookup = (nodeid: string): string => {
    const sep = nodeid.indexOf('::');
    const inner = sep >= 0 ? nodeid.slice(sep + 2).replace(/::/g, '.') : '';
    for (const key of [inner, `ERROR at setup of ${inner}`, `ERROR at teardown of ${inner}`, `ERROR collecting ${nodeid}`, nodeid]) {
      const msg = key ? headerMessage.get(key) : undefined;
      if (msg) return msg;
    }
    return '';
  };

  const failures = new Failures();
  for (const line of lines) {
    const s = PYTEST_SHORT_RE.exec(line);
    if (s) {
      const nodeid = s[2].trim();
      if (!/::|\.py\b/.test(nodeid)) continue;
      const short = s[3] ?? '';
      failures.add(nodeid, () => (!short || short.endsWith('...') ? lookup(nodeid) || short : short));
      continue;
    }
    const v = PYTEST_VERBOSE_RE.exec(line);
    if (v) failures.add(v[1], () => lookup(v[1]));
  }
  if (failures.size === 0) for (const h of headers) failures.add(h, headerMessage.get(h) ?? '');
  return candidate('pytest', counts, failures, last);
}
