import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recall } from '../../src/core/recall';
import { buildReflection, storeReflection } from '../../src/core/reflection';
import { reflectionToMarkdown, text } from '../../src/views/reflectionDoc';
import { emptyMemory, type MemoryData } from '../../src/core/types';
import { makeRecorder, validateReflection } from '../support/reflection';
import { jestOutput } from '../support/jestOutput';

const validate = validateReflection;
const { run, now } = makeRecorder();
const jest = (passed: number, failed: number) => jestOutput({ failing: ['Calc › adds'], passed, failed });

async function reflect(data: MemoryData, key: string, earlierReflections = 3) {
  const a = data.approaches[key];
  const similar = await recall(data, `${a.label}\n${a.lastErrorSignature}`, 5);
  return buildReflection({ data, approach: a, threshold: 5, similar, earlierReflections, id: `r${now().getTime()}`, now: now() });
}

describe('reflection record (the reflection-memory schema)', () => {
  test('a missing-module loop gives a schema-valid record with heuristics', async () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'npx prisma generate', 1, "Error: Cannot find module '@prisma/client'");
    run(data, 'npm install @prisma/client', 1, 'npm error code E401\nnpm error Unable to authenticate, need: Basic realm="GitHub"');
    const r = await reflect(data, '.::prisma generate');
    assert.ok(validate(r), JSON.stringify(validate.errors, null, 1));
    assert.match(r.loop_id, /^ralph-[a-z0-9-]+$/);
    assert.equal(r.iteration, 4);
    assert.equal(r.evaluator_output.passed, false);
    assert.equal(r.evaluator_output.reward_signal, 0);
    assert.equal(r.failure_memory.error_category, 'missing_module');
    assert.equal(r.failure_memory.produced_by, 'heuristics');
    assert.equal(r.self_reflection.credit_assignment.failure_category, 'configuration_error');
    assert.deepEqual(r.self_reflection.credit_assignment.failing_action_indices, [0, 1, 2, 3, 4]);
    assert.ok(r.failure_memory.warnings[0].includes('exhausted'));
    assert.ok(r.failure_memory.warnings.some(w => /same error 5 times: nothing in the environment changed/i.test(w)), 'the repeat, worded for a missing module and counted as it came (5 times, not twice)');
    assert.equal(r.failure_memory.recent.length, 3);
    assert.equal(r.failure_memory.questions.length, 3);
    assert.ok(r.self_reflection.actionable_insights.some(i => /install/i.test(i)));
  });

  test('test runs give unit_tests evaluation, metrics, reward and progress', async () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, jest(1, 3));
    run(data, 'npx jest', 1, jest(2, 2));
    run(data, 'npx jest', 1, jest(3, 1));
    const r = await reflect(data, '.::jest');
    assert.ok(validate(r), JSON.stringify(validate.errors));
    assert.equal(r.evaluator_output.verification_type, 'unit_tests');
    assert.deepEqual(r.evaluator_output.metrics, { tests_passed: 3, tests_failed: 1, tests_total: 4 });
    assert.equal(r.evaluator_output.reward_signal, 0.75);
    assert.equal(r.performance_delta.reward_change, 0.25);
    assert.equal(r.performance_delta.is_improvement, true);
    assert.equal(r.failure_memory.progress, 'improving');
    assert.equal(r.failure_memory.recent[2].tests?.passed, 3);
    assert.deepEqual(r.failure_memory.recent[2].failingTests, ['Calc › adds']);
  });

  test('the Ω window holds the last reflections FIFO', async () => {
    const data = emptyMemory();
    for (let i = 0; i < 2; i++) run(data, 'go build ./...', 1, './main.go:5:2: undefined: foo');
    for (let i = 0; i < 5; i++) {
      run(data, 'go build ./...', 1, './main.go:5:2: undefined: foo');
      storeReflection(data, await reflect(data, '.::go build', 3), 200);
    }
    const r = await reflect(data, '.::go build', 3);
    assert.ok(validate(r), JSON.stringify(validate.errors));
    assert.equal(r.memory_metadata.omega_capacity, 3);
    assert.deepEqual(r.memory_metadata.reflections_in_context, [4, 5, 6]);
    assert.equal(r.memory_metadata.total_reflections_generated, 6);
    assert.equal(r.context_injected, true);
  });

  test('markdown shows progress, warnings, attempts and questions, with memory text escaped', async () => {
    const data = emptyMemory();
    for (let i = 0; i < 2; i++) run(data, 'node build.js', 1, 'Error: <img src=x onerror=alert(1)> **boom** `tick`');
    const md = reflectionToMarkdown(await reflect(data, '.::node build.js'));
    assert.match(md, /Failed twice in a row \(the limit is 5\) · failing · the same error each time/);
    assert.match(md, /\*\*Warning:\*\* The same error twice/);
    assert.match(md, /\*\*Attempt 2\*\* · Failed \(exit 1\)/);
    assert.doesNotMatch(md, /\(s\)/, 'no "(s)" plurals');
    assert.doesNotMatch(md, /[\u{1F300}-\u{1FAFF}\u2700-\u27BF\u23E9-\u23FF\u2600-\u26FF]/u, 'no emoji that need an emoji font');
    assert.match(md, /What specifically went wrong/);
    // memory text is either inside a code span (rendered literally) or escaped
    const outsideCode = md.replace(/(^|[^\\])`[^`\n]*`/g, '$1');
    assert.ok(!/(^|[^\\])<img/.test(outsideCode), 'no unescaped HTML from memory outside code spans');
    assert.ok(!/(^|[^\\])\*\*boom/.test(outsideCode), 'no emphasis injected from memory');
    assert.equal(text('<b>*x*</b>'), '\\<b\\>\\*x\\*\\</b\\>');
  });

  test('every heuristic category produces a valid record', async () => {
    const outputs = [
      'bash: foo: command not found',
      'Error: listen EADDRINUSE: address already in use :::3000',
      "Error: EACCES: permission denied, open '/etc/hosts'",
      'fatal: Authentication failed for https://github.com/x/y.git',
      "cat: missing.txt: No such file or directory",
      "src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      'SyntaxError: Unexpected token }',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      'weird unknown thing happened',
      '',
    ];
    for (const out of outputs) {
      const data = emptyMemory();
      run(data, 'tool go', 1, out);
      const r = await reflect(data, '.::tool go');
      assert.ok(validate(r), `${out}: ${JSON.stringify(validate.errors)}`);
    }
  });

  test('the cause is the error that recurs across the streak, not a typo in the last run (#10)', async () => {
    const data = emptyMemory();
    const assertion = (passed: number) =>
      `▶ math\n  ✖ adds (1ms)\n    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n3 !== 4\n\n✖ failing tests:\n\ntest at test/math.test.js:4:1\n✖ adds (1ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\nℹ tests 3\nℹ pass ${passed}\nℹ fail 1\n`;
    run(data, 'node --test', 1, assertion(2));
    run(data, 'node --test test/', 1, assertion(2));
    run(data, 'node --test --test-reporter spec', 1, assertion(2));
    run(data, 'node --test --test-reporter=spec', 1, "Could not find '/work/proj/--test-reporter=spec'");
    const a = data.approaches[Object.keys(data.approaches)[0]];
    const r = await reflect(data, a.key);
    assert.ok(validate(r), JSON.stringify(validate.errors));
    assert.notEqual(r.failure_memory.error_category, 'unknown', 'the recurring assertion names a cause');
    assert.match(r.self_reflection.reflection_text, /The same error came 3 of 4 times: AssertionError/);
    assert.match(r.self_reflection.reflection_text, /last run failed differently/);
    assert.match(r.evaluator_output.errors[0].message, /AssertionError/);
  });

  test('tests failing in several runs are named as the shared cause', async () => {
    const data = emptyMemory();
    const out = (names: string[]) => jestOutput({ failing: names, passed: 1 });
    run(data, 'npx jest', 1, out(['Calc › adds', 'Calc › divides']));
    run(data, 'npx jest', 1, out(['Calc › divides']));
    run(data, 'npx jest', 1, out(['Calc › divides', 'Calc › rounds']));
    const r = await reflect(data, '.::jest');
    assert.match(r.self_reflection.reflection_text, /Tests failing again and again: Calc › divides\./);
    assert.ok(r.self_reflection.actionable_insights.some(i => i.includes('Calc › divides')));
    assert.equal(r.evaluator_output.errors[0].rule, 'Calc › divides');
  });

  test('interrupted runs are left out of the recent attempts, and error lines are the real ones', async () => {
    const data = emptyMemory();
    run(data, 'npm test', 1, 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)');
    run(data, 'npm test', 130, '^C');
    run(data, 'npm test', 1, 'Error: connect ECONNREFUSED 127.0.0.1:5432');
    run(data, 'npm test', 130, '^C');
    const r = await reflect(data, '.::npm test');
    assert.deepEqual(r.failure_memory.recent.map(x => x.outcome), ['failure', 'failure']);
    assert.deepEqual(r.failure_memory.recent.map(x => x.number), [1, 3]);
    assert.equal(r.failure_memory.recent[1].error, 'Error: connect ECONNREFUSED 127.0.0.1:5432', 'the line as printed, port not masked');
    const md = reflectionToMarkdown(r);
    assert.doesNotMatch(md, /Interrupted/);
  });

  test('the reflection text carries no Markdown (no backticks) and says "once", not "1 time(s)"', async () => {
    const data = emptyMemory();
    run(data, 'make build', 2, 'make: *** [build] Error 2');
    const r = await reflect(data, '.::make build');
    assert.doesNotMatch(r.self_reflection.reflection_text, /`|\(s\)/);
    assert.match(r.self_reflection.reflection_text, /failed once \(the limit is 5\)\./);
  });
});
