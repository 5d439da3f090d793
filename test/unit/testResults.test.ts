import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTestResults } from '../../src/core/testResults';
import type { TestResults } from '../../src/core/types';

// Fixtures: node:test, pytest, cargo and Maven Surefire outputs were captured from the real tools (stack
// traces trimmed); the others are written after each tool's real output.

function parsed(output: string): TestResults {
  const r = parseTestResults(output);
  assert.ok(r, 'expected a test run');
  assert.ok(r.total >= r.passed + r.failed, 'total >= passed + failed');
  return r;
}
const names = (r: TestResults): string[] => r.failures.map((f) => f.name);
const message = (r: TestResults, name: string): string => r.failures.find((f) => f.name === name)?.message ?? '<missing>';
const counts = (r: TestResults) => ({ total: r.total, passed: r.passed, failed: r.failed, skipped: r.skipped });

/** Colors every word, uses CRLF and wraps the output in VS Code shell-integration sequences. */
function noisy(s: string): string {
  let k = 0;
  const body = s.replace(/\S+/g, (w) => `\x1b[1;3${(k++ % 7) + 1}m${w}\x1b[0m\x1b[K`).replace(/\n/g, '\r\n');
  return `\x1b]633;E;npm test\x07\x1b]633;C\x07\x1b[?25l${body}\x1b[?25h\x1b]633;D;1\x07\x1b]633;P;Cwd=/home/u/proj\x07`;
}

// ---------------------------------------------------------------------------------------------------------
// jest

const JEST_FAIL = `
> calc@1.0.0 test
> jest

PASS src/util.test.ts
FAIL src/calc.test.ts (5.123 s)
  Calculator
    ✓ adds (2 ms)
    ✕ subtracts (3 ms)
    ○ skipped multiplies
    ✎ todo divides

  ● Console

    console.log
      debugging

      at Object.<anonymous> (src/calc.test.ts:5:13)

  ● Calculator › subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 1
    Received: 2

      10 |   it('subtracts', () => {
    > 11 |     expect(sub(3, 1)).toBe(1);
         |                       ^
      12 |   });

      at Object.<anonymous> (src/calc.test.ts:11:23)

FAIL src/broken.test.ts
  ● Test suite failed to run

    Cannot find module './missing' from 'src/broken.test.ts'

    > 1 | import { x } from './missing';
        | ^

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)

Test Suites: 2 failed, 1 passed, 3 total
Tests:       1 failed, 1 skipped, 1 todo, 4 passed, 7 total
Snapshots:   0 total
Time:        6.2 s
Ran all test suites.
npm ERR! Test failed.  See above for more details.
`;

const JEST_PASS = `
PASS src/calc.test.ts
  Calculator
    ✓ adds (2 ms)
    ✓ subtracts (1 ms)

Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
Snapshots:   0 total
Time:        0.9 s, estimated 1 s
Ran all test suites.
`;

// jest's real colors (chalk): inverse badge, dim paths, bold bullets
const JEST_COLOR =
  '\x1b[0m\x1b[7m\x1b[1m\x1b[31m FAIL \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2msrc/\x1b[22m\x1b[1mcalc.test.ts\x1b[22m\n' +
  '\x1b[1m\x1b[31m  \x1b[1m● \x1b[22m\x1b[1mCalculator › subtracts\x1b[39m\x1b[22m\n\n' +
  '    \x1b[2mexpect(\x1b[22m\x1b[31mreceived\x1b[39m\x1b[2m).\x1b[22mtoBe\x1b[2m(\x1b[22m\x1b[32mexpected\x1b[39m\x1b[2m) // Object.is equality\x1b[22m\n\n' +
  '    Expected: \x1b[32m1\x1b[39m\n    Received: \x1b[31m2\x1b[39m\n\n' +
  '\x1b[1mTest Suites: \x1b[22m\x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m, 1 total\n' +
  '\x1b[1mTests:       \x1b[22m\x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m, \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m, 2 total\n';

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

// ---------------------------------------------------------------------------------------------------------
// vitest

