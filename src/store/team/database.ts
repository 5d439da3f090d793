// The team database (PostgreSQL through `pg`): the schema as the role finds it (./schema.ts),
// idempotent pushes, the pull that builds the team view (./pullQuery.ts), retention
// (./retention.ts), team recall's candidates (./recallQuery.ts). Only the background sync and the
// CLI's `sync`, `team init` and `recall --team` call this; `check`, the hooks and the guard never do.

import type { Pool, PoolClient } from 'pg';
import type { OutboxEntry, TeamView } from '../../core/rules/team';
import type { TeamConnection } from './config';
import { LATEST_SCHEMA, REQUIRED_SCHEMA, TEAM_TABLES } from './migrations';
import { readTeamView } from './pullQuery';
import { queryRecallCandidates, vectorBytes, type QueryVector, type RecallCandidates } from './recallQuery';
import { applyRetention, type RetentionPolicy, type RetentionResult } from './retention';
import { grantStatements, migrate, readSchemaState, readVectorMode, type MigrateResult, type SchemaState, type VectorMode } from './schema';

export { bytesVector, RECALL_CLIENT_VECTORS, vectorBytes, type RecallCandidate } from './recallQuery';
export { VEC_BYTES_AS_REAL_ARRAY, type VectorMode } from './schema';

/** SCHEMA: the tables are missing or too old for this role; PERMISSION: the role lacks a grant on them. */
export type TeamErrorCode = 'AUTH' | 'NO_PASSWORD' | 'UNREACHABLE' | 'NO_DATABASE' | 'TLS' | 'TIMEOUT' | 'SCHEMA' | 'PERMISSION' | 'OTHER';

/** A database problem in one sentence a person can act on; never carries a password. */
export class TeamDatabaseError extends Error {
  override readonly name = 'TeamDatabaseError';
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function classifyDatabaseError(e: unknown, target: string): TeamDatabaseError {
  if (e instanceof TeamDatabaseError) return e;
  const err = e as { code?: string; message?: string } | undefined;
  const code = err?.code ?? '';
  const msg = String(err?.message ?? e);
  const at = `team memory database ${target}`;
  if (code === '28P01' || code === '28000') return new TeamDatabaseError('AUTH', `${at} refused the login (wrong user or password). Set the password with "Failure Memory: Set Team Database Password", PGPASSWORD or ~/.pgpass.`);
  if (/client password must be a string|password authentication|no password/i.test(msg)) return new TeamDatabaseError('NO_PASSWORD', `${at} asks for a password and none is set. Set it with "Failure Memory: Set Team Database Password", PGPASSWORD or ~/.pgpass.`);
  if (code === '3D000') return new TeamDatabaseError('NO_DATABASE', `${at}: the database does not exist (create it, or fix the database name in the URL).`);
  if (code === '42501') {
    return new TeamDatabaseError('PERMISSION', `${at}: ${msg.slice(0, 200)}. The role needs SELECT, INSERT, UPDATE and DELETE on the tables ${TEAM_TABLES.join(', ')} (and USAGE on their schema): see "Least privilege" in the README, or have the owner run \`failure-memory team init --grant <role>\`.`);
  }
  if (code === '42P01') return new TeamDatabaseError('SCHEMA', `${at}: a Failure Memory table is missing (${msg.slice(0, 200)}). Have the database owner run \`failure-memory team init\`.`);
  // pg says "Connection terminated due to connection timeout": a timeout, not a refusal
  if (code === 'ETIMEDOUT' || /timeout/i.test(msg)) return new TeamDatabaseError('TIMEOUT', `${at} did not answer in time: team memory is offline; records wait in the outbox.`);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET', 'EPIPE', '57P01', '57P03'].includes(code) || /Connection terminated|connect ECONN|server closed the connection/i.test(msg)) {
    return new TeamDatabaseError('UNREACHABLE', `${at} is unreachable (${code || 'connection lost'}): team memory is offline; records wait in the outbox and are sent when it is back.`);
  }
  if (/SSL|TLS|certificate/i.test(msg)) return new TeamDatabaseError('TLS', `${at}: TLS problem (${msg.slice(0, 200)}). Check sslmode / sslrootcert in the URL or PGSSLMODE.`);
  return new TeamDatabaseError('OTHER', `${at}: ${msg.slice(0, 300)}`);
}

