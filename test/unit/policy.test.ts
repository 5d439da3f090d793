// The gate's graded answer (src/core/rules/policy.ts): each rule pinned by the behaviour it names and the corpus
// case it came from (../shared/trajectories: corpus 1 = mini-swe-agent, cited as task #command index;
// devcorpus2 = Claude Code / OpenHands, cited as its source's run id and chat path #command index),
// replayed through WorkspaceMemory with its own clock, as `failure-memory replay` does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { checkCommand } from '../../src/core/rules/check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { capDecision, cyclesBetweenTwo, REASON_CODES, RULES } from '../../src/core/rules/policy';
import { withRules } from '../../scripts/rulesDoc';
import type { EditInput } from '../../src/core/rules/edits';
import type { GateAnswer, GitState, MemoryData } from '../../src/core/types';
import { InMemoryStore } from '../../src/store/inMemoryStore';

type Step = [command: string, exitCode: number | null, output: string] | { edit: string; ok?: boolean };

/** A workspace memory whose clock moves 10 s per event, like the replay's. */
function memory(threshold: number, strongestAnswer: GateAnswer = 'deny') {
  let t = Date.parse('2026-11-20T10:00:00Z');
  const m = new WorkspaceMemory('/w', { store: new InMemoryStore(), settings: { threshold, 'gate.strongestAnswer': strongestAnswer }, git: false, clock: () => new Date(t) });
  const tick = (ms = 10_000) => (t += ms);
  const play = async (steps: Step[]) => {
    for (const s of steps) {
      tick();
      if (Array.isArray(s)) await m.record({ command: s[0], exitCode: s[1], output: s[2], source: 'agent' });
      else await m.recordEdits([{ path: s.edit, ok: s.ok !== false, source: 'agent', tool: 'Edit' } satisfies EditInput]);
    }
  };
  return { m, play, tick };
}

const POLL = 'cd /ai/run/gen_art_experiment_1\nps aux | grep method.py | grep -v grep\ntail -10 logs/run.log\nls -la method_out.json 2>&1';
const NOT_YET = "2026-08-13 12:43:31 | INFO | Fitting Cox model 'noise_20pct'\nls: cannot access 'method_out.json': No such file or directory\n";
const tb = (last: string) => `Traceback (most recent call last):\n  File "/testbed/reproduce_issue.py", line 12, in <module>\n    main()\n${last}\n`;

describe('deny: the same error with nothing changed since the last failure is the surest loop', () => {
  test('a poll that does not wait, repeated with the same answer and nothing changed (86060a …/gen_art_experiment_1 #78–#82)', async () => {
    const { m, play } = memory(3);
    await play([[POLL, 2, NOT_YET], [POLL, 2, NOT_YET], [POLL, 2, NOT_YET]]);
    const c = await m.check(POLL);
    assert.equal(c.decision, 'deny');
    assert.equal(c.code, 'same-error-unchanged');
    assert.equal(c.verdict, 'block');
    assert.match(c.why, /the same error 3 times in a row, and nothing changed since the last failure/);
    // its output filters and flags are cosmetics: `tail -12` instead of `tail -10` runs the same thing
    assert.equal((await m.check(POLL.replace('tail -10', 'tail -12'))).decision, 'deny');
  });

  test('a failure whose output the terminal did not capture neither breaks nor makes the chain (the e2e dead endpoint: fast runs lose their output)', async () => {
    const { m, play } = memory(5);
    const refused = "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n";
    const curl = 'curl -sS --max-time 2 http://127.0.0.1:9/health';
    await play([[curl, 7, refused], [curl, 7, ''], [curl, 7, refused], [curl, 7, refused], [curl, 7, '']]);
    assert.equal((await m.check(curl)).decision, 'deny');
  });

  test('other arguments or other code are not "nothing changed": the user decides (a new input file, another -c snippet)', async () => {
    const { m, play } = memory(3);
    const lean = (f: string) => `cat ${f} | python /skills/aii-lean/scripts/aii_run_lean.py - 2>&1`;
    await play([[lean('p.lean'), 1, '"errors": [1]\n}'], [lean('p.lean'), 1, '"errors": [1]\n}'], [lean('p.lean'), 1, '"errors": [1]\n}']]);
    assert.equal((await m.check(lean('p.lean'))).decision, 'deny');
    const other = await m.check(lean('p2.lean'));
    assert.notEqual(other.decision, 'deny');
    assert.equal(other.evidence?.change, 'line');
  });
});

