// Every spelling of a loop is the loop (src/core/rules/steps.ts, src/core/approach/scripts.ts, src/app/gate.ts):
// an exhausted approach with nothing changed is stopped wherever it appears in a line — each step of a
// chain, a line handed to a shell or a runner, a package manager's script by any alias, and the command
// the script runs — while an edit chained before it is new work the first time and a loop when the
// same line comes again, and a read-only step after it hides nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideGateNow, type GateView } from '../../src/app/gate';
import type { ScriptTable } from '../../src/core/approach/manifests';
import { needKey, resolveLine, type ScriptNeed } from '../../src/core/approach/scripts';
import { gateSteps, judgedLines } from '../../src/core/rules/steps';
import { applyAttempt } from '../../src/core/memory';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { recorder } from '../support/recorder';

const JEST_FAIL = 'FAIL src/cart.test.js\n  ● cart › total\n    expect(received).toBe(expected)\nTests: 1 failed, 3 passed, 4 total\n';

/** A package.json here whose `test` is `jest` and whose `build` runs two commands; a Makefile and pdm too. */
const TABLES: Record<string, ScriptTable> = {
  npm: { kind: 'npm', folder: '.', scripts: { test: ['jest'], 'test:ci': ['npm run test -- --ci'], build: ['tsc -p . && node esbuild.mjs'], lint: ['eslint .'] } },
  make: { kind: 'make', folder: '.', scripts: { test: ['python -m pytest -x tests/'], all: ['make lint', 'make test'], lint: ['ruff check .'] }, first: 'all' },
  pdm: { kind: 'pdm', folder: '.', scripts: { test: ['pytest -x tests/'] } },
  composer: { kind: 'composer', folder: '.', scripts: { test: ['phpunit'] } },
};
const reader = (need: ScriptNeed): ScriptTable | null => (need.folder === '.' ? TABLES[need.kind] ?? null : null);

/** `command` failed five times with the same error (the approach exhausted, nothing changed since). */
function exhausted(command: string, output = JEST_FAIL): { data: MemoryData; view: GateView } {
  const data = emptyMemory('2026-11-20T10:00:00Z');
  const r = recorder();
  const tables = new Map(Object.values(TABLES).map(t => [needKey({ kind: t.kind, folder: '.' }), t]));
  for (let i = 0; i < 5; i++) applyAttempt(data, r.attempt(command, 1, output, {}, DEFAULT_SETTINGS, tables), DEFAULT_SETTINGS);
  return { data, view: { data, settings: DEFAULT_SETTINGS, redact: t => t, now: new Date(r.now() + 60_000), scripts: reader } };
}

const decision = (command: string, view: GateView) => decideGateNow(command, '.', view).check;

describe('each step of a line is judged', () => {
  const { view } = exhausted('npx jest');
  const spellings = [
    'npm test && git status',
    'npm test; echo done',
    'npm test || make',
    'npm test | tail -20',
    'npx prisma generate && npm test',
    '(npm test)',
    '{ npm test; }',
    'if npm test; then echo ok; fi',
    "bash -c 'npm test'",
    "sh -lc 'cd . && npm test'",
    'echo npm test | bash',
    "printf 'npm test\\n' | sh",
    "bash <<< 'npm test'",
    'bash <<EOF\nnpm test\nEOF',
    'xargs npm <<< test',
    'echo test | xargs npm',
    "script -qc 'npm test' /dev/null",
    'watch -n 5 npm test',
    'corepack npm test',
    'eval "npm test"',
    'timeout 60 sudo -E bash -c "npm test"',
    'echo $(npm test)',
  ];
  for (const line of spellings) {
    test(`\`${line.replace(/\n/g, '\\n')}\` runs the exhausted test suite: denied`, () => {
      const c = decision(line, view);
      assert.equal(c.decision, 'deny', `${line}: ${c.code} ${c.reason}`);
      assert.equal(c.code, 'same-error-unchanged');
      assert.equal(c.key, '.::jest');
    });
  }

  test('a step that is another approach is allowed: only the exhausted one stops the line', () => {
    assert.equal(decision('git status && npm run lint', view).decision, 'allow');
    assert.equal(decision('npm run build', view).decision, 'allow');
  });

  test('the steps of a line: a pipeline is one step (what feeds a stage is part of its work), a line fed to a shell is read', () => {
    const lines = (l: string) => gateSteps(l).map(s => s.line);
    assert.deepEqual(lines('cat p2.lean | python run.py -'), ['cat p2.lean | python run.py -']);
    assert.deepEqual(lines('cd api && npm test && cd .. && make'), ['cd api && npm test && cd .. && make', 'cd api && npm test', 'cd api && cd .. && make']);
    assert.ok(lines("bash <<< 'npm test && git status'").includes('git status'));
  });
});

