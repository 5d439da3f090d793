// parseTestResults across runners: telling them apart, noise, bounds, text that is no test run, odd input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTestResults } from '../../../src/core/testResults';
import { parsed, names, counts, noisy } from './helpers';
import { JEST_FAIL, JEST_PASS } from './fixtures/jest';
import { VITEST_FAIL, VITEST_PASS } from './fixtures/vitest';
import { MOCHA_FAIL, MOCHA_PASS } from './fixtures/mocha';
import { PYTEST_FAIL, PYTEST_PASS } from './fixtures/pytest';
import { GO_VERBOSE, GO_PASS } from './fixtures/goTest';
import { CARGO_FAIL, CARGO_PASS } from './fixtures/cargo';
import { NODE_SPEC_FAIL, NODE_SPEC_PASS, NODE_TAP_FAIL } from './fixtures/nodeTest';
import { SUREFIRE_FAIL, SUREFIRE_PASS } from './fixtures/surefire';
import { RSPEC_FAIL, RSPEC_PASS } from './fixtures/rspec';
import { DOTNET_FAIL, DOTNET_PASS } from './fixtures/dotnet';

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
