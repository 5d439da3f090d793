// Judgement: each rule pinned by cases taken from the development corpora
// (../shared/trajectories; cited as trajectory #command index), replayed through WorkspaceMemory.
// The graded answer and the edit evidence have their own tests in policy.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approachKey, approachLabel } from '../../src/core/approach';
import { failedStep, isEnvironmentError, judgeStreak, payloadKeyForTest } from '../support/judgement';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { environmentLoop } from '../../src/core/rules/judgement';
import { cloneJson, deepFreeze } from '../../src/store/frozen';

const memory = (threshold: number) => new WorkspaceMemory('/testbed', { store: new InMemoryStore(), settings: { threshold } });
const tb = (last: string) => `Traceback (most recent call last):\n  File "/testbed/reproduce_issue.py", line 12, in <module>\n    main()\n${last}\n`;

async function runAll(m: WorkspaceMemory, runs: [string, number | null, string][]) {
  for (const [command, exitCode, output] of runs) await m.record({ command, exitCode, output, source: 'agent' });
}

describe('loop or progress', () => {
  test('the edit–rerun loop with a different error each time is progress (django__django-15629 #24–#34)', async () => {
    const m = memory(3);
    await runAll(m, [
      ['python3 reproduce_issue.py', 1, tb("ModuleNotFoundError: No module named 'test_app'")],
      ['python3 reproduce_issue.py', 1, tb("AttributeError: 'MockConnection' object has no attribute 'data_types'")],
      ['python3 reproduce_issue.py', 1, tb("AttributeError: 'MockConnection' object has no attribute 'data_type_check_constraints'")],
      ['python3 reproduce_issue.py', 1, tb("TypeError: unsupported operand type(s) for %: 'NoneType' and 'DictWrapper'")],
    ]);
    const c = await m.check('python3 reproduce_issue.py');
    assert.equal(c.status, 'exhausted');
    assert.equal(c.verdict, 'warn');
    assert.match(c.reason, /the error changed from the attempt before \(4 different errors/);
  });

  test('the same error coming back, even with other errors and edits in between, is the loop (django__django-11138 #45–#54)', async () => {
    const m = memory(3);
    const opErr = tb('django.db.utils.OperationalError: user-defined function raised exception');
    await runAll(m, [
      ['python3 reproduce_issue.py', 1, opErr],
      ["sed -i 's/a/b/' django/db/backends/sqlite3/base.py", 0, ''],
      ['python3 reproduce_issue.py', 1, tb('IndentationError: expected an indented block')],
      ['python3 reproduce_issue.py', 1, tb('IndentationError: unexpected indent')],
      ['python3 reproduce_issue.py', 1, opErr],
    ]);
    const c = await m.check('python3 reproduce_issue.py');
    assert.equal(c.verdict, 'block');
    assert.equal(c.decision, 'deny', 'the sed came before the last failure: nothing changed since');
    assert.match(c.reason, /the same error 2 times in a row, and nothing changed since the last failure/);
  });

  test('a run right after a syntax error is the fix of an edit typo, not the loop (django__django-11138 #58–#60)', async () => {
    const m = memory(3);
    const opErr = tb('django.db.utils.OperationalError: user-defined function raised exception');
    await runAll(m, [
      ['python3 reproduce_issue.py', 1, opErr],
      ['python3 reproduce_issue.py', 1, opErr],
      ['python3 reproduce_issue.py', 1, tb('IndentationError: unexpected indent')],
    ]);
    const c = await m.check('python3 reproduce_issue.py');
    assert.equal(c.verdict, 'warn');
    assert.match(c.reason, /syntax error \(the typo of an edit\)/);
    // the very same typo twice in a row: the fix did not touch it
    await runAll(m, [['python3 reproduce_issue.py', 1, tb('IndentationError: unexpected indent')]]);
    assert.equal((await m.check('python3 reproduce_issue.py')).verdict, 'block');
  });

  test('an error that comes back only after another one is still changing: progress (matplotlib__matplotlib-23299 #16–#33)', async () => {
    const m = memory(3);
    const dict = 'OrderedDict()';
    await runAll(m, [
      ['python reproduce_issue.py', 1, dict],
      ["python reproduce_issue.py", 1, tb("AttributeError: 'NoneType' object has no attribute 'FigureCanvas'")],
      ['python reproduce_issue.py', 1, dict],
    ]);
    assert.equal((await m.check('python reproduce_issue.py')).verdict, 'warn');
    await runAll(m, [['python reproduce_issue.py', 1, dict]]);
    assert.equal((await m.check('python reproduce_issue.py')).verdict, 'block');
  });

  test('a test run failing on the same test again, rerun with nothing changed since, is the loop (pytest-dev__pytest-6197 #65–#74)', async () => {
    const m = memory(3);
    const fail = (n: number) =>
      `============ FAILURES ============\nFAILED testing/test_collection.py::test_collect_init_tests - Failed: nomatch: '*collected 2 items*'\n======= 1 failed, ${n} passed in 1.2s =======\n`;
    await runAll(m, [
      ['pytest testing/test_collection.py::test_collect_init_tests', 1, fail(0)],
      ["sed -i 's/a/b/' src/_pytest/main.py", 0, ''],
      ['pytest testing/test_collection.py::test_collect_init_tests', 1, fail(0)],
      ["sed -i 's/b/c/' src/_pytest/main.py", 0, ''],
      ['pytest testing/test_collection.py::test_collect_init_tests', 1, fail(0)],
    ]);
    const c = await m.check('pytest testing/test_collection.py::test_collect_init_tests');
    assert.equal(c.verdict, 'block');
    assert.match(c.reason, /the same error 3 times in a row/);
  });

  test('endless wandering still stops: 4 × threshold failures without a success (psf__requests-1142 #20–#49)', async () => {
    const m = memory(3);
    const errors = [
      "ImportError: cannot import name 'MutableMapping' from 'collections'",
      "AttributeError: module 'collections' has no attribute 'MutableMapping'",
      "AttributeError: module 'collections' has no attribute 'Callable'",
      "TypeError: HTTPConnection.__init__() got an unexpected keyword argument 'strict'",
      'SyntaxError: invalid syntax',
      "SyntaxError: '(' was never closed",
      "AttributeError: 'MockRequest' object has no attribute 'origin_req_host'",
      "AttributeError: 'MockRequest' object has no attribute 'unverifiable'",
      "AttributeError: 'MockRequest' object has no attribute 'get_new_headers'",
      "KeyError: 'Content-Length'",
      "AssertionError: 'Content-Length' unexpectedly found in {'Content-Length': '0'}",
    ];
    await runAll(m, errors.map(e => ['/usr/bin/python3 test_requests.py', 1, tb(e)] as [string, number, string]));
    assert.equal((await m.check('python3 test_requests.py')).verdict, 'warn');
    await runAll(m, [['/usr/bin/python3 test_requests.py', 1, tb("NameError: name 'urlparse' is not defined")]]);
    const c = await m.check('python3 test_requests.py');
    assert.equal(c.verdict, 'block');
  });

  test('a success ends the streak; its errors are forgotten', async () => {
    const m = memory(3);
    const e = tb("NameError: name 'old_index_name' is not defined"); // django__django-15695 #30–#39
    await runAll(m, [['python reproduce_issue.py', 1, e], ['python reproduce_issue.py', 1, e], ['python reproduce_issue.py', 0, 'Re-applied RenameIndex forward successfully.']]);
    const a = (await m.read()).approaches['.::python reproduce_issue.py'];
    assert.deepEqual(a.streakErrors, []);
    assert.equal((await m.check('python reproduce_issue.py')).status, 'clear');
  });

  test('numbers in an error fold: the same assertion with other values is the same error', async () => {
    const m = memory(3);
    await runAll(m, [
      ['python check.py', 1, tb("KeyError: 'missing'")],
      ['python check.py', 1, tb('AssertionError: 12 != 13')],
      ['python check.py', 1, tb('AssertionError: 11 != 13')],
    ]);
    assert.equal((await m.check('python check.py')).verdict, 'block');
  });

  test('judgeStreak: no error history keeps the seed rule (blocked when exhausted)', () => {
    const a = { failures: 5, streakErrors: ['', ''] } as never;
    assert.equal(judgeStreak(a, 5).loop, true);
  });
});

describe('what counts as a failure', () => {
  test('grep finding nothing is an answer, not a failure (sphinx-doc__sphinx-9711 #20–#25)', async () => {
    const m = memory(3);
    for (let i = 0; i < 5; i++) await m.record({ command: `grep -r "needs_extensions" tests/roots${i}`, exitCode: 1, output: '', source: 'agent' });
    const c = await m.check('grep "needs_extensions" sphinx/config.py');
    assert.equal(c.status, 'clear');
  });

  test('a probe that reports its own error still failed; `which` not finding and `ps | grep` are answers', async () => {
    const m = memory(3);
    for (let i = 0; i < 3; i++) await m.record({ command: 'grep foo missing.txt', exitCode: 2, output: 'grep: missing.txt: No such file or directory', source: 'agent' });
    assert.equal((await m.check('grep foo missing.txt')).verdict, 'block');
    const probes = memory(3);
    // download-youtube #7: `ps aux | grep apt` exits 1 when no apt process runs
    for (let i = 0; i < 4; i++) await probes.record({ command: 'ps aux | grep apt', exitCode: 1, output: '', source: 'agent' });
    for (let i = 0; i < 4; i++) await probes.record({ command: 'which ffmpeg', exitCode: 1, output: '', source: 'agent' });
    assert.equal((await probes.check('ps aux | grep apt')).status, 'clear');
    assert.equal((await probes.check('which ffmpeg')).status, 'clear');
  });

  test('`command -v jq` is not running jq', () => {
    assert.equal(approachLabel('command -v jq'), 'command -v');
    assert.notEqual(approachKey('command -v jq'), approachKey('jq . data.json'));
  });

  test('a chain is charged to the step the shell named (download-youtube #5: killall: not found)', async () => {
    const m = memory(3);
    const cmd = 'killall apt || true && rm -f /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock && which ffmpeg';
    const r = await m.record({ command: cmd, exitCode: 1, output: '/bin/sh: 1: killall: not found\n', source: 'agent' });
    assert.equal(r.attempt.key, '.::killall');
    assert.equal(failedStep('bash: line 1: index: command not found'), 'index');
    assert.equal(failedStep('zsh: command not found: jq'), 'jq');
    assert.equal(failedStep('all good'), undefined);
  });

  test('failing tests in the output charge a chain to its test step (npm test && npm run build)', async () => {
    const m = memory(3);
    const out = 'FAIL src/cart.test.ts\n  ● cart › applies the discount\n\nTests:       1 failed, 4 passed, 5 total\n';
    const r = await m.record({ command: 'npm test && npm run build', exitCode: 1, output: out, source: 'agent' });
    assert.equal(r.attempt.key, '.::npm test');
    // a build error stays the build's
    const b = await m.record({ command: 'npm test && npm run build', exitCode: 2, output: 'src/a.ts(1,1): error TS2304: Cannot find name x.', source: 'agent' });
    assert.equal(b.attempt.key, '.::npm run build');
  });

  test('an exit-0 pipeline whose output shows failing tests failed (npx vitest run 2>&1 | tail -30)', async () => {
    // the corpus has no such run (its harness reports pipefail-like codes); the pattern is the issue's
    const m = memory(3);
    const out = ' FAIL  src/math.test.ts > adds\nAssertionError: expected 3 to be 4\n\n Test Files  1 failed (1)\n      Tests  1 failed | 4 passed (5)\n';
    const r = await m.record({ command: 'npx vitest run 2>&1 | tail -30', exitCode: 0, output: out, source: 'agent' });
    assert.equal(r.attempt.outcome, 'failure');
    assert.equal(r.approach.failures, 1);
  });

  test('an exit-0 pipeline showing the error the approach keeps failing with failed; a clean one succeeds', async () => {
    const m = memory(3);
    const err = tb("ModuleNotFoundError: No module named 'MySQLdb'");
    await m.record({ command: 'python manage.py check', exitCode: 1, output: err, source: 'agent' });
    const hidden = await m.record({ command: 'python manage.py check 2>&1 | tail -5', exitCode: 0, output: err, source: 'agent' });
    assert.equal(hidden.attempt.outcome, 'failure');
    const clean = await m.record({ command: 'python manage.py check 2>&1 | tail -5', exitCode: 0, output: 'System check identified no issues (0 silenced).', source: 'agent' });
    assert.equal(clean.attempt.outcome, 'success');
  });
});

describe('keys keep the work', () => {
  test('python -c snippets are keyed by their imports (django__django-14376 #4)', async () => {
    assert.equal(approachLabel('python3 -c "import MySQLdb; print(MySQLdb.__version__)"'), 'python -c import:MySQLdb');
    assert.equal(approachLabel('python -c "from sympy.core.sympify import _sympify; print(_sympify(None))"'), 'python -c import:sympy'); // sympy__sympy-20801 #12
    assert.equal(payloadKeyForTest('print(1)'), 'print(1)');
    const m = memory(3);
    for (let i = 0; i < 4; i++) await m.record({ command: `python3 -c "import MySQLdb; print(${i})"`, exitCode: 1, output: tb("ModuleNotFoundError: No module named 'MySQLdb'"), source: 'agent' });
    assert.equal((await m.check('python3 -c "import MySQLdb"')).verdict, 'block');
    assert.equal((await m.check('python3 -c "import sys; print(sys.path)"')).status, 'clear');
  });

  test('--help runs do not count with real runs (new-encrypt-command #2–#7)', () => {
    assert.notEqual(approachKey('rencrypt --help'), approachKey('rencrypt -p doub -o encrypted_data/sample1.txt data/sample1.txt'));
    assert.equal(approachKey('rencrypt --help'), approachKey('rencrypt -h'));
  });

  test('URL scheme, host, port and path, ssh host, applied file, push target, test file', () => {
    assert.equal(approachLabel('curl -s http://localhost:8080/api/health'), 'curl http://localhost:8080/api/health');
    // a refused :9 and a listening :3000 are two approaches; a scheme's default port and a missing scheme (curl's http) fold
    assert.notEqual(approachKey('curl http://127.0.0.1:9/health'), approachKey('curl http://127.0.0.1:3000/health'));
    assert.notEqual(approachKey('curl http://example.com/x'), approachKey('curl https://example.com/x'));
    assert.equal(approachKey('curl https://example.com:443/x/'), approachKey('curl https://example.com/x'));
    assert.equal(approachKey('curl -s localhost:3000/health'), approachKey('curl http://localhost:3000/health?verbose=1'));
    assert.notEqual(approachKey('curl https://a.example.com/x'), approachKey('curl https://b.example.com/x'));
    assert.equal(approachKey('curl -sS https://api.example.com/v1?x=1'), approachKey('curl https://api.example.com/v1 -H "A: b"'));
    assert.notEqual(approachKey('ssh deploy@host1 uptime'), approachKey('ssh host2 uptime'));
    assert.equal(approachKey('ssh -p 2222 deploy@host1'), approachKey('ssh host1'));
    assert.notEqual(approachKey('kubectl apply -f a.yaml'), approachKey('kubectl apply -f b.yaml'));
    assert.notEqual(approachKey('git push origin main'), approachKey('git push origin feature'));
    // sphinx-doc__sphinx-8595 #50–#61: two test files, two approaches; node ids and flags fold
    assert.notEqual(approachKey('pytest tests/test_ext_autodoc.py'), approachKey('pytest tests/test_ext_autodoc_empty_all.py'));
    assert.equal(approachKey('pytest -s tests/test_ext_autodoc_empty_all.py'), approachKey('python -m pytest tests/test_ext_autodoc_empty_all.py::test_not_empty_all -q'));
  });
});

describe('test runners: another test file', () => {
  test('assertion failures in one test file do not block another test file', async () => {
    const m = memory(3);
    for (let i = 0; i < 3; i++) {
      await m.record({ command: 'pytest tests/test_api.py', exitCode: 1, output: 'FAILED tests/test_api.py::test_get - AssertionError: assert 1 == 2\n=== 1 failed in 0.1s ===', source: 'agent' });
    }
    assert.equal((await m.check('pytest tests/test_api.py')).verdict, 'block');
    assert.equal((await m.check('pytest tests/test_models.py')).verdict, 'allow');
  });

  test('an environment-level error (same import error whatever the test file) blocks the other test files too', async () => {
    const m = memory(3);
    const env = "ImportError while loading conftest '/testbed/conftest.py'.\nModuleNotFoundError: No module named 'hypothesis'\n";
    for (let i = 0; i < 3; i++) await m.record({ command: 'pytest tests/test_api.py', exitCode: 4, output: env, source: 'agent' });
    const c = await m.check('pytest tests/test_models.py');
    assert.equal(c.verdict, 'block');
    assert.match(c.reason, /environment error/);
    assert.ok(isEnvironmentError("ModuleNotFoundError: No module named 'hypothesis'"));
    assert.ok(!isEnvironmentError('AssertionError: assert 1 == 2'));
  });

  test('the environment loop is found the same in memory the store hands out (frozen, indexed once) and in memory being written', async () => {
    const m = memory(3);
    const env = "ImportError while loading conftest '/testbed/conftest.py'.\nModuleNotFoundError: No module named 'hypothesis'\n";
    for (let i = 0; i < 3; i++) await m.record({ command: 'pytest tests/test_api.py', exitCode: 4, output: env, source: 'agent' });
    for (let i = 0; i < 3; i++) await m.record({ command: 'make build', exitCode: 2, output: 'make: *** [build] Error 2', source: 'agent' });
    const open = cloneJson(await m.store.read());
    const frozen = deepFreeze(cloneJson(open));
    for (const [command, cwd] of [['pytest tests/test_models.py', '.'], ['pytest tests/test_models.py', 'pkg'], ['npx jest a.test.ts', '.'], ['make build', '.']] as const) {
      assert.equal(environmentLoop(frozen, command, cwd, 3)?.key, environmentLoop(open, command, cwd, 3)?.key, `${command} in ${cwd}`);
    }
    assert.equal(environmentLoop(frozen, 'pytest tests/test_models.py', '.', 3)?.key, '.::pytest tests/test_api.py');
  });
});
