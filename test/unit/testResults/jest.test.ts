// parseTestResults on jest output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, message, counts } from './helpers';
import { JEST_FAIL, JEST_PASS, JEST_COLOR } from './fixtures/jest';

void describe('jest', () => {
  void test('failing run: counts, failures with messages, suites that failed to run', () => {
    const r = parsed(JEST_FAIL);
    assert.equal(r.framework, 'jest');
    assert.deepEqual(counts(r), { total: 7, passed: 4, failed: 1, skipped: 2 });
    assert.deepEqual(names(r), ['Calculator › subtracts', 'src/broken.test.ts']);
    assert.equal(message(r, 'Calculator › subtracts'), 'expect(received).toBe(expected) // Object.is equality Expected: 1 Received: 2');
    assert.equal(message(r, 'src/broken.test.ts'), "Cannot find module './missing' from 'src/broken.test.ts'");
  });
  void test('passing run', () => {
    const r = parsed(JEST_PASS);
    assert.deepEqual({ framework: r.framework, ...counts(r), failures: r.failures }, {
      framework: 'jest', total: 2, passed: 2, failed: 0, skipped: 0, failures: [],
    });
  });
  void test('real jest colors', () => {
    const r = parsed(JEST_COLOR);
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [
      { name: 'Calculator › subtracts', message: 'expect(received).toBe(expected) // Object.is equality Expected: 1 Received: 2' },
    ]);
  });
  void test('several runs (monorepo) are summed', () => {
    const r = parsed(JEST_FAIL + JEST_PASS);
    assert.deepEqual(counts(r), { total: 9, passed: 6, failed: 1, skipped: 2 });
  });
});
