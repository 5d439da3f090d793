// The run ledger, flaky detection and the "fixed by changing" lesson, on scripted histories:
// attempts go through the engine (prepareAttempt + applyAttempt) with a git state set by the script.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { flakyVerdict } from '../../src/core/rules/flaky';
import { ago, changedFiles, describeHistory, fixLessonText, LEDGER_SIZE, ledgerStats } from '../../src/core/rules/ledger';
import { checkCommand } from '../../src/core/rules/check';
import { applyAttempt } from '../../src/core/memory';
import { recall } from '../../src/core/recall';
import { DEFAULT_SETTINGS, emptyMemory, SCHEMA_VERSION, type GitState, type MemoryData } from '../../src/core/types';
import { migrateMemory } from '../../src/store/memoryStore';
import { recorder } from '../support/recorder';

const rec = recorder();

function git(head: string, dirty: Record<string, string> = {}): GitState {
  return { head, branch: 'main', fingerprint: `${head}:${JSON.stringify(dirty)}`, dirty };
}

function run(data: MemoryData, command: string, exitCode: number, output = '', state?: GitState, settings = DEFAULT_SETTINGS) {
  const a = rec.attempt(command, exitCode, output, {}, settings);
  if (state) a.git = state;
  return applyAttempt(data, a, settings);
}

const FAIL = 'FAIL src/sum.test.js\n  ● sum › adds\n    expect(received).toBe(expected)\nTests:       1 failed, 3 passed, 4 total\n';
const PASS = 'PASS src/sum.test.js\nTests:       4 passed, 4 total\n';

void describe('run ledger', () => {
  void test('keeps passes and failures, bounded to the last LEDGER_SIZE runs; a success clears the streak, not the history', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, FAIL, git('a1'));
    for (let i = 0; i < LEDGER_SIZE + 7; i++) run(data, 'npx jest', i % 3 === 0 ? 1 : 0, i % 3 === 0 ? FAIL : PASS, git('a1'));
    const a = data.approaches['.::jest'];
    assert.ok(a, 'the approach is remembered');
    assert.equal(a.ledger!.length, LEDGER_SIZE);
    const last = a.ledger![a.ledger!.length - 1];
    assert.equal(last.outcome, 'success');
    assert.equal(a.failures, 0, 'the last run passed: the failure streak is cleared');
    assert.ok(a.ledger!.some(r => r.outcome === 'failure'), 'the failures are still in the history');
    assert.deepEqual(last.tests, { passed: 4, failed: 0, total: 4 });
    assert.equal(last.git?.head, 'a1');
    const s = ledgerStats(a);
    assert.equal(s.runs, LEDGER_SIZE);
    assert.equal(s.passes + s.failures, LEDGER_SIZE);
  });

  void test('a command that never failed has no ledger (nothing stored)', () => {
    const data = emptyMemory();
    const r = run(data, 'ls -la', 0, 'file\n', git('a1'));
    assert.equal(r.stored, false);
    assert.equal(data.approaches[r.attempt.key], undefined);
  });

  void test('check says "passed N of the last M runs, last passed … ago"', () => {
    const data = emptyMemory();
    run(data, 'npm test', 1, FAIL);
    run(data, 'npm test', 0, PASS);
    run(data, 'npm test', 0, PASS);
    run(data, 'npm test', 1, FAIL);
    const c = checkCommand(data, 'npm test', '.', DEFAULT_SETTINGS, new Date(rec.now() + 2 * 3600_000));
    assert.equal(c.history, 'passed 2 of the last 4 runs, last passed 2 hours ago');
    const fresh = emptyMemory();
    run(fresh, 'npm test', 1, FAIL);
    assert.equal(describeHistory(fresh.approaches['.::npm test']), undefined, 'one run: nothing to tell');
    run(fresh, 'npm test', 1, FAIL);
    assert.equal(describeHistory(fresh.approaches['.::npm test']), 'passed 0 of the last 2 runs, never passed since it first failed');
  });

  void test('ago() reads like a person', () => {
    const now = new Date('2026-11-20T12:00:00Z');
    assert.equal(ago('2026-11-20T11:59:50Z', now), 'just now');
    assert.equal(ago('2026-11-20T11:58:00Z', now), '2 minutes ago');
    assert.equal(ago('2026-11-20T10:00:00Z', now), '2 hours ago');
    assert.equal(ago('2026-11-17T12:00:00Z', now), '3 days ago');
  });

  void test('a v1 memory migrates (through v2) with a ledger seeded from the short-term window', () => {
    const v1 = {
      schemaVersion: 1,
      approaches: {
        '.::jest': {
          key: '.::jest', command: 'npx jest', label: 'jest', cwd: '.', status: 'active', failures: 1, totalAttempts: 2,
          lastErrorSignature: 'x', alternativesTried: [], learnedFacts: [], updatedAt: '2026-11-20T10:00:00Z',
          attempts: [
            { command: 'npx jest', timestamp: '2026-11-20T09:00:00Z', outcome: 'success', exitCode: 0, errorSignature: '', testResults: { passed: 4, failed: 0, total: 4 } },
            { command: 'npx jest', timestamp: '2026-11-20T10:00:00Z', outcome: 'failure', exitCode: 1, errorSignature: 'x', testResults: null },
          ],
        },
      },
      reflections: [],
      learnings: [],
      updatedAt: '2026-11-20T10:00:00Z',
    };
    const data = migrateMemory(v1);
    assert.equal(data.schemaVersion, SCHEMA_VERSION);
    const l = data.approaches['.::jest'].ledger!;
    assert.deepEqual(l.map(r => r.outcome), ['success', 'failure']);
    assert.deepEqual(l[0].tests, { passed: 4, failed: 0, total: 4 });
    assert.equal(describeHistory(data.approaches['.::jest'], new Date('2026-11-20T11:00:00Z')), 'passed 1 of the last 2 runs, last passed 2 hours ago');
  });
});