const VITEST_FAIL = `
 RUN  v1.6.0 /home/u/proj

 ✓ src/util.test.ts  (2 tests) 3ms
 ❯ src/calc.test.ts  (4 tests | 2 failed | 1 skipped) 8ms
   × calc > subtracts
     → expected 2 to be 1 // Object.is equality
   × calc > divides
     → Cannot divide by zero

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/calc.test.ts > calc > subtracts
AssertionError: expected 2 to be 1 // Object.is equality

- Expected
+ Received

- 1
+ 2

 ❯ src/calc.test.ts:9:22
      7|   it('subtracts', () => {
      8|     const r = sub(3, 1);
      9|     expect(r).toBe(1);
       |                      ^
     10|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  src/calc.test.ts > calc > divides
Error: Cannot divide by zero
 ❯ divide src/calc.ts:3:21
 ❯ src/calc.test.ts:14:5

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯

 Test Files  1 failed | 1 passed (2)
      Tests  2 failed | 3 passed | 1 skipped (6)
   Start at  12:00:00
   Duration  412ms (transform 40ms, setup 0ms, collect 50ms, tests 11ms, environment 0ms, prepare 150ms)
`;

const VITEST_PASS = `
 RUN  v2.1.8 /home/u/proj

 ✓ src/calc.test.ts (3 tests) 4ms
 ✓ src/util.test.ts (2 tests) 2ms

 Test Files  2 passed (2)
      Tests  5 passed (5)
   Start at  09:12:01
   Duration  301ms (transform 35ms, setup 0ms, collect 41ms, tests 6ms, environment 0ms, prepare 120ms)
`;

// a file that does not load, and several tests sharing one error, with the tree only (no "Failed Tests")
const VITEST_ODD = `
 FAIL  src/broken.test.ts [ src/broken.test.ts ]
Error: Failed to load url ./missing (resolved id: ./missing) in /home/u/proj/src/broken.test.ts. Does the file exist?

 FAIL  src/a.test.ts > a > one
 FAIL  src/a.test.ts > a > two
TypeError: Cannot read properties of undefined (reading 'x')

 Test Files  2 failed (2)
      Tests  2 failed | 1 passed | 1 todo (4)
`;

const VITEST_TREE_ONLY = `
 ❯ src/calc.test.ts (2 tests | 1 failed) 5ms
   ✗ calc > subtracts 3ms
     → expected 2 to be 1
   ✓ calc > adds 1ms

      Tests  1 failed | 1 passed (2)
`;

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

// ---------------------------------------------------------------------------------------------------------
// mocha

const MOCHA_FAIL = `
> calc@1.0.0 test
> mocha



  Calculator
    ✔ adds
    1) subtracts
    - multiplies

  Parser
    ✔ parses
    2) rejects bad input


  2 passing (12ms)
  1 pending
  2 failing

  1) Calculator
       subtracts:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

3 !== 4

      + expected - actual

      -3
      +4
      
      at Context.<anonymous> (test/calc.test.js:8:12)
      at process.processImmediate (node:internal/timers:478:21)

  2) Parser
       rejects bad input:
     Error: boom
      at Context.<anonymous> (test/parser.test.js:5:11)



`;

const MOCHA_PASS = `

  Calculator
    ✔ adds
    ✔ subtracts (41ms)


  2 passing (52ms)

`;

const MOCHA_HOOK = `
  0 passing (3ms)
  1 failing

  1) "before all" hook for "adds":
     Error: connect ECONNREFUSED 127.0.0.1:5432
      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)

`;

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

// ---------------------------------------------------------------------------------------------------------
// pytest

const PYTEST_FAIL = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/fx/py
collected 9 items

tests/test_calc.py .FFsxF.E.                                             [100%]

==================================== ERRORS ====================================
________________________ ERROR at setup of test_fixture ________________________

    @pytest.fixture
>   def broken(): raise RuntimeError("fixture exploded")
                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
E   RuntimeError: fixture exploded

tests/test_calc.py:17: RuntimeError
=================================== FAILURES ===================================
___________________________________ test_api ___________________________________

    def test_api():
>       assert add(200, 6) == 120
E       assert 206 == 120
E        +  where 206 = add(200, 6)

tests/test_calc.py:6: AssertionError
______________________________ TestCalc.test_sub _______________________________

self = <test_calc.TestCalc object at 0x7fb4eea5fdd0>

    def test_sub(self):
>       assert 3 - 1 == 1, "subtraction is broken"
E       AssertionError: subtraction is broken
E       assert (3 - 1) == 1

tests/test_calc.py:9: AssertionError
_________________________________ test_eq[1-2] _________________________________

a = 1, b = 2

    @pytest.mark.parametrize("a,b", [(1, 2), (2, 2)])
>   def test_eq(a, b): assert a == b
                       ^^^^^^^^^^^^^
