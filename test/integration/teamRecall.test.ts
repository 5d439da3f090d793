// Team recall by meaning, against a real throwaway PostgreSQL cluster: vectors pushed with what is
// shared (computed by the background push, never on the record path), a teammate's failure found with
// no word in common, vectors of two embedders never compared, a re-push storing nothing twice, and the
// server without pgvector (this machine's: Debian bookworm has no package for it) scoring on the client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OfflineEmbedder } from '../../src/embeddings';
import type { Embedder } from '../../src/embeddings/types';
import type { OutboxEntry } from '../../src/core/rules/team';
import { bytesVector, RECALL_CLIENT_VECTORS, VEC_BYTES_AS_REAL_ARRAY } from '../../src/store/team/database';
import { queryRows, startCluster, type PgCluster } from '../support/pgCluster';
import { cloneWorkspace, machine, type Machine } from '../support/teamWorkspace';

let pg: PgCluster;

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => queryRows<T>(pg.url, text, params);

/** Failures of unrelated kinds, and the one a teammate will describe in other words. */
const FAILURES: Array<[string, string]> = [
  ['npm run db:up', 'Error: connect ECONNREFUSED 127.0.0.1:5432\n'],
  ['make deploy', 'cp: cannot create regular file /var/www/index.html: Permission denied\n'],
  ['npm run build', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n'],
  ['cargo build', 'error: linker `cc` not found\n'],
  ['docker compose up', 'Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:8080 failed: port is already allocated\n'],
  ['pytest tests/test_cart.py', 'E       AssertionError: assert 3 == 4\n'],
];
/** Shares no word (nor a word's beginning) with `npm run db:up`'s failure. */
const REWORDED = 'database server refused the connection';

/** An embedder with another model id and dimension, counting its calls. */
function otherEmbedder(calls = { n: 0 }): Embedder {
  return {
    id: 'other-model-v1',
    dim: 4,
    async embed(texts) {
      calls.n += texts.length;
      return texts.map(() => Float32Array.from([1, 0, 0, 0]));
    },
  };
}

const machines: Machine[] = [];
function newMachine(origin: string, name: string, extra: Parameters<typeof machine>[5] = {}): Machine {
  const m = machine(cloneWorkspace(origin), pg.url, name, {}, undefined, extra);
  machines.push(m);
  return m;
}

before(async () => {
  pg = await startCluster();
});
after(async () => {
  await Promise.all(machines.map(m => m.team.close()));
  await pg?.remove();
});

describe('team recall by meaning', () => {
  test('a teammate\'s failure is found by meaning when no word matches; the server without pgvector scores on the client, said once', async () => {
    const infos: string[] = [];
    const origin = 'git@github.com:acme/meaning.git';
    const a = newMachine(origin, 'laptop-a', { onInfo: m => infos.push(m) });
    const b = newMachine(origin, 'laptop-b', { onInfo: m => infos.push(m) });
    for (const [command, output] of FAILURES) await a.memory.record({ command, exitCode: 1, output, source: 'terminal' });
    const pushed = await a.team.sync(a.memory.store);
    assert.equal(pushed.error, undefined, pushed.error?.message);

    // one vector per shared failure, of the offline embedder, stored as real[] (no pgvector here)
    const offline = new OfflineEmbedder();
    const rows = await sql<{ kind: string; ref: string; model: string; dim: number; vec: Buffer; decoded: number[] }>(
      `SELECT kind, ref, model, dim, vec, ${VEC_BYTES_AS_REAL_ARRAY} AS decoded FROM fm_embeddings WHERE project = 'github.com/acme/meaning'`,
    );
    assert.equal(rows.length, FAILURES.length);
    assert.ok(rows.every(r => r.kind === 'attempt' && r.model === offline.id && r.dim === offline.dim && r.vec.length === offline.dim * 4), JSON.stringify(rows[0].model));
    // the vector of the shared (redacted) text, as float32 bytes; decoded by SQL alike (how pgvector's column is filled)
    const approach = Object.values((await a.memory.store.read()).approaches).find(x => x.command === 'npm run db:up')!;
    const stored = rows.find(r => r.ref === approach.key)!;
    assert.deepEqual(Array.from(bytesVector(stored.vec)), Array.from(offline.embedOne(`${approach.label}\n${approach.lastErrorSignature}`)));
    assert.deepEqual(stored.decoded.map(Math.fround), Array.from(bytesVector(stored.vec)));
    const available = await sql("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    if (!available.length) {
      assert.deepEqual(await sql("SELECT value, detail FROM fm_meta WHERE name = 'vector_mode'"), [{ value: 'client', detail: 'the client scores vectors (the server has no pgvector extension)' }]);
    }

    // full-text search alone does not find it: no word of the query is in the failure
    const words = await b.team.db.recallCandidates(b.team.project, REWORDED);
    assert.equal(words.mode, 'full-text');
    assert.ok(!words.candidates.some(c => c.text.includes('ECONNREFUSED')), JSON.stringify(words.candidates));

    // with vectors it is the first answer
    const found = await b.team.recall(REWORDED, 3);
    assert.equal(found.scoring.mode, available.length ? 'pgvector' : 'client');
    assert.equal(found.scoring.model, offline.id);
    assert.equal(found.scoring.dim, offline.dim);
    const first = found.hits[0];
    assert.ok(first, 'a hit');
    assert.match(first.text, /npm run db:up\nError: connect ECONNREFUSED/);
    assert.deepEqual({ from: first.from, kind: first.kind, machine: first.machine, rank: first.rank }, { from: 'team', kind: 'attempt', machine: 'laptop-a', rank: 0 });
    assert.ok(first.similarity !== null && first.similarity > 0.2, String(first.similarity));
    assert.ok(found.hits.slice(1).every(h => h.score < first.score));

    // the mode was told once for this database: not again on the next connection, nor by the next machine
    assert.equal(infos.length, 1, infos.join('\n'));
    assert.match(infos[0], available.length ? /pgvector/ : /the client scores vectors \(the server has no pgvector extension\)/);
  });

  test('a word match still counts: full-text rank and meaning are fused', async () => {
    const origin = 'git@github.com:acme/fused.git';
    const a = newMachine(origin, 'laptop-a');
    for (const [command, output] of FAILURES) await a.memory.record({ command, exitCode: 1, output, source: 'terminal' });
    await a.team.sync(a.memory.store);
    const found = await a.team.recall('linker not found', 2);
    assert.match(found.hits[0].text, /cargo build\nerror: linker `cc` not found/);
    assert.ok(found.hits[0].rank > 0, 'found by full-text search too');
    assert.ok(found.hits[0].similarity !== null && found.hits[0].similarity > 0);
  });

  test('client scoring is bounded: the most recent vectors are read, the nearest compared; an older failure is found by its words', async () => {
    const a = newMachine('git@github.com:acme/bounded.git', 'laptop-a');
    const total = RECALL_CLIENT_VECTORS + 200;
    const start = Date.parse('2026-01-01T00:00:00Z');
    const failure = (i: number, label: string, errorSignature: string): OutboxEntry => {
      const at = new Date(start + i * 60_000).toISOString();
      return {
        kind: 'attempt', id: `bounded-${i}`, queuedAt: at, machine: 'laptop-a', ci: false,
        attempt: { id: `bounded-${i}`, key: `k${i}`, label, command: label, cwd: '.', exitCode: 1, outcome: 'failure', source: 'terminal', errorSignature, testResults: null, output: '', endedAt: at },
      };
    };
    // the oldest failure is the database one; then many unrelated ones
    const entries = [failure(0, 'npm run db:up', 'Error: connect ECONNREFUSED 127.0.0.1:5432')];
    for (let i = 1; i < total; i++) entries.push(failure(i, `npm run task-${i}`, `Error: Cannot find module 'pkg-${i}'`));
    await a.team.outbox.append(entries);
    const pushed = await a.team.push();
    assert.equal(pushed.error, undefined, pushed.error?.message);
    const n = await sql<{ n: string }>("SELECT count(*) AS n FROM fm_embeddings WHERE project = 'github.com/acme/bounded'");
    assert.equal(Number(n[0].n), total);

    const byMeaning = await a.team.recall(REWORDED, 3);
    assert.ok(byMeaning.scoring.candidates <= 50, `${byMeaning.scoring.candidates} compared`);
    assert.ok(!byMeaning.hits.some(h => h.text.startsWith('npm run db:up')), 'outside the most recent vectors, and no word matches');
    const byWords = await a.team.recall('database refused ECONNREFUSED', 3);
    assert.match(byWords.hits[0].text, /^npm run db:up\n/);
    assert.ok(byWords.hits[0].similarity !== null, 'its vector is read with the full-text match');
  });

  test('vectors are computed by the push, not on the record path; two embedders never meet', async () => {
    const origin = 'git@github.com:acme/models.git';
    const calls = { n: 0 };
    const offlineMachine = newMachine(origin, 'laptop-offline');
    const otherMachine = newMachine(origin, 'laptop-other', { embedder: () => otherEmbedder(calls) });
    await offlineMachine.memory.record({ command: 'npm run db:up', exitCode: 1, output: FAILURES[0][1], source: 'terminal' });
    await otherMachine.memory.record({ command: 'cargo build', exitCode: 1, output: FAILURES[3][1], source: 'terminal' });
    assert.equal(calls.n, 0, 'recording computes no vector');
    await offlineMachine.team.sync();
    await otherMachine.team.sync();
    assert.equal(calls.n, 1, 'the push computed one vector');
    const models = await sql<{ model: string; dim: number; ref_count: string }>(
      "SELECT model, dim, count(*) AS ref_count FROM fm_embeddings WHERE project = 'github.com/acme/models' GROUP BY model, dim ORDER BY dim",
    );
    assert.deepEqual(
      models.map(m => [m.model, m.dim, Number(m.ref_count)]),
      [
        ['other-model-v1', 4, 1],
        [new OfflineEmbedder().id, new OfflineEmbedder().dim, 1],
      ],
    );

    // the offline machine: the other model's failure has no vector it may compare (found by its words only)
    const offlineSees = await offlineMachine.team.recall('cargo linker', 5);
    const cargo = offlineSees.hits.find(h => h.text.startsWith('cargo build'));
    assert.ok(cargo, JSON.stringify(offlineSees.hits));
    assert.equal(cargo.similarity, null);
    const db = offlineSees.hits.find(h => h.text.startsWith('npm run db:up'));
    assert.ok(!db || db.similarity !== null);

    // the other machine: only its own model's vector is compared (the constant vector: similarity 1)
    const otherSees = await otherMachine.team.recall('anything at all', 5);
    assert.equal(otherSees.scoring.model, 'other-model-v1');
    assert.deepEqual(
      otherSees.hits.map(h => [h.text.split('\n')[0], h.similarity]),
      [['cargo build', 1]],
    );
  });

  test('a re-push stores no vector twice; an approach keeps the vector of its latest failure', async () => {
    const origin = 'git@github.com:acme/repush.git';
    const a = newMachine(origin, 'laptop-a');
    for (let i = 0; i < 3; i++) await a.memory.record({ command: 'npm run db:up', exitCode: 1, output: FAILURES[0][1], source: 'terminal' });
    await a.memory.record({ command: 'make deploy', exitCode: 1, output: FAILURES[1][1], source: 'terminal' });
    await a.memory.addLearning('learning', 'the database container must be up before db:up');
    const snapshot = await a.team.outbox.readAll();
    await a.team.push();
    const count = async () => (await sql<{ n: string }>("SELECT count(*) AS n FROM fm_embeddings WHERE project = 'github.com/acme/repush'"))[0].n;
    assert.ok(snapshot.some(e => e.kind === 'learning'));
    assert.equal(Number(await count()), 3, 'one vector per approach (3 failures of db:up → 1) and per learning');
    const before = await sql<{ ref: string; vec: Buffer; at: Date }>("SELECT ref, vec, at FROM fm_embeddings WHERE project = 'github.com/acme/repush' ORDER BY ref, kind");

    // the whole outbox again (a lost acknowledgement), vectors included: nothing new, nothing changed
    const vectors = snapshot
      .filter(e => e.kind === 'attempt')
      .map(e => (e.kind === 'attempt' ? { kind: 'attempt' as const, ref: e.attempt.key, model: 'offline-test', dim: 2, vector: [1, 0], at: e.attempt.endedAt } : undefined)!);
    assert.equal(await a.team.db.push(a.team.project, snapshot), 0);
    await a.team.db.push(a.team.project, snapshot, vectors);
    await a.team.db.push(a.team.project, snapshot, vectors);
    const afterRows = await sql<{ ref: string; vec: Buffer; at: Date }>("SELECT ref, vec, at FROM fm_embeddings WHERE project = 'github.com/acme/repush' AND model <> 'offline-test' ORDER BY ref, kind");
    assert.deepEqual(afterRows, before);
    assert.equal(Number((await sql<{ n: string }>("SELECT count(*) AS n FROM fm_embeddings WHERE project = 'github.com/acme/repush' AND model = 'offline-test'"))[0].n), 2, 'two approaches, once each');

    // an older failure's vector does not replace a newer one's
    const key = snapshot.find(e => e.kind === 'attempt')!;
    assert.equal(key.kind, 'attempt');
    if (key.kind !== 'attempt') return;
    await a.team.db.push(a.team.project, [key], [{ kind: 'attempt', ref: key.attempt.key, model: 'offline-test', dim: 2, vector: [0, 1], at: '2000-01-01T00:00:00.000Z' }]);
    const kept = await sql<{ vec: number[] }>(`SELECT ${VEC_BYTES_AS_REAL_ARRAY} AS vec FROM fm_embeddings WHERE project = 'github.com/acme/repush' AND model = 'offline-test' AND ref = $1`, [key.attempt.key]);
    assert.deepEqual(kept.map(r => r.vec), [[1, 0]]);
  });
});
