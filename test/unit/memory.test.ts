import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCommand, explainBlock } from '../../src/core/rules/check';
import { allowOnce, applyAttempt, classifyExit, enforceLimits, markResolved, prepareAttempt, summarize } from '../../src/core/memory';
import { computeProgress, detectPatterns } from '../../src/core/rules/patterns';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type Attempt } from '../../src/core/types';
import { jestOutput } from '../support/jestOutput';
import { recorder } from '../support/recorder';

const { attempt, run } = recorder();

const PRISMA_ERR = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /home/u/app/src/db.ts\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)";
const jest = (passed: number, failed: number, names: string[] = []) => jestOutput({ failing: names.map(n => `Calc › ${n}`), passed, failed });

describe('outcome of an exit code', () => {
  test('0 is success, plain non-zero codes are failures', () => {
    assert.equal(classifyExit(0), 'success');
    for (const c of [1, 2, 127, 126, 255, 3, 134, 137, 139]) assert.equal(classifyExit(c), 'failure', String(c));
  });
  test('130 and other interrupt signals are not failures', () => {
    for (const c of [130, 129, 131, 143, 148]) assert.equal(classifyExit(c), 'interrupted', String(c));
  });
  test('a missing exit code is unknown', () => {
    assert.equal(classifyExit(undefined), 'unknown');
    assert.equal(classifyExit(null), 'unknown');
    assert.equal(classifyExit(Number.NaN), 'unknown');
  });
});

describe('preparing an attempt', () => {
  test('strips terminal escapes, redacts secrets in command and output, finds the signature', () => {
    const token = 'ghp_' + 'a1B2c3D4e5'.repeat(3) + 'xYzW12';
    const a = attempt(
      `GITHUB_TOKEN=${token} npx prisma generate --schema ./prisma/schema.prisma`,
      1,
      `\x1b]633;C\x07\x1b[31m${PRISMA_ERR}\x1b[0m\nusing token ${token}\n`,
      { cwd: './apps/web/' },
    );
    assert.ok(!a.command.includes(token), a.command);
    assert.ok(!a.output.includes(token), a.output);
    assert.match(a.output, /\[REDACTED:github-token\]/);
    assert.ok(!a.output.includes('\x1b'), 'no escape bytes stored');
    assert.equal(a.cwd, 'apps/web');
    assert.equal(a.key, 'apps/web::prisma generate');
    assert.match(a.errorSignature, /Cannot find module '@prisma\/client'/);
    assert.equal(a.outcome, 'failure');
    assert.equal(a.testResults, null);
  });

  test('bounds a huge output to head and tail, keeping both ends', () => {
    const lines: string[] = ['FIRST LINE of the build'];
    for (let i = 0; i < 200_000; i++) lines.push(`compiling module number ${i} of the project`);
    lines.push("ModuleNotFoundError: No module named 'numpy'");
    const out = lines.join('\n');
    const a = attempt('python train.py', 1, out);
    assert.ok(Buffer.byteLength(a.output) <= DEFAULT_SETTINGS.maxOutputBytes + 200, `stored ${Buffer.byteLength(a.output)} bytes`);
    assert.ok(a.output.startsWith('FIRST LINE'));
    assert.ok(a.output.includes("No module named 'numpy'"));
    assert.ok(a.outputTruncated);
    assert.match(a.output, /bytes omitted by Failure Memory/);
    assert.equal(a.outputBytes, Buffer.byteLength(out));
    assert.match(a.errorSignature, /No module named 'numpy'/);
  });

  test('storeOutput off keeps the signature and test results but no output', () => {
    const s = { ...DEFAULT_SETTINGS, storeOutput: false };
    const a = attempt('npx jest', 1, jest(3, 1, ['adds']), {}, s);
    assert.equal(a.output, '');
    assert.equal(a.testResults?.failed, 1);
  });

  test('binary garbage is stored as text without control bytes', () => {
    const garbage = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    const a = attempt('./run.sh', 1, garbage);
     
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(a.output));
  });
});