E   assert 1 == 2

tests/test_calc.py:15: AssertionError
=============================== warnings summary ===============================
tests/test_calc.py::test_warn
  /tmp/fx/py/tests/test_calc.py:20: UserWarning: careful
    import warnings; warnings.warn("careful")

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_api - assert 206 == 120
FAILED tests/test_calc.py::TestCalc::test_sub - AssertionError: subtraction i...
FAILED tests/test_calc.py::test_eq[1-2] - assert 1 == 2
ERROR tests/test_calc.py::test_fixture - RuntimeError: fixture exploded
==== 3 failed, 3 passed, 1 skipped, 1 xfailed, 1 warning, 1 error in 0.48s =====
`;

const PYTEST_QUIET = `.FFsxF.E.                                                                [100%]
FAILED tests/test_calc.py::test_api - assert 206 == 120
3 failed, 3 passed, 1 skipped, 1 xfailed, 1 warning, 1 error in 0.45s
`;

const PYTEST_PASS = `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/fx/py
collected 9 items / 8 deselected / 1 selected

tests/test_calc.py .                                                     [100%]

======================= 1 passed, 8 deselected in 0.43s ========================
`;

const PYTEST_NONE = `collected 9 items / 9 deselected / 0 selected

============================ 9 deselected in 0.42s =============================
`;

const PYTEST_NO_TESTS = `collected 0 items

============================ no tests ran in 0.01s =============================
`;

const PYTEST_COLLECTION_ERROR = `collected 9 items / 1 error

==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_broken.py _____________________
ImportError while importing test module '/tmp/fx/py/tests/test_broken.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
tests/test_broken.py:1: in <module>
    import nonexistent_mod
E   ModuleNotFoundError: No module named 'nonexistent_mod'
=========================== short test summary info ============================
ERROR tests/test_broken.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.48s ===============================
`;

const PYTEST_VERBOSE_NO_SUMMARY_INFO = `tests/test_calc.py::test_add PASSED                                      [ 50%]
tests/test_calc.py::test_api FAILED                                      [100%]

=================================== FAILURES ===================================
___________________________________ test_api ___________________________________

    def test_api():
>       assert add(200, 6) == 120
E       assert 206 == 120

tests/test_calc.py:6: AssertionError
========================= 1 failed, 1 passed in 0.05s ==========================
`;

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

// ---------------------------------------------------------------------------------------------------------
// go test

const GO_FAIL = `--- FAIL: TestSub (0.00s)
    calc_test.go:12: expected 5, got 6
--- FAIL: TestTable (0.00s)
    --- FAIL: TestTable/negative (0.00s)
        calc_test.go:30: got -1, want 1
FAIL
FAIL\tgithub.com/acme/calc\t0.012s
ok  \tgithub.com/acme/util\t0.3s
?   \tgithub.com/acme/cmd\t[no test files]
ok  \tgithub.com/acme/strs\t(cached)
FAIL
`;

const GO_VERBOSE = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
    calc_test.go:12: expected 5, got 6
--- FAIL: TestSub (0.00s)
=== RUN   TestTable
=== RUN   TestTable/positive
=== RUN   TestTable/negative
    calc_test.go:30: got -1, want 1
--- FAIL: TestTable (0.00s)
    --- PASS: TestTable/positive (0.00s)
    --- FAIL: TestTable/negative (0.00s)
=== RUN   TestSkip
    calc_test.go:40: not on CI
--- SKIP: TestSkip (0.00s)
=== RUN   TestEqual
    calc_test.go:50: 
        \tError Trace:\t/home/u/calc/calc_test.go:50
        \tError:      \tNot equal: 
        \t            \texpected: 5
        \t            \tactual  : 6
        \tTest:       \tTestEqual
--- FAIL: TestEqual (0.00s)
FAIL
exit status 1
FAIL\tgithub.com/acme/calc\t0.015s
=== RUN   TestUtil
--- PASS: TestUtil (0.00s)
PASS
ok  \tgithub.com/acme/util\t0.004s
`;

const GO_PASS = `ok  \tgithub.com/acme/calc\t0.011s
ok  \tgithub.com/acme/util\t(cached)
?   \tgithub.com/acme/cmd\t[no test files]
`;

