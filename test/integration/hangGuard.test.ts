// Hostile input must never hang the record path or the gate. Every pathological output shape (1 MB of
// blank lines, \r, long tokens, eyJ-, =, base64, an unterminated PEM…) goes through redact,
// prepareAttempt and each scanner, and hostile command lines of 100 KB through the pre hook, the
// approach key and the edit check, each in a child process that is killed when a case makes no
// progress for CASE_GUARD_MS. A hang guard, not a speed test: linear code takes well under a second
// per case. Speed is in BENCHMARKS.md (bench/hostile-input.mjs, bench/hostile-gate.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const CASE_GUARD_MS = 20_000;

/**
 * Runs a fixture that prints `{"start": case}` and `{"done": case}` lines; kills it when one case
 * makes no progress for CASE_GUARD_MS. Resolves with the cases done (after asserting none hung).
 */
async function casesDone(fixture: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'fixtures', fixture), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let current = '(starting)';
  let done = 0;
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
      if (line.done) done++;
    }
  });
  const code = await new Promise<number | null>(resolve => child.on('close', c => resolve(c)));
  clearTimeout(guard);
  assert.equal(hung, undefined, `no progress for ${CASE_GUARD_MS / 1000} s in: ${hung}`);
  assert.equal(code, 0, stderr);
  return done;
}

test('1 MB of every pathological shape goes through redact, record and the scanners without hanging', { timeout: 15 * 60_000 }, async () => {
  const done = await casesDone('hostileShapes.ts', ['--mb', '1']);
  assert.ok(done > 150, `every case ran (${done})`);
});

test('hostile command lines of 100 KB go through the pre hook, the approach key and the edit check without hanging', { timeout: 10 * 60_000 }, async () => {
  const done = await casesDone('hostileGate.ts', ['--kb', '100']);
  assert.ok(done >= 60, `every case ran (${done})`);
});
