import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recall } from '../../src/core/recall';
import { buildReflection, reflectionToMarkdown, storeReflection, text } from '../../src/core/reflection';
import { emptyMemory, type MemoryData } from '../../src/core/types';
import { makeRecorder, validateReflection } from './helpers/reflection';

const validate = validateReflection;
const { run, now } = makeRecorder();
const jest = (passed: number, failed: number) => `  ● Calc › adds\n\n    expect(received).toBe(expected)\n\nTests:       ${failed} failed, ${passed} passed, ${passed + failed} total\n`;

async function reflect(data: MemoryData, key: string, omega = 3) {
  const a = data.approaches[key];
  const similar = await recall(data, `${a.label}\n${a.lastErrorSignature}`, 5);
  return buildReflection({ data, approach: a, threshold: 5, similar, omega, id: `r${now().getTime()}`, now: now() });
}

describe('reflection record (seed 003 schema)', () => {
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
    assert.ok(r.failure_memory.warnings.some(w => w.includes('Same error twice')));
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
    assert.match(md, /Progress status: \*\*stable\*\*/);
    assert.match(md, /WARNING: Same error twice/);
    assert.match(md, /\*\*Attempt 2:\*\* ❌ FAILED/);
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
});
