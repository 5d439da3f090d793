// The team database (PostgreSQL through `pg`): schema on first connect, idempotent pushes, the pull
// that builds the team view, team recall's candidates (full-text matches and vectors). Only the background sync and `failure-memory sync`
// call this; `check` and the guard never do.

import type { Pool, PoolClient } from 'pg';
import type { OutboxEntry, TeamApproach, TeamView } from '../../core/team';
import { dot } from '../../core/recall';
import type { TeamConnection } from './config';
import { MIGRATION_LOCK_ID, MIGRATIONS } from './migrations';

export type TeamErrorCode = 'AUTH' | 'NO_PASSWORD' | 'UNREACHABLE' | 'NO_DATABASE' | 'TLS' | 'TIMEOUT' | 'OTHER';

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

/** How many failures a pull reports per project, and how far back cleared approaches are kept. */
const PULL_MAX_APPROACHES = 500;
const PULL_CLEARED_DAYS = 30;
const PULL_LEARNINGS = 200;
const PULL_REFLECTIONS = 50;

/** One row of the pull's approach query (PostgreSQL returns counts as strings). */
interface ApproachRow {
  key: string; label: string; cwd: string; command: string; failures: string; week: string; machines: string; ci: boolean;
  last_error: string | null; last_failure: Date | null; last_cleared: Date | null; cleared_by: string | null;
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

function teamApproachOf(r: ApproachRow): TeamApproach {
  const a: TeamApproach = {
    key: r.key,
    label: r.label,
    cwd: r.cwd,
    command: r.command,
    failures: Number(r.failures),
    failuresThisWeek: Number(r.week),
    machines: Number(r.machines),
    ci: !!r.ci,
    lastError: r.last_error ?? '',
  };
  if (r.last_failure) a.lastFailure = r.last_failure.toISOString();
  if (r.last_cleared) a.lastCleared = r.last_cleared.toISOString();
  if (r.cleared_by) a.lastClearedBy = r.cleared_by;
  return a;
}

/**
 * How team recall compares vectors: `pgvector` when the server has the extension (the database
 * orders every vector of the project by cosine distance), else `client` (the client fetches a
 * bounded set of vectors and compares them itself).
 */
export type VectorMode = 'pgvector' | 'client';

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

/** A document team recall may return: found by full-text search, by vector, or both. */
export interface RecallCandidate {
  kind: 'attempt' | 'learning' | 'reflection';
  ref: string;
  key: string | null;
  /** What was compared: an attempt's label and error signature, a learning's or a reflection's text. */
  text: string;
  machine: string;
  /** PostgreSQL's ts_rank of the full-text match; 0 when only the vector found it. */
  rank: number;
  /** The stored vector of the same embedder, when there is one. */
  vector?: Float32Array;
}

export interface RecallCandidates {
  candidates: RecallCandidate[];
  /** 'full-text' when no embedder was given. */
  mode: VectorMode | 'full-text';
}

/** Full-text matches that team recall considers; vector neighbours (pgvector) likewise. */
const RECALL_TEXT_CANDIDATES = 50;
const RECALL_VECTOR_CANDIDATES = 50;
/** Client-scored recall reads the project's most recent vectors of the embedder, at most this many, and keeps the RECALL_VECTOR_CANDIDATES nearest. */
export const RECALL_CLIENT_VECTORS = 1000;

/** A vector as float32 little-endian bytes (fm_embeddings.vec). */
export function vectorBytes(v: ArrayLike<number>): Buffer {
  const b = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatLE(v[i], i * 4);
  return b;
}

export function bytesVector(b: Buffer): Float32Array {
  const v = new Float32Array(b.length >> 2);
  for (let i = 0; i < v.length; i++) v[i] = b.readFloatLE(i * 4);
  return v;
}

/**
 * SQL for fm_embeddings.vec (float32 little-endian bytes) as real[], IEEE 754 decoded by hand:
 * PostgreSQL has no cast from bytes to float4. Fills the pgvector column of rows stored before the
 * server had the extension.
 */
export const VEC_BYTES_AS_REAL_ARRAY = `(SELECT array_agg(CASE WHEN e = 0 THEN 0 ELSE (1 - 2 * s) * (1 + m / 8388608.0) * power(2::float8, e - 127) END ORDER BY i)::real[]
  FROM (SELECT i, get_byte(vec, i * 4 + 3) >> 7 AS s,
               ((get_byte(vec, i * 4 + 3) & 127) << 1) | (get_byte(vec, i * 4 + 2) >> 7) AS e,
               ((get_byte(vec, i * 4 + 2) & 127) << 16) | (get_byte(vec, i * 4 + 1) << 8) | get_byte(vec, i * 4) AS m
        FROM generate_series(0, length(vec) / 4 - 1) AS i) AS f)`;

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