describe('exhaustion policy', () => {
  test('five failures of one approach (any flags, interleaved with others) exhaust it', () => {
    const data = emptyMemory();
    const variants = ['npx prisma generate', 'prisma generate --schema=./a.prisma', 'npx  prisma   generate', 'DEBUG=1 npx prisma generate', "npx prisma generate --data-proxy"];
    const results: Array<{ failures: number; becameExhausted: boolean }> = [];
    for (const [i, v] of variants.entries()) {
      const r = run(data, v, 1, PRISMA_ERR);
      results.push({ failures: r.approach.failures, becameExhausted: r.becameExhausted });
      if (i % 2 === 0) run(data, 'npm install @prisma/client', 1, 'npm error code E404');
    }
    assert.deepEqual(results.map(r => r.failures), [1, 2, 3, 4, 5]);
    assert.deepEqual(results.map(r => r.becameExhausted), [false, false, false, false, true]);
    const a = data.approaches['.::prisma generate'];
    assert.equal(a.status, 'exhausted');
    assert.ok(a.exhaustedAt);
    assert.match(a.lastErrorSignature, /@prisma\/client/);
    assert.ok(a.alternativesTried.some(x => x.startsWith('npm install')), JSON.stringify(a.alternativesTried));
    assert.ok(data.approaches['.::npm install @prisma/client'].alternativesTried.includes('prisma generate'));
    // a sixth failure stays exhausted and does not report "became exhausted" again
    const sixth = run(data, 'npx prisma generate', 1, PRISMA_ERR);
    assert.equal(sixth.becameExhausted, false);
    assert.equal(sixth.approach.failures, 6);
  });

  test('the threshold is a setting', () => {
    const data = emptyMemory();
    const s = { ...DEFAULT_SETTINGS, threshold: 2 };
    run(data, 'make', 2, 'make: *** [Makefile:3: all] Error 1', {}, s);
    const r = run(data, 'make -j8', 2, 'make: *** [Makefile:3: all] Error 1', {}, s);
    assert.equal(r.becameExhausted, true);
  });

  test('a success resolves and clears the count; a later failure starts over', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'npm test', 1, jest(2, 1, ['adds']));
    assert.equal(data.approaches['.::npm test'].status, 'exhausted');
    const ok = run(data, 'npm test -- --watch=false', 0, jest(3, 0));
    assert.equal(ok.resolved, true);
    assert.equal(ok.approach.status, 'resolved');
    assert.equal(ok.approach.failures, 0);
    assert.equal(ok.approach.resolvedBy, 'success');
    const again = run(data, 'npm test', 1, jest(2, 1, ['adds']));
    assert.equal(again.approach.status, 'active');
    assert.equal(again.approach.failures, 1);
  });

  test('interrupts and unknown exit codes are recorded but never counted', () => {
    const data = emptyMemory();
    run(data, 'npm run dev', 1, 'Error: listen EADDRINUSE: address already in use :::3000');
    const r1 = run(data, 'npm run dev', 130, '^C');
    const r2 = run(data, 'npm run dev', null, '');
    assert.equal(r1.approach.failures, 1);
    assert.equal(r2.approach.failures, 1);
    assert.equal(r2.approach.attempts.length, 3);
    assert.equal(r2.approach.totalAttempts, 3);
  });

  test('a command that never failed leaves no trace', () => {
    const data = emptyMemory();
    const r = run(data, 'ls -la', 0, 'total 0');
    assert.equal(r.stored, false);
    run(data, 'vim x', 130);
    assert.deepEqual(Object.keys(data.approaches), []);
  });

  test('the same command in another folder is another approach', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'npm test', 1, '', { cwd: 'packages/a' });
    const other = run(data, 'npm test', 1, '', { cwd: 'packages/b' });
    assert.equal(other.approach.failures, 1);
    assert.equal(data.approaches['packages/a::npm test'].status, 'exhausted');
    assert.equal(other.approach.status, 'active');
  });

  test('positional arguments that change what runs make other approaches', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'pip install numpy', 1, 'ERROR: No matching distribution found for numpy');
    assert.equal(checkCommand(data, 'pip install pandas', '.', DEFAULT_SETTINGS).status, 'clear');
    assert.equal(checkCommand(data, 'pip install --upgrade numpy', '.', DEFAULT_SETTINGS).status, 'exhausted');
  });

  test('the short-term window keeps the last N attempts (FIFO)', () => {
    const data = emptyMemory();
    const s = { ...DEFAULT_SETTINGS, shortTermWindow: 3, threshold: 100 };
    for (let i = 0; i < 7; i++) run(data, `node build.js --n=${i}`, 1, `Error: step ${i} broke`, {}, s);
    const a = data.approaches['.::node build.js'];
    assert.equal(a.attempts.length, 3);
    assert.equal(a.totalAttempts, 7);
    assert.deepEqual(a.attempts.map(t => t.command), ['node build.js --n=4', 'node build.js --n=5', 'node build.js --n=6']);
  });
});

