// A change earns a run (src/core/rules/policy.ts, src/core/rules/edits.ts): after a change the next run of an
// exhausted approach runs (warned, with what changed), in every harness; a pass clears it; only when the
// same error came back after each of the last CHANGE_BUDGET changes does a person decide (ask). A no-op
// edit (the same bytes as at the failure, a failed edit) is no change, and an edit recorded in the same
// millisecond as the failure it follows is after it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { describeChanges } from '../../src/core/rules/check';
import { addEdits, changingEdits } from '../../src/core/rules/edits';
import { CHANGE_BUDGET, REASON_CODES } from '../../src/core/rules/policy';
import { applyAttempt } from '../../src/core/memory';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';
import { readConfig } from '../../src/core/config';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { recorder } from '../support/recorder';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-change-budget-');
const ERR = "FAIL src/cart.test.js\n  ● cart › total\n    expect(received).toBe(expected)\nTests: 1 failed, 3 passed, 4 total\n";
const PASS = 'Tests: 4 passed, 4 total\n';

/** A workspace memory on a real folder (edited files are hashed), its clock 10 s per event. */
function workspace(threshold = 5, settings: { 'gate.changeBudget'?: number } = {}) {
  const dir = tempDir();
  let t = Date.parse('2026-11-20T10:00:00Z');
  const m = new WorkspaceMemory(dir, { store: new InMemoryStore(), settings: { threshold, ...settings }, git: false, clock: () => new Date(t) });
  const tick = () => (t += 10_000);
  const run = async (exitCode: number, output = ERR, command = 'npm test') => (tick(), m.record({ command, exitCode, output, source: 'agent' }));
  const edit = async (file: string, text?: string, ok = true) => {
    tick();
    if (text !== undefined) writeFileSync(join(dir, file), text);
    return m.recordEdits([{ path: join(dir, file), ok, source: 'agent', tool: 'Edit' }]);
  };
  const check = async (command = 'npm test') => (tick(), m.check(command));
  return { m, dir, run, edit, check };
}

describe('a change earns a run; the change budget limits fix attempts', () => {
  test('loop → fix → pass: the run after the fix runs, and its pass clears the approach', async () => {
    const w = workspace();
    for (let i = 0; i < 5; i++) await w.run(1);
    assert.equal((await w.check()).decision, 'deny');
    await w.edit('cart.js', 'module.exports = 2');
    const fix = await w.check();
    assert.deepEqual([fix.decision, fix.code, fix.evidence?.change], ['warn', 'same-error-after-change', 'edit']);
    assert.match(fix.why, /cart\.js changed since the last failure: a fix attempt, it runs/);
    await w.run(0, PASS);
    const after = await w.check();
    assert.deepEqual([after.status, after.decision], ['clear', 'allow']);
  });

  test('loop → wrong fix → same error → a second fix is still allowed → … → a person decides once the budget is spent', async () => {
    assert.equal(CHANGE_BUDGET, 3, 'the budget chosen on both development corpora (BENCHMARKS.md)');
    const w = workspace();
    for (let i = 0; i < 5; i++) await w.run(1);
    for (let fix = 0; fix < CHANGE_BUDGET; fix++) {
      await w.edit('cart.js', `module.exports = ${fix}`);
      const c = await w.check();
      assert.equal(c.decision, 'warn', `fix attempt ${fix + 1} runs`);
      if (fix === 1) assert.match(c.why, /one change before ended the same way, a person decides after 3/);
      if (fix === 2) assert.match(c.why, /2 changes before ended the same way, a person decides after 3/);
      await w.run(1);
      // nothing changed since that failure: the loop again
      assert.equal((await w.check()).decision, 'deny');
    }
    await w.edit('cart.js', 'module.exports = 9');
    const ask = await w.check();
    assert.deepEqual([ask.decision, ask.code], ['ask', 'same-error-after-change']);
    assert.match(ask.why, /it came back after each of the last 3 changes: the changes do not reach it; the user decides/);
    assert.match(describeChanges(ask) ?? '', /^Changes: cart\.js changed since the last failure; the same error came back after each of the 3 changes before it \(8 failures in a row with this error\)\.$/);
    assert.match(REASON_CODES['same-error-after-change'], /a fix attempt, it runs/);
  });

  test('an unchanged loop before the threshold spends no budget: the first change after it runs', async () => {
    const w = workspace(3);
    for (let i = 0; i < 6; i++) await w.run(1);
    await w.edit('cart.js', 'x');
    assert.equal((await w.check()).decision, 'warn');
  });

  test('changes before the threshold count when the same error followed each of them', async () => {
    const w = workspace(3);
    await w.run(1);
    for (let i = 0; i < CHANGE_BUDGET; i++) {
      await w.edit('cart.js', `v${i}`);
      await w.run(1);
    }
    await w.edit('cart.js', 'v9');
    assert.equal((await w.check()).decision, 'ask');
  });

  test('the budget is a setting: failureMemory.gate.changeBudget, from 1 to 20, its default the measured one', () => {
    assert.equal(DEFAULT_SETTINGS['gate.changeBudget'], CHANGE_BUDGET);
    const { config, problems } = readConfig(k => (k === 'gate.changeBudget' ? 0 : undefined));
    assert.equal(config['gate.changeBudget'], CHANGE_BUDGET);
    assert.deepEqual(problems, ['failureMemory.gate.changeBudget must be a number from 1 to 20, not 0; using 3.']);
  });

  test('the budget set lower asks a person sooner (the judgement benchmark measures others the same way)', async () => {
    const w = workspace(5, { 'gate.changeBudget': 2 });
    for (let i = 0; i < 5; i++) await w.run(1);
    for (let fix = 0; fix < 2; fix++) {
      await w.edit('cart.js', `v${fix}`);
      await w.run(1);
    }
    await w.edit('cart.js', 'v9');
    assert.equal((await w.check()).decision, 'ask', 'a third fix under a budget of 2 asks');
  });
});

