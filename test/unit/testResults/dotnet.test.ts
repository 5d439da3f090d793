// parseTestResults on dotnet test output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, counts } from './helpers';
import { DOTNET_FAIL, DOTNET_PASS, DOTNET_LEGACY, DOTNET_MTP, DOTNET_LEGACY_MULTILINE } from './fixtures/dotnet';

void describe('dotnet test', () => {
  void test('failing run', () => {
    const r = parsed(DOTNET_FAIL);
    assert.equal(r.framework, 'dotnet');
    assert.deepEqual(counts(r), { total: 7, passed: 4, failed: 2, skipped: 1 });
    assert.deepEqual(r.failures, [
      { name: 'MyTests.CalcTests.Adds', message: 'Assert.Equal() Failure: Values differ Expected: 5 Actual: 6' },
      { name: 'MyTests.CalcTests.Divides(a: 1, b: 0)', message: 'System.DivideByZeroException : Attempted to divide by zero.' },
    ]);
  });
  void test('passing run; several test projects are summed', () => {
    assert.deepEqual(counts(parsed(DOTNET_PASS)), { total: 5, passed: 5, failed: 0, skipped: 0 });
    assert.deepEqual(counts(parsed(DOTNET_FAIL + DOTNET_PASS)), { total: 12, passed: 9, failed: 2, skipped: 1 });
  });
  void test('older "Total tests:" summaries', () => {
    const r = parsed(DOTNET_LEGACY);
    assert.deepEqual(counts(r), { total: 5, passed: 4, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'MyTests.CalcTests.Adds', message: 'Assert.Equal() Failure Expected: 5 Actual: 6' }]);
    assert.deepEqual(counts(parsed(DOTNET_LEGACY_MULTILINE)), { total: 5, passed: 3, failed: 1, skipped: 1 });
  });
  void test('Microsoft.Testing.Platform summary (.NET 10)', () => {
    const r = parsed(DOTNET_MTP);
    assert.equal(r.framework, 'dotnet');
    assert.deepEqual(counts(r), { total: 5, passed: 3, failed: 1, skipped: 1 });
    assert.deepEqual(r.failures, [{ name: 'MyTests.CalcTests.Adds', message: 'Assert.Equal() Failure: Values differ Expected: 5 Actual: 6' }]);
  });
});
