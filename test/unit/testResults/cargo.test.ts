// parseTestResults on cargo test output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, message, counts } from './helpers';
import { CARGO_FAIL, CARGO_DOC_FAIL, CARGO_PASS, CARGO_OLD_PANIC } from './fixtures/cargo';

void describe('cargo test', () => {
  void test('failing run with backtraces', () => {
    const r = parsed(CARGO_FAIL);
    assert.equal(r.framework, 'cargo');
    assert.deepEqual(counts(r), { total: 6, passed: 2, failed: 3, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'tests::it_panics', message: 'custom boom 42' },
      { name: 'tests::it_fails', message: 'assertion `left == right` failed left: 4 right: 5' },
      { name: 'tests::unwrap_err', message: 'called `Result::unwrap()` on an `Err` value: "bad input"' },
    ]);
  });
  void test('several targets (lib, bins, doc-tests) are summed', () => {
    const r = parsed(CARGO_FAIL + CARGO_DOC_FAIL);
    assert.deepEqual(counts(r), { total: 7, passed: 2, failed: 4, skipped: 1 });
    assert.equal(message(r, 'src/lib.rs - add (line 1)'), 'assertion `left == right` failed left: 2 right: 3');
    assert.deepEqual(counts(parsed(CARGO_PASS)), { total: 3, passed: 3, failed: 0, skipped: 0 });
  });
  void test('old panic format', () => {
    const r = parsed(CARGO_OLD_PANIC);
    assert.deepEqual(r.failures, [{ name: 'tests::it_fails', message: 'assertion failed: `(left == right)` left: `4`, right: `5`' }]);
  });
});