void describe('what changed and what fixed it', () => {
  void test('changedFiles: edited, reverted and committed files', () => {
    const from = git('c1', { 'src/a.js': 'h1', 'src/b.js': 'h2' });
    const to: GitState = { ...git('c2', { 'src/a.js': 'h9', 'src/c.js': 'h3' }), committed: { from: 'c1', files: ['lib/d.js'] } };
    assert.deepEqual(changedFiles(from, to).files, ['lib/d.js', 'src/a.js', 'src/b.js', 'src/c.js']);
    assert.deepEqual(changedFiles(from, { ...to, committed: { from: 'other', files: ['x'] } }).files, ['src/a.js', 'src/b.js', 'src/c.js'], 'a committed list against another HEAD is ignored');
  });

  void test('a failing approach that passes after a file changed stores "fixed by changing <file>", and recall offers it', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 0, PASS, git('c1')); // never failed: not stored
    run(data, 'npx jest', 1, FAIL, git('c1', { 'src/sum.js': 'broken' }));
    run(data, 'npx jest', 1, FAIL, git('c1', { 'src/sum.js': 'broken' }));
    const r = run(data, 'npx jest', 0, PASS, git('c1')); // the edit reverted: the file is clean again
    assert.equal(r.resolved, true);
    assert.deepEqual(r.ledger.fix?.files, ['src/sum.js']);
    const a = data.approaches['.::jest'];
    assert.deepEqual(a.fix?.files, ['src/sum.js']);
    assert.match(fixLessonText(a.fix!), /^fixed by changing “src\/sum\.js” \(the error was: /);
    // another command fails the same way: recall offers the lesson of the fixed one
    run(data, 'npx vitest run', 1, FAIL.replace('sum', 'total'), git('c1'));
    return recall(data, 'expect(received).toBe(expected) sum adds failed', 3).then(hits => {
      const fixed = hits.find(h => h.key === '.::jest');
      assert.ok(fixed, 'the fixed approach is recalled');
      assert.match(fixed.lesson!, /fixed by changing “src\/sum\.js”/);
    });
  });

  void test('no fix lesson when nothing changed (a pass on the same code is luck, not a fix) or without git', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, FAIL, git('c1', { 'a.js': 'h' }));
    const r = run(data, 'npx jest', 0, PASS, git('c1', { 'a.js': 'h' }));
    assert.equal(r.resolved, true);
    assert.equal(r.ledger.fix, undefined);
    const nogit = emptyMemory();
    run(nogit, 'npx jest', 1, FAIL);
    assert.equal(run(nogit, 'npx jest', 0, PASS).ledger.fix, undefined);
  });

  void test('when something that passed fails, the files changed since that pass are listed', () => {
    const data = emptyMemory();
    run(data, 'npx jest', 1, FAIL, git('c1', { 'a.js': 'x' }));
    run(data, 'npx jest', 0, PASS, git('c1'));
    const r = run(data, 'npx jest', 1, FAIL, { ...git('c2', { 'b.js': 'y' }), committed: { from: 'c1', files: ['c.js'] } });
    assert.deepEqual(r.ledger.changedSinceLastPass?.files, ['b.js', 'c.js']);
    const c = checkCommand(data, 'npx jest', '.', DEFAULT_SETTINGS, new Date(rec.now() + 60_000));
    assert.match(c.changed!, /^changed since it last passed \(.+\): “b\.js” and “c\.js”$/);
  });
});

