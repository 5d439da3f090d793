// Pattern records (src/core/rules/patternRecords.ts) and the gate that counts the cause
// (judgeCause in src/core/rules/policy.ts): one cause failing several approaches is one loop. Played
// through WorkspaceMemory with its own clock, as `failure-memory record` and `check` do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { checkCommand, explainBlock } from '../../src/core/rules/check';
import { REASON_CODES } from '../../src/core/rules/policy';
import { boundPatterns, MAX_PATTERNS, patternId, shownPatterns } from '../../src/core/rules/patternRecords';
import { patternRecordShape } from '../../src/core/storedShapes';
import { emptyMemory, SCHEMA_VERSION, type GateAnswer, type GitState, type PatternRecord } from '../../src/core/types';
import { migrateMemory } from '../../src/store/memorySchema';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { NODE_PG, PG, PRISMA, REDIS, REFUSED_RUNS } from '../support/dbRefusals';

type Step = [command: string, exitCode: number | null, output: string] | { edit: string };

function memory(threshold = 5, strongestAnswer: GateAnswer = 'deny') {
  let t = Date.parse('2026-11-20T14:02:00Z');
  const m = new WorkspaceMemory('/w', { store: new InMemoryStore(), settings: { threshold, 'gate.strongestAnswer': strongestAnswer }, git: false, clock: () => new Date(t) });
  const play = async (steps: Step[]) => {
    for (const s of steps) {
      t += 10_000;
      if (Array.isArray(s)) await m.record({ command: s[0], exitCode: s[1], output: s[2], source: 'agent' });
      else await m.recordEdits([{ path: s.edit, source: 'agent', tool: 'Edit' }]);
    }
  };
  return { m, play, tick: (ms: number) => (t += ms) };
}

const LINT = "/w/src/a.ts\n  3:7  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n";

/** The case: three approaches failing twice each with the database refusing connections on :5432. */
const SIX_REFUSALS: Step[] = [...REFUSED_RUNS, ...REFUSED_RUNS];

