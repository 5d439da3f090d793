// parseTestResults on mocha output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, counts } from './helpers';
import { MOCHA_FAIL, MOCHA_PASS, MOCHA_HOOK } from './fixtures/mocha';

void describe('mocha', () => {
  void test('failing run', () => {
    const r = parsed(MOCHA_FAIL);
    assert.equal(r.framework, 'mocha');
    assert.deepEqual(counts(r), { total: 5, passed: 2, failed: 2, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'Calculator subtracts', message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 3 !== 4' },
      { name: 'Parser rejects bad input', message: 'Error: boom' },
    ]);
  });
  void test('passing run', () => {
    const r = parsed(MOCHA_PASS);
    assert.deepEqual(counts(r), { total: 2, passed: 2, failed: 0, skipped: 0 });
  });
  void test('hook failures', () => {
    const r = parsed(MOCHA_HOOK);
    assert.deepEqual(r.failures, [{ name: '"before all" hook for "adds"', message: 'Error: connect ECONNREFUSED 127.0.0.1:5432' }]);
  });
  void test('several runs are summed; a later run\'s tree is not read as failures', () => {
    const r = parsed(MOCHA_FAIL + MOCHA_PASS.replace('✔ subtracts (41ms)', '1) subtracts') + MOCHA_HOOK);
    assert.deepEqual(counts(r), { total: 8, passed: 4, failed: 3, skipped: 1 });
    assert.deepEqual(names(r), ['Calculator subtracts', 'Parser rejects bad input', '"before all" hook for "adds"']);
  });
});