describe('the other loop shapes spend the same budget', () => {
  test('errors taking turns (A, B, A, B) despite a change each time: the fixes run, then a person decides', async () => {
    const w = workspace(3);
    const a = "Traceback (most recent call last):\nImportError: cannot import name 'x' from 'pkg'\n";
    const b = "Traceback (most recent call last):\nAttributeError: module 'pkg' has no attribute 'y'\n";
    for (const out of [a, b, a, b]) await w.run(1, out, 'python run.py');
    assert.deepEqual([(await w.check('python run.py')).code, (await w.check('python run.py')).decision], ['error-cycle', 'deny']);
    const answers: string[] = [];
    for (const out of [a, b, a]) {
      await w.edit('pkg.py', out.length.toString() + answers.length);
      answers.push((await w.check('python run.py')).decision);
      await w.run(1, out, 'python run.py');
    }
    await w.edit('pkg.py', 'last');
    answers.push((await w.check('python run.py')).decision);
    assert.deepEqual(answers, ['warn', 'warn', 'warn', 'ask']);
  });
});

describe('a no-op edit is no change', () => {
  test('the same bytes written again, and an edit undone, leave the loop denied; other bytes earn a run', async () => {
    const w = workspace();
    await w.edit('cart.js', 'module.exports = 1');
    for (let i = 0; i < 5; i++) await w.run(1);
    await w.edit('cart.js', 'module.exports = 1');
    const same = await w.check();
    assert.deepEqual([same.decision, same.code], ['deny', 'same-error-unchanged'], 'the same bytes as at the failure');
    await w.edit('cart.js', 'module.exports = 2');
    assert.equal((await w.check()).decision, 'warn');
    await w.edit('cart.js', 'module.exports = 1');
    assert.equal((await w.check()).decision, 'deny', 'changed and changed back: nothing changed since the failure');
  });

  test('an edit the harness reports failed changed nothing; a file with no known content before counts as a change', async () => {
    const w = workspace();
    for (let i = 0; i < 5; i++) await w.run(1);
    await w.edit('cart.js', undefined, false);
    assert.equal((await w.check()).decision, 'deny');
    await w.edit('new.js', 'x');
    assert.equal((await w.check()).decision, 'warn');
  });

  // a test file edited again and again, the same test failing the same way after each edit (the
  // development corpus's sphinx-doc__sphinx-8595 #61): rewriting the input is a change, within the budget
  test('a script the command names, rewritten after each of the last budget failures with the same error: a person decides', async () => {
    const w = workspace(3);
    const FAILED = 'FAILED test_cart.py::test_total - AssertionError: assert 3 == 4\n1 failed in 0.1s\n';
    const run = (exitCode: number) => w.run(exitCode, FAILED, 'pytest test_cart.py');
    for (let i = 0; i < 3; i++) await run(1);
    const answers = [];
    for (let fix = 0; fix <= CHANGE_BUDGET; fix++) {
      await w.edit('test_cart.py', `def test_total(): assert ${fix} == 4`);
      const c = await w.check('pytest test_cart.py');
      answers.push(`${c.decision} ${c.code}`);
      if (c.decision === 'ask') {
        assert.match(c.why, /test_cart\.py changed again, but the same error followed each of the last 3 changes/);
        break;
      }
      await run(1);
    }
    assert.deepEqual(answers, [...Array(CHANGE_BUDGET).fill('warn input-changed'), 'ask input-changed-same-error']);
    assert.match(REASON_CODES['input-changed-same-error'], /a person decides/);
  });

  test('a data file the command names, rewritten after each failure: other data each time, it runs', async () => {
    const w = workspace(3);
    const FAILED = 'Traceback (most recent call last):\nKeyError: total\n';
    const run = (exitCode: number) => w.run(exitCode, FAILED, 'python check.py out.json');
    for (let i = 0; i < 3; i++) await run(1);
    for (let fix = 0; fix <= CHANGE_BUDGET; fix++) {
      await w.edit('out.json', `{"n": ${fix}}`);
      const c = await w.check('python check.py out.json');
      assert.deepEqual([c.decision, c.code], ['warn', 'input-changed'], `rewrite ${fix + 1}`);
      await run(1);
    }
  });

  test("the content git gave with the failure's run is what the file held then", () => {
    const data = emptyMemory('2026-11-20T10:00:00Z');
    const r = recorder();
    for (let i = 0; i < 5; i++) {
      const a = r.attempt('npm test', 1, ERR);
      a.git = { head: 'h', fingerprint: 'f', dirty: { 'src/cart.js': 'aaaaaaaaaaaa' } };
      applyAttempt(data, a, DEFAULT_SETTINGS);
    }
    const approach = data.approaches['.::npm test'];
    addEdits(data, [{ path: 'src/cart.js', source: 'agent', hash: 'aaaaaaaaaaaa' }], new Date(r.now() + 1000).toISOString(), true);
    assert.deepEqual(changingEdits(data, approach), []);
    addEdits(data, [{ path: 'src/cart.js', source: 'agent', hash: 'bbbbbbbbbbbb' }], new Date(r.now() + 2000).toISOString(), true);
    assert.deepEqual(changingEdits(data, approach).map(e => e.path), ['src/cart.js']);
  });
});