const GO_BUILD_FAILED = `# github.com/acme/calc [github.com/acme/calc.test]
./calc_test.go:8:2: undefined: Multiply
./calc_test.go:9:2: undefined: Divide
FAIL\tgithub.com/acme/calc [build failed]
ok  \tgithub.com/acme/util\t0.2s
FAIL
`;

const GO_JSON = [
  { Action: 'start', Package: 'github.com/acme/calc' },
  { Action: 'run', Package: 'github.com/acme/calc', Test: 'TestAdd' },
  { Action: 'output', Package: 'github.com/acme/calc', Test: 'TestAdd', Output: '=== RUN   TestAdd\n' },
  { Action: 'output', Package: 'github.com/acme/calc', Test: 'TestAdd', Output: '--- PASS: TestAdd (0.00s)\n' },
  { Action: 'pass', Package: 'github.com/acme/calc', Test: 'TestAdd', Elapsed: 0 },
  { Action: 'run', Package: 'github.com/acme/calc', Test: 'TestSub' },
  { Action: 'output', Package: 'github.com/acme/calc', Test: 'TestSub', Output: '=== RUN   TestSub\n' },
  { Action: 'output', Package: 'github.com/acme/calc', Test: 'TestSub', Output: '    calc_test.go:12: expected 5, got 6\n' },
  { Action: 'output', Package: 'github.com/acme/calc', Test: 'TestSub', Output: '--- FAIL: TestSub (0.00s)\n' },
  { Action: 'fail', Package: 'github.com/acme/calc', Test: 'TestSub', Elapsed: 0 },
  { Action: 'output', Package: 'github.com/acme/calc', Output: 'FAIL\n' },
  { Action: 'output', Package: 'github.com/acme/calc', Output: 'FAIL\tgithub.com/acme/calc\t0.012s\n' },
  { Action: 'fail', Package: 'github.com/acme/calc', Elapsed: 0.012 },
]
  .map((e) => JSON.stringify({ Time: '2024-05-01T10:00:00.000000+02:00', ...e }))
  .join('\n');

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

// ---------------------------------------------------------------------------------------------------------
// cargo test

const CARGO_FAIL = `   Compiling calc v0.1.0 (/tmp/fx/rs/calc)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.65s
     Running unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)

running 6 tests
test tests::it_adds ... ok
test tests::it_panics ... FAILED
test tests::it_fails ... FAILED
test tests::slow ... ignored
test tests::should - should panic ... ok
test tests::unwrap_err ... FAILED

failures:

---- tests::it_panics stdout ----

thread 'tests::it_panics' (8999) panicked at src/lib.rs:10:30:
custom boom 42
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.

---- tests::it_fails stdout ----

thread 'tests::it_fails' (8998) panicked at src/lib.rs:9:29:
assertion \`left == right\` failed
  left: 4
 right: 5
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- tests::unwrap_err stdout ----

thread 'tests::unwrap_err' (9001) panicked at src/lib.rs:13:87:
called \`Result::unwrap()\` on an \`Err\` value: "bad input"


failures:
    tests::it_fails
    tests::it_panics
    tests::unwrap_err

test result: FAILED. 2 passed; 3 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.06s

error: test failed, to rerun pass \`--lib\`
`;

const CARGO_DOC_FAIL = `   Doc-tests calc

running 1 test
test src/lib.rs - add (line 1) ... FAILED

failures:

---- src/lib.rs - add (line 1) stdout ----
Test executable failed (exit status: 101).

stderr:

thread 'main' (9051) panicked at /tmp/rustdoctestIO3I3e/doctest_bundle_2024.rs:6:1:
assertion \`left == right\` failed
  left: 2
 right: 3
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace



failures:
    src/lib.rs - add (line 1)

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

all doctests ran in 0.13s; merged doctests compilation took 0.13s
error: doctest failed, to rerun pass \`--doc\`
`;

const CARGO_PASS = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.00s
     Running unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)

running 1 test
test tests::it_adds ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out; finished in 0.00s

     Running unittests src/main.rs (target/debug/deps/app-0a1b2c3d4e5f6789)

running 2 tests
test cli::parses ... ok
test cli::helps ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests calc

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;

