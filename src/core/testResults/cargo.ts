// Test-run parser: cargo test.

import { LOOKAHEAD, MAX_MAP, num, Failures, isBlank, gather, candidate, type Counts, type Candidate } from './common';

const CARGO_RESULT_RE = /^\s*test result: (?:ok|FAILED)\. (.*)$/;
const CARGO_TEST_RE = /^test (.+?) \.\.\. (FAILED|ok|ignored)\b/;
const CARGO_BLOCK_RE = /^---- (.+?) std(?:out|err) ----\s*$/;
const CARGO_PANIC_RE = /^thread '[^']*'(?: \(\d+\))? panicked at (.*)$/;

export function cargo(lines: string[], text: string): Candidate | null {
  if (!text.includes('test result:')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = CARGO_RESULT_RE.exec(lines[i]);
    if (!m || !/\b\d+ passed/.test(m[1])) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) (passed|failed|ignored)/g)) {
      const v = num(n);
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else counts.skipped += v;
    }
  }
  if (last < 0) return null;
  const messages = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const b = CARGO_BLOCK_RE.exec(lines[i]);
    if (b && messages.size < MAX_MAP && !messages.has(b[1])) messages.set(b[1], cargoMessage(lines, i + 1));
  }
  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const t = CARGO_TEST_RE.exec(lines[i]);
    if (t && t[2] === 'FAILED') {
      const name = t[1].replace(/ - should panic$/, '');
      failures.add(name, messages.get(name) ?? messages.get(t[1]) ?? '');
      continue;
    }
    const b = CARGO_BLOCK_RE.exec(lines[i]);
    if (b) failures.add(b[1], messages.get(b[1]) ?? '');
  }
  return candidate('cargo', counts, failures, last);
}

function cargoMessage(lines: string[], start: number): string {
  const end = Math.min(lines.length, start + LOOKAHEAD);
  let first = '';
  for (let i = start; i < end; i++) {
    const l = lines[i];
    if (CARGO_BLOCK_RE.test(l) || /^(failures:|test result:)/.test(l)) break;
    const p = CARGO_PANIC_RE.exec(l.trim());
    if (p) {
      const at = p[1];
      // Rust >= 1.73: "panicked at src/lib.rs:10:9:" then the message on the next lines
      if (/:\d+:\d+:$/.test(at)) {
        return gather(lines, i + 1, { max: 3, stop: (x) => /^(note:|stack backtrace:|failures:|test result:|\s*\d+: )/.test(x) || CARGO_BLOCK_RE.test(x) });
      }
      // older: "panicked at 'message', src/lib.rs:10:9" (the message may span lines)
      const parts: string[] = [];
      let s = at.replace(/^'/, '');
      for (let j = i; j < end && parts.length < 4; j++) {
        if (j > i) s = lines[j];
        const tail = /^(.*)', \S+:\d+:\d+$/.exec(s);
        if (tail) {
          parts.push(tail[1]);
          break;
        }
        parts.push(s);
      }
      return parts.join(' ');
    }
    if (!first && !isBlank(l) && !/^(stderr|stdout):$/.test(l.trim())) first = l.trim();
  }
  return first;
}