void describe('flaky detection', () => {
  void test('pass and fail alternating on the same git state is flaky; on changing code it is not', () => {
    const same = git('c1', { 'a.js': 'h' });
    const data = emptyMemory();
    run(data, 'npx jest', 1, FAIL, same);
    run(data, 'npx jest', 0, PASS, same);
    assert.equal(flakyVerdict(data.approaches['.::jest'].ledger).flaky, false, 'one switch is not enough');
    const r = run(data, 'npx jest', 1, FAIL, same);
    assert.equal(r.flaky, true);
    assert.match(flakyVerdict(data.approaches['.::jest'].ledger).reason, /passed 1 and failed 2 time\(s\) on the same code/);

    const fixing = emptyMemory();
    run(fixing, 'npx jest', 1, FAIL, git('c1', { 'a.js': '1' }));
    run(fixing, 'npx jest', 0, PASS, git('c1', { 'a.js': '2' }));
    run(fixing, 'npx jest', 1, FAIL, git('c1', { 'a.js': '3' }));
    run(fixing, 'npx jest', 0, PASS, git('c1', { 'a.js': '4' }));
    assert.equal(flakyVerdict(fixing.approaches['.::jest'].ledger).flaky, false);
    const nogit = emptyMemory();
    for (const code of [1, 0, 1, 0, 1]) run(nogit, 'npx jest', code, code ? FAIL : PASS);
    assert.equal(flakyVerdict(nogit.approaches['.::jest'].ledger).flaky, false, 'without git context nothing is called flaky');
  });

  void test('a flaky approach is not exhausted by its failures, and check warns instead of blocking', () => {
    const same = git('c1');
    const settings = { ...DEFAULT_SETTINGS, threshold: 3 };
    const data = emptyMemory();
    run(data, 'npx jest', 0, PASS, same); // not stored
    run(data, 'npx jest', 1, FAIL, same);
    run(data, 'npx jest', 0, PASS, same);
    run(data, 'npx jest', 1, FAIL, same); // fail, pass, fail on one state: flaky
    for (let i = 0; i < 4; i++) run(data, 'npx jest', 1, FAIL, same, settings);
    const a = data.approaches['.::jest'];
    assert.equal(a.failures, 5);
    assert.notEqual(a.status, 'exhausted');
    const c = checkCommand(data, 'npx jest', '.', settings);
    assert.notEqual(c.verdict, 'block');
    assert.match(c.flaky!, /^flaky/);

    // the same script on changing code is a loop: exhausted and blocked
    const loop = emptyMemory();
    run(loop, 'npx jest', 1, FAIL, git('c1', { 'a.js': '1' }));
    run(loop, 'npx jest', 0, PASS, git('c1', { 'a.js': '2' }));
    for (let i = 0; i < 3; i++) run(loop, 'npx jest', 1, FAIL, git('c1', { 'a.js': `x${i}` }), settings);
    assert.equal(loop.approaches['.::jest'].status, 'exhausted');
    assert.equal(checkCommand(loop, 'npx jest', '.', settings).verdict, 'block');
  });
});