describe('after a change: trying fixes, until the error outlasts the budget', () => {
  const FAIL = "FAILED testing/test_collection.py::test_collect_init_tests - Failed: nomatch: '*collected 2 items*'\n==== 1 failed in 0.18s ====\n";
  const PYTEST = 'pytest testing/test_collection.py::test_collect_init_tests';

  test('the same failing test after an edit is a fix attempt, and so is the third (pytest-dev__pytest-6197 #65–#79: the run after #74 passed)', async () => {
    const { m, play } = memory(3);
    await play([[PYTEST, 1, FAIL], ["sed -i 's/a/b/' src/_pytest/main.py", 0, ''], [PYTEST, 1, FAIL], ["sed -i 's/b/c/' src/_pytest/main.py", 0, ''], [PYTEST, 1, FAIL]]);
    // nothing changed since the third failure: denied
    assert.equal((await m.check(PYTEST)).decision, 'deny');
    await play([["sed -i '/keepduplicates/{N;d;}' src/_pytest/main.py", 0, '']]);
    const c = await m.check(PYTEST);
    // the same error after two changes: the third fix attempt still runs (and in the corpus it passed)
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'same-error-after-change');
    assert.match(c.why, /src\/_pytest\/main\.py changed since the last failure: a fix attempt, it runs; 2 changes before ended the same way/);
    // one more wrong fix and a person decides
    await play([[PYTEST, 1, FAIL], ["sed -i 's/c/d/' src/_pytest/main.py", 0, '']]);
    assert.equal((await m.check(PYTEST)).decision, 'ask');
  });

  test('below the budget the same error after an edit tool\'s edit is warned, not stopped (a script blocked after its editor edit: the held-out shape)', async () => {
    const { m, play } = memory(5);
    const err = tb("AssertionError: expected 12 derived, got 9");
    await play([['python kb_engine.py', 1, err], ['python kb_engine.py', 1, tb('KeyError: x')], ['python kb_engine.py', 1, err], ['python kb_engine.py', 1, err], ['python kb_engine.py', 1, err], { edit: '/w/rules.py' }]);
    const c = await m.check('python kb_engine.py');
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'same-error-after-change');
  });

  test('a failed edit changed nothing (devcorpus2: `ok: false` edits, "String to replace not found")', async () => {
    const { m, play } = memory(3);
    const err = tb('NameError: name x is not defined');
    await play([['python x.py', 1, err], ['python x.py', 1, err], ['python x.py', 1, err], { edit: '/w/x.py', ok: false }]);
    assert.equal((await m.check('python x.py')).decision, 'deny');
  });

  test('a git state that moved is a change even when no edit was reported', async () => {
    const { m, play } = memory(3);
    await play([['npm test', 1, 'Error: boom'], ['npm test', 1, 'Error: boom'], ['npm test', 1, 'Error: boom']]);
    const data = JSON.parse(JSON.stringify(await m.read())) as MemoryData;
    const approach = Object.values(data.approaches)[0];
    // the runs were recorded without git here: give the last failure a git state and compare
    const before: GitState = { head: 'a'.repeat(40), fingerprint: 'f1', dirty: {} };
    approach.ledger!.at(-1)!.git = before;
    assert.equal(checkCommand(data, 'npm test', '.', m.settings, new Date(), before).decision, 'deny');
    // a change earns a run: the fix is verified
    const moved = checkCommand(data, 'npm test', '.', m.settings, new Date(), { ...before, fingerprint: 'f2' });
    assert.deepEqual([moved.decision, moved.code, moved.evidence?.change], ['warn', 'same-error-after-change', 'git']);
  });
});