export interface TeamDatabaseOptions {
  connectTimeoutMs?: number;
  /** Told once per database (not per connection) which way team recall scores, and why. */
  onInfo?: (message: string) => void;
  statementTimeoutMs?: number;
  /** Pool size (the extension needs 1; benchmarks may use more). */
  max?: number;
  onWarning?: (message: string) => void;
}

/** What `team init` did. */
export interface InitResult extends MigrateResult {
  role: string;
  schema: string;
  /** The GRANT statements run for `grantTo`. */
  granted: string[];
}

/** Why this role cannot use the database as it is, in words a person can act on. */
function schemaProblem(s: SchemaState, target: string): TeamDatabaseError {
  const have = s.version ? `its Failure Memory schema is version ${s.version}, this version needs ${REQUIRED_SCHEMA} or later` : 'it has no Failure Memory tables yet';
  return new TeamDatabaseError(
    'SCHEMA',
    `team memory database ${target}: ${have}, and ${s.whyNot ?? `role ${s.role} may not change it`}. Have the database owner run \`failure-memory team init\` once (and grant this role what the README's "Least privilege" lists).`,
  );
}

// The push's inserts: rows come as one JSON array ($2) for the project ($1); an id already there is skipped.
const INSERT_ATTEMPTS = `INSERT INTO fm_attempts (id, project, key, label, command, cwd, exit_code, outcome, source, machine, is_ci, error_signature, test_results, output, ended_at)
   SELECT x.id, $1, x.key, x.label, x.command, x.cwd, x."exitCode", x.outcome, x.source, x.machine, x.ci, x."errorSignature", x."testResults", x.output, x."endedAt"
   FROM jsonb_to_recordset($2::jsonb) AS x(id text, key text, label text, command text, cwd text, "exitCode" integer, outcome text, source text, machine text, ci boolean, "errorSignature" text, "testResults" jsonb, output text, "endedAt" timestamptz)
   ON CONFLICT (id) DO NOTHING`;
const INSERT_RESOLVES = `INSERT INTO fm_resolves (id, project, key, label, cwd, machine, at)
   SELECT x.id, $1, x.key, x.label, x.cwd, x.machine, x.at
   FROM jsonb_to_recordset($2::jsonb) AS x(id text, key text, label text, cwd text, machine text, at timestamptz)
   ON CONFLICT (id) DO NOTHING`;
const INSERT_LEARNINGS = `INSERT INTO fm_learnings (id, project, key, type, text, machine, created_at)
   SELECT x.id, $1, x.key, x.type, x.text, x.machine, x."createdAt"
   FROM jsonb_to_recordset($2::jsonb) AS x(id text, key text, type text, text text, machine text, "createdAt" timestamptz)
   ON CONFLICT (id) DO NOTHING`;
const INSERT_REFLECTIONS = `INSERT INTO fm_reflections (id, project, key, text, lessons, machine, created_at)
   SELECT x.id, $1, x.key, x.text, x.lessons, x.machine, x."createdAt"
   FROM jsonb_to_recordset($2::jsonb) AS x(id text, key text, text text, lessons jsonb, machine text, "createdAt" timestamptz)
   ON CONFLICT (id) DO NOTHING`;

/** Runs one of the inserts above for the rows (none: no query); returns how many were new. */
async function insertJson(c: PoolClient, sql: string, project: string, rows: readonly object[]): Promise<number> {
  if (!rows.length) return 0;
  const r = await c.query(sql, [project, JSON.stringify(rows)]);
  return r.rowCount ?? 0;
}

/** A shared document's vector, pushed beside the document (derived from its already-redacted text). */
export interface SharedVector {
  kind: 'attempt' | 'learning' | 'reflection';
  /** The approach key for an attempt (one vector per approach: its latest failure), else the record's id. */
  ref: string;
  /** The embedder's id (model and options) and dimension: vectors of two embedders never mix. */
  model: string;
  dim: number;
  vector: ArrayLike<number>;
  /** When the text it was computed from was written (a newer failure of an approach replaces its vector). */
  at: string;
}

export class TeamDatabase {
  private pool: Pool | undefined;
  private ready: Promise<void> | undefined;
  private readonly projects = new Set<string>();
  private mode: VectorMode | undefined;

  constructor(
    private readonly connection: TeamConnection,
    private readonly options: TeamDatabaseOptions = {},
  ) {}

  get target(): string {
    return this.connection.describe;
  }

  /** How this database scores team recall (known once connected). */
  get vectorMode(): VectorMode | undefined {
    return this.mode;
  }

