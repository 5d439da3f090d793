// parseTestResults on RSpec output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, counts } from './helpers';
import { RSPEC_FAIL, RSPEC_PASS, RSPEC_LOAD_ERROR } from './fixtures/rspec';

void describe('RSpec', () => {
  void test('failing run', () => {
    const r = parsed(RSPEC_FAIL);
    assert.equal(r.framework, 'rspec');
    assert.deepEqual(counts(r), { total: 5, passed: 2, failed: 2, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'Calculator adds numbers', message: 'expected: 4 got: 3 (compared using ==)' },
      { name: 'Calculator divides by zero', message: 'ZeroDivisionError: divided by 0' },
    ]);
  });
  void test('passing run', () => {
    assert.deepEqual(counts(parsed(RSPEC_PASS)), { total: 3, passed: 3, failed: 0, skipped: 0 });
  });
  void test('error outside of examples', () => {
    const r = parsed(RSPEC_LOAD_ERROR);
    assert.deepEqual(counts(r), { total: 1, passed: 0, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: './spec/calc_spec.rb', message: 'LoadError: cannot load such file -- /home/u/proj/lib/calc' }]);
  });
  void test('only the "rspec ... # name" lines (output cut above them)', () => {
    const tail = RSPEC_FAIL.slice(RSPEC_FAIL.indexOf('Finished in'));
    assert.deepEqual(names(parsed(tail)), ['Calculator adds numbers', 'Calculator divides by zero']);
  });
});
