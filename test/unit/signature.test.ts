 
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCategory, errorSignature, stripAnsi, type ErrorCategory } from '../../src/core/text/signature';
import { normalizeErrorLine } from '../../src/core/text/normalize';

const ESC = '\u001b';
const BEL = '\u0007';

// ---------------------------------------------------------------------------------------------
// Realistic outputs
// ---------------------------------------------------------------------------------------------

const NODE_MISSING_MODULE = (stamp = 'v20.11.0', line = 1080) => `node:internal/modules/cjs/loader:${line}
  throw err;
  ^

Error: Cannot find module '@prisma/client'
Require stack:
- /app/src/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:${line - 3}:15)
    at Module._load (node:internal/modules/cjs/loader:922:27)
    at Object.<anonymous> (/app/src/index.js:1:16)
{
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/app/src/index.js' ]
}

Node.js ${stamp}`;

const PY_MISSING = (mod: string, line = 1) => `Traceback (most recent call last):
  File "/app/train.py", line ${line}, in <module>
    import ${mod}
ModuleNotFoundError: No module named '${mod}'`;

const NPM_ENOENT = `npm ERR! code ENOENT
npm ERR! syscall open
npm ERR! path /app/package.json
npm ERR! errno -2
npm ERR! enoent ENOENT: no such file or directory, open '/app/package.json'
npm ERR! enoent This is related to npm not being able to find a file.
npm ERR! enoent

npm ERR! A complete log of this run can be found in:
npm ERR!     /root/.npm/_logs/2024-01-01T00_00_00_000Z-debug-0.log`;

const NPM10_ENOENT = (stamp: string) => `npm error code ENOENT
npm error syscall open
npm error path /app/package.json
npm error errno -2
npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/app/package.json'
npm error enoent This is related to npm not being able to find a file.
npm error enoent
npm error A complete log of this run can be found in: /root/.npm/_logs/${stamp}-debug-0.log`;

const PYTEST_FAIL = (dur: string) => `============================= test session starts ==============================
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /app
collected 3 items

tests/test_x.py .F.                                                      [100%]

=================================== FAILURES ===================================
__________________________________ test_y ______________________________________

    def test_y():
>       assert add(1, 2) == 4
E       assert 3 == 4
E        +  where 3 = add(1, 2)

tests/test_x.py:7: AssertionError
=========================== short test summary info ============================
FAILED tests/test_x.py::test_y - assert 3 == 4
========================= 1 failed, 2 passed in ${dur} ==========================`;

const JEST_FAIL = (time: string, line: number) => ` FAIL  src/sum.test.js
  ● sum › adds 1 + 2 to equal 3

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 4

      3 | describe('sum', () => {
      4 |   test('adds 1 + 2 to equal 3', () => {
    > ${line} |     expect(sum(1, 2)).toBe(3);
        |                       ^
      6 |   });

      at Object.toBe (src/sum.test.js:${line}:23)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        ${time}
Ran all test suites.`;

const TSC = (l1: number, l2: number) => `src/a.ts(${l1},5): error TS2322: Type 'string' is not assignable to type 'number'.
src/b.ts(${l2},1): error TS2304: Cannot find name 'foo'.

Found 2 errors in 2 files.`;

const RUSTC = `   Compiling app v0.1.0 (/app)
error[E0425]: cannot find value \`x\` in this scope
 --> src/main.rs:2:20
  |
2 |     println!("{}", x);
  |                    ^ not found in this scope

error: aborting due to 1 previous error

For more information about this error, try \`rustc --explain E0425\`.
error: could not compile \`app\` (bin "app") due to 1 previous error`;

const GCC_MAKE = `cc -c -o main.o main.c
main.c: In function 'main':
main.c:3:5: error: 'x' undeclared (first use in this function)
    3 |     x = 1;
      |     ^
main.c:3:5: note: each undeclared identifier is reported only once for each function it appears in
make: *** [Makefile:3: build] Error 1`;

const JAVA_CAUSED_BY = `Exception in thread "main" java.lang.IllegalStateException: boom
	at com.example.App.main(App.java:5)
Caused by: java.io.FileNotFoundException: config.yml (No such file or directory)
	at java.base/java.io.FileInputStream.open0(Native Method)
	at java.base/java.io.FileInputStream.open(FileInputStream.java:216)
	... 3 more`;

function sig(output: string): string {
  return errorSignature(output);
}