  private async getPool(): Promise<Pool> {
    if (this.pool) return this.pool;
    // loaded on first use: `check` and the hooks never pay for the driver
    const pg = await import('pg');
    const PoolCtor = (pg.default?.Pool ?? (pg as unknown as typeof import('pg')).Pool) as typeof Pool;
    // parsed here, not given as connectionString: pg would let the URL's (absent) password override ours
    const { parseIntoClientConfig } = await import('pg-connection-string');
    const fromUrl = this.connection.url ? parseIntoClientConfig(this.connection.url) : {};
    if (!fromUrl.password) delete fromUrl.password;
    const pool = new PoolCtor({
      ...fromUrl,
      ...(!fromUrl.password && this.connection.password ? { password: this.connection.password as () => Promise<string> } : {}),
      max: this.options.max ?? 1,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: 10_000,
      statement_timeout: this.options.statementTimeoutMs ?? 15_000,
      application_name: 'failure-memory',
    });
    // an idle connection dropped by the server must not crash the process
    pool.on('error', e => this.options.onWarning?.(classifyDatabaseError(e, this.target).message));
    this.pool = pool;
    return pool;
  }

  /**
   * Runs `fn` on a connection; the first one of this instance looks at the schema first (./schema.ts)
   * unless `prepare` is false. Any failure becomes a TeamDatabaseError.
   */
  private async withClient<T>(fn: (c: PoolClient) => Promise<T>, prepare = true): Promise<T> {
    let client: PoolClient | undefined;
    try {
      const pool = await this.getPool();
      client = await pool.connect();
      if (prepare) {
        if (!this.ready) {
          this.ready = this.prepare(client);
          this.ready.catch(() => (this.ready = undefined));
        }
        await this.ready;
      }
      return await fn(client);
    } catch (e) {
      // a broken connection is not returned to the pool
      client?.release(e instanceof Error ? e : true);
      client = undefined;
      throw classifyDatabaseError(e, this.target);
    } finally {
      client?.release();
    }
  }

  /**
   * A current schema is used as it is (no DDL, no lock, whatever the role). An older one is migrated
   * when this role may; else it is used when this client can read and write it (said once), and
   * refused with the reason when it cannot.
   */
  private async prepare(c: PoolClient): Promise<void> {
    const s = await readSchemaState(c);
    if (s.version >= LATEST_SCHEMA) {
      this.mode = await readVectorMode(c);
      return;
    }
    if (s.mayMigrate) {
      this.mode = (await migrate(c, this.options.onInfo)).vectorMode;
      return;
    }
    if (s.version < REQUIRED_SCHEMA) throw schemaProblem(s, this.target);
    this.mode = await readVectorMode(c);
    this.options.onWarning?.(
      `team memory database ${this.target}: its schema is version ${s.version} (${s.whyNot ?? 'this role may not upgrade it'}); it works, but version ${LATEST_SCHEMA} keeps pulls and recall fast on a large database. Have the owner run \`failure-memory team init\`.`,
    );
  }

  /**
   * `failure-memory team init`: applies the schema as this role (which must be allowed to), makes
   * the most of the server's extensions, and grants `grantTo` what a read-and-write role needs.
   */
  async init(grantTo?: string): Promise<InitResult> {
    return this.withClient(async c => {
      const s = await readSchemaState(c);
      if (!s.mayMigrate) {
        throw new TeamDatabaseError('SCHEMA', `team memory database ${this.target}: ${s.whyNot ?? `role ${s.role} may not change the schema`}. Run \`failure-memory team init\` as the database owner (or a role with CREATE on the schema that owns the tables).`);
      }
      const r = await migrate(c, this.options.onInfo);
      this.mode = r.vectorMode;
      this.ready = Promise.resolve();
      const granted = grantTo ? grantStatements(s.schema, grantTo) : [];
      for (const g of granted) await c.query(g);
      return { ...r, role: s.role, schema: s.schema, granted };
    }, false);
  }

  /** Connects and looks at the schema (a cheap way to test the settings). */
  async ping(): Promise<void> {
    await this.withClient(async c => {
      await c.query('SELECT 1');
    });
  }