describe('new work and waiting are not a loop', () => {
  test('an edit chained before the check is new work (sphinx-doc__sphinx-7985 #18–#21: cat <<EOF > index.rst … && sphinx-build)', async () => {
    const { m, play } = memory(3);
    const build = (body: string) => `cat <<'EOF' > reproduce_issue/index.rst\n${body}\nEOF\ncd reproduce_issue && sphinx-build -b linkcheck . _build`;
    const out = "(line    1) broken    https://lkfqhlkghflkhs - Failed to resolve 'lkfqhlkghflkhs'\nbuild finished with problems, 1 warning.\n";
    await play([[build('a'), 1, out], [build('a'), 1, out], [build('a'), 1, out]]);
    // the very same line again repeats the same edit: no new work
    assert.equal((await m.check(build('a'))).decision, 'deny');
    const c = await m.check(build('b'));
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'edit-chained');
  });

  test('a script rewritten since its last failure runs other code (django__django-15629 #27–#34: sed -i … reproduce_issue.py, then run it)', async () => {
    const { m, play } = memory(3);
    const err = 'Ran 1 test in 0.005s\n\nFAILED (errors=1)\n';
    await play([['python3 reproduce_issue.py', 1, err], ['python3 reproduce_issue.py', 1, err], ['python3 reproduce_issue.py', 1, err], ["sed -i '/self.data_types =/a x' reproduce_issue.py", 0, '']]);
    const c = await m.check('python3 reproduce_issue.py');
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'input-changed');
  });

  test('waiting on a background job (`sleep 60; tail log`) is not a failure streak (devcorpus2 README: null launches, then sleep; tail polls)', async () => {
    const { m, play } = memory(3);
    const wait = 'sleep 60; tail -3 /tmp/train.log; ls checkpoints/epoch_10.pt';
    const notYet = "epoch 4/10 loss 0.31\nls: cannot access 'checkpoints/epoch_10.pt': No such file or directory\n";
    await play([['nohup python train.py > /tmp/train.log 2>&1 &', 0, '[1] 4242'], [wait, 2, notYet], [wait, 2, notYet], [wait, 2, notYet], [wait, 2, notYet]]);
    const c = await m.check(wait);
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'waiting-on-job');
  });

  test('a poll waits only for a bounded time after its job started', async () => {
    const { m, play, tick } = memory(3);
    const wait = 'sleep 30 && ls /tmp/job.done';
    const notYet = "ls: cannot access '/tmp/job.done': No such file or directory\n";
    await play([['python job.py > /tmp/job.log 2>&1 &', 0, ''], [wait, 2, notYet], [wait, 2, notYet], [wait, 2, notYet]]);
    assert.equal((await m.check(wait)).decision, 'warn');
    tick(11 * 60_000);
    assert.equal((await m.check(wait)).decision, 'deny');
  });
});

