// parseTestResults on go test output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, counts } from './helpers';
import { GO_FAIL, GO_VERBOSE, GO_PASS, GO_BUILD_FAILED, GO_JSON } from './fixtures/goTest';

void describe('go test', () => {
  void test('failing run without -v: failing tests plus passing packages counted as one each', () => {
    const r = parsed(GO_FAIL);
    assert.equal(r.framework, 'go');
    assert.deepEqual(counts(r), { total: 4, passed: 2, failed: 2, skipped: 0 });
    assert.deepEqual(r.failures, [
      { name: 'TestSub', message: 'calc_test.go:12: expected 5, got 6' },
      { name: 'TestTable/negative', message: 'calc_test.go:30: got -1, want 1' },
    ]);
  });
  void test('-v: subtests are counted as leaves, messages printed before "--- FAIL", testify blocks', () => {
    const r = parsed(GO_VERBOSE);
    assert.deepEqual(counts(r), { total: 7, passed: 3, failed: 3, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'TestSub', message: 'calc_test.go:12: expected 5, got 6' },
      { name: 'TestTable/negative', message: 'calc_test.go:30: got -1, want 1' },
      { name: 'TestEqual', message: 'Error: Not equal: expected: 5 actual : 6' },
    ]);
  });
  void test('passing run: packages only', () => {
    const r = parsed(GO_PASS);
    assert.deepEqual(counts(r), { total: 2, passed: 2, failed: 0, skipped: 0 });
    assert.deepEqual(r.failures, []);
  });
  void test('build failure', () => {
    const r = parsed(GO_BUILD_FAILED);
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'github.com/acme/calc', message: './calc_test.go:8:2: undefined: Multiply' }]);
  });
  void test('a panicking test', () => {
    const out = `--- FAIL: TestParse (0.00s)
panic: runtime error: index out of range [5] with length 3 [recovered]
\tpanic: runtime error: index out of range [5] with length 3

goroutine 7 [running]:
testing.tRunner.func1.2({0x5a1f20, 0xc000016108})
\t/usr/local/go/src/testing/testing.go:1545 +0x238
FAIL\tgithub.com/acme/parse\t0.009s
FAIL
`;
    const r = parsed(out);
    assert.deepEqual(counts(r), { total: 1, passed: 0, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'TestParse', message: 'panic: runtime error: index out of range [5] with length 3' }]);
  });
  void test('go test -json', () => {
    const r = parsed(GO_JSON);
    assert.equal(r.framework, 'go');
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'TestSub', message: 'calc_test.go:12: expected 5, got 6' }]);
  });
});
