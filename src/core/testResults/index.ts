// Test-run parsing: turns the printed output of a test command into counts and failing test names.
// Pure and defensive: never throws, linear in the size of the (bounded) input, null when no test run is found.
//
// Supported: jest, vitest, mocha, pytest, go test (text and -json), cargo test, node:test (spec and TAP),
// Maven Surefire/Failsafe, RSpec, dotnet test. Each tool is recognised by its own summary line; when the
// output holds several runs of one tool (crates, packages, modules, projects) their counts are summed.

// One parser per runner, beside its test (test/unit/testResults/<runner>.test.ts); this file picks the best.

import { PlainOutput } from '../text/ansi';
import type { TestResults } from '../types';
import { prepare, type Candidate, type Parser } from './common';
import { jest } from './jest';
import { vitest } from './vitest';
import { mocha } from './mocha';
import { pytest } from './pytest';
import { goTest } from './goTest';
import { cargo } from './cargo';
import { nodeTest } from './nodeTest';
import { surefire } from './surefire';
import { rspec } from './rspec';
import { dotnet } from './dotnet';

export function parseTestResults(output: string | PlainOutput): TestResults | null {
  try {
    if (output instanceof PlainOutput ? output.source.length === 0 : typeof output !== 'string' || output.length === 0) return null;
    return parse(output);
  } catch {
    return null;
  }
}

function parse(output: string | PlainOutput): TestResults | null {
  const { lines, text } = prepare(output);
  if (lines.length === 0) return null;
  const parsers: Parser[] = [jest, vitest, mocha, pytest, goTest, cargo, nodeTest, surefire, rspec, dotnet];
  let best: Candidate | null = null;
  for (const p of parsers) {
    let c: Candidate | null = null;
    try {
      c = p(lines, text);
    } catch {
      c = null;
    }
    if (!c) continue;
    if (!best) {
      best = c;
      continue;
    }
    // a run that failed says more than one that passed; otherwise the run printed last wins
    const cf = c.counts.failed > 0 || c.failures.size > 0;
    const bf = best.counts.failed > 0 || best.failures.size > 0;
    if ((cf && !bf) || (cf === bf && c.last > best.last)) best = c;
  }
  return best ? finish(best) : null;
}

function finish(c: Candidate): TestResults {
  // the tool's own counts are kept as printed: a suite that failed to load (jest, vitest) is listed in
  // failures without being counted as a failed test
  const passed = c.counts.passed;
  const failed = c.counts.failed;
  const skipped = c.counts.skipped;
  const total = Math.max(c.counts.total ?? 0, passed + failed + skipped);
  return { framework: c.framework, total, passed, failed, skipped, failures: c.failures.list };
}
