// parseTestResults on Maven Surefire output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, counts } from './helpers';
import { SUREFIRE_FAIL, SUREFIRE_PASS, SUREFIRE_OLD } from './fixtures/surefire';

void describe('Maven Surefire', () => {
  void test('failing run: the Results total wins over per-class lines, errors count as failed', () => {
    const r = parsed(SUREFIRE_FAIL);
    assert.equal(r.framework, 'surefire');
    assert.deepEqual(counts(r), { total: 5, passed: 2, failed: 2, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'CalculatorTest.testAdd', message: 'org.opentest4j.AssertionFailedError: expected: <5> but was: <6>' },
      { name: 'CalculatorTest.testDiv', message: 'java.lang.ArithmeticException: / by zero' },
    ]);
  });
  void test('passing run', () => {
    const r = parsed(SUREFIRE_PASS);
    assert.deepEqual(counts(r), { total: 4, passed: 4, failed: 0, skipped: 0 });
  });
  void test('Surefire 2.x / JUnit 4 names', () => {
    const r = parsed(SUREFIRE_OLD);
    assert.deepEqual(counts(r), { total: 2, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'CalculatorTest.testAdd', message: 'java.lang.AssertionError: expected:<5> but was:<6>' }]);
  });
  void test('multi-module builds sum the Results totals; colored level tags', () => {
    const colored = SUREFIRE_PASS.replace(/\[INFO\]/g, '[\x1b[1;34mINFO\x1b[m]');
    const r = parsed(colored + SUREFIRE_FAIL.replace(/\[ERROR\]/g, '[\x1b[1;31mERROR\x1b[m]'));
    assert.deepEqual(counts(r), { total: 9, passed: 6, failed: 2, skipped: 1 });
    assert.deepEqual(names(r), ['CalculatorTest.testAdd', 'CalculatorTest.testDiv']);
  });
  void test('without a Results block the per-class lines are summed', () => {
    const partial = SUREFIRE_FAIL.slice(0, SUREFIRE_FAIL.indexOf('[INFO] Results:'));
    assert.deepEqual(counts(parsed(partial)), { total: 5, passed: 2, failed: 2, skipped: 1 });
  });
});
