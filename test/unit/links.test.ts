import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchKnownFailure } from '../../src/core/text/links';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';

const redactor = createRedactor();
function memoryWith(runs: Array<[string, number, string]>) {
  const data = emptyMemory();
  for (const [command, exitCode, output] of runs) applyAttempt(data, prepareAttempt({ command, exitCode, output, source: 'terminal' }, DEFAULT_SETTINGS, redactor), DEFAULT_SETTINGS);
  return Object.values(data.approaches);
}

test('a terminal line that repeats a known error is linked to its approach', () => {
  const approaches = memoryWith([
    ['npm run dev', 1, 'Error: listen EADDRINUSE: address already in use :::3000'],
    ['npm run dev', 1, 'Error: listen EADDRINUSE: address already in use :::3000'],
    ['python train.py', 1, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'numpy'"],
  ]);
  // another port, colours and indentation: still the same failure
  const m = matchKnownFailure('  \x1b[31mError: listen EADDRINUSE: address already in use :::5173\x1b[0m', approaches);
  assert.equal(m?.approach.label, 'npm run dev');
  assert.equal(m?.approach.failures, 2);
  assert.equal(matchKnownFailure("ModuleNotFoundError: No module named 'numpy'", approaches)?.approach.label, 'python train.py');
});

test('other errors, short lines and resolved approaches are not linked', () => {
  const approaches = memoryWith([
    ['python train.py', 1, "ModuleNotFoundError: No module named 'numpy'"],
    ['make', 2, 'make: *** No rule to make target `build`.  Stop.'],
    ['make', 0, ''],
  ]);
  assert.equal(matchKnownFailure("ModuleNotFoundError: No module named 'pandas'", approaches), undefined);
  assert.equal(matchKnownFailure('Error', approaches), undefined);
  assert.equal(matchKnownFailure('make: *** No rule to make target `build`.  Stop.', approaches), undefined, 'make succeeded since');
  assert.equal(matchKnownFailure('x'.repeat(5000), approaches), undefined);
});

test('the count is how often this error came, not every failure of the approach (#13: "seen 4 times")', () => {
  const approaches = memoryWith([
    ['python train.py', 1, "ModuleNotFoundError: No module named 'numpy'"],
    ['python train.py', 127, 'bash: python: command not found'],
    ['python train.py', 1, "ModuleNotFoundError: No module named 'numpy'"],
    ['python train.py', 1, "ModuleNotFoundError: No module named 'numpy'"],
  ]);
  const m = matchKnownFailure("ModuleNotFoundError: No module named 'numpy'", approaches);
  assert.equal(m?.approach.failures, 4);
  assert.equal(m?.count, 3);
});