describe("a package manager's script and what it runs are one approach", () => {
  const { view } = exhausted('npm test');
  for (const line of ['npm test', 'npm t', 'npm tst', 'npm run test', 'npm run-script test', 'yarn test', 'yarn run test', 'pnpm test', 'pnpm run test', 'bun run test', 'node --run test', 'npx jest', 'jest', 'yarn jest', 'pnpm exec jest', './node_modules/.bin/jest', 'npm test -- --ci', 'npm run test:ci']) {
    test(`\`${line}\` after \`npm test\` (whose script is \`jest\`) failed five times: denied`, () => {
      const c = decision(line, view);
      assert.deepEqual([c.decision, c.key], ['deny', '.::jest'], `${line}: ${c.code} ${c.reason}`);
    });
  }

  test('other arguments are other work: a test file given to the script', () => {
    const c = decision('npm test -- src/other.test.js', view);
    assert.notEqual(c.decision, 'deny');
  });

  test('without a package.json the spellings stay what they say (the table is data: nothing read, nothing guessed)', () => {
    const none = { ...view, scripts: () => null };
    assert.equal(decision('npm test', none).key, '.::npm test');
    assert.equal(decision('yarn test', none).key, '.::yarn test');
  });

  test('a script that runs several commands is its own approach, named the npm way, and each of its commands is a step', () => {
    const tables = new Map([[needKey({ kind: 'npm', folder: '.' }), TABLES.npm]]);
    for (const l of ['npm run build', 'yarn build', 'pnpm run build']) assert.equal(resolveLine(l, '.', tables).key, '.::npm run build', l);
    const build = exhausted('node esbuild.mjs', 'Error: Could not resolve "./missing"\n');
    const c = decision('yarn build', build.view);
    assert.equal(c.decision, 'deny', 'its second command is the exhausted `node esbuild.mjs`');
    assert.equal(c.key, '.::node esbuild.mjs');
  });

  test('a pass of either spelling clears both: the failures were counted on one approach', () => {
    const data = emptyMemory('2026-11-20T10:00:00Z');
    const r = recorder();
    const tables = new Map([[needKey({ kind: 'npm', folder: '.' }), TABLES.npm]]);
    for (const c of ['npm test', 'npx jest', 'yarn test', 'npm t', 'npm run test']) applyAttempt(data, r.attempt(c, 1, JEST_FAIL, {}, DEFAULT_SETTINGS, tables), DEFAULT_SETTINGS);
    assert.deepEqual(Object.keys(data.approaches), ['.::jest']);
    assert.equal(data.approaches['.::jest'].status, 'exhausted');
    applyAttempt(data, r.attempt('npx jest', 0, 'Tests: 4 passed, 4 total\n', {}, DEFAULT_SETTINGS, tables), DEFAULT_SETTINGS);
    assert.equal(data.approaches['.::jest'].status, 'resolved');
    const view: GateView = { data, settings: DEFAULT_SETTINGS, redact: t => t, now: new Date(r.now() + 60_000), scripts: reader };
    assert.equal(decision('npm test', view).decision, 'allow');
  });
});