describe('the gate (check)', () => {
  test('clear, failing, exhausted and the verdicts', () => {
    const data = emptyMemory();
    assert.equal(checkCommand(data, 'cargo build', '.', DEFAULT_SETTINGS).status, 'clear');
    run(data, 'cargo build', 101, 'error[E0425]: cannot find value `x` in this scope');
    let c = checkCommand(data, 'cargo build --release', '.', DEFAULT_SETTINGS);
    assert.equal(c.status, 'failing');
    assert.equal(c.verdict, 'allow');
    assert.equal(c.attempts, 1);
    run(data, 'cargo build', 101, 'error[E0425]: cannot find value `x` in this scope');
    c = checkCommand(data, 'cargo build', '.', DEFAULT_SETTINGS);
    assert.equal(c.verdict, 'warn', 'same error twice warns');
    assert.ok(c.patterns.some(p => p.kind === 'same_error'));
    for (let i = 0; i < 3; i++) run(data, 'cargo build', 101, 'error[E0425]: cannot find value `x` in this scope');
    c = checkCommand(data, 'cargo build', '.', DEFAULT_SETTINGS);
    assert.equal(c.status, 'exhausted');
    assert.equal(c.verdict, 'block');
    assert.match(c.lastError, /E0425/);
    const msg = explainBlock(c);
    assert.match(msg, /NOT RUN/);
    assert.match(msg, /failed 5 times/);
    assert.match(msg, /Reflect: failure-memory reflect --command 'cargo build'/, 'the command filled in, no placeholder');
    assert.doesNotMatch(msg, /<cmd>|failure-memory (resolve|allow|clear)/, 'never tells a model to unblock itself');
  });

  test('run anyway once lets exactly one run through', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'go test ./...', 1, '--- FAIL: TestAdd (0.00s)\nFAIL\tex.com/m\t0.01s');
    allowOnce(data, '.::go test');
    assert.equal(checkCommand(data, 'go test ./...', '.', DEFAULT_SETTINGS).verdict, 'allow');
    const r = run(data, 'go test ./...', 1, '--- FAIL: TestAdd (0.00s)\nFAIL\tex.com/m\t0.01s');
    assert.equal(r.usedAllowOnce, true);
    assert.equal(checkCommand(data, 'go test ./...', '.', DEFAULT_SETTINGS).verdict, 'block');
  });

  test('progress is not a loop: an exhausted approach whose tests improve is warned, not blocked', () => {
    const data = emptyMemory();
    for (let passed = 1; passed <= 5; passed++) run(data, 'npx jest', 1, jest(passed, 10 - passed, ['t' + passed]));
    const c = checkCommand(data, 'npx jest', '.', DEFAULT_SETTINGS);
    assert.equal(c.status, 'exhausted');
    assert.equal(c.progress, 'improving');
    assert.equal(c.verdict, 'warn');
  });

  test('mark resolved unblocks', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'terraform apply', 1, 'Error: Invalid provider configuration');
    markResolved(data, '.::terraform apply');
    const c = checkCommand(data, 'terraform apply -auto-approve', '.', DEFAULT_SETTINGS);
    assert.equal(c.status, 'clear');
    assert.equal(data.approaches['.::terraform apply'].resolvedBy, 'manual');
  });
});

