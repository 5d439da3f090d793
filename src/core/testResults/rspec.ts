// Test-run parser: RSpec.

import { MAX_NAME, LOOKAHEAD, MAX_MAP, num, clean, Failures, candidate, type Counts, type Candidate } from './common';

const RSPEC_SUMMARY_RE =
  /^\s*(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?\s*$/;
const RSPEC_RERUN_RE = /^\s*rspec (\S+) # (.+?)\s*$/;
const RSPEC_ENTRY_RE = /^\s+(\d+)\) (.+?)\s*$/;
const RSPEC_LOAD_RE = /^\s*An error occurred while loading (.+?)\.?\s*$/;

export function rspec(lines: string[], text: string): Candidate | null {
  if (!/\b\d+ examples?, \d+ failures?/.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = RSPEC_SUMMARY_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    const examples = num(m[1]);
    const failed = num(m[2]);
    const pending = num(m[3]);
    const outside = num(m[4]);
    counts.total = (counts.total ?? 0) + examples + outside;
    counts.failed += failed + outside;
    counts.skipped += pending;
    counts.passed += Math.max(0, examples - failed - pending);
  }
  if (last < 0) return null;
  const failures = new Failures();
  const messages = new Map<string, string>();
  let inFailures = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === 'Failures:') {
      inFailures = true;
      continue;
    }
    if (/^(Pending:|Finished in |Failed examples:)/.test(trimmed)) {
      inFailures = false;
      continue;
    }
    const load = RSPEC_LOAD_RE.exec(line);
    if (load) {
      failures.add(load[1], () => rspecMessage(lines, i + 1));
      continue;
    }
    if (inFailures) {
      const e = RSPEC_ENTRY_RE.exec(line);
      if (e) {
        const message = rspecMessage(lines, i + 1);
        if (messages.size < MAX_MAP) messages.set(clean(e[2], MAX_NAME), message);
        failures.add(e[2], message);
      }
      continue;
    }
    const r = RSPEC_RERUN_RE.exec(line);
    if (r) failures.add(r[2], messages.get(clean(r[2], MAX_NAME)) ?? '');
  }
  return candidate('rspec', counts, failures, last);
}

/** After "Failure/Error: <code>": the explanation lines ("expected: 4 got: 3", "ZeroDivisionError: divided by 0"). */
function rspecMessage(lines: string[], start: number): string {
  const end = Math.min(lines.length, start + LOOKAHEAD);
  let code = '';
  const parts: string[] = [];
  for (let i = start; i < end && parts.length < 3; i++) {
    const t = lines[i].trim();
    if (!t) continue;
    if (t.startsWith('# ') || RSPEC_ENTRY_RE.test(lines[i]) || /^(Finished in |Failed examples:|rspec )/.test(t)) break;
    const fe = /^Failure\/Error:\s*(.*)$/.exec(t);
    if (fe) {
      if (code || parts.length) break;
      code = fe[1];
      continue;
    }
    parts.push(t);
  }
  return parts.length ? parts.join(' ') : code;
}