// Rust before 1.73 printed the message inside quotes on the "panicked at" line
const CARGO_OLD_PANIC = `running 1 test
test tests::it_fails ... FAILED

failures:

---- tests::it_fails stdout ----
thread 'tests::it_fails' panicked at 'assertion failed: \`(left == right)\`
  left: \`4\`,
 right: \`5\`', src/lib.rs:9:29
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::it_fails

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;

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

// ---------------------------------------------------------------------------------------------------------
// node:test

const NODE_SPEC_FAIL = `▶ Calculator
  ✔ adds (0.586185ms)
  ✖ subtracts (1.024677ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    2 !== 1
    
        at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:5:34)
        at Test.runInAsyncScope (node:async_hooks:206:9)
        at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {
      generatedMessage: true,
      code: 'ERR_ASSERTION',
      actual: 2,
      expected: 1,
      operator: 'strictEqual'
    }

  ﹣ multiplies (0.092218ms) # SKIP
  ✔ divides (0.066927ms) # TODO
✖ Calculator (2.962605ms)
✖ top level throws (0.0722ms)
  TypeError [Error]: boom here
      at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:9:40)
      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7)

▶ parent
  ✖ child fails (5.733023ms)
    AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value:
    
      assert.ok(false)
    
        at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:10:74)
        at Test.postRun (node:internal/test_runner/test:889:19) {
      generatedMessage: true,
      code: 'ERR_ASSERTION',
      actual: false,
      expected: true,
      operator: '=='
    }

✖ parent (6.828638ms)
✔ passes (0.077479ms)
ℹ tests 8
ℹ suites 1
ℹ pass 2
ℹ fail 4
ℹ cancelled 0
ℹ skipped 1
ℹ todo 1
ℹ duration_ms 99.815667

✖ failing tests:

test at calc.test.mjs:5:3
✖ subtracts (1.024677ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 1
  
      at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:5:34)

test at calc.test.mjs:9:1
✖ top level throws (0.0722ms)
  TypeError [Error]: boom here
      at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:9:40)

test at calc.test.mjs:10:39
✖ child fails (5.733023ms)
  AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value:
  
    assert.ok(false)
  
      at TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:10:74)
`;

const NODE_SPEC_PASS = `✔ a (0.85977ms)
✔ b (0.081109ms)
ℹ tests 2
ℹ suites 0
ℹ pass 2
ℹ fail 0
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0
ℹ duration_ms 89.796826
`;

const NODE_TAP_FAIL = `TAP version 13
# Subtest: Calculator
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.486173
      ...
    # Subtest: subtracts
    not ok 2 - subtracts
      ---
      duration_ms: 0.928426
      location: '/tmp/fx/node/calc.test.mjs:5:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
        
        2 !== 1
        
      code: 'ERR_ASSERTION'
      name: 'AssertionError'
      expected: 1
      actual: 2
      operator: 'strictEqual'
      stack: |-
        TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:5:34)
        async Test.processPendingSubtests (node:internal/test_runner/test:526:7)
      ...
    # Subtest: multiplies
    ok 3 - multiplies # SKIP
      ---
      duration_ms: 0.084357
      ...
    # Subtest: divides
    ok 4 - divides # TODO
      ---
      duration_ms: 0.067288
      ...
    1..4
not ok 1 - Calculator
  ---
  duration_ms: 2.400251
  type: 'suite'
  location: '/tmp/fx/node/calc.test.mjs:3:1'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: top level throws