describe('events in order', () => {
  test('an edit recorded in the same millisecond as the failure it follows is after it', async () => {
    const dir = tempDir();
    const at = new Date('2026-11-20T10:00:00.000Z');
    const m = new WorkspaceMemory(dir, { store: new InMemoryStore(), settings: { threshold: 3 }, git: false, clock: () => at });
    for (let i = 0; i < 3; i++) await m.record({ command: 'npm test', exitCode: 1, output: ERR, source: 'agent' });
    const [e] = await m.recordEdits([{ path: join(dir, 'cart.js'), source: 'agent', tool: 'Edit' }]);
    assert.ok(e.at > '2026-11-20T10:00:00.000Z', e.at);
    assert.equal((await m.check('npm test')).decision, 'warn');
  });

  test("a run's own edits (`sed -i … && run`) stay at the run's time: before its failure, not after it", () => {
    const data = emptyMemory('2026-11-20T10:00:00Z');
    const r = recorder();
    for (let i = 0; i < 3; i++) applyAttempt(data, r.attempt("sed -i 's/a/b/' cart.js && npm test", 1, ERR), { ...DEFAULT_SETTINGS, threshold: 3 });
    const approach = data.approaches['.::npm test'];
    assert.deepEqual(changingEdits(data, approach), []);
  });
});
