import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markResolved } from '../../src/core/memory';
import { approachView, SEARCH_MIN_SCORE, searchResults } from '../../src/views/panelModel';
import type { RecallHit } from '../../src/core/recall';
import { emptyMemory } from '../../src/core/types';
import { makeRecorder } from '../support/reflection';
import { jestOutput } from '../support/jestOutput';

const { run, stamp } = makeRecorder();

test('after Mark Resolved and one new failure the card shows only the new streak', () => {
  const data = emptyMemory();
  for (let i = 0; i < 5; i++) run(data, 'make build', 2, 'make: *** No rule to make target `build`.  Stop.');
  run(data, 'make build', 130, '^C');
  run(data, 'make build', 130, '^C');
  markResolved(data, '.::make build', new Date(stamp() + 500).toISOString());
  run(data, 'make build', 2, 'make: *** No rule to make target `build`.  Stop.');
  const v = approachView('file:///w', data.approaches['.::make build'], 5);
  assert.equal(v.failures, 1);
  assert.equal(v.runs, 1, 'one run in this streak (stopped runs are not runs)');
  assert.deepEqual(v.patterns, [], 'no "same error twice" from before the resolution');
  assert.equal(v.lastError, 'make: *** No rule to make target `build`. Stop.');
});

test('stopped runs are not counted as runs', () => {
  const data = emptyMemory();
  run(data, 'npm test', 1, 'Error: boom');
  run(data, 'npm test', 130, '^C');
  run(data, 'npm test', 1, 'Error: boom');
  const v = approachView('file:///w', data.approaches['.::npm test'], 5);
  assert.equal(v.runs, 2);
  assert.equal(v.tests.length, 2);
});

test('an improving suite shows no loop pattern next to "Improving"', () => {
  const data = emptyMemory();
  const jest = (p: number) => jestOutput({ failing: ['Calc › adds'], passed: p });
  for (const p of [3, 6, 8]) run(data, 'npx jest', 1, jest(p));
  const v = approachView('file:///w', data.approaches['.::jest'], 5);
  assert.equal(v.progress, 'improving');
  assert.deepEqual(v.patterns, []);
});

test('search leaves out hits too weak to call similar', () => {
  const hit = (key: string, score: number): RecallHit => ({ key, label: key, command: key, cwd: '.', status: 'active', score, errorSignature: '', attempts: 1 });
  const results = searchResults([
    { folder: 'a', hits: [hit('x', 0.62), hit('y', 0.04)] },
    { folder: 'b', hits: [hit('z', 0.03), hit('w', SEARCH_MIN_SCORE)] },
  ]);
  assert.deepEqual(results.map(r => r.key), ['x', 'w']);
});