describe('pattern records: one cause across approaches', () => {
  test('the same cause across three approaches is one pattern, systemic, with its runs, times and common factors', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    const patterns = (await m.read()).patterns ?? [];
    assert.equal(patterns.length, 1);
    const p = patterns[0];
    assert.equal(p.kind, 'conn_refused');
    assert.equal(p.cause, 'conn_refused|localhost:5432');
    assert.equal(p.id, patternId(p.cause));
    assert.equal(p.subject, 'the database at localhost:5432');
    assert.equal(p.occurrences, 6);
    assert.equal(p.failures, 6);
    assert.deepEqual(p.approaches.map(a => [a.label, a.failures]), [['npm test', 2], ['psql', 2], ['prisma migrate dev', 2]]);
    assert.equal(p.runs.length, 6);
    assert.equal(p.systemic, true);
    assert.equal(p.status, 'active');
    assert.equal(p.firstSeen, '2026-11-20T14:02:10.000Z');
    assert.equal(p.lastSeen, '2026-11-20T14:03:00.000Z');
    // the factors all six shared: the host, the port, the service and the folder (the exit family differs: 1 and 2 are one family)
    assert.deepEqual(p.factors, { host: 'localhost', port: '5432', service: 'database', exit: 'error (1-2)', cwd: '.' });
    assert.ok(patternRecordShape(p));
  });

  test('the port keeps two services apart: Redis on :6379 and the database on :5432 are two patterns', async () => {
    const { m, play } = memory();
    await play([['npm test', 1, NODE_PG()], ['redis-cli ping', 1, REDIS], ['node worker.js', 1, NODE_PG(6379)], ['psql -p 5432', 2, PG()]]);
    const patterns = (await m.read()).patterns ?? [];
    assert.deepEqual(patterns.map(p => [p.cause, p.failures, p.approaches.map(a => a.label)]), [
      ['conn_refused|localhost:5432', 2, ['npm test', 'psql']],
      ['conn_refused|localhost:6379', 2, ['redis-cli ping', 'node worker.js']],
    ]);
    assert.equal(patterns[1].subject, 'the Redis at localhost:6379');
  });

  test('different causes never merge: a lint error in a fourth command stays its own, code-caused and not systemic', async () => {
    const { m, play } = memory();
    await play([...SIX_REFUSALS, ['npx eslint .', 1, LINT], ['npm run lint', 1, LINT]]);
    const patterns = (await m.read()).patterns ?? [];
    assert.equal(patterns.length, 2);
    const lint = patterns.find(p => p.kind === 'error')!;
    assert.equal(lint.cls, 'code');
    assert.equal(lint.systemic, false, 'the workspace code explains a lint error');
    assert.deepEqual(lint.approaches.map(a => a.label), ['eslint', 'npm run lint']);
    assert.ok(!patterns[0].approaches.some(a => a.label === 'eslint'));
  });

  test('a missing module is the toolchain (systemic across approaches); a missing relative module is the code', async () => {
    const { m, play } = memory();
    const numpy = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy'\n";
    const utils = "Error: Cannot find module './utils'\nRequire stack:\n- /w/app.js\n";
    await play([['python a.py', 1, numpy], ['python b.py', 1, numpy.replace('a.py', 'b.py')], ['node app.js', 1, utils], ['node other.js', 1, utils]]);
    const [np, rel] = (await m.read()).patterns ?? [];
    assert.equal(np.cause, 'module_missing|numpy');
    assert.equal(np.systemic, true);
    assert.equal(rel.cause, 'module_missing|./utils');
    assert.equal(rel.cls, 'code');
    assert.equal(rel.systemic, false);
  });

  test('records stay bounded: the least worth first (single-approach code errors), never the active systemic ones', () => {
    const data = emptyMemory();
    const rec = (i: number, over: Partial<PatternRecord>): PatternRecord => ({
      id: `p${i}`, cause: `error|x|${i}`, kind: 'error', cls: 'code', subject: `e${i}`, factors: {}, approaches: [{ key: `k${i}`, label: 'x', cwd: '.', failures: 1, lastSeen: '2026-01-01' }],
      runs: [], occurrences: 1, failures: 1, firstSeen: '2026-01-01', since: '2026-01-01', lastSeen: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`, lastError: '', systemic: false, status: 'active', ...over,
    });
    data.patterns = [rec(0, { systemic: true, cls: 'service' }), ...Array.from({ length: MAX_PATTERNS + 5 }, (_, i) => rec(i + 1, {}))];
    boundPatterns(data);
    assert.equal(data.patterns.length, MAX_PATTERNS);
    assert.ok(data.patterns.some(p => p.id === 'p0'), 'the systemic one stays');
    assert.ok(!data.patterns.some(p => p.id === 'p1'), 'the oldest code error goes first');
  });
});

describe('the gate counts the cause', () => {
  test('six refusals of three commands: the next run of any of them is denied with one reason naming the cause and the commands', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    const c = await m.check('npm test');
    assert.equal(c.decision, 'deny');
    assert.equal(c.code, 'systemic-cause');
    assert.equal(c.status, 'failing', 'the approach itself failed only twice');
    assert.match(c.reason, /^the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d, and nothing changed since: start it first$/);
    assert.deepEqual(c.pattern?.commands, ['npm test', 'psql', 'prisma migrate dev']);
    const text = explainBlock(c);
    assert.match(text, /NOT RUN — `npm test` fails on a cause that keeps failing other commands too/);
    assert.match(text, /One cause: the database at localhost:5432 — 3 commands: npm test; psql; prisma migrate dev\./);
    assert.equal((await m.check('npx prisma migrate dev --name init')).decision, 'deny');
    assert.ok(REASON_CODES['systemic-cause']);
  });

  test('below the threshold nothing is stopped, but the pattern is told', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS.slice(0, 4));
    const c = await m.check('psql -h localhost -U app -c "select 1"');
    assert.equal(c.decision, 'allow');
    assert.equal(c.pattern?.failures, 4);
    assert.equal(c.pattern?.seen, true);
  });

  test('a command never seen with the cause is not stopped but told (warn with the pattern); a probe or the fix itself is not', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    const c = await m.check('python manage.py migrate');
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'systemic-cause');
    assert.match(c.reason, /^not seen failing with it, but the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d: if it needs it too, start it first$/);
    assert.equal(c.pattern?.seen, false);
    assert.equal((await m.check('docker compose up -d db')).decision, 'allow', 'the fix is not warned against');
    assert.equal((await m.check('cat docker-compose.yml')).decision, 'allow', 'reading is not');
  });

  test('a change that could affect it lifts the stop to a warning: a service command, an install, a workspace edit', async () => {
    for (const change of [['docker compose up -d db', 0, ''] as Step, ['npm install pg', 0, ''] as Step, { edit: '.env' } as Step]) {
      const { m, play } = memory();
      await play([...SIX_REFUSALS, change]);
      const c = await m.check('npm test');
      assert.equal(c.decision, 'warn', JSON.stringify(change));
      assert.match(c.reason, /but .* (ran|changed) since its last failure: trying a fix, not a loop/);
    }
  });

  test('a success of any command that needed the same thing resolves the pattern and lifts its stops, with the fix learned', async () => {
    const { m, play } = memory();
    await play([...SIX_REFUSALS, ['docker compose up -d db', 0, 'Container db Started\n'], ['pg_isready -h localhost -p 5432', 0, 'localhost:5432 - accepting connections\n']]);
    const p = (await m.read()).patterns![0];
    assert.equal(p.status, 'resolved');
    assert.equal(p.resolution?.by, 'success');
    assert.equal(p.resolution?.command, 'pg_isready -h localhost -p 5432');
    assert.equal(p.resolution?.fix, 'docker compose up -d db');
    assert.deepEqual(p.fixes?.map(f => [f.command, f.worked]), [['docker compose up -d db', 1]]);
    const c = await m.check('npm test');
    assert.notEqual(c.decision, 'deny');
    assert.equal(c.pattern, undefined);
  });

  test('when the cause comes back, the fix that worked comes with it, and it is reinforced when it works again', async () => {
    const { m, play, tick } = memory();
    await play([...SIX_REFUSALS, ['docker compose up -d db', 0, ''], ['npm test', 0, 'Tests: 3 passed, 3 total\n']]);
    tick(3600_000);
    await play(SIX_REFUSALS);
    const c = await m.check('npm test');
    assert.equal(c.decision, 'deny');
    assert.match(c.reason, /; last time: ⟦docker compose up -d db⟧$/);
    assert.deepEqual(c.pattern?.fix, { command: 'docker compose up -d db', worked: 1 });
    await play([['docker compose up -d db', 0, ''], ['npm test', 0, 'Tests: 3 passed, 3 total\n']]);
    const p = (await m.read()).patterns![0];
    assert.equal(p.occurrences, 12);
    assert.deepEqual(p.fixes?.map(f => [f.command, f.worked]), [['docker compose up -d db', 2]]);
  });

  test('Mark Resolved on one of its approaches resolves the pattern: the user lifts the stop', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    const key = (await m.check('psql -h localhost -U app -c "select 1"')).key;
    await m.resolve(key);
    assert.equal((await m.read()).patterns![0].status, 'resolved');
    assert.notEqual((await m.check('npm test')).decision, 'deny');
  });

  test('an approach that failed differently since has moved past the cause: not stopped for it', async () => {
    const { m, play } = memory();
    await play([...SIX_REFUSALS, ['npm test', 1, ' FAIL test/a.test.js\n  ● sums › adds\n\n    expect(received).toBe(expected)\n']]);
    const c = await m.check('npm test');
    assert.notEqual(c.code, 'systemic-cause');
  });

  test('a long quiet lapses the stop: a stretch older than 30 minutes neither stops nor warns', async () => {
    const { m, play, tick } = memory();
    await play(SIX_REFUSALS);
    tick(31 * 60_000);
    const c = await m.check('npm test');
    assert.notEqual(c.code, 'systemic-cause');
    assert.equal(c.pattern, undefined);
    assert.equal((await m.check('python manage.py migrate')).decision, 'allow');
  });

  test('a single approach failing with one cause is not systemic (its own rules count it)', async () => {
    const { m, play } = memory();
    await play(Array.from({ length: 6 }, () => ['npm test', 1, NODE_PG()] as Step));
    const c = await m.check('npm test');
    assert.notEqual(c.code, 'systemic-cause');
    assert.equal((await m.read()).patterns![0].systemic, false);
  });

  test('shadow mode records what it would have stopped; the user allowed once lets it run', async () => {
    const { m, play } = memory(5, 'warn');
    await play(SIX_REFUSALS);
    const c = await m.check('npm test');
    assert.equal(c.decision, 'warn');
    assert.equal(c.policyDecision, 'deny');
    const { m: m2, play: play2 } = memory();
    await play2(SIX_REFUSALS);
    await m2.allowOnce((await m2.check('npm test')).key);
    const once = await m2.check('npm test');
    assert.equal(once.decision, 'allow');
    assert.equal(once.code, 'allowed-once');
    await play2([['npm test', 1, NODE_PG()]]);
    assert.equal((await m2.check('npm test')).decision, 'deny', 'the one run used it up');
  });

  test('the rule reads nothing but the pattern records and the lists: a memory of heads decides the same', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    const data = structuredClone(await m.read());
    for (const a of Object.values(data.approaches)) {
      if (a.label === 'npm test') continue;
      a.attempts = [];
      a.ledger = [];
    }
    const c = checkCommand(data, 'npm test', '.', m.settings, new Date('2026-11-20T14:04:00Z'));
    assert.equal(c.code, 'systemic-cause');
  });
});

describe("the cause reads a change as the approach's own rules do", () => {
  const edit = (m: WorkspaceMemory, hash: string) => m.recordEdits([{ path: '.env', source: 'agent', tool: 'Edit', hash }]);

  test('the same bytes written again is no change (the stop stands); other bytes are, and earn a run', async () => {
    const { m, play, tick } = memory();
    await edit(m, 'h1');
    await play(SIX_REFUSALS);
    tick(10_000);
    await edit(m, 'h1');
    assert.equal((await m.check('npm test')).decision, 'deny', 'an edit that left .env as it was is no change');
    tick(10_000);
    await edit(m, 'h2');
    const c = await m.check('npm test');
    assert.equal(c.decision, 'warn');
    assert.equal(c.code, 'systemic-cause');
    assert.match(c.reason, /, but \.env changed since its last failure: trying a fix, not a loop$/);
  });

  test('a moved git state since its last failure earns a run; the same state does not', () => {
    const data = emptyMemory();
    const at = '2026-11-20T14:03:00.000Z';
    data.patterns = [{
      id: 'p', cause: 'conn_refused|localhost:5432', kind: 'conn_refused', cls: 'service', subject: 'the database at localhost:5432', factors: { port: '5432' },
      approaches: [{ key: '.::npm test', label: 'npm test', cwd: '.', failures: 3, lastSeen: at }, { key: '.::psql', label: 'psql', cwd: '.', failures: 3, lastSeen: at }],
      runs: [], occurrences: 6, failures: 6, firstSeen: at, since: at, lastSeen: at, lastGit: 'g1', lastError: 'connect ECONNREFUSED 127.0.0.1:5432', systemic: true, status: 'active',
    }];
    const settings = memory().m.settings;
    const now = new Date('2026-11-20T14:04:00Z');
    const git = (fingerprint: string): GitState => ({ fingerprint, head: 'h', dirty: {} });
    assert.equal(checkCommand(data, 'npm test', '.', settings, now, git('g1')).decision, 'deny');
    const moved = checkCommand(data, 'npm test', '.', settings, now, git('g2'));
    assert.equal(moved.decision, 'warn');
    assert.match(moved.reason, /the git state changed since its last failure/);
  });

  test('work chained before the step is a change (a service started, an install, an edit): it runs, warned; the same line after it failed is not', async () => {
    for (const line of ['docker compose up -d db && npm test', 'npm install pg && npm test', "sed -i 's/5432/5433/' .env && npm test", 'docker compose up -d db; npx prisma migrate dev']) {
      const { m, play } = memory();
      await play(SIX_REFUSALS);
      const c = await m.check(line);
      assert.equal(c.decision, 'warn', line);
      assert.equal(c.code, 'systemic-cause', line);
      assert.match(c.reason, /: trying a fix, not a loop$/, line);
      await play([[line, 1, line.includes('prisma') ? PRISMA : NODE_PG()]]);
      assert.equal((await m.check(line)).decision, 'deny', `${line}: the same line again repeats what did not help`);
    }
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    assert.equal((await m.check('npm test && docker compose up -d db')).decision, 'deny', 'a service started after the run is no change for it');
  });

  test('every step of a chain is judged for the cause: an approach it failed is stopped wherever it stands in the line', async () => {
    const { m, play } = memory();
    await play(SIX_REFUSALS);
    for (const line of ['npm test && git status', 'npm test; echo done', 'git status && npx prisma migrate dev --name init', "bash -c 'npm test'", '{ npm test; }', 'echo npm test | bash']) {
      const c = await m.check(line);
      assert.equal(c.decision, 'deny', line);
      assert.equal(c.code, 'systemic-cause', line);
    }
    const all = await m.gate('git status && npm test');
    assert.deepEqual(all.steps.map(s => [s.check.label, s.check.decision]).filter(([l]) => l === 'npm test' || l === 'git status').slice(-2), [['git status', 'allow'], ['npm test', 'deny']]);
  });

  test('an exhausted approach the cause failed too: a change earns a run, and after the change budget a person decides', async () => {
    const { m, play, tick } = memory();
    await play([...SIX_REFUSALS, ['npm test', 1, NODE_PG()], ['npm test', 1, NODE_PG()], ['npm test', 1, NODE_PG()]]);
    const denied = await m.check('npm test');
    assert.equal(denied.status, 'exhausted');
    assert.equal(denied.decision, 'deny');
    assert.ok(denied.pattern, 'the cause is told with the deny');
    for (let fix = 1; fix <= 3; fix++) {
      tick(10_000);
      await edit(m, `h${fix}`);
      const c = await m.check('npm test');
      assert.equal(c.decision, 'warn', `change ${fix}: it runs`);
      await play([['npm test', 1, NODE_PG()]]);
    }
    tick(10_000);
    await edit(m, 'h4');
    const asked = await m.check('npm test');
    assert.equal(asked.decision, 'ask', 'the same error after each of the last 3 changes: a person decides');
    assert.equal(asked.code, 'same-error-after-change');
  });
});

describe('shown patterns', () => {
  test('active systemic first, then those resolved with a fix; single-approach code errors are not shown', async () => {
    const { m, play } = memory();
    await play([['npx eslint .', 1, LINT], ...SIX_REFUSALS]);
    assert.deepEqual(shownPatterns(await m.read()).map(p => p.kind), ['conn_refused']);
  });
});

describe('memory written before pattern records', () => {
  test('a schema-3 memory migrates with its pattern records seeded from the runs it holds', async () => {
    const { m, play } = memory();
    await play([...SIX_REFUSALS, ['docker compose up -d db', 0, ''], ['npm test', 0, 'ok\n']]);
    const now = structuredClone(await m.read());
    const v3 = { ...now, schemaVersion: 3 } as Record<string, unknown>;
    delete v3.patterns;
    const data = migrateMemory(v3);
    assert.equal(data.schemaVersion, SCHEMA_VERSION);
    const [p] = data.patterns ?? [];
    assert.equal(p.cause, 'conn_refused|localhost:5432');
    assert.equal(p.occurrences, 6);
    assert.equal(p.status, 'resolved', 'the success in the window resolved it');
    assert.deepEqual(p.approaches.map(a => a.label), ['npm test', 'psql', 'prisma migrate dev']);
  });

  test('a pattern record of the wrong shape is dropped, not a reason to refuse the memory', () => {
    const data = migrateMemory({ schemaVersion: SCHEMA_VERSION, approaches: {}, patterns: [{ id: 'x' }, 'nope'] });
    assert.deepEqual(data.patterns, []);
  });
});