  /**
   * Inserts the entries in one transaction; an id already present is skipped (a retry after a lost
   * acknowledgement inserts nothing twice). Returns how many rows were new.
   */
  async push(project: string, entries: readonly OutboxEntry[], vectors: readonly SharedVector[] = []): Promise<number> {
    if (!entries.length) return 0;
    return this.withClient(async c => {
      await c.query('BEGIN');
      try {
        if (!this.projects.has(project)) {
          await c.query('INSERT INTO fm_projects (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [project]);
        }
        let inserted = 0;
        const batches: Array<[sql: string, rows: object[]]> = [
          [INSERT_ATTEMPTS, entries.filter(e => e.kind === 'attempt').map(e => ({ ...e.attempt, machine: e.machine, ci: e.ci }))],
          [INSERT_RESOLVES, entries.filter(e => e.kind === 'resolve').map(e => ({ ...e.resolve, machine: e.machine }))],
          [INSERT_LEARNINGS, entries.filter(e => e.kind === 'learning').map(e => ({ ...e.learning, machine: e.machine }))],
          [INSERT_REFLECTIONS, entries.filter(e => e.kind === 'reflection').map(e => ({ ...e.reflection, machine: e.machine }))],
        ];
        for (const [sql, rows] of batches) inserted += await insertJson(c, sql, project, rows);
        if (vectors.length) await this.pushVectors(c, project, vectors);
        await c.query('COMMIT');
        this.projects.add(project);
        return inserted;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /**
   * Stores vectors in the push's transaction. One row per document and embedder: a retry changes
   * nothing, and an approach's vector is replaced only by one from a later failure.
   */
  private async pushVectors(c: PoolClient, project: string, vectors: readonly SharedVector[]): Promise<void> {
    // one row per conflict key (Postgres refuses to update a row twice in one statement): the latest wins
    const latest = new Map<string, SharedVector>();
    for (const v of vectors) {
      if (v.vector.length !== v.dim || !v.dim) continue;
      const id = `${v.kind}\u0000${v.ref}\u0000${v.model}\u0000${v.dim}`;
      const had = latest.get(id);
      if (!had || had.at < v.at) latest.set(id, v);
    }
    if (!latest.size) return;
    const pg = this.mode === 'pgvector';
    const rows = [...latest.values()].map(v => ({
      kind: v.kind,
      ref: v.ref,
      model: v.model,
      dim: v.dim,
      vec: vectorBytes(v.vector).toString('base64'),
      ...(pg ? { text: `[${Array.from(v.vector).join(',')}]` } : {}),
      at: v.at,
    }));
    await c.query(
      `INSERT INTO fm_embeddings (project, kind, ref, model, dim, vec, at${pg ? ', pgvec' : ''})
       SELECT $1, x.kind, x.ref, x.model, x.dim, decode(x.vec, 'base64'), x.at${pg ? ', x.text::vector' : ''}
       FROM jsonb_to_recordset($2::jsonb) AS x(kind text, ref text, model text, dim integer, vec text, text text, at timestamptz)
       ON CONFLICT (project, kind, ref, model, dim) DO UPDATE SET vec = EXCLUDED.vec, at = EXCLUDED.at${pg ? ', pgvec = EXCLUDED.pgvec' : ''}
       WHERE EXCLUDED.at > fm_embeddings.at`,
      [project, JSON.stringify(rows)],
    );
  }

  /** The team view of a project (./pullQuery.ts: the last PULL_WINDOW_DAYS). */
  async pull(project: string, now: Date = new Date()): Promise<TeamView> {
    return this.withClient(c => readTeamView(c, project, now));
  }

  /** Applies retention to one project's rows (./retention.ts). */
  async retain(project: string, policy: RetentionPolicy, now: Date = new Date()): Promise<RetentionResult> {
    return this.withClient(c => applyRetention(c, project, policy, now));
  }

  /** What team recall compares (./recallQuery.ts), from this project only. */
  async recallCandidates(project: string, query: string, embedder?: QueryVector): Promise<RecallCandidates> {
    return this.withClient(c => queryRecallCandidates(c, this.mode, project, query, embedder));
  }

  /** Counts (for tests and `failure-memory sync --json`). */
  async counts(project: string): Promise<{ attempts: number; learnings: number; reflections: number; resolves: number }> {
    return this.withClient(async c => {
      const r = await c.query<{ a: string; l: string; f: string; r: string }>(
        `SELECT (SELECT count(*) FROM fm_attempts WHERE project = $1) AS a, (SELECT count(*) FROM fm_learnings WHERE project = $1) AS l,
                (SELECT count(*) FROM fm_reflections WHERE project = $1) AS f, (SELECT count(*) FROM fm_resolves WHERE project = $1) AS r`,
        [project],
      );
      const row = r.rows[0];
      return { attempts: Number(row.a), learnings: Number(row.l), reflections: Number(row.f), resolves: Number(row.r) };
    });
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    await p?.end().catch(() => undefined);
  }
}
