// Test-run parser: dotnet test.

import { num, Failures, isBlank, gather, indentOf, candidate, type Counts, type Candidate } from './common';

const DOTNET_MINIMAL_RE = /^\s*[A-Za-z]+!\s*-\s*Failed:\s*(\d+),\s*Passed:\s*(\d+),\s*Skipped:\s*(\d+),\s*Total:\s*(\d+)/;
const DOTNET_SUMMARY_RE = /^\s*Test summary:\s*(.*)$/i;
const DOTNET_RUN_SUMMARY_RE = /^\s*Test run summary:/i;
const DOTNET_TOTAL_RE = /^\s*Total tests:\s*(\d+)/;
const DOTNET_FAILED_RE = /^\s*Failed\s+(\S.*?)(\s+\[[^\]]{0,40}\])?\s*$/;
const DOTNET_MTP_FAILED_RE = /^\s*failed (\S.*?) \(\d+(?:\.\d+)?\s*(?:ms|s|m|h)\)\s*$/;
const DOTNET_MESSAGE_STOP = (l: string): boolean =>
  /^\s*(Stack Trace:|Standard Output Messages:|Standard Error Messages:|Failed\s|Passed\s|Skipped\s)/.test(l);

export function dotnet(lines: string[], text: string): Candidate | null {
  if (!/Total:|Total tests:|Test summary:/i.test(text)) return null;
  const counted = dotnetCounts(lines);
  if (!counted) return null;
  return candidate('dotnet', counted.counts, dotnetFailures(lines), counted.last);
}

/**
 * The counts from whichever summary the run printed, by preference: the minimal "Failed! - Failed: 1,
 * Passed: 4, …" line, then "Test summary:" / "Test run summary:", then the legacy "Total tests:".
 * `last` is the summary's last line.
 */
function dotnetCounts(lines: string[]): { counts: Counts; last: number } | null {
  const minimal: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const summary: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const legacy: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let lastMinimal = -1;
  let lastSummary = -1;
  let lastLegacy = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = DOTNET_MINIMAL_RE.exec(line);
    if (m) {
      lastMinimal = i;
      minimal.failed += num(m[1]);
      minimal.passed += num(m[2]);
      minimal.skipped += num(m[3]);
      minimal.total = (minimal.total ?? 0) + num(m[4]);
      continue;
    }
    const s = DOTNET_SUMMARY_RE.exec(line);
    if (s && /total:\s*\d+/i.test(s[1])) {
      lastSummary = i;
      for (const [, key, n] of s[1].matchAll(/\b([a-z]+):\s*(\d+)/gi)) {
        const v = num(n);
        const k = key.toLowerCase();
        if (k === 'total') summary.total = (summary.total ?? 0) + v;
        else if (k === 'failed' || k === 'error') summary.failed += v;
        else if (k === 'succeeded' || k === 'passed') summary.passed += v;
        else if (k === 'skipped') summary.skipped += v;
      }
      continue;
    }
    if (DOTNET_RUN_SUMMARY_RE.test(line)) {
      // Microsoft.Testing.Platform: "Test run summary: Failed! - MyTests.dll" then "  total: 5", "  failed: 1", …
      let found = false;
      for (let j = i + 1; j < Math.min(lines.length, i + 10); j++) {
        const kv = /^\s*(total|failed|succeeded|skipped|duration):\s*(\d*)/i.exec(lines[j]);
        if (!kv) break;
        const v = num(kv[2]);
        const k = kv[1].toLowerCase();
        if (k === 'total') [found, summary.total] = [true, (summary.total ?? 0) + v];
        else if (k === 'failed') summary.failed += v;
        else if (k === 'succeeded') summary.passed += v;
        else if (k === 'skipped') summary.skipped += v;
        if (found) lastSummary = j;
      }
      continue;
    }
    const t = DOTNET_TOTAL_RE.exec(line);
    if (t) {
      lastLegacy = i;
      legacy.total = (legacy.total ?? 0) + num(t[1]);
      // "Total tests: 5. Passed: 4. Failed: 1. Skipped: 0." or the same keys on the following lines
      const seen = new Set<string>();
      const take = (l: string): void => {
        for (const [, key, n] of l.matchAll(/\b(Passed|Failed|Skipped):\s*(\d+)/g)) {
          if (seen.has(key)) continue;
          seen.add(key);
          if (key === 'Passed') legacy.passed += num(n);
          else if (key === 'Failed') legacy.failed += num(n);
          else legacy.skipped += num(n);
        }
      };
      take(line.slice(t[0].length));
      for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
        if (!/^\s*(Passed|Failed|Skipped|Not Run|Total time):/.test(lines[j])) break;
        take(lines[j]);
        lastLegacy = j;
      }
    }
  }
  let counts: Counts;
  let last: number;
  if (lastMinimal >= 0) [counts, last] = [minimal, lastMinimal];
  else if (lastSummary >= 0) [counts, last] = [summary, lastSummary];
  else if (lastLegacy >= 0) [counts, last] = [legacy, lastLegacy];
  else return null;
  return { counts, last };
}

/** "Failed <name> [12 ms]" with its "Error Message:", and Microsoft.Testing.Platform's "failed <name> (12ms)". */
function dotnetFailures(lines: string[]): Failures {
  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = DOTNET_FAILED_RE.exec(line);
    if (f) {
      let msgAt = -1;
      for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
        if (/^\s*Error Message:\s*$/.test(lines[j])) {
          msgAt = j;
          break;
        }
        if (!isBlank(lines[j])) break;
      }
      // a bare "Failed <name>" needs its "Error Message:" to be sure it is a test
      if (!f[2] && msgAt < 0) continue;
      failures.add(f[1], () => (msgAt >= 0 ? gather(lines, msgAt + 1, { max: 3, stop: DOTNET_MESSAGE_STOP }) : ''));
      continue;
    }
    const n = DOTNET_MTP_FAILED_RE.exec(line);
    if (n) failures.add(n[1], () => gather(lines, i + 1, { max: 3, minIndent: indentOf(line), stop: DOTNET_MESSAGE_STOP }));
  }
  return failures;
}