describe('errorSignature: picks the telling line from real tool output', () => {
  test('Node: Cannot find module, never the stack lines', () => {
    const s = sig(NODE_MISSING_MODULE());
    assert.equal(s, "Error: Cannot find module '@prisma/client'");
  });

  test('Node ESM: ERR_MODULE_NOT_FOUND with the error object dump below it', () => {
    const out = `node:internal/errors:496
    ErrorCaptureStackTrace(err);
    ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /app/index.js
    at new NodeError (node:internal/errors:405:5)
    at packageResolve (node:internal/modules/esm/resolve:916:9) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.11.0`;
    assert.equal(sig(out), "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /app/index.js");
  });

  test('Node: TypeError, not the source excerpt above it', () => {
    const out = `/app/src/server.js:12
  app.lisen(3000);
      ^

TypeError: app.lisen is not a function
    at Object.<anonymous> (/app/src/server.js:12:7)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)

Node.js v20.11.0`;
    assert.equal(sig(out), 'TypeError: app.lisen is not a function');
  });

  test('Node: EADDRINUSE masks the port', () => {
    const out = `Error: listen EADDRINUSE: address already in use :::3000
    at Server.setupListenHandle [as _listen2] (node:net:1817:16)
    at listenInCluster (node:net:1865:12) {
  code: 'EADDRINUSE',
  errno: -98,
  syscall: 'listen',
  address: '::',
  port: 3000
}`;
    assert.equal(sig(out), 'Error: listen EADDRINUSE: address already in use :::<port>');
  });

  test('Node: JavaScript heap out of memory, not the GC trace', () => {
    const out = `<--- Last few GCs --->
[12345:0x5a5c7e0]    45678 ms: Mark-Compact 2047.5 (2083.1) -> 2046.9 (2083.3) MB, 1234.5 / 0.0 ms
<--- JS stacktrace --->
FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb7b3e0 node::Abort() [node]
 2: 0xa8e823  [node]`;
    assert.equal(sig(out), 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');
  });

  test('Python: the last line of the traceback', () => {
    assert.equal(sig(PY_MISSING('numpy')), "ModuleNotFoundError: No module named 'numpy'");
  });

  test('Python: chained exceptions lead with the last one raised', () => {
    const out = `Traceback (most recent call last):
  File "/app/x.py", line 3, in <module>
    d['x']
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/x.py", line 5, in <module>
    raise ValueError("bad config")
ValueError: bad config`;
    assert.ok(sig(out).startsWith('ValueError: bad config'), sig(out));
  });

  test('Python: SyntaxError under the caret', () => {
    const out = `  File "/app/x.py", line 3
    print("hi"
         ^
SyntaxError: '(' was never closed`;
    assert.equal(sig(out), "SyntaxError: '(' was never closed");
  });

  test('Python: dotted exception names without "Error"', () => {
    const out = `Traceback (most recent call last):
  File "manage.py", line 22, in <module>
django.core.exceptions.ImproperlyConfigured: SECRET_KEY must not be empty.`;
    assert.equal(sig(out), 'django.core.exceptions.ImproperlyConfigured: SECRET_KEY must not be empty.');
  });

  test('npm (6–9): code + message, not syscall/path/log lines', () => {
    assert.equal(sig(NPM_ENOENT), "npm ERR! code ENOENT | npm ERR! enoent ENOENT: no such file or directory, open '/app/package.json'");
  });

  test('npm 10: "npm error code" + message', () => {
    const s = sig(NPM10_ENOENT('2024-05-01T10_11_12_345Z'));
    assert.ok(s.startsWith('npm error code ENOENT | npm error enoent Could not read package.json'), s);
    assert.ok(!s.includes('syscall') && !s.includes('_logs'), s);
  });

  test('npm ERESOLVE: code + the summary line', () => {
    const out = `npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: app@1.0.0
npm ERR! Found: react@18.2.0
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^17.0.0" from some-lib@1.0.0
npm ERR! Fix the upstream dependency conflict, or retry`;
    assert.equal(sig(out), 'npm ERR! code ERESOLVE | npm ERR! ERESOLVE unable to resolve dependency tree');
  });

  test('npm E404: code + the Not Found line', () => {
    const out = `npm ERR! code E404
npm ERR! 404 Not Found - GET https://registry.npmjs.org/nonexistent-pkg-xyz - Not found
npm ERR! 404 
npm ERR! 404  'nonexistent-pkg-xyz@*' is not in this registry.`;
    assert.equal(sig(out), 'npm ERR! code E404 | npm ERR! 404 Not Found - GET https://registry.npmjs.org/nonexistent-pkg-xyz - Not found');
  });

  test('npm run wrapping tsc: the compiler error, not the npm lifecycle lines', () => {
    const out = `
> app@1.0.0 build
> tsc

src/index.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.

3 const x: number = 'a';
        ~

Found 1 error in src/index.ts:3

npm ERR! code 1
npm ERR! path /app
npm ERR! command failed
npm ERR! command sh -c tsc`;
    assert.equal(sig(out), "error TS2322: Type 'string' is not assignable to type 'number'.");
  });

  test('tsc: keeps "error TSxxxx: …" without the file position, two errors at most', () => {
    assert.equal(sig(TSC(3, 10)), "error TS2322: Type 'string' is not assignable to type 'number'. | error TS2304: Cannot find name 'foo'.");
  });

  test('bash / zsh / sh / Windows: command not found', () => {
    assert.equal(sig('bash: foo: command not found'), 'bash: foo: command not found');
    assert.equal(sig('zsh: command not found: terraform'), 'zsh: command not found: terraform');
    assert.equal(sig('/bin/sh: 1: tsc: not found'), '/bin/sh: 1: tsc: not found');
    assert.equal(
      sig(`'foo' is not recognized as an internal or external command,\noperable program or batch file.`),
      "'foo' is not recognized as an internal or external command,",
    );
  });

  test('Vite: Port … is already in use', () => {
    assert.equal(sig('  VITE v5.0.0  ready in 312 ms\nPort 5173 is already in use'), 'Port <port> is already in use');
  });

  test('Go: undefined names, location prefix dropped', () => {
    const out = `# example.com/app
./main.go:5:2: undefined: foo
./main.go:6:2: "os" imported and not used`;
    assert.equal(sig(out), 'undefined: foo | "os" imported and not used');
  });

  test('Go: missing package takes the hint on the next line', () => {
    const out = `main.go:3:8: no required module provides package github.com/foo/bar; to add it:
	go get github.com/foo/bar`;
    assert.equal(sig(out), 'no required module provides package github.com/foo/bar; to add it: | go get github.com/foo/bar');
    assert.match(sig('main.go:3:8: cannot find package "github.com/x/y" in any of:\n\t/usr/local/go/src/github.com/x/y (from $GOROOT)'), /^cannot find package "github.com\/x\/y"/);
  });

  test('Go test: the failing test and its message', () => {
    const out = `--- FAIL: TestAdd (0.00s)
    main_test.go:8: expected 4, got 3
FAIL
FAIL	example.com/m	0.002s`;
    assert.equal(sig(out), '--- FAIL: TestAdd (<dur>) | expected 4, got 3');
  });

  test('rustc: error[E0425], not the "could not compile" wrapper', () => {
    assert.equal(sig(RUSTC), 'error[E0425]: cannot find value `x` in this scope');
  });

  test('Rust panic: the message on the line after "panicked at"', () => {
    const out = `thread 'main' panicked at src/main.rs:4:5:
called \`Option::unwrap()\` on a \`None\` value
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace`;
    assert.equal(sig(out), "thread 'main' panicked at src/main.rs:<n>:<n>: | called `Option::unwrap()` on a `None` value");
  });

  test('cargo test: the panic, not the test-result summary', () => {
    const out = `running 1 test
test tests::it_works ... FAILED

failures:

---- tests::it_works stdout ----
thread 'tests::it_works' panicked at src/lib.rs:10:9:
assertion \`left == right\` failed
  left: 4
 right: 5

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--lib\``;
    assert.equal(sig(out), "thread 'tests::it_works' panicked at src/lib.rs:<n>:<n>: | assertion `left == right` failed");
  });

  test('gcc under make: the compiler error, not "make: *** … Error 1" nor the note', () => {
    assert.equal(sig(GCC_MAKE), "error: 'x' undeclared (first use in this function)");
  });

  test('make alone: the weak make line is still better than nothing', () => {
    assert.equal(sig('cc -o app main.o\nmake: *** [Makefile:3: build] Error 1'), 'make: *** [Makefile:<n>: build] Error 1');
    assert.equal(sig("make: *** No rule to make target 'build'.  Stop."), "make: *** No rule to make target 'build'. Stop.");
  });

  test('pytest: the FAILED summary line (test id + message)', () => {
    assert.ok(sig(PYTEST_FAIL('0.12s')).startsWith('FAILED tests/test_x.py::test_y - assert 3 == 4'), sig(PYTEST_FAIL('0.12s')));
  });

  test('pytest collection error: the E line without its "E" prefix', () => {
    const out = `==================================== ERRORS ====================================
_____________________ ERROR collecting tests/test_x.py ________________________
ImportError while importing test module '/app/tests/test_x.py'.
Traceback:
tests/test_x.py:1: in <module>
    import numpy
E   ModuleNotFoundError: No module named 'numpy'
=========================== short test summary info ============================
ERROR tests/test_x.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.05s ===============================`;
    assert.ok(sig(out).startsWith("ModuleNotFoundError: No module named 'numpy'"), sig(out));
  });

  test('jest: the ● test title and the expectation, not the code frame', () => {
    assert.equal(sig(JEST_FAIL('0.512 s', 5)), '● sum › adds 1 + 2 to equal 3 | expect(received).toBe(expected) // Object.is equality');
  });

  test('vitest: the AssertionError and the failing test', () => {
    const out = ` FAIL  src/a.test.ts > math > adds
AssertionError: expected 4 to be 3 // Object.is equality

- Expected
+ Received

 ❯ src/a.test.ts:5:22

 Test Files  1 failed (1)
      Tests  1 failed (1)
   Start at  10:31:02
   Duration  312ms`;
    assert.equal(sig(out), 'AssertionError: expected 4 to be 3 // Object.is equality | FAIL src/a.test.ts > math > adds');
  });

  test('mocha: AssertionError [ERR_ASSERTION] and the diff line after it', () => {
    const out = `  0 passing (10ms)
  1 failing

  1) sum
       adds numbers:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

3 !== 4

      at Context.<anonymous> (test/sum.test.js:5:12)`;
    assert.equal(sig(out), 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: | 3 !== 4');
  });

  test('Java: the root cause ("Caused by:") leads', () => {
    const s = sig(JAVA_CAUSED_BY);
    assert.ok(s.startsWith('java.io.FileNotFoundException: config.yml (No such file or directory)'), s);
    assert.ok(!s.includes(' at '), s);
  });

  test('javac and Maven: cannot find symbol', () => {
    assert.equal(sig('src/main/java/App.java:5: error: cannot find symbol\n        foo();\n        ^\n  symbol:   method foo()\n1 error'), 'error: cannot find symbol');
    const mvn = `[INFO] BUILD FAILURE
[ERROR] /app/src/main/java/App.java:[5,9] cannot find symbol
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1:compile (default-compile) on project app: Compilation failure
[ERROR] -> [Help 1]`;
    assert.equal(sig(mvn), '[ERROR] /app/src/main/java/App.java:[<n>,<n>] cannot find symbol');
  });

  test('C#: error CS…, location dropped', () => {
    const out = `Program.cs(5,13): error CS0103: The name 'foo' does not exist in the current context [/app/app.csproj]\n\nBuild FAILED.`;
    assert.equal(sig(out), "error CS0103: The name 'foo' does not exist in the current context [/app/app.csproj]");
  });

  test('git: fatal: and error: lines, not hints', () => {
    assert.equal(sig('fatal: not a git repository (or any of the parent directories): .git'), 'fatal: not a git repository (or any of the parent directories): .git');
    const push = `To github.com:me/repo.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:me/repo.git'
hint: Updates were rejected because the remote contains work that you do
hint: not have locally.`;
    assert.equal(sig(push), "error: failed to push some refs to 'github.com:me/repo.git'");
  });

  test('Permission denied, EACCES, ENOSPC, Killed', () => {
    assert.equal(sig('bash: ./deploy.sh: Permission denied'), 'bash: ./deploy.sh: Permission denied');
    assert.match(sig(`npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/lib/node_modules/typescript\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/typescript'`), /^npm ERR! code EACCES \| .*EACCES: permission denied, mkdir/);
    assert.equal(sig("Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'"), "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'");
    assert.equal(sig('Epoch 1/10\nloss: 0.93\nKilled'), 'Killed');
  });

  test('docker: daemon errors mask container ids; BuildKit prefixes do not hide the npm cause', () => {
    const run = `docker: Error response from daemon: Conflict. The container name "/web" is already in use by container "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b".\nSee 'docker run --help'.`;
    assert.match(sig(run), /^docker: Error response from daemon: Conflict\. The container name "\/web" is already in use by container "<hex>"/);
    const build = `#8 [4/5] RUN npm ci
#8 1.234 npm ERR! code ERESOLVE
#8 1.235 npm ERR! ERESOLVE could not resolve
#8 ERROR: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1
ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1`;
    assert.equal(sig(build), 'npm ERR! code ERESOLVE | npm ERR! ERESOLVE could not resolve');
  });

  test('pip, curl, webpack, esbuild, postgres', () => {
    assert.equal(
      sig('ERROR: Could not find a version that satisfies the requirement nonexistent-pkg (from versions: none)\nERROR: No matching distribution found for nonexistent-pkg'),
      'ERROR: Could not find a version that satisfies the requirement nonexistent-pkg (from versions: none) | ERROR: No matching distribution found for nonexistent-pkg',
    );
    assert.equal(sig('curl: (6) Could not resolve host: api.example.invalid'), 'curl: (6) Could not resolve host: api.example.invalid');
    assert.ok(sig("ERROR in ./src/index.js 1:0-24\nModule not found: Error: Can't resolve './foo' in '/app/src'").startsWith("Module not found: Error: Can't resolve './foo' in '/app/src'"));
    assert.equal(sig('✘ [ERROR] Could not resolve "lodash"\n\n    src/index.ts:1:18:\n      1 │ import _ from "lodash";'), '✘ [ERROR] Could not resolve "lodash"');
    assert.match(sig('psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user "postgres"'), /port <port> failed: FATAL: password authentication failed for user "postgres"$/);
  });

  test('yarn and CI wrappers lose to the real error', () => {
    const yarn = `yarn run v1.22.19
$ node build.js
Error: Cannot find module './config'
error Command failed with exit code 1.
info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.`;
    assert.equal(sig(yarn), "Error: Cannot find module './config'");
    assert.equal(sig(`2024-03-01T10:00:00.1234567Z fatal: could not read Username for 'https://github.com': No such device or address\n##[error]Process completed with exit code 128.`), "fatal: could not read Username for 'https://github.com': No such device or address");
  });

  test('ANSI colours and VS Code shell-integration marks do not leak into the signature', () => {
    const out = `${ESC}]633;C${BEL}${ESC}[1m${ESC}[31mError${ESC}[39m: Cannot find module 'left-pad'${ESC}[0m\r\n${ESC}]633;D;1${BEL}`;
    assert.equal(sig(out), "Error: Cannot find module 'left-pad'");
  });

  test('empty output gives ""; nothing error-like falls back to the last meaningful line', () => {
    assert.equal(sig(''), '');
    assert.equal(sig('\n\n   \n'), '');
    assert.equal(sig('building…\nwrote 3 files at 2024-01-01T10:00:00Z\n'), 'wrote 3 files at <time>');
    assert.equal(errorSignature('building…\nwrote 3 files\n', 300, { fallback: false }), '');
  });

  test('success-looking lines are not errors', () => {
    assert.equal(errorSignature('> app@1.0.0 build\n> tsc\n\nFound 0 errors. Watching for file changes.', 300, { fallback: false }), '');
    assert.equal(errorSignature('PASS src/a.test.ts\n  ✓ returns error when input is missing (3 ms)\n\nTests: 1 passed, 1 total', 300, { fallback: false }), '');
    assert.equal(errorSignature('npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\nadded 3 packages', 300, { fallback: false }), '');
  });

  test('bounded length; one huge line does not blow it up', () => {
    const long = 'Error: ' + 'x'.repeat(5000);
    assert.ok(sig(long).length <= 300);
    assert.ok(errorSignature(TSC(1, 2), 60).length <= 60);
    assert.ok(errorSignature(TSC(1, 2), 60).startsWith('error TS2322'));
  });

  test('huge output: the error at the end is still found', () => {
    const lines = ['FIRST LINE'];
    for (let i = 0; i < 100_000; i++) lines.push(`compiling module number ${i} of the project`);
    lines.push("ModuleNotFoundError: No module named 'numpy'");
    assert.equal(sig(lines.join('\n')), "ModuleNotFoundError: No module named 'numpy'");
  });

  test('binary garbage does not throw', () => {
    const garbage = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    assert.equal(typeof sig(garbage), 'string');
  });
});

describe('errorSignature: stable across runs', () => {
  const same = (a: string, b: string) => {
    const sa = sig(a);
    assert.ok(sa, 'signature should not be empty');
    assert.equal(sa, sig(b));
  };

  test('Node: different loader line numbers and Node versions', () => {
    same(NODE_MISSING_MODULE('v20.11.0', 1080), NODE_MISSING_MODULE('v20.12.2', 1145));
  });

  test('EADDRINUSE on port 3000 vs 3001 and 0.0.0.0 vs 127.0.0.1', () => {
    same('Error: listen EADDRINUSE: address already in use :::3000', 'Error: listen EADDRINUSE: address already in use :::3001');
    same('Error: listen EADDRINUSE: address already in use 0.0.0.0:8080', 'Error: listen EADDRINUSE: address already in use 0.0.0.0:8081');
    same('Port 5173 is already in use', 'Port 5174 is already in use');
  });

  test('tsc: same errors on other lines', () => {
    same(TSC(3, 10), TSC(30, 112));
  });

  test('Python: same missing module raised from another line', () => {
    same(PY_MISSING('numpy', 1), PY_MISSING('numpy', 42));
  });

  test('jest: other duration and code-frame line', () => {
    same(JEST_FAIL('0.512 s', 5), JEST_FAIL('3.1 s', 7));
  });

  test('pytest: other duration', () => {
    same(PYTEST_FAIL('0.12s'), PYTEST_FAIL('12.40s'));
  });

  test('npm 10: other log timestamp', () => {
    same(NPM10_ENOENT('2024-05-01T10_11_12_345Z'), NPM10_ENOENT('2025-12-31T23_59_59_999Z'));
  });

  test('timestamps, PIDs and durations in log lines', () => {
    same('[2024-01-15T10:30:00.123Z] ERROR worker[4242] failed after 1234ms: ECONNRESET', '[2024-02-20T08:01:59.999Z] ERROR worker[5151] failed after 87ms: ECONNRESET');
    same('10:31:02 AM [vite] error: pid 1234 crashed in 2.31 s', '11:02:13 PM [vite] error: pid 98765 crashed in 0.4 s');
    same('Jan 15 10:30:00 host app[12345]: Error: boom', 'Feb 3 09:01:02 host app[678]: Error: boom');
  });

  test('temp paths (Linux, macOS, Windows, $TMPDIR)', () => {
    same("Error: ENOENT: no such file or directory, open '/tmp/tmp.Xy12Ab/out/a.js'", "Error: ENOENT: no such file or directory, open '/tmp/tmp.Qw98Zz/out/a.js'");
    same(
      "Error: EPERM: operation not permitted, unlink '/var/folders/3k/abc123def/T/jest_dx/haste-map-1a2b'",
      "Error: EPERM: operation not permitted, unlink '/private/var/folders/9z/zzz999/T/jest_q1/haste-map-9f8e'",
    );
    same(
      'Error: EBUSY: resource busy or locked, rmdir \'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\vitest-abc\\x\'',
      'Error: EBUSY: resource busy or locked, rmdir \'C:\\Users\\alice\\AppData\\Local\\Temp\\vitest-xyz\\y\'',
    );
  });

  test('hex ids, git SHAs, UUIDs and memory addresses', () => {
    same(
      'fatal: reference is not a tree: 3f2a9b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a',
      'fatal: reference is not a tree: 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
    );
    same('Error: request 123e4567-e89b-12d3-a456-426614174000 failed', 'Error: request 9b2f1c3d-0000-4abc-8def-1234567890ab failed');
    same('Segmentation fault at 0x7ffd5e8c9a40', 'Segmentation fault at 0x7ffc11223344');
  });

  test('rustc / go / gcc positions', () => {
    same(RUSTC, RUSTC.replace('2:20', '14:3'));
    same('./main.go:5:2: undefined: foo', './main.go:51:9: undefined: foo');
    same(GCC_MAKE, GCC_MAKE.replaceAll('3:5', '17:12').replace('Makefile:3', 'Makefile:9'));
  });
});

describe('errorSignature: different failures stay different', () => {
  const differ = (a: string, b: string) => assert.notEqual(sig(a), sig(b));

  test('different missing modules', () => {
    differ(PY_MISSING('numpy'), PY_MISSING('pandas'));
    differ("Error: Cannot find module 'a'", "Error: Cannot find module 'b'");
  });

  test('different error codes and kinds', () => {
    differ("src/a.ts(1,1): error TS2322: Type 'string' is not assignable to type 'number'.", "src/a.ts(1,1): error TS2345: Type 'string' is not assignable to type 'number'.");
    differ("Error: ENOENT: no such file or directory, open 'a'", "Error: EACCES: permission denied, open 'a'");
    differ('bash: foo: command not found', 'bash: bar: command not found');
    differ('npm ERR! code E404', 'npm ERR! code E401');
  });

  test('HTTP status codes and short numbers are kept', () => {
    differ('Error: Request failed with status code 404', 'Error: Request failed with status code 500');
    differ('Killed\nexited with code 137', 'exited with code 1');
  });
});

describe('normalizeErrorLine', () => {
  test('masks times, durations, pids, ports, temp paths, ids, positions and long numbers', () => {
    const line =
      '2024-01-15T10:30:00.123Z [10:31:02] pid 4242 on localhost:3000 port 5173 took 12ms in 2.31 s /tmp/tmp.XyZ/a.js:10:5 ' +
      'sha 3f2a9b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a id 123e4567-e89b-12d3-a456-426614174000 at 0x7ffd5e8c9a40 src/a.ts(3,5) n=123456 [12345]';
    assert.equal(
      normalizeErrorLine(line),
      '<time> [<time>] pid <pid> on localhost:<port> port <port> took <dur> in <dur> <tmp> sha <hex> id <uuid> at <addr> src/a.ts(<n>,<n>) n=<n> [<pid>]',
    );
  });

  test('line:col after file names, "line N", $TMPDIR, Windows temp', () => {
    assert.equal(normalizeErrorLine('at foo (/abs/path.js:10:5)'), 'at foo (/abs/path.js:<n>:<n>)');
    assert.equal(normalizeErrorLine('File "x.py", line 12, in <module>'), 'File "x.py", line <n>, in <module>');
    assert.equal(normalizeErrorLine('cannot open $TMPDIR/build-1234/out.o'), 'cannot open <tmp>');
    assert.equal(normalizeErrorLine('C:\\Users\\bob\\AppData\\Local\\Temp\\xyz\\a.txt not found'), '<tmp> not found');
    assert.equal(normalizeErrorLine('took 1m30s'), 'took <dur>');
  });

  test('keeps error codes, HTTP statuses, image tags and the words', () => {
    const kept = "ENOENT TS2322 E0425 EADDRINUSE 404 E404 node:20 python:3.11 No module named 'numpy' exit code 137 0x80070005";
    assert.equal(normalizeErrorLine(kept), kept);
  });

  test('collapses whitespace', () => {
    assert.equal(normalizeErrorLine('  a \t b\n c  '), 'a b c');
  });
});

describe('stripAnsi', () => {
  test('CSI colours, cursor moves and erase sequences', () => {
    assert.equal(stripAnsi(`${ESC}[1;31merror${ESC}[0m ${ESC}[2K${ESC}[1Gdone${ESC}[?25h`), 'error done');
  });

  test("OSC: VS Code's 633 marks (BEL) and titles/hyperlinks (ST)", () => {
    assert.equal(stripAnsi(`${ESC}]633;A${BEL}$ ${ESC}]633;B${BEL}npm test${ESC}]633;E;npm test;abc${BEL}${ESC}]633;C${BEL}`), '$ npm test');
    assert.equal(stripAnsi(`${ESC}]0;title${ESC}\\${ESC}]8;;https://x.dev${ESC}\\link${ESC}]8;;${ESC}\\`), 'link');
  });

  test('other ESC sequences, C1 CSI, stray control bytes', () => {
    assert.equal(stripAnsi(`${ESC}(Bplain${ESC}=${ESC}7x${ESC}8\u009b31my\u0000\u0008`), 'plainxy');
  });

  test('\\r\\n becomes \\n; progress lines keep what was drawn last', () => {
    assert.equal(stripAnsi('a\r\nb\r\n'), 'a\nb\n');
    assert.equal(stripAnsi('[=   ] 10%\r[==  ] 50%\r[====] 100%\nnext'), '[====] 100%\nnext');
    assert.equal(stripAnsi('downloading 99%\r\rfinished\r\n'), 'finished\n');
    assert.equal(stripAnsi('partial\r'), 'partial');
  });

  test('an unterminated OSC stops at the end of its line', () => {
    assert.equal(stripAnsi(`${ESC}]0;broken title\nError: real line`), '\nError: real line');
  });

  test('empty stays empty', () => {
    assert.equal(stripAnsi(''), '');
  });
});

describe('errorCategory', () => {
  const cases: Array<[ErrorCategory, string]> = [
    ['missing_module', "Error: Cannot find module '@prisma/client'"],
    ['missing_module', PY_MISSING('numpy')],
    ['missing_module', 'main.go:3:8: cannot find package "github.com/x/y" in any of:'],
    ['missing_module', 'ERROR: No matching distribution found for nonexistent-pkg'],
    ['missing_module', '✘ [ERROR] Could not resolve "lodash"'],
    ['command_not_found', 'bash: foo: command not found'],
    ['command_not_found', "'foo' is not recognized as an internal or external command,"],
    ['command_not_found', 'Error: spawn tsc ENOENT'],
    ['port_in_use', 'Error: listen EADDRINUSE: address already in use :::3000'],
    ['port_in_use', 'Port <port> is already in use'],
    ['permission_denied', "Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/x'"],
    ['permission_denied', 'bash: ./deploy.sh: Permission denied'],
    ['auth_failure', 'npm ERR! code E401'],
    ['auth_failure', "fatal: Authentication failed for 'https://github.com/me/repo.git/'"],
    ['auth_failure', 'git@github.com: Permission denied (publickey).'],
    ['auth_failure', 'curl: (22) The requested URL returned error: 403'],
    ['auth_failure', 'FATAL:  password authentication failed for user "postgres"'],
    ['missing_file', "Error: ENOENT: no such file or directory, open '/app/config.json'"],
    ['missing_file', "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'"],
    ['runtime_error', 'TypeError: x is not a function'],
    ['type_error', "error TS2322: Type 'string' is not assignable to type 'number'."],
    ['type_error', 'error[E0308]: mismatched types'],
    ['syntax_error', "SyntaxError: Unexpected token '}'"],
    ['syntax_error', "error TS1005: ';' expected."],
    ['failing_assertion', 'FAILED tests/test_x.py::test_y - AssertionError: assert 3 == 4'],
    ['failing_assertion', '● sum › adds | expect(received).toBe(expected) // Object.is equality'],
    ['test_failure', '--- FAIL: TestAdd (<dur>)'],
    ['test_failure', 'Tests: 2 failed, 10 passed, 12 total'],
    ['out_of_memory', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'],
    ['out_of_memory', 'Killed'],
    ['out_of_memory', 'MemoryError'],
    ['connection_refused', 'Error: connect ECONNREFUSED 127.0.0.1:<port>'],
    ['dns', 'curl: (6) Could not resolve host: api.example.invalid'],
    ['tls', 'Error: unable to get local issuer certificate'],
    ['timeout', 'thrown: "Exceeded timeout of <dur> for a test.'],
    ['timeout', 'TimeoutError: Navigation timeout of 30000 ms exceeded'],
    ['dependency_conflict', 'npm ERR! code ERESOLVE | npm ERR! ERESOLVE unable to resolve dependency tree'],
    ['dependency_conflict', 'Because app depends on foo ^2.0.0 which doesn\'t match any versions, version solving failed.'],
    ['compilation_error', 'error[E0425]: cannot find value `x` in this scope'],
    ['compilation_error', 'make: *** [Makefile:<n>: build] Error 1'],
    ['compilation_error', "error: 'x' undeclared (first use in this function)"],
    ['unknown', 'something odd happened'],
    ['unknown', ''],
  ];
  for (const [expected, text] of cases) {
    test(`${expected}: ${text.split('\n').pop()?.slice(0, 60)}`, () => {
      assert.equal(errorCategory(text), expected);
    });
  }

  test('a whole output is classified by its root cause, not by wrapper lines', () => {
    assert.equal(errorCategory(GCC_MAKE), 'compilation_error');
    assert.equal(errorCategory(NPM_ENOENT), 'missing_file');
    assert.equal(errorCategory(PYTEST_FAIL('0.1s')), 'failing_assertion');
    assert.equal(errorCategory(JAVA_CAUSED_BY), 'missing_file');
    assert.equal(errorCategory(`${errorSignature(NODE_MISSING_MODULE())}\n${NODE_MISSING_MODULE()}`), 'missing_module');
  });

  // compile is not runtime, an assertion is not a setup failure, refused is not DNS or TLS
  const distinctions: Array<[ErrorCategory, string]> = [
    ['runtime_error', "TypeError: Cannot read properties of undefined (reading 'toUpperCase')\n    at Object.<anonymous> (/w/build.js:3:20)"],
    ['runtime_error', "ReferenceError: cfg is not defined\n    at main (/w/build.js:3:1)"],
    ['runtime_error', 'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\nKeyError: \'port\''],
    ['runtime_error', "thread 'main' panicked at src/main.rs:2:5:\nindex out of bounds"],
    ['runtime_error', 'Error: config.out is required\n    at build (/w/build.js:9:11)\n    at Object.<anonymous> (/w/build.js:20:1)'],
    ['compilation_error', "src/cart.c:3:5: error: expected ';' before 'return'"],
    ['compilation_error', 'error: could not compile `app` (bin "app") due to 2 previous errors'],
    ['type_error', "src/cart.ts(3,7): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."],
    ['failing_assertion', 'not ok 1 - total\n  error: |-\n    Expected values to be strictly equal:\n\n    6 !== 13\n'],
    ['failing_assertion', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n6 !== 13\n'],
    ['test_setup', ' FAIL  test/db.test.js\n  ● Test suite failed to run\n\n    TypeError: pool.connect is not a function'],
    ['test_setup', '1) "before all" hook for "saves a cart":\n   Error: fixture missing'],
    ['test_setup', '==================================== ERRORS ====================================\n_____________ ERROR at setup of test_total _____________\nfixture \'cart\' not found'],
    ['connection_refused', "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server"],
    ['connection_refused', 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused'],
    ['dns', 'Error: getaddrinfo ENOTFOUND api.internal'],
    ['tls', 'curl: (60) SSL certificate problem: self-signed certificate'],
    ['network', 'Error: socket hang up'],
    ['unknown', 'error: something went wrong'],
  ];
  for (const [expected, text] of distinctions) {
    test(`${expected}, told apart: ${text.split('\n')[0].slice(0, 60)}`, () => {
      assert.equal(errorCategory(text), expected);
    });
  }

  test('a module named like a network word is still a missing module', () => {
    assert.equal(errorCategory("ModuleNotFoundError: No module named 'ssl'"), 'missing_module');
  });
});
