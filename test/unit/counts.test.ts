// One source for every count (src/core/rules/counts.ts): a streak's failures and how often its error came
// are the same number whichever surface asks — the short-term window of five attempts never caps
// them — and every surface words them with the same sentences (src/core/text/shownText.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approachCounts } from '../../src/core/rules/counts';
import { checkCommand } from '../../src/core/rules/check';
import { helpFacts } from '../../src/core/rules/guardVerdict';
import { matchKnownFailure } from '../../src/core/text/links';
import { markResolved } from '../../src/core/memory';
import { approachView } from '../../src/views/panelModel';
import { buildReflection } from '../../src/core/reflection';
import { reflectionDoc } from '../../src/views/reflectionDoc';
import { cameText, failedText, failureBadge } from '../../src/core/text/shownText';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';
import { makeRecorder } from '../support/reflection';

const REFUSED = (ms: number) => `curl: (7) Failed to connect to 127.0.0.1 port 9 after ${ms} ms: Couldn't connect to server\n`;
const ASSERT = (actual: number) =>
  `✖ total sums price times quantity (3ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n  ${actual} !== 13\n\n      at TestContext.<anonymous> (/w/test/cart.test.js:5:10)\n\nℹ tests 1\nℹ pass 0\nℹ fail 1\n`;

function curlLoop(times: number) {
  const { run } = makeRecorder();
  const data = emptyMemory();
  for (let i = 0; i < times; i++) run(data, 'curl -sS 127.0.0.1:9/health', 7, REFUSED(i));
  const a = Object.values(data.approaches)[0];
  return { data, a, run };
}

void describe('approachCounts: the one source of an approach’s numbers', () => {
  void test('eleven identical failures: 11 in a row, the error came 11 times (not "3 of 5" from the window)', () => {
    const { a } = curlLoop(11);
    assert.equal(a.attempts.length, 5, 'the short-term window holds five');
    const c = approachCounts(a, 5);
    assert.equal(c.failures, 11);
    assert.equal(c.exhausted, true);
    assert.equal(c.last?.times, 11);
    assert.equal(c.last?.of, 11);
    assert.equal(c.recurring?.times, 11);
    assert.equal(c.last?.text, REFUSED(10).trim(), 'the latest real line, with its real port and time');
    assert.equal(cameText(c.last!, c.failures), 'came 11 times');
    assert.equal(failedText(c), 'failed 11 times in a row (the limit is 5)');
  });

  void test('every surface shows the same numbers: check, help dialog, panel badge and runs, terminal link, reflection', () => {
    const { data, a } = curlLoop(11);
    const c = approachCounts(a, 5);
    const check = checkCommand(data, 'curl -sS 127.0.0.1:9/health', '.', DEFAULT_SETTINGS);
    assert.equal(check.attempts, c.failures);
    assert.equal(helpFacts(check, a).failures, c.failures);
    const view = approachView('f', a, 5);
    assert.equal(view.failures, c.failures);
    assert.equal(view.runs, c.failures, 'the panel counts the streak, not the window');
    assert.equal(view.badge, '11×');
    assert.equal(view.lastError, c.last?.text);
    const link = matchKnownFailure(REFUSED(3).trim(), [a]);
    assert.equal(link?.count, c.last?.times, 'the terminal link says how often this error came, from the same count');
    const r = buildReflection({ data, approach: a, threshold: 5, similar: [], id: 'r1' });
    assert.equal(r.failure_memory.attempts, c.failures);
    assert.match(r.self_reflection.reflection_text, /failed 11 times in a row \(the limit is 5\)\. The same error came 11 times:/);
    assert.match(reflectionDoc(r).summary, /^Failed 11 times in a row \(the limit is 5\) · exhausted/);
  });

  void test('an error that came 3 of 4 times, then another: the recurring one and the last one, each counted over the streak', () => {
    const { run } = makeRecorder();
    const data = emptyMemory();
    for (let i = 0; i < 3; i++) run(data, 'npm test', 1, ASSERT(6 + i));
    run(data, 'npm test', 1, "Error: Cannot find module './cart'\n");
    const a = data.approaches['.::npm test'];
    const c = approachCounts(a, 5);
    assert.equal(c.failures, 4);
    assert.equal(c.recurring?.times, 3, 'numbers fold: 6 !== 13 and 7 !== 13 are the same assertion failing');
    assert.equal(cameText(c.recurring!, c.failures), 'came 3 of 4 times');
    assert.match(c.recurring!.text, /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal: 8 !== 13$/, 'the latest run that had it, as printed');
    assert.equal(c.last?.times, 1);
    assert.equal(c.last?.text, "Error: Cannot find module './cart'");
    assert.deepEqual(c.failingTests, []);
  });

  void test('a success or "Mark Resolved" starts a new streak: nothing from before is counted', () => {
    const { data, a, run } = curlLoop(7);
    markResolved(data, a.key, new Date(Date.parse(a.updatedAt) + 500).toISOString());
    run(data, 'curl -sS 127.0.0.1:9/health', 7, REFUSED(1));
    run(data, 'curl -sS 127.0.0.1:9/health', 7, REFUSED(2));
    const c = approachCounts(data.approaches[a.key], 5);
    assert.equal(c.failures, 2);
    assert.equal(c.last?.times, 2);
    assert.equal(c.exhausted, false);
  });

  void test('a streak longer than the errors remembered says "of the last N"', () => {
    const { a } = curlLoop(25);
    const c = approachCounts(a, 5);
    assert.equal(c.failures, 25);
    assert.equal(c.last?.of, 20);
    assert.equal(cameText(c.last!, c.failures), 'came 20 of the last 20 times');
  });

  void test('a memory written before the engine remembered each error counts from the window it has', () => {
    const { a } = curlLoop(3);
    delete a.streakErrors;
    const c = approachCounts(a, 5);
    assert.equal(c.last?.times, 3);
  });

  void test('the failing tests of the last failing run, by name', () => {
    const { run } = makeRecorder();
    const data = emptyMemory();
    run(data, 'npm test', 1, ASSERT(6));
    assert.deepEqual(approachCounts(data.approaches['.::npm test'], 5).failingTests, ['total sums price times quantity']);
  });

  void test('the badge: progress toward the limit while failing, the failures once exhausted', () => {
    assert.deepEqual(failureBadge({ failures: 3, threshold: 5, exhausted: false }), { text: '3/5', label: '3 failures in a row, limit 5' });
    assert.deepEqual(failureBadge({ failures: 11, threshold: 5, exhausted: true }), { text: '11×', label: '11 failures in a row, limit 5: exhausted' });
    assert.equal(failedText({ failures: 1, threshold: 5 }), 'failed once (the limit is 5)');
    assert.equal(failedText({ failures: 2, threshold: 3 }), 'failed twice in a row (the limit is 3)');
  });
});
