// parseTestResults on vitest output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, message, counts, noisy } from './helpers';
import { JEST_FAIL } from './fixtures/jest';
import { VITEST_FAIL, VITEST_PASS, VITEST_ODD, VITEST_TREE_ONLY } from './fixtures/vitest';

void describe('vitest', () => {
  void test('failing run', () => {
    const r = parsed(VITEST_FAIL);
    assert.equal(r.framework, 'vitest');
    assert.deepEqual(counts(r), { total: 6, passed: 3, failed: 2, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'calc > subtracts', message: 'AssertionError: expected 2 to be 1 // Object.is equality' },
      { name: 'calc > divides', message: 'Error: Cannot divide by zero' },
    ]);
  });
  void test('passing run', () => {
    const r = parsed(VITEST_PASS);
    assert.equal(r.framework, 'vitest');
    assert.deepEqual(counts(r), { total: 5, passed: 5, failed: 0, skipped: 0 });
    assert.deepEqual(r.failures, []);
  });
  void test('file-level failure and shared errors', () => {
    const r = parsed(VITEST_ODD);
    assert.deepEqual(counts(r), { total: 4, passed: 1, failed: 2, skipped: 1 });
    assert.deepEqual(names(r), ['src/broken.test.ts', 'a > one', 'a > two']);
    assert.match(message(r, 'src/broken.test.ts'), /^Error: Failed to load url \.\/missing/);
    assert.equal(message(r, 'a > two'), "TypeError: Cannot read properties of undefined (reading 'x')");
    assert.equal(message(r, 'a > one'), "TypeError: Cannot read properties of undefined (reading 'x')");
  });
  void test('tree marks (× / ✗) when there is no "Failed Tests" section', () => {
    const r = parsed(VITEST_TREE_ONLY);
    assert.deepEqual(r.failures, [{ name: 'calc > subtracts', message: 'expected 2 to be 1' }]);
  });
  void test('is not mistaken for jest (and the other way round)', () => {
    assert.equal(parsed(noisy(VITEST_FAIL)).framework, 'vitest');
    assert.equal(parsed(noisy(JEST_FAIL)).framework, 'jest');
  });
});
