// The gate's one decision (src/app/gate.ts): every door's answer comes from here, so its contract is
// pinned once: the steps of a line, the strongest answer over them, git read only to confirm a deny,
// the team's view merged into each step.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideGate, decideGateNow, loggedSteps, type GateView } from '../../src/app/gate';
import { applyAttempt } from '../../src/core/memory';
import { DEFAULT_SETTINGS, emptyMemory, type GitState, type MemoryData } from '../../src/core/types';
import { recorder } from '../support/recorder';

const GIT_AT_FAILURE: GitState = { head: 'a'.repeat(40), fingerprint: '1111111111111111', dirty: {} };
const GIT_MOVED: GitState = { ...GIT_AT_FAILURE, fingerprint: '2222222222222222' };

/** `npm test` failed five times with the same error (each with the git state given). */
function exhausted(git?: GitState): { data: MemoryData; now: Date } {
  const data = emptyMemory('2026-11-20T10:00:00Z');
  const r = recorder();
  for (let i = 0; i < 5; i++) {
    const attempt = r.attempt('npm test', 1, "Error: Cannot find module 'left-pad'\n");
    if (git) attempt.git = git;
    applyAttempt(data, attempt, DEFAULT_SETTINGS);
  }
  return { data, now: new Date(r.now() + 60_000) };
}

const viewOf = (data: MemoryData, now: Date): GateView => ({ data, settings: DEFAULT_SETTINGS, redact: t => t, now });

describe('the gate decision', () => {
  test('a line is judged as written and as a shell reads its backslashes: the strongest answer decides', () => {
    const { data, now } = exhausted();
    const a = decideGateNow('npm te\\st', '.', viewOf(data, now));
    // the reading a shell gives is the same approach doing the same work here: judged once
    assert.deepEqual(a.steps.map(s => s.check.command), ['npm te\\st']);
    assert.equal(a.check.decision, 'deny');
    // where the readings differ (a Windows-looking word a POSIX shell reads otherwise), both are judged
    const b = decideGateNow('.\\gradlew.bat test', '.', viewOf(data, now));
    assert.deepEqual(b.steps.map(s => s.check.key), ['.::gradle test', '.::.gradlew test']);
    assert.equal(a.check.code, 'same-error-unchanged');
    assert.equal(a.step, a.steps.find(s => s.check.decision === 'deny'), 'the first of the strongest');
  });

  test('a plain line is one step; a clear command is allowed and never asks for git', async () => {
    const { data, now } = exhausted(GIT_AT_FAILURE);
    let reads = 0;
    const a = await decideGate('git status', '.', viewOf(data, now), { git: async () => (reads++, GIT_MOVED) });
    assert.equal(a.steps.length, 1);
    assert.equal(a.check.decision, 'allow');
    assert.equal(reads, 0);
  });

  test('a deny is confirmed with git once: a moved working tree lets the run go as a fix attempt', async () => {
    const { data, now } = exhausted(GIT_AT_FAILURE);
    assert.equal(decideGateNow('npm test', '.', viewOf(data, now)).needsGit, true);
    let reads = 0;
    const moved = await decideGate('npm te\\st', '.', viewOf(data, now), { git: async () => (reads++, GIT_MOVED) });
    assert.equal(reads, 1, 'one read for the whole line, whatever its steps');
    assert.notEqual(moved.check.decision, 'deny');
    assert.equal(moved.check.evidence?.change, 'git');
    const same = await decideGate('npm test', '.', viewOf(data, now), { git: async () => GIT_AT_FAILURE });
    assert.equal(same.check.decision, 'deny');
    assert.equal(same.needsGit, false);
  });

  test('no git state at the last failure: nothing to compare, so git is not read', async () => {
    const { data, now } = exhausted();
    let reads = 0;
    const a = await decideGate('npm test', '.', viewOf(data, now), { git: async () => (reads++, GIT_MOVED) });
    assert.equal(a.check.decision, 'deny');
    assert.equal(reads, 0);
  });

  test('git that cannot be read leaves the answer as it was', async () => {
    const { data, now } = exhausted(GIT_AT_FAILURE);
    const a = await decideGate('npm test', '.', viewOf(data, now), { git: async () => { throw new Error('no git'); } });
    assert.equal(a.check.decision, 'deny');
  });

  test("the team's view is merged into every step; the local check is kept beside it", () => {
    const { data, now } = exhausted();
    const seen: string[] = [];
    const a = decideGateNow('git status; npm te\\st', '.', viewOf(data, now), {
      team: (c) => (seen.push(c.command), { ...c, decision: 'warn', verdict: 'warn', policyDecision: 'warn', code: 'team' }),
    });
    assert.deepEqual(seen, a.steps.map(s => s.local.command));
    assert.ok(seen.length >= 2);
    assert.ok(a.steps.every(s => s.check.code === 'team'));
    assert.equal(a.steps.find(s => s.local.command === 'npm test')?.local.decision, 'deny');
  });

  test('the decision log keeps every ask and deny once per approach', () => {
    const { data, now } = exhausted();
    const a = decideGateNow('npm te\\st', '.', viewOf(data, now));
    assert.deepEqual(loggedSteps(a).map(s => s.check.code), ['same-error-unchanged']);
    assert.deepEqual(loggedSteps(decideGateNow('ls', '.', viewOf(data, now))), []);
  });

  test('redaction applies before the line is judged or echoed', () => {
    const { data, now } = exhausted();
    const a = decideGateNow('npm test --token=abc', '.', { ...viewOf(data, now), redact: t => t.replace('abc', '[REDACTED]') });
    assert.equal(a.check.command, 'npm test --token=[REDACTED]');
  });
});
