// The CLI with team memory, as CI and agents' hooks use it: FAILURE_MEMORY_DATABASE_URL (or PG*),
// `record` queues, `sync` pushes and pulls, `check --json` carries a `team` object.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort, startCluster, type PgCluster } from '../support/pgCluster';
import { cloneWorkspace } from '../support/teamWorkspace';

const CLI = resolve(__dirname, '../../dist/cli.js');
let pg: PgCluster;

function cli(ws: string, args: string[], env: Record<string, string>, input = '') {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && k !== 'CI' && !k.startsWith('GITHUB') && !k.startsWith('FAILURE_MEMORY')));
  // `sync` is what these tests look at: no background sync beside it (test/unit/teamAgents.test.ts has those)
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', env: { ...clean, FAILURE_MEMORY_BACKGROUND_SYNC: 'off', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

before(async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  pg = await startCluster();
});
after(async () => {
  await pg?.remove();
});

describe('failure-memory CLI with team memory', () => {
  test('a CI run and a developer share a failure through record → sync → check --json', () => {
    const ci = cloneWorkspace('https://github.com/acme/cli-team.git');
    const dev = cloneWorkspace('git@github.com:acme/cli-team.git');
    const ciEnv = { FAILURE_MEMORY_DATABASE_URL: pg.url, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_NAME: 'runner-7' };
    for (let i = 0; i < 5; i++) {
      const r = cli(ci, ['record', '--command', 'npm run migrate', '--exit-code', '1'], ciEnv, 'Error: relation "users" does not exist\n');
      assert.equal(r.code, 0, r.stderr);
    }
    const s = cli(ci, ['sync', '--json'], ciEnv);
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual({ ...s.json(), cleared: undefined }, { project: 'github.com/acme/cli-team', machine: 'ci:github-actions/runner-7', state: 'online', pushed: 5, inserted: 5, waiting: 0, pulled: true, cleared: undefined, retention: { attempts: 0, resolves: 0, vectors: 0, patterns: 0 } });

    // the developer: password in PGPASSWORD, URL without it
    const devEnv = { FAILURE_MEMORY_DATABASE_URL: pg.urlWithoutPassword, PGPASSWORD: pg.password };
    assert.equal(cli(dev, ['sync'], devEnv).code, 0);
    const c = cli(dev, ['check', '--command', 'npm run migrate', '--json'], devEnv);
    assert.equal(c.code, 0, 'team failures warn by default');
    const j = c.json();
    assert.equal(j.status, 'clear');
    assert.equal(j.verdict, 'warn');
    assert.deepEqual(
      { status: j.team.status, failures: j.team.failures, machines: j.team.machines, ci: j.team.ci, lastError: j.team.lastError, state: j.team.sync.state },
      { status: 'exhausted', failures: 5, machines: 1, ci: true, lastError: 'Error: relation "users" does not exist', state: 'online' },
    );
    const human = cli(dev, ['check', '--command', 'npm run migrate'], devEnv);
    assert.match(human.stdout, /team: failed 5 times this week on 1 machine, including CI, last error: Error: relation "users" does not exist/);

    // team recall: PostgreSQL full-text search over the team's failures
    const found = cli(dev, ['recall', '--query', 'relation users does not exist', '--team', '--json'], devEnv);
    assert.equal(found.code, 0, found.stderr);
    const hits = found.json().team as Array<{ from: string; kind: string; key: string; machine: string }>;
    assert.ok(hits.some(f => f.from === 'team' && f.kind === 'attempt' && f.key === j.key && f.machine === 'ci:github-actions/runner-7'), JSON.stringify(hits));
    // and by meaning, with no word in common (the vectors CI's sync pushed, scored here: no pgvector on this server)
    const meaning = cli(dev, ['recall', '--query', 'migration failed, table accounts missing', '--team', '--json'], devEnv);
    assert.equal(meaning.code, 0, meaning.stderr);
    const m = meaning.json() as { local: Array<{ from: string }>; team: Array<{ key: string; rank: number; similarity: number | null }>; teamScoring: { mode: string; model: string } };
    assert.equal(m.teamScoring.mode, 'client');
    assert.match(m.teamScoring.model, /^offline-v1:/);
    assert.ok(m.local.every(h => h.from === 'local'));
    assert.equal(m.team[0]?.key, j.key, JSON.stringify(m.team));
    assert.equal(m.team[0].rank, 0, 'no full-text match');
    assert.ok((m.team[0].similarity ?? 0) > 0);
    const humanRecall = cli(dev, ['recall', '--query', 'migration failed, table accounts missing', '--team'], devEnv);
    assert.match(humanRecall.stdout, /Team \(github\.com\/acme\/cli-team; words and meaning, vectors scored on this machine\):\n1\. \[\d\.\d\d\] attempt from ci:github-actions\/runner-7: /);
    // a query about something else: nothing similar, not the same failure scored 0.02
    const unrelated = cli(dev, ['recall', '--query', 'the table for accounts is missing', '--team'], devEnv);
    assert.match(unrelated.stdout, /\nNothing similar in the team memory\.\n?$/);

    // without team memory the answer has no team object
    const off = cli(dev, ['check', '--command', 'npm run migrate', '--json'], {}).json();
    assert.equal(off.team, undefined);
    assert.equal(off.verdict, 'allow');
  });

  test('lessons reach teammates through check, also from a fixer who never failed locally; a team clear is told by its label and check agrees with its history', () => {
    const env = { FAILURE_MEMORY_DATABASE_URL: pg.url };
    const a = cloneWorkspace('git@github.com:acme/cli-lessons.git');
    const b = cloneWorkspace('https://github.com/acme/cli-lessons');
    // before any pull, the team is not known: not "clear"
    const unknown = cli(a, ['check', '--command', 'npm test'], env);
    assert.match(unknown.stdout, /\nteam: not known yet: this machine has not pulled the team's failures\n/);
    assert.equal(JSON.parse(cli(a, ['check', '--command', 'npm test', '--json'], env).stdout).team.status, 'unknown');
    for (let i = 0; i < 5; i++) cli(a, ['record', '--command', 'npm test', '--exit-code', '1'], env, 'Error: connect ECONNREFUSED 127.0.0.1:5432\n');
    assert.equal(cli(a, ['sync'], env).code, 0);
    // b never ran it: its lesson names the approach all the same, and its pass clears it for the team
    assert.equal(cli(b, ['sync'], env).code, 0);
    const learned = cli(b, ['learn', '--type', 'learning', '--text', 'start the database first: docker compose up -d db', '--command', 'npm test', '--json'], env);
    assert.equal(learned.json().key, '.::npm test');
    assert.equal(cli(b, ['record', '--command', 'npm test', '--exit-code', '0'], env, 'ok\n').code, 0);
    assert.equal(cli(b, ['sync'], env).code, 0);
    const synced = cli(a, ['sync'], env);
    assert.match(synced.stdout, /cleared here by a team success: npm test$/m);
    assert.doesNotMatch(synced.stdout, /\.::/);
    const c = cli(a, ['check', '--command', 'npm test', '--json'], env).json();
    assert.deepEqual(c.learnings, [{ type: 'learning', text: 'start the database first: docker compose up -d db', from: 'team', machine: c.learnings[0]?.machine }]);
    assert.equal(c.status, 'clear');
    const human = cli(a, ['check', '--command', 'npm test'], env).stdout;
    assert.match(human, /^clear: npm test has not failed here \(succeeded elsewhere in the team since it last failed here; not run here since\)\.\npassed 0 of the last 5 runs/);
    assert.doesNotMatch(human, /last run succeeded/);
    assert.match(human, /\nTeam lesson \(learning, from [^)]+\): ⟦start the database first: docker compose up -d db⟧/);
  });

  test('a wrong password: record and check keep working, sync says it once, clearly, and exits 3', () => {
    const ws = cloneWorkspace('https://github.com/acme/cli-auth.git');
    const env = { FAILURE_MEMORY_DATABASE_URL: pg.urlWithoutPassword, PGPASSWORD: 'wrong-password' };
    const r = cli(ws, ['record', '--command', 'make', '--exit-code', '2', '--json'], env, 'make: *** [all] Error 2\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const s = cli(ws, ['sync'], env);
    assert.equal(s.code, 3);
    const lines = s.stderr.trim().split('\n');
    assert.equal(lines.length, 1, s.stderr);
    assert.match(lines[0], /^failure-memory: team memory database postgres:\/\/fm_test@127\.0\.0\.1:\d+\/postgres refused the login \(wrong user or password\)\..* \(1 waiting\)$/);
    assert.ok(!s.stderr.includes('wrong-password'));
    const c = cli(ws, ['check', '--command', 'make', '--json'], env).json();
    assert.equal(c.attempts, 1);
    assert.equal(c.team.sync.state, 'offline');
    assert.equal(c.team.sync.waiting, 1);
    for (const f of ['memory.json', 'team-outbox.jsonl', 'team-view.json']) assert.ok(!readFileSync(join(ws, '.vscode', 'failure-memory', f), 'utf8').includes('wrong-password'));
  });

  test('an unreachable server: check answers from the cache without waiting for the network', async () => {
    const ws = cloneWorkspace('https://github.com/acme/cli-down.git');
    const env = { FAILURE_MEMORY_DATABASE_URL: `postgres://fm@127.0.0.1:${await freePort()}/fm` };
    assert.equal(cli(ws, ['record', '--command', 'pytest', '--exit-code', '1'], env, 'E   AssertionError\n').code, 0);
    const s = cli(ws, ['sync'], env);
    assert.equal(s.code, 3);
    assert.match(s.stderr, /is unreachable \(ECONNREFUSED\)/);
    const c = cli(ws, ['check', '--command', 'pytest', '--json'], env);
    assert.equal(c.code, 0);
    assert.equal(c.json().team.sync.state, 'offline');
  });

  test('sync without team memory says how to turn it on', () => {
    const ws = cloneWorkspace('https://github.com/acme/none.git');
    const s = cli(ws, ['sync'], {});
    assert.equal(s.code, 1);
    assert.match(s.stderr, /team memory is off/);
  });
});
