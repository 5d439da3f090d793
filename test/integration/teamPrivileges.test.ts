// Least privilege and bounded growth on a real PostgreSQL: a role that may only read and write the
// tables works once the owner ran `failure-memory team init`, is told plainly when the schema is
// missing or too old for it (never a raw "permission denied", never "offline"), never runs DDL; and
// the sync's retention removes a project's old rows and keeps it under its row limit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OutboxEntry } from '../../src/core/rules/team';
import { queryRows, startCluster, type PgCluster } from '../support/pgCluster';
import { LATEST_SCHEMA } from '../../src/store/team/migrations';
import { cloneWorkspace, machine } from '../support/teamWorkspace';

const CLI = resolve(__dirname, '../../dist/cli.js');
let pg: PgCluster;
const APP_PASSWORD = `app-${Math.random().toString(36).slice(2)}`;
const OWNER_PASSWORD = `owner-${Math.random().toString(36).slice(2)}`;
const url = (role: string, password: string) => `postgres://${role}:${password}@127.0.0.1:${pg.port}/postgres`;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => queryRows<T>(pg.url, text, params);

function cli(ws: string, args: string[], databaseUrl: string, input = '') {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && k !== 'CI' && !k.startsWith('GITHUB') && !k.startsWith('FAILURE_MEMORY')));
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', env: { ...clean, FAILURE_MEMORY_DATABASE_URL: databaseUrl, FAILURE_MEMORY_BACKGROUND_SYNC: 'off' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  pg = await startCluster();
  // an owner that may create tables in public (not a superuser), and an application role that may not
  await sql(`CREATE ROLE fm_owner LOGIN PASSWORD '${OWNER_PASSWORD}'`);
  await sql('GRANT CREATE, USAGE ON SCHEMA public TO fm_owner');
  await sql(`CREATE ROLE fm_app LOGIN PASSWORD '${APP_PASSWORD}'`);
  await sql('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
});
after(async () => {
  await pg?.remove();
});

describe('least privilege', () => {
  test('a read-and-write role: a clear message before init, works after `team init --grant`, never runs DDL', async () => {
    const ws = cloneWorkspace('git@github.com:acme/least.git');
    const app = url('fm_app', APP_PASSWORD);
    assert.equal(cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], app, 'Error: boom\n').code, 0);
    const before = cli(ws, ['sync'], app);
    assert.equal(before.code, 3);
    assert.match(before.stderr, /has no Failure Memory tables yet, and role fm_app may not create tables in schema public\. Have the database owner run `failure-memory team init` once/);
    assert.doesNotMatch(before.stderr, /permission denied|offline/);
    // check tells the reason, not "offline" alone
    const c = JSON.parse(cli(ws, ['check', '--command', 'npm test', '--json'], app).stdout);
    assert.equal(c.team.status, 'unknown');
    assert.match(c.team.summary, /has no Failure Memory tables yet/);

    const owner = cloneWorkspace('git@github.com:acme/least.git');
    const init = cli(owner, ['team', 'init', '--grant', 'fm_app'], url('fm_owner', OWNER_PASSWORD));
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /version 0 -> 4, applied 1: .*; 2: .*; 3: .*; 4: pattern records/);
    assert.match(init.stdout, /granted: GRANT USAGE ON SCHEMA "public" TO "fm_app"; GRANT SELECT, INSERT, UPDATE, DELETE ON "public"\.fm_schema_migrations, .*"public"\.fm_embeddings, "public"\.fm_patterns TO "fm_app"/);
    const again = cli(owner, ['team', 'init'], url('fm_owner', OWNER_PASSWORD));
    assert.match(again.stdout, /already at version 4/);

    const after = cli(ws, ['sync', '--json'], app);
    assert.equal(after.code, 0, after.stderr);
    assert.equal(JSON.parse(after.stdout).pushed, 1);
    const tables = await sql<{ tableowner: string; n: string }>("SELECT tableowner, count(*) AS n FROM pg_tables WHERE tablename LIKE 'fm\\_%' GROUP BY tableowner");
    assert.deepEqual(tables.map(t => t.tableowner), ['fm_owner'], 'every table is the owner\'s: the app role created none');
    // the app role at the latest schema: no DDL, not even CREATE … IF NOT EXISTS (it would be refused)
    const m = machine(cloneWorkspace('git@github.com:acme/least.git'), app, 'app-box');
    try {
      assert.equal((await m.team.sync()).error, undefined);
      assert.deepEqual(m.warnings, []);
    } finally {
      await m.team.close();
    }
  });

  test('a schema older than the role may use is refused plainly; one it can still use works, with a word to the owner', async () => {
    const app = url('fm_app', APP_PASSWORD);
    const ws = cloneWorkspace('git@github.com:acme/old-schema.git');
    await sql('DELETE FROM fm_schema_migrations WHERE version >= 3');
    const usable = machine(ws, app, 'old-box');
    try {
      await usable.memory.record({ command: 'make', exitCode: 2, output: 'make: *** Error 2', source: 'cli' });
      // a cause across commands waits in the outbox: a schema without pattern records drops it, the rest goes
      for (const command of ['npm test', 'node worker.js', 'npm test', 'node worker.js']) {
        await usable.memory.record({ command, exitCode: 1, output: 'Error: connect ECONNREFUSED 127.0.0.1:5432\n', source: 'cli' });
      }
      assert.ok((await usable.team.outbox.readAll()).some(e => e.kind === 'pattern'));
      const r = await usable.team.sync();
      assert.equal(r.error, undefined, r.error?.message);
      assert.equal(r.pushed, 6);
      assert.equal(await usable.team.outbox.count(), 0);
      assert.deepEqual(await sql('SELECT id FROM fm_patterns WHERE project = $1', [usable.team.project]), []);
      assert.match(usable.warnings.join('\n'), /its schema is version 2 \(role fm_app may not create tables in schema public\); it works without sharing pattern records, but version 4 keeps pulls and recall fast .* and shares them\. Have the owner run `failure-memory team init`/);
    } finally {
      await usable.team.close();
    }
    await sql('DELETE FROM fm_schema_migrations WHERE version = 2');
    const refused = machine(ws, app, 'old-box');
    try {
      const r = await refused.team.sync();
      assert.equal(r.error?.code, 'SCHEMA');
      assert.match(r.error!.message, /its Failure Memory schema is version 1, this version needs 2 or later, and role fm_app may not create tables in schema public/);
    } finally {
      await refused.team.close();
    }
    // the owner's next connection brings it up to date again (migrations run when needed, by a role that may)
    const owner = machine(ws, url('fm_owner', OWNER_PASSWORD), 'owner-box');
    try {
      assert.equal((await owner.team.sync()).error, undefined);
      assert.deepEqual((await sql<{ v: number }>('SELECT max(version) AS v FROM fm_schema_migrations'))[0].v, LATEST_SCHEMA);
    } finally {
      await owner.team.close();
    }
  });

  test('a role without a grant on a table is told which grants it needs', async () => {
    await sql(`CREATE ROLE fm_nogrant LOGIN PASSWORD '${APP_PASSWORD}'`);
    await sql('GRANT USAGE ON SCHEMA public TO fm_nogrant');
    const m = machine(cloneWorkspace('git@github.com:acme/nogrant.git'), url('fm_nogrant', APP_PASSWORD), 'nogrant-box');
    try {
      await m.memory.record({ command: 'make', exitCode: 2, output: 'Error 2', source: 'cli' });
      const r = await m.team.sync();
      assert.equal(r.error?.code, 'PERMISSION');
      assert.match(r.error!.message, /permission denied for table fm_schema_migrations\. The role needs SELECT, INSERT, UPDATE and DELETE on the tables fm_schema_migrations, .* see "Least privilege" in the README, or have the owner run `failure-memory team init --grant <role>`/);
      assert.equal(r.waiting, 1, 'the record waits in the outbox');
    } finally {
      await m.team.close();
    }
  });
});

