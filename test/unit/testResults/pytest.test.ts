// parseTestResults on pytest output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsed, names, counts } from './helpers';
import { PYTEST_FAIL, PYTEST_QUIET, PYTEST_PASS, PYTEST_NONE, PYTEST_NO_TESTS, PYTEST_COLLECTION_ERROR, PYTEST_VERBOSE_NO_SUMMARY_INFO } from './fixtures/pytest';

void describe('pytest', () => {
  void test('failing run: failed + errors, skipped + xfailed, messages completed from the failure sections', () => {
    const r = parsed(PYTEST_FAIL);
    assert.equal(r.framework, 'pytest');
    assert.deepEqual(counts(r), { total: 9, passed: 3, failed: 4, skipped: 2 });
    assert.deepEqual(r.failures, [
      { name: 'tests/test_calc.py::test_api', message: 'assert 206 == 120' },
      { name: 'tests/test_calc.py::TestCalc::test_sub', message: 'AssertionError: subtraction is broken' },
      { name: 'tests/test_calc.py::test_eq[1-2]', message: 'assert 1 == 2' },
      { name: 'tests/test_calc.py::test_fixture', message: 'RuntimeError: fixture exploded' },
    ]);
  });
  void test('-q summary without the = border', () => {
    const r = parsed(PYTEST_QUIET);
    assert.deepEqual(counts(r), { total: 9, passed: 3, failed: 4, skipped: 2 });
    assert.deepEqual(names(r), ['tests/test_calc.py::test_api']);
  });
  void test('passing run, deselected tests are not counted', () => {
    const r = parsed(PYTEST_PASS);
    assert.deepEqual(counts(r), { total: 1, passed: 1, failed: 0, skipped: 0 });
  });
  void test('nothing ran is a run of zero tests', () => {
    for (const out of [PYTEST_NONE, PYTEST_NO_TESTS]) {
      const r = parsed(out);
      assert.equal(r.framework, 'pytest');
      assert.deepEqual(counts(r), { total: 0, passed: 0, failed: 0, skipped: 0 });
    }
  });
  void test('collection error', () => {
    const r = parsed(PYTEST_COLLECTION_ERROR);
    assert.deepEqual(counts(r), { total: 1, passed: 0, failed: 1, skipped: 0 });
    assert.deepEqual(r.failures, [{ name: 'tests/test_broken.py', message: "ModuleNotFoundError: No module named 'nonexistent_mod'" }]);
  });
  void test('-v result lines without a short summary', () => {
    const r = parsed(PYTEST_VERBOSE_NO_SUMMARY_INFO);
    assert.deepEqual(r.failures, [{ name: 'tests/test_calc.py::test_api', message: 'assert 206 == 120' }]);
  });
  void test('tox-style several sessions are summed', () => {
    const r = parsed(PYTEST_FAIL + 'py312: commands[0]> pytest\n' + PYTEST_PASS);
    assert.deepEqual(counts(r), { total: 10, passed: 4, failed: 4, skipped: 2 });
  });
});
