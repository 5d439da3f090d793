// Pattern records in team memory, against a real throwaway PostgreSQL cluster: a machine shares a
// cause with the fix that worked (redacted, one row per machine and cause, a newer snapshot replacing
// an older one); another clone of the project that meets the same cause gets that fix with its failure
// and its check; a fix that works on several machines is reinforced for the team.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordAnswerText } from '../../src/agents/tools';
import { agentTeamSummary } from '../../src/core/prompts/teamContext';
import { queryRows, startCluster, type PgCluster } from '../support/pgCluster';
import { cloneWorkspace, machine, type Machine } from '../support/teamWorkspace';
import { NODE_PG as NODE_PG_PLAIN, PG as PG_PLAIN, PRISMA, REFUSED_RUNS } from '../support/dbRefusals';

let pg: PgCluster;
const ORIGIN = 'git@github.com:Acme/Shop.git';
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => queryRows<T>(pg.url, text, params);

// a password in the refused URL: redacted before anything is shared
const NODE_PG = `${NODE_PG_PLAIN().trimEnd()} (postgres://app:s3cretpw@localhost:5432/app)\n`;
const PG = PG_PLAIN();
const RUNS: Array<[string, number, string]> = [['npm test', 1, NODE_PG], ...REFUSED_RUNS.slice(1)];

async function refusals(m: Machine, rounds = 2): Promise<void> {
  for (let i = 0; i < rounds; i++) for (const [command, exitCode, output] of RUNS) await m.memory.record({ command, exitCode, output, source: 'terminal' });
}

async function fixed(m: Machine): Promise<void> {
  await m.memory.record({ command: 'docker compose up -d db', exitCode: 0, output: 'Container shop-db-1 Started\n', source: 'terminal' });
  await m.memory.record({ command: 'npm test', exitCode: 0, output: 'Tests: 4 passed, 4 total\n', source: 'terminal' });
}

before(async () => {
  pg = await startCluster();
});
after(async () => {
  await pg?.remove();
});

describe('pattern records in team memory', () => {
  test('a cause and the fix that worked on one machine reach another clone of the project: with its failure, its check and its agent context', async () => {
    const a = machine(cloneWorkspace(ORIGIN), pg.url, 'laptop-a');
    const b = machine(cloneWorkspace('https://github.com/acme/shop'), pg.url, 'laptop-b');
    try {
      await refusals(a);
      await fixed(a);
      const sa = await a.team.sync(a.memory.store);
      assert.equal(sa.error, undefined, sa.error?.message);
      const rows = await sql<{ id: string; machine: string; status: string; fix: string; fix_worked: number; commands: string[]; failures: number; occurrences: number; last_error: string }>(
        'SELECT id, machine, status, fix, fix_worked, commands, failures, occurrences, last_error FROM fm_patterns WHERE project = $1',
        [a.team.project],
      );
      assert.equal(rows.length, 1, 'one row per machine and cause: the snapshots replaced each other');
      assert.equal(rows[0].machine, 'laptop-a');
      assert.equal(rows[0].status, 'resolved');
      assert.equal(rows[0].fix, 'docker compose up -d db');
      assert.equal(rows[0].occurrences, 6);
      assert.deepEqual(rows[0].commands, ['npm test', 'psql', 'prisma migrate dev']);
      const all = JSON.stringify(await sql('SELECT * FROM fm_patterns'));
      assert.doesNotMatch(all, /s3cretpw/, 'redacted before it was shared');

      // b meets the same cause: its failure comes with the team's fix, before it has any of its own
      await b.team.sync(b.memory.store);
      const r = await b.memory.record({ command: 'npm test', exitCode: 1, output: NODE_PG, source: 'terminal' });
      assert.deepEqual(r.teamFix, { command: 'docker compose up -d db', worked: 1, machine: 'laptop-a' });
      await b.memory.record({ command: 'psql -h localhost -U app -c "select 1"', exitCode: 2, output: PG, source: 'terminal' });
      const r2 = await b.memory.record({ command: 'npx prisma migrate dev', exitCode: 1, output: PRISMA, source: 'terminal' });
      assert.match(recordAnswerText(r2, 5), /Last time it was fixed by ⟦docker compose up -d db⟧ — the team's fix, on laptop-a\./);
      await refusals(b, 1);
      const c = await b.memory.check('npm test');
      assert.equal(c.code, 'systemic-cause');
      assert.equal(c.decision, 'deny');
      assert.deepEqual(c.pattern?.fix, { command: 'docker compose up -d db', worked: 1, from: 'team', machine: 'laptop-a' });
      const view = (await b.team.view()).view;
      assert.match(agentTeamSummary(view, await b.memory.read(), 5), /- the team fixed the database at localhost:5432 \(3 command\(s\) on 1 machine\(s\)\) with ⟦docker compose up -d db⟧ on laptop-a/);

      // b fixes it the same way: reinforced for the team (two machines, worked twice)
      await fixed(b);
      await b.team.sync(b.memory.store);
      await a.team.sync(a.memory.store);
      const merged = (await a.team.view()).view?.patterns?.[0];
      assert.deepEqual(merged?.machines, ['laptop-a', 'laptop-b']);
      assert.equal(merged?.status, 'resolved');
      assert.equal(merged?.occurrences, 12);
      assert.deepEqual(merged?.fix && { command: merged.fix.command, worked: merged.fix.worked }, { command: 'docker compose up -d db', worked: 2 });
      assert.deepEqual(a.warnings, []);
      assert.deepEqual(b.warnings, []);
    } finally {
      await a.team.close();
      await b.team.close();
    }
  });

  test('a retried or late older snapshot never replaces a newer one; a cause of one command without a fix is not shared', async () => {
    const a = machine(cloneWorkspace('git@github.com:Acme/Other.git'), pg.url, 'laptop-a');
    try {
      for (let i = 0; i < 3; i++) await a.memory.record({ command: 'npm test', exitCode: 1, output: NODE_PG, source: 'terminal' });
      assert.equal((await a.team.outbox.readAll()).filter(e => e.kind === 'pattern').length, 0, 'one command, no fix: nothing to share');
      await refusals(a);
      const waiting = (await a.team.outbox.readAll()).filter(e => e.kind === 'pattern');
      assert.equal(waiting.length, 1, 'a newer snapshot replaced the ones waiting');
      await a.team.sync(a.memory.store);
      const stale = { ...waiting[0], id: 'stale-1', pattern: { ...waiting[0].kind === 'pattern' ? waiting[0].pattern : ({} as never), failures: 1, updatedAt: '2020-01-01T00:00:00.000Z' } };
      await a.team.db.push(a.team.project, [stale]);
      const [row] = await sql<{ failures: number }>('SELECT failures FROM fm_patterns WHERE project = $1', [a.team.project]);
      assert.equal(row.failures, 9);
      assert.equal((await a.team.db.counts(a.team.project)).patterns, 1);
    } finally {
      await a.team.close();
    }
  });
});