not ok 2 - top level throws
  ---
  duration_ms: 0.069607
  location: '/tmp/fx/node/calc.test.mjs:9:1'
  failureType: 'testCodeFailure'
  error: 'boom here'
  code: 'ERR_TEST_FAILURE'
  name: 'TypeError'
  stack: |-
    TestContext.<anonymous> (file:///tmp/fx/node/calc.test.mjs:9:40)
  ...
# Subtest: flaky todo
not ok 3 - flaky todo # TODO
  ---
  duration_ms: 0.1
  ...
# Subtest: passes
ok 4 - passes
  ---
  duration_ms: 0.074285
  ...
1..4
# tests 6
# suites 1
# pass 2
# fail 2
# cancelled 0
# skipped 1
# todo 1
# duration_ms 97.589539
`;

// a test file that does not even load
const NODE_TAP_FILE_FAILED = `TAP version 13
# file:///tmp/fx/node/bad.test.mjs:1
# syntax error(
#        ^^^^^
# SyntaxError: Unexpected identifier 'error'
# Subtest: /tmp/fx/node/bad.test.mjs
not ok 1 - /tmp/fx/node/bad.test.mjs
  ---
  duration_ms: 67.731963
  location: '/tmp/fx/node/bad.test.mjs:1:1'
  failureType: 'testCodeFailure'
  exitCode: 1
  signal: ~
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: a
ok 2 - a
  ---
  duration_ms: 0.871748
  ...
1..2
# tests 2
# suites 0
# pass 1
# fail 1
# cancelled 0
# skipped 0
# todo 0
# duration_ms 143.024455
`;

// what the spec reporter looks like in a color terminal
const NODE_SPEC_COLOR =
  '\x1b[32m✔ a \x1b[90m(0.85977ms)\x1b[39m\x1b[39m\n' +
  '\x1b[31m✖ b \x1b[90m(1.2ms)\x1b[39m\x1b[39m\n' +
  '  Error: nope\n' +
  '  \x1b[90m    at TestContext.<anonymous> (file:///x/t.mjs:3:9)\x1b[39m\n' +
  '\x1b[34mℹ tests 2\x1b[39m\n\x1b[34mℹ suites 0\x1b[39m\n\x1b[34mℹ pass 1\x1b[39m\n\x1b[34mℹ fail 1\x1b[39m\n' +
  '\x1b[34mℹ cancelled 0\x1b[39m\n\x1b[34mℹ skipped 0\x1b[39m\n\x1b[34mℹ todo 0\x1b[39m\n\x1b[34mℹ duration_ms 50.1\x1b[39m\n';

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

// ---------------------------------------------------------------------------------------------------------
// Maven Surefire

const SUREFIRE_FAIL = `[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ calc ---
[INFO] Using auto detected provider org.apache.maven.surefire.junitplatform.JUnitPlatformProvider
[INFO] 
[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.x.CalculatorTest
[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.106 s <<< FAILURE! -- in com.x.CalculatorTest
[ERROR] com.x.CalculatorTest.testAdd -- Time elapsed: 0.037 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <5> but was: <6>
\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
\tat com.x.CalculatorTest.testAdd(CalculatorTest.java:5)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)

[ERROR] com.x.CalculatorTest.testDiv -- Time elapsed: 0.008 s <<< ERROR!
java.lang.ArithmeticException: / by zero
\tat com.x.Calculator.div(Calculator.java:2)
\tat com.x.CalculatorTest.testDiv(CalculatorTest.java:7)

[INFO] Running com.x.OtherTest
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.001 s -- in com.x.OtherTest
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   CalculatorTest.testAdd:5 expected: <5> but was: <6>
[ERROR] Errors: 
[ERROR]   CalculatorTest.testDiv:7 » Arithmetic / by zero
[INFO] 
[ERROR] Tests run: 5, Failures: 1, Errors: 1, Skipped: 1
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project calc: There are test failures.
`;

const SUREFIRE_PASS = `[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.x.CalculatorTest
[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.05 s -- in com.x.CalculatorTest
[INFO] Running com.x.OtherTest
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.001 s -- in com.x.OtherTest
[INFO] 
[INFO] Results:
[INFO] 
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
`;

// Surefire 2.x with JUnit 4, no level prefixes
const SUREFIRE_OLD = `-------------------------------------------------------
 T E S T S
-------------------------------------------------------
Running com.x.CalculatorTest
Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.02 sec <<< FAILURE! - in com.x.CalculatorTest
testAdd(com.x.CalculatorTest)  Time elapsed: 0.01 sec  <<< FAILURE!
java.lang.AssertionError: expected:<5> but was:<6>
\tat org.junit.Assert.fail(Assert.java:88)

Results :

Failed tests: 
  CalculatorTest.testAdd:12 expected:<5> but was:<6>

Tests run: 2, Failures: 1, Errors: 0, Skipped: 0

[INFO] BUILD FAILURE
`;

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

// ---------------------------------------------------------------------------------------------------------
// RSpec

const RSPEC_FAIL = `..F*F

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Calculator multiplies
     # Not yet implemented
     # ./spec/calc_spec.rb:12

Failures:

  1) Calculator adds numbers
     Failure/Error: expect(calc.add(1, 2)).to eq(4)

       expected: 4
            got: 3

       (compared using ==)
     # ./spec/calc_spec.rb:5:in \`block (2 levels) in <top (required)>'

  2) Calculator divides by zero
     Failure/Error: a / b

     ZeroDivisionError:
       divided by 0
     # ./lib/calc.rb:8:in \`/'
     # ./spec/calc_spec.rb:9:in \`block (2 levels) in <top (required)>'

Finished in 0.01234 seconds (files took 0.10911 seconds to load)
5 examples, 2 failures, 1 pending

Failed examples:

rspec ./spec/calc_spec.rb:4 # Calculator adds numbers
rspec ./spec/calc_spec.rb:8 # Calculator divides by zero
`;

const RSPEC_PASS = `...

Finished in 0.00512 seconds (files took 0.0812 seconds to load)
3 examples, 0 failures
`;

const RSPEC_LOAD_ERROR = `
An error occurred while loading ./spec/calc_spec.rb.
Failure/Error: require_relative '../lib/calc'

LoadError:
  cannot load such file -- /home/u/proj/lib/calc
# ./spec/calc_spec.rb:1:in \`<top (required)>'
No examples found.

Finished in 0.00003 seconds (files took 0.0812 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples
`;

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

// ---------------------------------------------------------------------------------------------------------
// dotnet test

const DOTNET_FAIL = `  Determining projects to restore...
  All projects are up-to-date for restore.
  MyTests -> /home/u/proj/MyTests/bin/Debug/net8.0/MyTests.dll
Test run for /home/u/proj/MyTests/bin/Debug/net8.0/MyTests.dll (.NETCoreApp,Version=v8.0)
Microsoft (R) Test Execution Command Line Tool Version 17.8.0 (x64)
Copyright (c) Microsoft Corporation.  All rights reserved.

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
  Failed MyTests.CalcTests.Adds [3 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 5
Actual:   6
  Stack Trace:
     at MyTests.CalcTests.Adds() in /home/u/proj/MyTests/CalcTests.cs:line 12
   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)
  Failed MyTests.CalcTests.Divides(a: 1, b: 0) [< 1 ms]
  Error Message:
   System.DivideByZeroException : Attempted to divide by zero.
  Stack Trace:
     at MyTests.Calc.Divide(Int32 a, Int32 b) in /home/u/proj/MyTests/Calc.cs:line 5

Failed!  - Failed:     2, Passed:     4, Skipped:     1, Total:     7, Duration: 12 ms - MyTests.dll (net8.0)
`;

const DOTNET_PASS = `Starting test execution, please wait...
A total of 1 test files matched the specified pattern.

Passed!  - Failed:     0, Passed:     5, Skipped:     0, Total:     5, Duration: 8 ms - Other.Tests.dll (net8.0)
`;

const DOTNET_LEGACY = `Starting test execution, please wait...
Failed   MyTests.CalcTests.Adds
Error Message:
 Assert.Equal() Failure
Expected: 5
Actual:   6
Stack Trace:
   at MyTests.CalcTests.Adds() in /home/u/proj/MyTests/CalcTests.cs:line 12

Total tests: 5. Passed: 4. Failed: 1. Skipped: 0.
Test Run Failed.
Test execution time: 1.0320 Seconds
`;

// .NET 10 / Microsoft.Testing.Platform
const DOTNET_MTP = `Running tests from MyTests/bin/Debug/net10.0/MyTests.dll (net10.0|x64)
failed MyTests.CalcTests.Adds (3ms)
  Assert.Equal() Failure: Values differ
  Expected: 5
  Actual:   6
    at MyTests.CalcTests.Adds() in /home/u/proj/MyTests/CalcTests.cs:12
MyTests/bin/Debug/net10.0/MyTests.dll (net10.0|x64) failed with 1 error(s) (120ms)

Test run summary: Failed! - MyTests/bin/Debug/net10.0/MyTests.dll (net10.0|x64)
  total: 5
  failed: 1
  succeeded: 3
  skipped: 1
  duration: 1s 120ms
`;

const DOTNET_LEGACY_MULTILINE = `Test Run Failed.
Total tests: 5
     Passed: 3
     Failed: 1
    Skipped: 1
 Total time: 1.2 Seconds
`;

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

// ---------------------------------------------------------------------------------------------------------
// Across frameworks

const ALL: Array<[string, string]> = [
  ['jest', JEST_FAIL], ['vitest', VITEST_FAIL], ['mocha', MOCHA_FAIL], ['pytest', PYTEST_FAIL], ['go', GO_VERBOSE],
  ['cargo', CARGO_FAIL], ['node-test', NODE_SPEC_FAIL], ['node-test', NODE_TAP_FAIL], ['surefire', SUREFIRE_FAIL],
  ['rspec', RSPEC_FAIL], ['dotnet', DOTNET_FAIL], ['jest', JEST_PASS], ['vitest', VITEST_PASS], ['mocha', MOCHA_PASS],
  ['pytest', PYTEST_PASS], ['go', GO_PASS], ['cargo', CARGO_PASS], ['node-test', NODE_SPEC_PASS],
  ['surefire', SUREFIRE_PASS], ['rspec', RSPEC_PASS], ['dotnet', DOTNET_PASS],
];

void describe('any framework', () => {
  void test('each fixture is told apart from the others', () => {
    for (const [framework, out] of ALL) assert.equal(parsed(out).framework, framework, framework);
  });
  void test('colors, CRLF and VS Code shell-integration sequences change nothing', () => {
    for (const [framework, out] of ALL) assert.deepEqual(parsed(noisy(out)), parsed(out), framework);
  });
  void test('a failing run wins over a passing run of another tool printed after it', () => {
    assert.equal(parsed(PYTEST_FAIL + JEST_PASS).framework, 'pytest');
    assert.equal(parsed(JEST_PASS + PYTEST_PASS).framework, 'pytest');
  });
  void test('failures are capped at 50 and deduplicated; messages are bounded', () => {
    let out = '';
    for (let i = 0; i < 80; i++) out += `FAILED tests/test_x.py::test_${i % 70} - AssertionError: ${'x'.repeat(1000)}\n`;
    out += '===== 70 failed in 1.00s =====\n';
    const r = parsed(out);
    assert.equal(r.failures.length, 50);
    assert.equal(new Set(names(r)).size, 50);
    assert.ok(r.failures.every((f) => f.message.length <= 300));
    assert.equal(r.failed, 70);
  });
  void test('text that is not a test run gives null', () => {
    const npmInstall = `npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.
npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported

added 312 packages, and audited 313 packages in 9s

48 packages are looking for funding
  run \`npm fund\` for details

found 0 vulnerabilities
`;
    const tsc = `src/core/memory.ts(5,58): error TS2307: Cannot find module './approach' or its corresponding type declarations.
src/cli.ts(250,33): error TS18046: 'e' is of type 'unknown'.

Found 2 errors in 2 files.
`;
    const traceback = `Traceback (most recent call last):
  File "/home/u/proj/app.py", line 3, in <module>
    main()
  File "/home/u/proj/app.py", line 2, in main
    raise ValueError("3 passed in 0.2s is not a test run")
ValueError: bad value
`;
    const cargoBuild = `   Compiling calc v0.1.0 (/tmp/calc)
error[E0425]: cannot find value \`x\` in this scope
 --> src/lib.rs:3:5
  |
3 |     x
  |     ^ not found in this scope

error: could not compile \`calc\` (lib test) due to 1 previous error
`;
    const eslint = `/home/u/proj/src/a.ts
  3:7  error  'x' is assigned a value but never used  @typescript-eslint/no-unused-vars

✖ 1 problem (1 error, 0 warnings)
`;
    let seed = 42;
    let garbage = '';
    for (let i = 0; i < 200_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      garbage += String.fromCharCode(seed % 256);
    }
    for (const out of [npmInstall, tsc, traceback, cargoBuild, eslint, garbage, '', '\n\n', '\x1b]633;C\x07\x1b]633;D;0\x07']) {
      assert.equal(parseTestResults(out), null, JSON.stringify(out.slice(0, 40)));
    }
  });
  void test('never throws on odd input', () => {
    const odd: unknown[] = [undefined, null, 42, {}, 'Tests:', '--- FAIL:', 'test result: FAILED.', 'ℹ tests', '# tests x'];
    for (const o of odd) assert.doesNotThrow(() => parseTestResults(o as string));
    assert.equal(parseTestResults(undefined as unknown as string), null);
  });
  void test('a 20 MB output completes and still finds the summary at the end', () => {
    const line = 'console.log: building chunk 1234 of 9999, all fine here, nothing to see\n';
    const big = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length)) + JEST_FAIL;
    const r = parsed(big);
    assert.equal(r.framework, 'jest');
    assert.deepEqual(counts(r), { total: 7, passed: 4, failed: 1, skipped: 2 });
    // one giant line without a newline, and a huge run of escape sequences
    assert.equal(parseTestResults('x'.repeat(20 * 1024 * 1024)), null);
    assert.equal(parseTestResults('\x1b['.repeat(5 * 1024 * 1024)), null);
    assert.equal(parsed('\x1b]633;'.repeat(1024 * 1024) + '\n' + GO_PASS).framework, 'go');
  });
});