  /** Runs `fn` on a connection with the schema in place; any failure becomes a TeamDatabaseError. */
  private async withClient<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient | undefined;
    try {
      const pool = await this.getPool();
      client = await pool.connect();
      if (!this.ready) {
        this.ready = this.migrate(client);
        this.ready.catch(() => (this.ready = undefined));
      }
      await this.ready;
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

  /** Applies the migrations this database lacks. */
  private async migrate(c: PoolClient): Promise<void> {
    await c.query('BEGIN');
    try {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      await c.query('CREATE TABLE IF NOT EXISTS fm_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      const done = new Set((await c.query<{ version: number }>('SELECT version FROM fm_schema_migrations')).rows.map(r => r.version));
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO fm_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      this.mode = await this.ensureVectorMode(c);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /**
   * pgvector when the server has it (created here if the user may: `CREATE EXTENSION` needs
   * privileges, and being refused is normal), else client scoring. The mode is recorded in fm_meta;
   * it is told (onInfo) only when it is first recorded or changes, not on every connect.
   * Runs inside the migration's transaction, under its lock.
   */
  private async ensureVectorMode(c: PoolClient): Promise<VectorMode> {
    let why = '';
    const installed = await c.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    if (!installed.rowCount) {
      const available = await c.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
      if (!available.rowCount) {
        why = 'the server has no pgvector extension';
      } else {
        await c.query('SAVEPOINT fm_vector');
        try {
          await c.query('CREATE EXTENSION IF NOT EXISTS vector');
          await c.query('RELEASE SAVEPOINT fm_vector');
        } catch (e) {
          await c.query('ROLLBACK TO SAVEPOINT fm_vector');
          why = `CREATE EXTENSION vector was refused (${String((e as Error).message ?? e).slice(0, 200)})`;
        }
      }
    }
    if (!why) {
      // a column without a fixed dimension, since every embedder has its own; queries compare one model's rows only
      const has = await c.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'fm_embeddings' AND column_name = 'pgvec' AND table_schema = current_schema()");
      if (!has.rowCount) {
        await c.query('SAVEPOINT fm_vector_column');
        try {
          await c.query('ALTER TABLE fm_embeddings ADD COLUMN pgvec vector');
          await c.query(`UPDATE fm_embeddings SET pgvec = ${VEC_BYTES_AS_REAL_ARRAY}::vector`);
          await c.query('RELEASE SAVEPOINT fm_vector_column');
        } catch (e) {
          // e.g. the tables belong to another role: stay with client scoring rather than fail the connection
          await c.query('ROLLBACK TO SAVEPOINT fm_vector_column');
          why = `pgvector is installed but its column could not be added (${String((e as Error).message ?? e).slice(0, 200)})`;
        }
      }
    }
    const mode: VectorMode = why ? 'client' : 'pgvector';
    const before = await c.query<{ value: string }>("SELECT value FROM fm_meta WHERE name = 'vector_mode'");
    if (before.rows[0]?.value !== mode) {
      const detail = mode === 'pgvector' ? 'the database orders vectors by cosine distance (pgvector)' : `the client scores vectors (${why})`;
      await c.query(
        `INSERT INTO fm_meta (name, value, detail, at) VALUES ('vector_mode', $1, $2, now())
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, detail = EXCLUDED.detail, at = EXCLUDED.at`,
        [mode, detail],
      );
      this.options.onInfo?.(`team recall by meaning: ${detail}.`);
    }
    return mode;
  }

  /** Connects and applies the schema (a cheap way to test the settings). */
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

  /** The team view of a project: per approach, failures since the last success or resolve anywhere. */
  async pull(project: string, now: Date = new Date()): Promise<TeamView> {
    return this.withClient(async c => {
      const approaches = await c.query<ApproachRow>(
        `WITH clears AS (
           SELECT key, ended_at AS at, machine FROM fm_attempts WHERE project = $1 AND outcome = 'success'
           UNION ALL
           SELECT key, at, machine FROM fm_resolves WHERE project = $1
         ),
         last_clear AS (
           SELECT DISTINCT ON (key) key, at, machine FROM clears ORDER BY key, at DESC
         ),
         open_failures AS (
           SELECT a.* FROM fm_attempts a LEFT JOIN last_clear lc ON lc.key = a.key
           WHERE a.project = $1 AND a.outcome = 'failure' AND (lc.at IS NULL OR a.ended_at > lc.at)
         ),
         agg AS (
           SELECT key, count(*) AS failures,
                  count(*) FILTER (WHERE ended_at > $2::timestamptz - interval '7 days') AS week,
                  count(DISTINCT machine) AS machines, bool_or(is_ci) AS ci, max(ended_at) AS last_failure
           FROM open_failures GROUP BY key
         ),
         latest AS (
           SELECT DISTINCT ON (key) key, label, cwd, command, error_signature FROM open_failures ORDER BY key, ended_at DESC
         ),
         cleared_label AS (
           SELECT DISTINCT ON (key) key, label, cwd, command FROM fm_attempts
           WHERE project = $1 AND key IN (SELECT key FROM last_clear WHERE at > $2::timestamptz - make_interval(days => $3))
           ORDER BY key, ended_at DESC
         )
         SELECT coalesce(agg.key, lc.key) AS key,
                coalesce(latest.label, cl.label, r.label, lc.key) AS label,
                coalesce(latest.cwd, cl.cwd, r.cwd, '.') AS cwd,
                coalesce(latest.command, cl.command, '') AS command,
                coalesce(agg.failures, 0) AS failures, coalesce(agg.week, 0) AS week, coalesce(agg.machines, 0) AS machines,
                coalesce(agg.ci, false) AS ci, latest.error_signature AS last_error, agg.last_failure,
                lc.at AS last_cleared, lc.machine AS cleared_by
         FROM agg
         FULL JOIN (SELECT * FROM last_clear WHERE at > $2::timestamptz - make_interval(days => $3)) lc ON lc.key = agg.key
         LEFT JOIN latest ON latest.key = agg.key
         LEFT JOIN cleared_label cl ON cl.key = lc.key
         LEFT JOIN LATERAL (SELECT label, cwd FROM fm_resolves WHERE project = $1 AND key = lc.key ORDER BY at DESC LIMIT 1) r ON true
         ORDER BY greatest(agg.last_failure, lc.at) DESC NULLS LAST
         LIMIT $4`,
        [project, now.toISOString(), PULL_CLEARED_DAYS, PULL_MAX_APPROACHES],
      );
      const learnings = await c.query<{ id: string; key: string | null; type: string; text: string; machine: string; created_at: Date }>(
        'SELECT id, key, type, text, machine, created_at FROM fm_learnings WHERE project = $1 ORDER BY created_at DESC LIMIT $2',
        [project, PULL_LEARNINGS],
      );
      const reflections = await c.query<{ id: string; key: string; text: string; lessons: string[]; machine: string; created_at: Date }>(
        'SELECT id, key, text, lessons, machine, created_at FROM fm_reflections WHERE project = $1 ORDER BY created_at DESC LIMIT $2',
        [project, PULL_REFLECTIONS],
      );
      const view: TeamView = { project, pulledAt: now.toISOString(), approaches: {}, learnings: [], reflections: [] };
      for (const r of approaches.rows) {
        const a = teamApproachOf(r);
        view.approaches[a.key] = a;
      }
      for (const l of learnings.rows.reverse()) {
        view.learnings.push({ id: l.id, ...(l.key ? { key: l.key } : {}), type: l.type as TeamView['learnings'][number]['type'], text: l.text, createdAt: l.created_at.toISOString(), machine: l.machine });
      }
      for (const r of reflections.rows.reverse()) {
        view.reflections.push({ id: r.id, key: r.key, text: r.text, lessons: Array.isArray(r.lessons) ? r.lessons : [], createdAt: r.created_at.toISOString(), machine: r.machine });
      }
      return view;
    });
  }

  /**
   * What team recall compares: the best full-text matches (their ts_rank kept) and, with an
   * embedder, the vectors of the same model and dimension: with pgvector the project's nearest by
   * cosine distance, else its most recent ones (bounded), plus those of the full-text matches. The
   * client fuses the two (TeamMemory.recall); nothing is scored across two embedders.
   */
  async recallCandidates(project: string, query: string, embedder?: { model: string; dim: number; vector: Float32Array }): Promise<RecallCandidates> {
    return this.withClient(async c => {
      const text = await c.query<{ kind: RecallCandidate['kind']; ref: string; key: string | null; text: string; machine: string; rank: number }>(
        `WITH words AS (SELECT to_tsquery('simple', string_agg(quote_literal(w) || ':*', ' | ')) AS q
                        FROM regexp_split_to_table(lower($2), '[^a-z0-9_@./-]+') w WHERE length(w) > 2)
         SELECT * FROM (
           SELECT DISTINCT ON (a.key) 'attempt' AS kind, a.key AS ref, a.key, a.label || E'\n' || a.error_signature AS text, a.machine,
                  ts_rank(a.search, (SELECT q FROM words)) AS rank
           FROM fm_attempts a WHERE a.project = $1 AND a.outcome = 'failure' AND a.search @@ (SELECT q FROM words)
           ORDER BY a.key, rank DESC, a.ended_at DESC
         ) x
         UNION ALL
         SELECT 'learning', l.id, l.key, l.text, l.machine, ts_rank(l.search, (SELECT q FROM words)) FROM fm_learnings l
         WHERE l.project = $1 AND l.search @@ (SELECT q FROM words)
         UNION ALL
         SELECT 'reflection', f.id, f.key, f.text, f.machine, ts_rank(f.search, (SELECT q FROM words)) FROM fm_reflections f
         WHERE f.project = $1 AND f.search @@ (SELECT q FROM words)
         ORDER BY rank DESC LIMIT $3`,
        [project, query.slice(0, 2000), RECALL_TEXT_CANDIDATES],
      );
      const byId = new Map<string, RecallCandidate>();
      const id = (kind: string, ref: string) => `${kind}:${ref}`;
      for (const r of text.rows) byId.set(id(r.kind, r.ref), { ...r, rank: Number(r.rank) });
      if (!embedder || !this.mode) return { candidates: [...byId.values()], mode: 'full-text' };
      const pg = this.mode === 'pgvector';
      const params: unknown[] = [project, embedder.model, embedder.dim, [...byId.keys()]];
      // pgvector: the project's nearest by cosine distance; else its most recent (the client compares them)
      const order = pg ? `pgvec <=> $${params.push(`[${Array.from(embedder.vector).join(',')}]`)}::vector` : 'at DESC';
      const limit = `$${params.push(pg ? RECALL_VECTOR_CANDIDATES : RECALL_CLIENT_VECTORS)}`;
      const vectors = await c.query<{ kind: RecallCandidate['kind']; ref: string; vec: Buffer }>(
        `(SELECT kind, ref, vec FROM fm_embeddings WHERE project = $1 AND model = $2 AND dim = $3 ORDER BY ${order} LIMIT ${limit})
         UNION
         SELECT kind, ref, vec FROM fm_embeddings WHERE project = $1 AND model = $2 AND dim = $3 AND kind || ':' || ref = ANY($4)`,
        params,
      );
      let rows = vectors.rows.map(r => ({ kind: r.kind, ref: r.ref, vector: bytesVector(r.vec) })).filter(r => r.vector.length === embedder.dim);
      if (!pg) {
        // the client's own nearest-neighbour step: the same number of vector neighbours as pgvector gives, plus the full-text matches
        const near = rows
          .filter(r => !byId.has(id(r.kind, r.ref)))
          .map(r => ({ r, s: dot(embedder.vector, r.vector) }))
          .sort((a, b) => b.s - a.s)
          .slice(0, RECALL_VECTOR_CANDIDATES);
        rows = [...rows.filter(r => byId.has(id(r.kind, r.ref))), ...near.map(x => x.r)];
      }
      const found = new Map<string, Float32Array>();
      for (const r of rows) found.set(id(r.kind, r.ref), r.vector);
      // the documents behind vectors that full-text search did not find
      const missing = { attempt: [] as string[], learning: [] as string[], reflection: [] as string[] };
      for (const r of rows) if (!byId.has(id(r.kind, r.ref)) && r.kind in missing) missing[r.kind].push(r.ref);
      if (missing.attempt.length || missing.learning.length || missing.reflection.length) {
        const docs = await c.query<{ kind: RecallCandidate['kind']; ref: string; key: string | null; text: string; machine: string }>(
          `SELECT * FROM (
             SELECT DISTINCT ON (a.key) 'attempt' AS kind, a.key AS ref, a.key, a.label || E'\n' || a.error_signature AS text, a.machine
             FROM fm_attempts a WHERE a.project = $1 AND a.outcome = 'failure' AND a.key = ANY($2) ORDER BY a.key, a.ended_at DESC
           ) x
           UNION ALL SELECT 'learning', l.id, l.key, l.text, l.machine FROM fm_learnings l WHERE l.project = $1 AND l.id = ANY($3)
           UNION ALL SELECT 'reflection', f.id, f.key, f.text, f.machine FROM fm_reflections f WHERE f.project = $1 AND f.id = ANY($4)`,
          [project, missing.attempt, missing.learning, missing.reflection],
        );
        for (const r of docs.rows) byId.set(id(r.kind, r.ref), { ...r, rank: 0 });
      }
      for (const [k, cand] of byId) {
        const v = found.get(k);
        if (v) cand.vector = v;
      }
      return { candidates: [...byId.values()], mode: this.mode };
    });
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