/** An attempt entry as the outbox holds it, ended `daysAgo` days ago, of one of a few approaches (`make <name><n>`). */
function oldFailure(i: number, daysAgo: number, name = 't', id = `retention-${daysAgo}-${i}`): OutboxEntry {
  const at = new Date(Date.now() - daysAgo * 86400_000 - i * 1000).toISOString();
  const command = `make ${name}${i % 3}`;
  return {
    kind: 'attempt', id, queuedAt: at, machine: 'old-box', ci: false,
    attempt: { id, key: `.::${command}`, label: command, command, cwd: '.', exitCode: 2, outcome: 'failure', source: 'cli', errorSignature: 'Error 2', testResults: null, output: '', endedAt: at },
  };
}

describe('retention', () => {
  test('the sync removes the project\'s runs older than retentionDays and beyond maxRowsPerProject, once per period; other projects untouched', async () => {
    const app = url('fm_app', APP_PASSWORD);
    const m = machine(cloneWorkspace('git@github.com:acme/retention.git'), app, 'r-box', { retentionDays: 30, maxRowsPerProject: 100 });
    const other = machine(cloneWorkspace('git@github.com:acme/other.git'), app, 'o-box', { retentionDays: 0, maxRowsPerProject: 0 });
    try {
      // three approaches that failed only 45 days ago, three that failed 2 days ago
      await m.team.outbox.append([...Array.from({ length: 40 }, (_, i) => oldFailure(i, 45, 'old')), ...Array.from({ length: 150 }, (_, i) => oldFailure(i, 2))]);
      await other.team.outbox.append(Array.from({ length: 40 }, (_, i) => oldFailure(i, 45, 'old', `other-${i}`)));
      assert.equal((await other.team.sync()).retention, undefined, 'no limits: nothing to do');
      const r = await m.team.sync();
      assert.equal(r.error, undefined, r.error?.message);
      assert.deepEqual(r.retention, { attempts: 40 + 50, resolves: 0, vectors: 3, patterns: 0 }, 'the old runs, the 50 oldest beyond 100, and the vectors of the approaches whose runs are all gone');
      const count = async (project: string) => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM fm_attempts WHERE project = $1', [project]))[0].n);
      assert.equal(await count(m.team.project), 100);
      assert.equal(await count(other.team.project), 40);
      // due again only after RETENTION_EVERY_MS: the next sync leaves the new old row alone
      await m.team.outbox.append([oldFailure(999, 60, 'older')]);
      assert.equal((await m.team.sync()).retention, undefined);
      assert.equal(await count(m.team.project), 101);
    } finally {
      await m.team.close();
      await other.team.close();
    }
  });
});