describe('loops whatever the detail printed', () => {
  const pytest = (names: string[]) => `${names.map(n => `FAILED tests/test_api.py::${n} - AssertionError`).join('\n')}\n==== ${names.length} failed in 0.3s ====\n`;

  test('no test passing in three attempts is no progress, whatever the failing detail (a shape none of the rules was written from)', async () => {
    const { m, play } = memory(3);
    await play([['pytest tests/test_api.py', 1, pytest(['test_a', 'test_b'])], ['pytest tests/test_api.py', 1, pytest(['test_c'])], ['pytest tests/test_api.py', 1, pytest(['test_a', 'test_d'])]]);
    const c = await m.check('pytest tests/test_api.py');
    assert.equal(c.code, 'no-test-passing');
    assert.equal(c.decision, 'deny');
    // a change earns a run, and so does a second fix after a wrong one; after the budget a person decides
    await play([{ edit: '/w/src/api.py' }]);
    assert.equal((await m.check('pytest tests/test_api.py')).decision, 'warn');
    await play([['pytest tests/test_api.py', 1, pytest(['test_b'])], { edit: '/w/src/api.py' }]);
    assert.equal((await m.check('pytest tests/test_api.py')).decision, 'warn');
    await play([['pytest tests/test_api.py', 1, pytest(['test_a'])], { edit: '/w/src/api.py' }]);
    assert.equal((await m.check('pytest tests/test_api.py')).decision, 'warn');
    await play([['pytest tests/test_api.py', 1, pytest(['test_c'])], { edit: '/w/src/api.py' }]);
    const c2 = await m.check('pytest tests/test_api.py');
    assert.deepEqual([c2.code, c2.decision], ['no-test-passing', 'ask']);
  });

  test('errors cycling between two (A, B, A, B) are a loop (held-out shape)', async () => {
    const { m, play } = memory(3);
    const a = tb("ImportError: cannot import name 'x' from 'pkg'");
    const b = tb("AttributeError: module 'pkg' has no attribute 'y'");
    await play([['python run.py', 1, a], ['python run.py', 1, b], ['python run.py', 1, a], ['python run.py', 1, b]]);
    const c = await m.check('python run.py');
    assert.equal(c.code, 'error-cycle');
    assert.equal(c.decision, 'deny');
    assert.ok(cyclesBetweenTwo(['A', 'B', 'A', 'B']));
    assert.ok(!cyclesBetweenTwo(['A', 'B', 'C', 'B']));
  });

  test('failures that print no error line: denied unchanged, warned after a change (1560d8 …/gen_demo_art_evaluation_1 #24–#28: nbconvert > log, only a pip notice)', async () => {
    const { m, play } = memory(3);
    const notice = '\n[notice] A new release of pip is available: 25.0.1 -> 26.2\n[notice] To update, run: python3.12 -m pip install --upgrade pip\n';
    const nb = '.nb_env/bin/jupyter nbconvert --to notebook --execute code_demo.ipynb --output code_demo.ipynb > nbconvert_log.txt 2>&1';
    await play([[nb, 1, notice], [nb, 1, notice], [nb, 1, notice]]);
    assert.equal((await m.check(nb)).decision, 'deny');
    await play([{ edit: '/w/code_demo.ipynb' }]);
    assert.equal((await m.check(nb)).decision, 'warn');
  });

  test('the failing set shrinking (5 failed → 1 failed, 4 passed) is progress, not a plateau (held-out shape)', async () => {
    const { m, play } = memory(3);
    const counts = (failed: number, passed: number) => `==== ${failed} failed, ${passed} passed in 0.5s ====\n`;
    await play([['pytest tests/test_x.py', 1, counts(5, 0)], ['pytest tests/test_x.py', 1, counts(5, 0)], ['pytest tests/test_x.py', 1, counts(1, 4)]]);
    const c = await m.check('pytest tests/test_x.py');
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'improving');
  });
});

describe('the strongest answer (failureMemory.gate.strongestAnswer) and shadow mode', () => {
  test('deny stays deny; under ask it is asked; under warn nothing is stopped and what would have been is kept', async () => {
    assert.equal(capDecision('deny', 'deny'), 'deny');
    assert.equal(capDecision('deny', 'ask'), 'ask');
    assert.equal(capDecision('ask', 'warn'), 'warn');
    assert.equal(capDecision('warn', 'warn'), 'warn');
    const { m, play } = memory(3, 'warn');
    await play([['make build', 2, 'make: *** [build] Error 2'], ['make build', 2, 'make: *** [build] Error 2'], ['make build', 2, 'make: *** [build] Error 2']]);
    const c = await m.check('make build');
    assert.equal(c.decision, 'warn');
    assert.equal(c.policyDecision, 'deny');
    assert.equal(c.verdict, 'warn');
    assert.match(c.reason, /shadow mode: it would have been denied/);
    const record = await m.recordDecision(c, 'cli');
    assert.equal(record?.decision, 'warn');
    assert.equal(record?.policy, 'deny');
    assert.equal(record?.code, 'same-error-unchanged');
    assert.equal((await m.read()).decisions?.length, 1);
  });

  test('every reason code names its behaviour', () => {
    for (const [code, rule] of Object.entries(REASON_CODES)) assert.ok(rule.length > 10, code);
  });

  test('the rule table is what the docs list (npm run gen:rules writes it), one row per code', () => {
    assert.equal(new Set(RULES.map(r => r.code)).size, RULES.length, 'no code twice');
    assert.deepEqual(Object.keys(REASON_CODES), RULES.map(r => r.code));
    const doc = readFileSync(resolve(__dirname, '../../docs/agents.md'), 'utf8');
    assert.equal(withRules(doc, RULES), doc, 'docs/agents.md lists the rules of src/core/rules/policy.ts: run npm run gen:rules');
  });
});
