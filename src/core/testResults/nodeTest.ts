// Test-run parser: node:test (spec and TAP reporters).

import { MAX_MAP, num, Failures, isBlank, gather, indentOf, candidate, type Counts, type Candidate } from './common';

const NODE_COUNT_RE = /^(?:ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)\s*$/;
const NODE_SPEC_FAIL_RE = /^(\s*)✖ (.+?)\s*$/;
const NODE_SPEC_GROUP_RE = /^(\s*)▶ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?\s*$/;
const NODE_TAP_FAIL_RE = /^(\s*)not ok \d+(?: - (.*))?$/;
const NODE_DIRECTIVE_RE = /\s#\s*(SKIP|TODO)\b/i;
const NODE_DURATION_RE = /\s*\(\d+(?:\.\d+)?m?s\)$/;
const SUBTESTS_FAILED_RE = /^'?\d+ subtests? failed'?$/;

export function nodeTest(lines: string[], text: string): Candidate | null {
  if (!/^(ℹ|#) tests \d/m.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const m = NODE_COUNT_RE.exec(lines[i]);
    if (!m) continue;
    const key = m[1];
    if (key === 'tests') inBlock = true;
    if (!inBlock) continue;
    last = i;
    const v = num(m[2]);
    if (key === 'tests') counts.total = (counts.total ?? 0) + v;
    else if (key === 'pass') counts.passed += v;
    else if (key === 'fail' || key === 'cancelled') counts.failed += v;
    else if (key === 'skipped' || key === 'todo') counts.skipped += v;
    else if (key === 'duration_ms') inBlock = false;
  }
  if (last < 0) return null;

  const groups = new Set<string>();
  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const g = NODE_SPEC_GROUP_RE.exec(line);
    if (g) {
      if (groups.size < MAX_MAP) groups.add(g[2]);
      continue;
    }
    const s = NODE_SPEC_FAIL_RE.exec(line);
    if (s) {
      if (NODE_DIRECTIVE_RE.test(s[2])) continue;
      const name = s[2].replace(NODE_DURATION_RE, '');
      if (name === 'failing tests:' || /^\d+ problems? \(/.test(name)) continue;
      if (!failures.wants(name)) continue;
      const message = gather(lines, i + 1, {
        max: 2,
        colonOnly: true,
        minIndent: s[1].length,
        stop: (l) => /^\s*\{$/.test(l),
      });
      // a suite or parent test whose subtests failed: its children are the failures
      if (!message && groups.has(name)) continue;
      if (SUBTESTS_FAILED_RE.test(message)) continue;
      failures.add(name, message);
      continue;
    }
    const t = NODE_TAP_FAIL_RE.exec(line);
    if (t) {
      const title = t[2] ?? '';
      if (NODE_DIRECTIVE_RE.test(title) || !failures.wants(title.replace(/\\#/g, '#'))) continue;
      const info = tapYaml(lines, i + 1, t[1].length);
      if (info.subtestsFailed) continue;
      failures.add(title.replace(/\\#/g, '#'), info.message);
    }
  }
  return candidate('node-test', counts, failures, last);
}

/** Reads the YAML diagnostics block under a TAP "not ok" line. */
function tapYaml(lines: string[], start: number, indent: number): { message: string; subtestsFailed: boolean } {
  let error = '';
  let name = '';
  let subtestsFailed = false;
  const end = Math.min(lines.length, start + 200);
  let i = start;
  if (i < end && lines[i].trim() !== '---') return { message: '', subtestsFailed };
  for (i++; i < end; i++) {
    const l = lines[i];
    const trimmed = l.trim();
    if (trimmed === '...' || (indentOf(l) <= indent && !isBlank(l))) break;
    const kv = /^\s*([A-Za-z_]+):\s?(.*)$/.exec(l);
    if (!kv || indentOf(l) > indent + 2) continue;
    const [, key, value] = kv;
    if (key === 'failureType' && /subtestsFailed/.test(value)) subtestsFailed = true;
    else if (key === 'name' && !name) name = unquote(value);
    else if (key === 'error' && !error) {
      if (/^[|>][-+]?$/.test(value.trim())) {
        error = gather(lines, i + 1, { max: 2, colonOnly: true, minIndent: indentOf(l) });
      } else error = unquote(value);
    }
  }
  if (SUBTESTS_FAILED_RE.test(error)) subtestsFailed = true;
  const message = name && error && !error.startsWith(name) ? `${name}: ${error}` : error;
  return { message, subtestsFailed };
}

function unquote(v: string): string {
  const t = v.trim();
  const q = /^(['"])(.*)\1$/.exec(t);
  return (q ? q[2] : t).replace(/\\n/g, ' ').replace(/''/g, "'");
}