describe('patterns and progress', () => {
  const t = (outcome: Attempt['outcome'], sig: string, tests?: [number, number, string[]]): Attempt => ({
    id: 'x', command: 'c', key: 'k', cwd: '.', exitCode: outcome === 'success' ? 0 : 1, outcome, source: 'cli', endedAt: '', output: '',
    outputTruncated: false, outputBytes: 0, errorSignature: sig, timestamp: '',
    testResults: tests ? { framework: 'jest', passed: tests[0], failed: tests[1], total: tests[0] + tests[1], failures: tests[2].map(name => ({ name, message: '' })) } : null,
  });
  test('same_error needs the last two failures to share a non-empty signature', () => {
    assert.deepEqual(detectPatterns([t('failure', 'E1'), t('failure', 'E1')]).map(p => p.kind), ['same_error']);
    assert.deepEqual(detectPatterns([t('failure', 'E1'), t('failure', 'E2')]), []);
    assert.deepEqual(detectPatterns([t('failure', ''), t('failure', '')]), []);
    assert.deepEqual(detectPatterns([t('failure', 'E1'), t('success', ''), t('failure', 'E1')]), []);
    assert.deepEqual(detectPatterns([t('failure', 'E1'), t('interrupted', ''), t('failure', 'E1')]).map(p => p.kind), ['same_error']);
  });
  test('same_test_failure and no_progress', () => {
    const kinds = detectPatterns([t('failure', 'A', [0, 2, ['x', 'y']]), t('failure', 'B', [0, 2, ['y', 'z']]), t('failure', 'C', [0, 1, ['y']])]).map(p => p.kind);
    assert.ok(kinds.includes('same_test_failure'));
    assert.ok(kinds.includes('no_progress'));
    assert.ok(!detectPatterns([t('failure', 'A', [1, 2, ['x']]), t('failure', 'B', [0, 2, ['z']]), t('failure', 'C', [0, 1, ['q']])]).some(p => p.kind === 'no_progress'));
  });
  test('progress states', () => {
    assert.equal(computeProgress([t('failure', 'A', [1, 4, []])]), 'insufficient_data');
    assert.equal(computeProgress([t('failure', 'A', [1, 4, []]), t('failure', 'A', [2, 3, []]), t('failure', 'A', [4, 1, []])]), 'improving');
    assert.equal(computeProgress([t('failure', 'A', [4, 1, []]), t('failure', 'A', [2, 3, []])]), 'regressing');
    assert.equal(computeProgress([t('failure', 'A', [2, 3, []]), t('failure', 'A', [4, 1, []]), t('failure', 'A', [1, 4, []])]), 'mixed');
    assert.equal(computeProgress([t('failure', 'A', [2, 3, []]), t('failure', 'A', [2, 3, []])]), 'stable');
    assert.equal(computeProgress([t('failure', 'Crash'), t('failure', 'A', [2, 3, []])]), 'mixed');
    assert.equal(computeProgress([t('failure', 'Crash'), t('failure', 'Crash')]), 'stable');
  });
});

