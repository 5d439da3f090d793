import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { decideStart, helpFacts, reactionTo, stopResult, streakPatterns } from '../../src/core/rules/guardVerdict';
import { checkCommand } from '../../src/core/rules/check';
import { markResolved } from '../../src/core/memory';
import { makeRecorder } from '../support/reflection';

const { run } = makeRecorder();
const jest = (passed: number, failed: number) =>
  `  ● Calc › adds\n\n    expect(received).toBe(expected)\n\nTests:       ${failed} failed, ${passed} passed, ${passed + failed} total\n`;

function exhausted(outputs: Array<[string, string]>): MemoryData {
  const data = emptyMemory();
  for (const [command, output] of outputs) run(data, command, 1, output);
  return data;
}

describe('guard verdict: what happens when a remembered approach starts', () => {
  test('clear runs, failing runs, exhausted is stopped / warned / remembered by blockMode', () => {
    const data = exhausted(Array.from({ length: 5 }, () => ['npm test', 'Error: boom'] as [string, string]));
    const check = checkCommand(data, 'npm test', '.', DEFAULT_SETTINGS);
    assert.equal(decideStart(check, 'interrupt'), 'stop');
    assert.equal(decideStart(check, 'warn'), 'warn');
    assert.equal(decideStart(check, 'off'), 'remember');
    assert.equal(decideStart(checkCommand(data, 'make', '.', DEFAULT_SETTINGS), 'interrupt'), 'run');
    const two = exhausted([['npm test', 'Error: a'], ['npm test', 'Error: b']]);
    assert.equal(decideStart(checkCommand(two, 'npm test', '.', DEFAULT_SETTINGS), 'interrupt'), 'run');
  });

  test('an exhausted suite that improves gets a notice, not a stop', () => {
    const data = exhausted([1, 2, 3, 4, 5].map(p => ['npx jest', jest(p, 6 - p)] as [string, string]));
    const check = checkCommand(data, 'npx jest', '.', DEFAULT_SETTINGS);
    assert.equal(check.status, 'exhausted');
    assert.equal(decideStart(check, 'interrupt'), 'notice');
  });

  test('the help dialog gets the real last error line and the variants actually tried', () => {
    const data = exhausted([
      ['npm test', 'Error: connect ECONNREFUSED 127.0.0.1:5432'],
      ['npm test -- --runInBand', 'Error: connect ECONNREFUSED 127.0.0.1:5432'],
      ['npm run test', 'Error: connect ECONNREFUSED 127.0.0.1:5432'],
      ['npm test -- --verbose', 'Error: connect ECONNREFUSED 127.0.0.1:5433'],
      ['npm test', 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)'],
    ]);
    const key = Object.keys(data.approaches)[0];
    const check = checkCommand(data, 'npm test', '.', DEFAULT_SETTINGS);
    assert.equal(check.key, key);
    const facts = helpFacts(check, data.approaches[key]);
    assert.equal(facts.lastErrorLine, 'Error: connect ECONNREFUSED 127.0.0.1:5432', 'as printed: no <port>, no " | "');
    assert.doesNotMatch(facts.lastErrorLine, /<\w+>| \| /);
    assert.deepEqual(facts.variants, ['npm test -- --runInBand', 'npm run test', 'npm test -- --verbose']);
    assert.equal(facts.failures, 5);
  });

  test('an interrupt is "stopped" only when the run ended with an interrupt exit code', () => {
    assert.deepEqual(stopResult({ exitCode: 130 }), { kind: 'stopped' });
    assert.deepEqual(stopResult({ exitCode: 143 }), { kind: 'stopped' });
    assert.deepEqual(stopResult({ exitCode: 1 }), { kind: 'endedFirst', exitCode: 1 });
    assert.deepEqual(stopResult({ exitCode: 0 }), { kind: 'endedFirst', exitCode: 0 });
    assert.deepEqual(stopResult({ exitCode: undefined }), { kind: 'endedFirst', exitCode: undefined });
    assert.deepEqual(stopResult(undefined), { kind: 'stillRunning' });
  });
});

describe('guard verdict: what a recorded run is worth telling', () => {
  test('"same test failing twice" does not fire on a suite that is improving (3 → 6 → 8 passing)', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, jest(3, 7));
    run(data, 'npx jest', 1, jest(6, 4));
    const r = run(data, 'npx jest', 1, jest(8, 2));
    assert.ok(r.patterns.some(p => p.kind === 'same_test_failure'), 'the engine sees the repeated test');
    assert.deepEqual(reactionTo(r, true), { kind: 'none' });
    assert.deepEqual(streakPatterns(r.approach), []);
  });

  test('the same test failing on a flat suite, and the same error twice, are told (with the real line)', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, jest(3, 1));
    assert.deepEqual(reactionTo(run(data, 'npx jest', 1, jest(3, 1)), true), { kind: 'sameTest', test: 'Calc › adds' });
    const other = emptyMemory();
    run(other, 'node app.js', 1, 'Error: listen EADDRINUSE: address already in use :::3000');
    const r = run(other, 'node app.js', 1, 'Error: listen EADDRINUSE: address already in use :::3000');
    assert.deepEqual(reactionTo(r, true), { kind: 'sameError', line: 'Error: listen EADDRINUSE: address already in use :::3000', times: 2 });
    assert.deepEqual(reactionTo(r, false), { kind: 'none' });
  });

  test('after Mark Resolved, one new failure shows no pattern from before', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'make', 2, 'make: *** No rule to make target `build`.  Stop.');
    markResolved(data, '.::make', new Date(Date.parse('2026-11-20T10:00:00Z')).toISOString());
    const r = run(data, 'make', 2, 'make: *** No rule to make target `build`.  Stop.');
    assert.equal(r.approach.failures, 1);
    assert.deepEqual(streakPatterns(r.approach), []);
    assert.deepEqual(reactionTo(r, true), { kind: 'none' });
  });

  test('becoming exhausted and being resolved are told; a run nothing was kept of is not', () => {
    const data = emptyMemory();
    let r = run(data, 'cargo build', 101, 'error[E0425]: cannot find value `x` in this scope');
    for (let i = 0; i < 4; i++) r = run(data, 'cargo build', 101, `error[E0425]: cannot find value \`x${i}\` in this scope`);
    assert.deepEqual(reactionTo(r, true), { kind: 'exhausted', failures: 5 });
    const sixth = run(data, 'cargo build', 101, 'error[E0425]: cannot find value `y` in this scope');
    assert.doesNotMatch(sixth.reason, /6 of 5/, 'the log never says "failure 6 of 5"');
    assert.match(sixth.reason, /failure 6, still exhausted/);
    assert.deepEqual(reactionTo(run(data, 'cargo build', 0, ''), true), { kind: 'resolved' });
    assert.deepEqual(reactionTo(run(emptyMemory(), 'ls', 0, ''), true), { kind: 'none' });
  });
});
