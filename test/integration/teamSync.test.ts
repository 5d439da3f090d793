// Team memory against a real, throwaway PostgreSQL cluster (initdb + pg_ctl in a temp folder):
// sharing and clearing between two clones, nothing lost or doubled across an outage, concurrency,
// and clear messages for a wrong password or an unreachable server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { freePort, queryRows, startCluster, type PgCluster } from '../support/pgCluster';
import { cloneWorkspace, machine } from '../support/teamWorkspace';

let pg: PgCluster;
const ORIGIN = 'git@github.com:Acme/Shop.git';
const PRISMA = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /app/node_modules/.prisma/client/index.js\n";

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => queryRows<T>(pg.url, text, params);

before(async () => {
  pg = await startCluster();
});
after(async () => {
  await pg?.remove();
});

describe('team memory on PostgreSQL', () => {
  test('two clones of one repository share an approach\'s failures, and a success on one clears it for both', async () => {
    const a = machine(cloneWorkspace(ORIGIN), pg.url, 'laptop-a');
    // the same repository cloned over https, with a token in the URL: same team project
    const b = machine(cloneWorkspace('https://x-token:ghp_abc@github.com/acme/shop/'), pg.url, 'ci:github-actions/runner-1');
    assert.equal(a.team.project, 'github.com/acme/shop');
    assert.equal(b.team.project, a.team.project);
    try {
      for (let i = 0; i < 3; i++) await a.memory.record({ command: 'npx prisma generate', exitCode: 1, output: PRISMA, source: 'terminal' });
      for (let i = 0; i < 2; i++) await b.memory.record({ command: 'npx prisma generate', exitCode: 1, output: PRISMA, source: 'cli' });
      assert.equal(await a.team.outbox.count(), 3, 'each failure waits in the outbox');
      const ra = await a.team.sync(a.memory.store);
      assert.equal(ra.error, undefined, ra.error?.message);
      assert.equal(ra.inserted, 3);
      const rb = await b.team.sync(b.memory.store);
      assert.equal(rb.inserted, 2);
      await a.team.sync(a.memory.store);

      // a: 3 local failures (below 5), but the team saw 5 on 2 machines, one of them CI: warned
      const ca = await a.memory.check('npx prisma generate');
      assert.equal(ca.status, 'failing');
      assert.equal(ca.attempts, 3);
      assert.ok(ca.team);
      assert.equal(ca.team.status, 'exhausted');
      assert.equal(ca.team.failures, 5);
      assert.equal(ca.team.machines, 2);
      assert.equal(ca.team.ci, false, 'b is named like CI but runs without CI=true in its environment');
      assert.equal(ca.verdict, 'warn');
      assert.match(ca.team.summary, /failed 5 times this week on 2 machines, last error: Error: Cannot find module '@prisma\/client'/);
      assert.equal(ca.team.sync.state, 'online');
      assert.equal(ca.team.sync.waiting, 0);

      // b fixes it: a success on b clears it on b and, at a's next pull, on a
      await b.memory.record({ command: 'npx prisma generate', exitCode: 0, output: 'Generated Prisma Client', source: 'cli' });
      await b.team.sync(b.memory.store);
      const pulled = await a.team.sync(a.memory.store);
      assert.deepEqual(pulled.cleared, ['.::prisma generate']);
      const after = await a.memory.check('npx prisma generate');
      assert.equal(after.status, 'clear');
      assert.equal(after.verdict, 'allow');
      assert.equal(after.team?.status, 'clear');
      const local = (await a.memory.read()).approaches['.::prisma generate'];
      assert.equal(local.status, 'resolved');
      assert.equal(local.failures, 0);

      // learnings and reflections travel too
      await a.memory.addLearning('learning', 'prisma generate needs DATABASE_URL set in .env');
      await a.team.sync(a.memory.store);
      await b.team.sync(b.memory.store);
      const view = await b.team.view();
      assert.ok(view.view?.learnings.some(l => l.text === 'prisma generate needs DATABASE_URL set in .env' && l.machine === 'laptop-a'));
      const found = (await b.team.recall('prisma client module', 5)).hits;
      assert.ok(found.some(f => f.kind === 'attempt' && f.key === '.::prisma generate'), JSON.stringify(found));
      assert.ok(found.some(f => f.kind === 'learning'), JSON.stringify(found));
      assert.deepEqual(a.warnings, []);
    } finally {
      await a.team.close();
      await b.team.close();
    }
  });

  test('a teammate who never pulled passes: the success travels, and the team\'s exhausted approach clears', async () => {
    const a = machine(cloneWorkspace('https://github.com/acme/first-pull.git'), pg.url, 'a');
    const b = machine(cloneWorkspace('git@github.com:acme/first-pull.git'), pg.url, 'b');
    try {
      for (let i = 0; i < 5; i++) await a.memory.record({ command: 'npm test', exitCode: 1, output: 'Error: boom', source: 'terminal' });
      await a.team.sync(a.memory.store);
      assert.equal((await a.memory.check('npm test')).team?.status, 'exhausted');
      // b has no team view yet and never failed it: its pass is queued all the same
      await b.memory.record({ command: 'npm test', exitCode: 0, output: 'ok', source: 'agent' });
      assert.equal(await b.team.outbox.count(), 1);
      // after b's pull the team view is known: b's other successes of never-failed commands stay home
      assert.equal((await b.team.sync(b.memory.store)).pushed, 1);
      await b.memory.record({ command: 'ls -la', exitCode: 0, output: '', source: 'agent' });
      assert.equal(await b.team.outbox.count(), 0);
      const pulled = await a.team.sync(a.memory.store);
      assert.deepEqual(pulled.cleared, ['.::npm test']);
      const c = await a.memory.check('npm test');
      assert.equal(c.team?.status, 'clear');
      assert.equal(c.verdict, 'allow');
    } finally {
      await a.team.close();
      await b.team.close();
    }
  });

  test('team failures alone block only when blockOnTeamFailures is on', async () => {
    const ws1 = cloneWorkspace('https://github.com/acme/blocker.git');
    const ws2 = cloneWorkspace('ssh://git@github.com/acme/blocker');
    const a = machine(ws1, pg.url, 'a');
    const b = machine(ws2, pg.url, 'b', { blockOnTeamFailures: true });
    try {
      for (let i = 0; i < 5; i++) await a.memory.record({ command: 'make deploy', exitCode: 2, output: 'error: permission denied', source: 'terminal' });
      await a.team.sync();
      await b.team.sync();
      const c = await b.memory.check('make deploy');
      assert.equal(c.status, 'clear', 'never failed on b');
      assert.equal(c.verdict, 'block');
      assert.equal(c.team?.failures, 5);
      // raw output is not shared by default
      const rows = await sql<{ output: string; error_signature: string }>("SELECT output, error_signature FROM fm_attempts WHERE key = '.::make deploy'");
      assert.equal(rows.length, 5);
      assert.ok(rows.every(r => r.output === '' && /permission denied/.test(r.error_signature)));
    } finally {
      await a.team.close();
      await b.team.close();
    }
  });

  test('the database stopped mid-run and restarted: every record arrives exactly once', async () => {
    const m = machine(cloneWorkspace('git@gitlab.com:acme/outage.git'), pg.url, 'outage-box');
    try {
      for (let i = 0; i < 10; i++) await m.memory.record({ command: `npm test -- t${i}`, exitCode: 1, output: `FAIL t${i}`, source: 'terminal' });
      assert.equal((await m.team.push()).pushed, 10);
      await pg.stop();
      for (let i = 10; i < 30; i++) await m.memory.record({ command: `npm test -- t${i}`, exitCode: 1, output: `FAIL t${i}`, source: 'terminal' });
      const offline = await m.team.push();
      assert.equal(offline.error?.code, 'UNREACHABLE', offline.error?.message);
      assert.equal(offline.waiting, 20, 'the outbox holds what the database did not get');
      const c = await m.memory.check('npm test -- t29');
      assert.equal(c.attempts, 30, 'local memory keeps working offline');
      assert.equal(c.team?.sync.state, 'offline');
      assert.equal(c.team?.sync.waiting, 20);
      await pg.start();
      // a lost acknowledgement: the rows reached the database but the outbox was not emptied
      const waiting = await m.team.outbox.readAll();
      await m.team.db.push(m.team.project, waiting.slice(0, 5));
      const back = await m.team.push();
      assert.equal(back.error, undefined, back.error?.message);
      assert.equal(back.pushed, 20);
      assert.equal(back.inserted, 15, 'the 5 already stored were not inserted again');
      assert.equal(back.waiting, 0);
      const rows = await sql<{ n: string; d: string }>('SELECT count(*) AS n, count(DISTINCT id) AS d FROM fm_attempts WHERE project = $1', [m.team.project]);
      assert.equal(Number(rows[0].n), 30);
      assert.equal(Number(rows[0].d), 30);
      const c2 = await m.memory.check('npm test -- t29');
      assert.equal(c2.team?.sync.state, 'online');
    } finally {
      if (!(await pgRunning())) await pg.start();
      await m.team.close();
    }
  });

  test('8 machines × 50 records at once (each pushing twice concurrently): 400 rows, no duplicates', async () => {
    const machines = Array.from({ length: 8 }, (_, i) => machine(cloneWorkspace('https://github.com/acme/concurrent'), pg.url, `m${i}`));
    try {
      await Promise.all(
        machines.map(async (m, i) => {
          for (let j = 0; j < 50; j++) await m.memory.record({ command: `cargo build -p crate${j % 7}`, exitCode: 101, output: `error[E0433]: failed to resolve ${i}-${j}`, source: 'agent' });
        }),
      );
      // every machine pushes twice at the same time, and a fresh process (a CLI sync) does too
      const results = await Promise.all(machines.flatMap(m => [m.team.push(), m.team.push(), machine(m.ws, pg.url, m.team.machine).team.push()]));
      assert.ok(results.every(r => !r.error), results.find(r => r.error)?.error?.message);
      const rows = await sql<{ n: string; d: string; machines: string }>('SELECT count(*) AS n, count(DISTINCT id) AS d, count(DISTINCT machine) AS machines FROM fm_attempts WHERE project = $1', [machines[0].team.project]);
      assert.deepEqual({ n: Number(rows[0].n), d: Number(rows[0].d), machines: Number(rows[0].machines) }, { n: 400, d: 400, machines: 8 });
      const pulled = await machines[0].team.pull();
      assert.equal(pulled.error, undefined);
      const view = (await machines[0].team.view()).view!;
      const total = Object.values(view.approaches).reduce((s, a) => s + a.failures, 0);
      assert.equal(total, 400);
      assert.ok(Object.values(view.approaches).every(a => a.machines === 8));
    } finally {
      await Promise.all(machines.map(m => m.team.close()));
    }
  });

  test('a wrong password gives one clear message; local memory keeps working; nothing secret is written', async () => {
    const m = machine(cloneWorkspace('https://github.com/acme/auth'), pg.urlWithoutPassword, 'auth-box', {}, 'not-the-password');
    try {
      const r = await m.memory.record({ command: 'terraform apply', exitCode: 1, output: 'Error: credentials', source: 'terminal' });
      assert.equal(r.approach.failures, 1);
      const s = await m.team.sync(m.memory.store);
      assert.equal(s.error?.code, 'AUTH');
      assert.match(s.error!.message, /refused the login \(wrong user or password\)/);
      assert.ok(!s.error!.message.includes('not-the-password'));
      assert.equal(s.waiting, 1);
      const c = await m.memory.check('terraform apply');
      assert.equal(c.status, 'failing');
      assert.equal(c.team?.sync.state, 'offline');
      for (const f of [m.team.views.file, m.team.outbox.file, m.memory.store.file]) {
        assert.ok(!readFileSync(f, 'utf8').includes('not-the-password'), f);
        assert.ok(!readFileSync(f, 'utf8').includes(pg.password), f);
      }
    } finally {
      await m.team.close();
    }
  });

  test('an unreachable host gives one clear message and the records wait', async () => {
    const port = await freePort();
    const m = machine(cloneWorkspace('https://github.com/acme/down'), `postgres://fm@127.0.0.1:${port}/fm`, 'down-box');
    try {
      await m.memory.record({ command: 'pytest', exitCode: 1, output: 'E   AssertionError', source: 'terminal' });
      const s = await m.team.sync(m.memory.store);
      assert.equal(s.error?.code, 'UNREACHABLE');
      assert.match(s.error!.message, /is unreachable \(ECONNREFUSED\): team memory is offline; records wait in the outbox/);
      assert.match(s.error!.message, new RegExp(`postgres://fm@127.0.0.1:${port}/fm`));
      assert.equal(s.waiting, 1);
      assert.equal((await m.memory.check('pytest')).attempts, 1);
    } finally {
      await m.team.close();
    }
  });
});

async function pgRunning(): Promise<boolean> {
  try {
    await sql('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