describe('limits and eviction', () => {
  test('oldest resolved go first, exhausted last, the current one never', () => {
    const data = emptyMemory();
    const s = { ...DEFAULT_SETTINGS, threshold: 2 };
    run(data, 'cmd-resolved-old', 1, 'x', {}, s);
    run(data, 'cmd-resolved-old', 0, '', {}, s);
    run(data, 'cmd-exhausted', 1, 'x', {}, s);
    run(data, 'cmd-exhausted', 1, 'x', {}, s);
    run(data, 'cmd-active-old', 1, 'x', {}, s);
    run(data, 'cmd-resolved-new', 1, 'x', {}, s);
    run(data, 'cmd-resolved-new', 0, '', {}, s);
    run(data, 'cmd-active-new', 1, 'x', {}, s);
    const evicted = enforceLimits(data, { ...DEFAULT_SETTINGS.limits, maxApproaches: 2 }, '.::cmd-active-new');
    assert.deepEqual(evicted, ['.::cmd-resolved-old', '.::cmd-resolved-new', '.::cmd-active-old']);
    assert.deepEqual(Object.keys(data.approaches).sort(), ['.::cmd-active-new', '.::cmd-exhausted']);
  });
  test('the byte cap evicts until the memory fits', () => {
    const data = emptyMemory();
    const big = 'Error: boom\n' + 'x'.repeat(10_000);
    for (let i = 0; i < 20; i++) run(data, `tool${i} run`, 1, big);
    const evicted = enforceLimits(data, { ...DEFAULT_SETTINGS.limits, maxTotalBytes: 60_000 });
    assert.ok(evicted.length >= 14, `evicted ${evicted.length}`);
    assert.ok(data.approaches['.::tool19 run'], 'the newest survive');
  });
  test('summary groups by state', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'a', 1, 'x');
    run(data, 'b', 1, 'x');
    run(data, 'c', 1, 'x');
    run(data, 'c', 0, '');
    const s = summarize(data);
    assert.deepEqual(
      { exhausted: s.exhausted.map(a => a.command), failing: s.failing.map(a => a.command), resolved: s.resolved.map(a => a.command) },
      { exhausted: ['a'], failing: ['b'], resolved: ['c'] },
    );
  });
});

describe('alternatives tried', () => {
  test('related approaches in the same stretch are linked; unrelated failures are not', () => {
    const data = emptyMemory();
    run(data, 'npx prisma generate', 1, PRISMA_ERR);
    run(data, 'npx jest src/cart.test.ts', 1, jest(2, 1, ['applies the discount']));
    run(data, 'npm install @prisma/client', 1, 'npm error code E401');
    run(data, 'npx prisma migrate dev', 1, 'Error: P1001: Can\'t reach database server at `localhost:5432`');
    run(data, 'npm test', 1, 'Error: boom', { cwd: 'packages/other' });
    const prisma = data.approaches['.::prisma generate'];
    assert.deepEqual(prisma.alternativesTried.sort(), ['npm install @prisma/client', 'prisma migrate dev']);
    assert.deepEqual(data.approaches['.::jest src/cart.test.ts'].alternativesTried, []);
    assert.deepEqual(data.approaches['packages/other::npm test'].alternativesTried, []);
  });
});

describe('lines that run nothing and values that are no exit code (#12)', () => {
  test('`FOO=bar`, `# comment` and blank lines are never remembered, and never blocked even after an approach-less streak', () => {
    const data = emptyMemory();
    const r = createRedactor();
    for (const line of ['FOO=bar', '# comment', '   ', 'FOO=bar', 'X=1 Y=2', '# again']) {
      const res = applyAttempt(data, prepareAttempt({ command: line, exitCode: 1, source: 'cli', output: 'boom' }, DEFAULT_SETTINGS, r), DEFAULT_SETTINGS);
      assert.equal(res.stored, false, line);
    }
    assert.deepEqual(Object.keys(data.approaches), []);
    for (const line of ['FOO=bar', '# comment', '']) assert.equal(checkCommand(data, line, '.', DEFAULT_SETTINGS).verdict, 'allow', line);
  });

  test('1e23, 2.5 and NaN are stored as unknown exit codes, never as failures', () => {
    for (const code of [1e23, 2.5, Number.NaN]) {
      const t = prepareAttempt({ command: 'npm test', exitCode: code, source: 'agent', output: '' }, DEFAULT_SETTINGS, createRedactor());
      assert.equal(t.exitCode, null, String(code));
      assert.equal(t.outcome, 'unknown', String(code));
    }
    assert.equal(classifyExit(3221225477), 'failure'); // 0xC0000005, an access violation
    assert.equal(classifyExit(-1073741510), 'interrupted');
  });
});
