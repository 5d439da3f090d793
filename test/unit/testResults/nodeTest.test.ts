// parseTestResults on node:test output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, counts } from './helpers';
import { NODE_SPEC_FAIL, NODE_SPEC_PASS, NODE_TAP_FAIL, NODE_TAP_FILE_FAILED, NODE_SPEC_COLOR } from './fixtures/nodeTest';

void describe('node:test', () => {
  void test('spec reporter: failing run; suites and parents whose subtests failed are not failures', () => {
    const r = parsed(NODE_SPEC_FAIL);
    assert.equal(r.framework, 'node-test');
    assert.deepEqual(counts(r), { total: 8, passed: 2, failed: 4, skipped: 2 });
    assert.deepEqual(r.failures, [
      { name: 'subtracts', message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 2 !== 1' },
      { name: 'top level throws', message: 'TypeError [Error]: boom here' },
      { name: 'child fails', message: 'AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value: assert.ok(false)' },
    ]);
  });
  void test('spec reporter: passing run, and colors', () => {
    assert.deepEqual(counts(parsed(NODE_SPEC_PASS)), { total: 2, passed: 2, failed: 0, skipped: 0 });
    const r = parsed(NODE_SPEC_COLOR);
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'b', message: 'Error: nope' }]);
  });
  void test('TAP reporter: failing run; TODO/SKIP and subtestsFailed are not failures', () => {
    const r = parsed(NODE_TAP_FAIL);
    assert.equal(r.framework, 'node-test');
    assert.deepEqual(counts(r), { total: 6, passed: 2, failed: 2, skipped: 2 });
    assert.deepEqual(r.failures, [
      { name: 'subtracts', message: 'AssertionError: Expected values to be strictly equal: 2 !== 1' },
      { name: 'top level throws', message: 'TypeError: boom here' },
    ]);
  });
  void test('TAP reporter: a file that fails to load', () => {
    const r = parsed(NODE_TAP_FILE_FAILED);
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: '/tmp/fx/node/bad.test.mjs', message: 'test failed' }]);
  });
  void test('several runs are summed', () => {
    const r = parsed(NODE_SPEC_FAIL + NODE_SPEC_PASS);
    assert.deepEqual(counts(r), { total: 10, passed: 4, failed: 4, skipped: 2 });
  });
});
