// Hostile terminal output must never hang the record path (issue 12). Every pathological shape
// (1 MB of blank lines, \r, long tokens, eyJ-, =, base64, an unterminated PEM…) goes through redact,
// prepareAttempt and each scanner in a child process. This is a hang guard, not a speed test: a case
// fails only when it makes no progress for CASE_GUARD_MS (linear code takes well under a second per
// case; the quadratic patterns this replaced took 20 s to forever). Speed is in BENCHMARKS.md
// (bench/hostile-input.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createRedactor, RedactionPatternError, validatePatterns } from '../../src/core/text/redact';

const CASE_GUARD_MS = 20_000;
const fixture = path.join(__dirname, 'fixtures', 'hostileShapes.ts');

test('1 MB of every pathological shape goes through redact, record and the scanners without hanging', { timeout: 15 * 60_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, '--mb', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let current = '(starting)';
  let doneCount = 0;
  let stderr = '';
  let buffered = '';
  let guard: NodeJS.Timeout | undefined;
  let hung: string | undefined;
  const arm = () => {
    clearTimeout(guard);
    guard = setTimeout(() => {
      hung = current;
      child.kill('SIGKILL');
    }, CASE_GUARD_MS);
  };
  arm();
  child.stderr.on('data', d => (stderr += String(d)));
  child.stdout.on('data', d => {
    buffered += String(d);
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, nl)) as { start?: string; done?: string };
      buffered = buffered.slice(nl + 1);
      if (line.start) {
        current = line.start;
        arm();
      }
      if (line.done) doneCount++;
    }
  });
  const code = await new Promise<number | null>(resolve => child.on('close', c => resolve(c)));
  clearTimeout(guard);
  assert.equal(hung, undefined, `no progress for ${CASE_GUARD_MS / 1000} s in: ${hung}`);
  assert.equal(code, 0, stderr);
  assert.ok(doneCount > 150, `every case ran (${doneCount})`);
});

test('user patterns run on a linear-time engine: (a+)+$ returns, and still redacts what it matches', () => {
  const r = createRedactor(['(a+)+$']);
  // 34 a's and a '!' made a JavaScript RegExp backtrack 2^34 times: check --command never returned
  assert.equal(r.redact('echo ' + 'a'.repeat(34) + '!').text, 'echo ' + 'a'.repeat(34) + '!');
  assert.equal(r.redact('token aaaa').text, 'token [REDACTED:custom]');
});

test('user patterns: flags in /…/i form, lookbehind works, unsupported syntax is refused with a clear message', () => {
  assert.equal(createRedactor(['/mycorp-[0-9a-f]{8}/i']).redact('key MYCORP-DEADBEEF here').text, 'key [REDACTED:custom] here');
  assert.equal(createRedactor(['(?<=pin=)\\d{4}']).redact('pin=1234').text, 'pin=[REDACTED:custom]');
  const { valid, errors } = validatePatterns(['(a)\\1', 'x(?=y)', 'ok-[0-9]+']);
  assert.deepEqual(valid, ['ok-[0-9]+']);
  assert.equal(errors.length, 2);
  for (const e of errors) assert.match(e, /linear-time engine \(RE2 syntax: no backreferences, no lookahead\)/);
  assert.throws(() => createRedactor(['a*']), (e: unknown) => e instanceof RedactionPatternError && /matches the empty string/.test(e.message));
});