describe('Makefile targets, pdm and composer scripts', () => {
  const tables = new Map(Object.values(TABLES).map(t => [needKey({ kind: t.kind, folder: '.' }), t]));
  const key = (l: string, cwd = '.') => resolveLine(l, cwd, tables).key;

  test('`make test` whose recipe is one command is that command; `make` builds the first target', () => {
    assert.equal(key('make test'), key('python -m pytest -x tests/'));
    assert.equal(key('make'), '.::make all');
    assert.equal(key('make all'), '.::make all');
    assert.equal(key('make -C sub test'), '.::make test', 'another folder: that folder\'s Makefile (none here)');
  });

  test('`pdm run test` and `composer test` are the commands their scripts run', () => {
    assert.equal(key('pdm run test'), key('pytest -x tests/'));
    assert.equal(key('composer test'), '.::phpunit');
    assert.equal(key('composer run-script test'), '.::phpunit');
  });

  test("a test runner its environment broke: another test file run through a script is the same loop", () => {
    const envError = "ImportError while loading conftest '/w/tests/conftest.py'.\ntests/conftest.py:1: in <module>\nE   ModuleNotFoundError: No module named 'fixtures'\n";
    const { view } = exhausted('pytest tests/test_a.py', envError);
    const c = decision('pdm run test', view);
    assert.deepEqual([c.decision, c.code], ['deny', 'environment-loop']);
  });

  test('a table not given yet is asked for, once per manifest and folder', () => {
    const r = resolveLine('cd api && npm test', '.', new Map());
    assert.deepEqual(r.missing, [{ kind: 'npm', folder: 'api' }]);
    assert.deepEqual(judgedLines('git status && ls', '.', new Map()).missing, [], 'no script: nothing to read');
  });
});

describe('edits chained in the line, and read-only steps after the run', () => {
  test('an edit chained before the run is new work the first time; the very same line again is the loop', () => {
    const { data, view } = exhausted('npm test');
    const line = "sed -i 's/a/b/' src/cart.js && npm test";
    const first = decision(line, view);
    assert.deepEqual([first.decision, first.code], ['warn', 'edit-chained']);
    const r = recorder('2026-11-20T11:00:00Z');
    const tables = new Map([[needKey({ kind: 'npm', folder: '.' }), TABLES.npm]]);
    applyAttempt(data, r.attempt(line, 1, JEST_FAIL, {}, DEFAULT_SETTINGS, tables), DEFAULT_SETTINGS);
    const again = decision(line, { ...view, now: new Date(r.now() + 60_000) });
    assert.deepEqual([again.decision, again.code], ['deny', 'same-error-unchanged']);
  });

  test('`cat > f <<EOF … EOF` before the run is an edit chained; a run before the edit in the same line is still the loop', () => {
    const { view } = exhausted('npm test');
    assert.equal(decision("cat > src/cart.js <<'EOF'\nmodule.exports = 1\nEOF\nnpm test", view).code, 'edit-chained');
    assert.equal(decision("npm test; sed -i 's/a/b/' src/cart.js && npm test", view).decision, 'deny');
  });

  test('a read-only step after the run does not hide it, and a success reported by a later step clears nothing', () => {
    const { data, view } = exhausted('npm test');
    for (const l of ['npm test && git status', 'npm test; echo done', 'npm test | tail']) assert.equal(decision(l, view).decision, 'deny', l);
    // `; echo done` exits 0 whatever the tests did: the failing tests it printed are the run's outcome
    const r = recorder('2026-11-20T11:00:00Z');
    const tables = new Map([[needKey({ kind: 'npm', folder: '.' }), TABLES.npm]]);
    const hidden = applyAttempt(data, r.attempt('npm test; echo done', 0, `${JEST_FAIL}done\n`, {}, DEFAULT_SETTINGS, tables), DEFAULT_SETTINGS);
    assert.equal(hidden.attempt.outcome, 'failure');
    assert.equal(data.approaches['.::jest'].status, 'exhausted');
    // `|| true` whose output shows the very error the approach keeps failing with: a failure too, never a pass that clears it
    const py = exhausted('python x.py', "Traceback (most recent call last):\nModuleNotFoundError: No module named 'left_pad'\n");
    const later = recorder('2026-11-20T11:00:00Z');
    const masked = applyAttempt(py.data, later.attempt('python x.py || true', 0, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'left_pad'\n"), DEFAULT_SETTINGS);
    assert.equal(masked.attempt.outcome, 'failure');
    assert.equal(py.data.approaches['.::python x.py'].status, 'exhausted');
  });
});
