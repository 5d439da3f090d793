// The team database's schema as a connection finds it, and the migrations that bring it up to date.
// A connection first reads the state (no DDL, no lock): a database at the latest version is used as
// it is, whatever the role. Migrations run only when one is missing and only when the role may change
// the schema (CREATE on it, and owning the tables already there); a role that only reads and writes
// works with any schema from REQUIRED_SCHEMA on, and is told plainly when the schema is missing or
// older than that. `failure-memory team init` runs the same migration on purpose, as the owner.

import type { PoolClient } from 'pg';
import { LATEST_SCHEMA, MIGRATION_LOCK_ID, MIGRATIONS, TEAM_TABLES } from './migrations';

/**
 * How team recall compares vectors: `pgvector` when the server has the extension (the database
 * orders every vector of the project by cosine distance), else `client` (the client fetches a
 * bounded set of vectors and compares them itself).
 */
export type VectorMode = 'pgvector' | 'client';

export interface SchemaState {
  role: string;
  /** The schema the tables live in (current_schema()); '' when the search path names none that exists. */
  schema: string;
  /** The applied schema version; 0 when there are no Failure Memory tables. */
  version: number;
  /** Whether this role may apply migrations; when not, why (for the message). */
  mayMigrate: boolean;
  whyNot?: string;
}

/** The schema's version and whether this role may change it: read-only, one round trip (two when the tables exist). */
export async function readSchemaState(c: PoolClient): Promise<SchemaState> {
  const r = await c.query<{ role: string; schema: string; can_create: boolean; has_versions: boolean; owns: boolean }>(
    `SELECT current_user AS role, coalesce(current_schema(), '') AS schema,
            coalesce(has_schema_privilege(current_schema(), 'CREATE'), false) AS can_create,
            to_regclass('fm_schema_migrations') IS NOT NULL AS has_versions,
            coalesce((SELECT bool_and(pg_has_role(c.relowner, 'USAGE')) FROM pg_class c
                      WHERE c.oid IN (SELECT to_regclass(t) FROM unnest($1::text[]) AS t)), true) AS owns`,
    [[...TEAM_TABLES]],
  );
  const s = r.rows[0];
  const version = s.has_versions ? Number((await c.query<{ v: number | null }>('SELECT max(version) AS v FROM fm_schema_migrations')).rows[0]?.v ?? 0) : 0;
  const whyNot = !s.schema
    ? 'the search path names no schema that exists'
    : !s.can_create
      ? `role ${s.role} may not create tables in schema ${s.schema}`
      : !s.owns
        ? `the tables belong to another role than ${s.role}`
        : undefined;
  return { role: s.role, schema: s.schema, version, mayMigrate: !whyNot, ...(whyNot ? { whyNot } : {}) };
}

/** Which way team recall scores on this database, read without changing anything. */
export async function readVectorMode(c: PoolClient): Promise<VectorMode> {
  const r = await c.query<{ pg: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')
        AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('fm_embeddings') AND attname = 'pgvec' AND NOT attisdropped) AS pg`,
  );
  return r.rows[0]?.pg ? 'pgvector' : 'client';
}

export interface MigrateResult {
  from: number;
  to: number;
  /** Names of the migrations applied now (none: the schema was current). */
  applied: string[];
  vectorMode: VectorMode;
  /** Whether full-text search has the per-project indexes (btree_gin), and why not. */
  projectSearch: boolean;
  detail: string[];
}

/**
 * Applies the migrations this database lacks, then makes what depends on the server's extensions
 * (pgvector, btree_gin) as good as this role may. One transaction, under an advisory lock: of many
 * machines migrating at once, one does the work and the others find it done.
 */
export async function migrate(c: PoolClient, onInfo?: (message: string) => void): Promise<MigrateResult> {
  await c.query('BEGIN');
  try {
    // an index built on a large table outlasts the statement timeout of ordinary queries
    await c.query("SET LOCAL statement_timeout = '10min'");
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await c.query('CREATE TABLE IF NOT EXISTS fm_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await c.query<{ version: number }>('SELECT version FROM fm_schema_migrations')).rows.map(r => r.version));
    const from = done.size ? Math.max(...done) : 0;
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO fm_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(`${m.version}: ${m.name}`);
    }
    const vector = await ensureVectorMode(c, onInfo);
    const search = await ensureProjectSearch(c, onInfo);
    await c.query('COMMIT');
    return { from, to: Math.max(from, LATEST_SCHEMA), applied, vectorMode: vector.mode, projectSearch: search.ok, detail: [vector.detail, search.detail] };
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** Runs `sql` in a savepoint; a refusal (privileges, a missing extension) rolls back only that and is returned. */
async function attempt(c: PoolClient, name: string, sql: string[]): Promise<string | undefined> {
  await c.query(`SAVEPOINT ${name}`);
  try {
    for (const s of sql) await c.query(s);
    await c.query(`RELEASE SAVEPOINT ${name}`);
    return undefined;
  } catch (e) {
    await c.query(`ROLLBACK TO SAVEPOINT ${name}`);
    return String((e as Error).message ?? e).slice(0, 200);
  }
}

/** Records a fact about the database in fm_meta; tells `tell` (onInfo) only when the fact is new or changed. */
async function noteMeta(c: PoolClient, name: string, value: string, detail: string, tell: string, onInfo?: (message: string) => void): Promise<void> {
  const before = await c.query<{ value: string }>('SELECT value FROM fm_meta WHERE name = $1', [name]);
  if (before.rows[0]?.value === value) return;
  await c.query(
    `INSERT INTO fm_meta (name, value, detail, at) VALUES ($1, $2, $3, now())
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, detail = EXCLUDED.detail, at = EXCLUDED.at`,
    [name, value, detail],
  );
  if (tell) onInfo?.(tell);
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

/**
 * pgvector when the server has it (created here if the role may: `CREATE EXTENSION` needs
 * privileges, and being refused is normal), else client scoring. Recorded in fm_meta.
 */
async function ensureVectorMode(c: PoolClient, onInfo?: (message: string) => void): Promise<{ mode: VectorMode; detail: string }> {
  let why = '';
  const installed = await c.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  if (!installed.rowCount) {
    const available = await c.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    if (!available.rowCount) why = 'the server has no pgvector extension';
    else {
      const refused = await attempt(c, 'fm_vector', ['CREATE EXTENSION IF NOT EXISTS vector']);
      if (refused) why = `CREATE EXTENSION vector was refused (${refused})`;
    }
  }
  if (!why && (await readVectorMode(c)) === 'client') {
    // a column without a fixed dimension, since every embedder has its own; queries compare one model's rows only
    const refused = await attempt(c, 'fm_vector_column', ['ALTER TABLE fm_embeddings ADD COLUMN IF NOT EXISTS pgvec vector', `UPDATE fm_embeddings SET pgvec = ${VEC_BYTES_AS_REAL_ARRAY}::vector`]);
    if (refused) why = `pgvector is installed but its column could not be added (${refused})`;
  }
  const mode: VectorMode = why ? 'client' : 'pgvector';
  const detail = mode === 'pgvector' ? 'the database orders vectors by cosine distance (pgvector)' : `the client scores vectors (${why})`;
  await noteMeta(c, 'vector_mode', mode, detail, `team recall by meaning: ${detail}.`, onInfo);
  return { mode, detail: `team recall by meaning: ${detail}.` };
}

/** The full-text indexes, each led by the project (btree_gin), and the global ones they replace. */
const PROJECT_SEARCH_INDEXES = [
  { name: 'fm_attempts_project_search', table: 'fm_attempts', where: "WHERE outcome = 'failure'", replaces: 'fm_attempts_search' },
  { name: 'fm_learnings_project_search', table: 'fm_learnings', where: '', replaces: 'fm_learnings_search' },
  { name: 'fm_reflections_project_search', table: 'fm_reflections', where: '', replaces: 'fm_reflections_search' },
] as const;

/**
 * Team recall searches one project's text: with btree_gin (a trusted extension in PostgreSQL's
 * contrib) its full-text indexes lead with the project, so a search costs what the project holds,
 * not what the whole database holds. Without it the global indexes stay (slower on a large server).
 */
async function ensureProjectSearch(c: PoolClient, onInfo?: (message: string) => void): Promise<{ ok: boolean; detail: string }> {
  const have = await c.query('SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1)', [PROJECT_SEARCH_INDEXES.map(i => i.name)]);
  let refused: string | undefined;
  if (have.rowCount !== PROJECT_SEARCH_INDEXES.length) {
    refused = await attempt(c, 'fm_project_search', [
      'CREATE EXTENSION IF NOT EXISTS btree_gin',
      ...PROJECT_SEARCH_INDEXES.flatMap(i => [`CREATE INDEX IF NOT EXISTS ${i.name} ON ${i.table} USING gin (project, search) ${i.where}`, `DROP INDEX IF EXISTS ${i.replaces}`]),
    ]);
  }
  const detail = refused
    ? `team recall's full-text search: one index for all projects (btree_gin could not be used: ${refused}).`
    : "team recall's full-text search: indexes led by the project (btree_gin).";
  // worth telling only when the per-project indexes could not be made
  await noteMeta(c, 'project_search', refused ? 'global' : 'btree_gin', detail, refused ? detail : '', onInfo);
  return { ok: !refused, detail };
}

/** A name as an SQL identifier ("…", quotes doubled). */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** What a role that only reads and writes needs (the README gives the same). */
export function grantStatements(schema: string, role: string): string[] {
  const s = quoteIdent(schema || 'public');
  const r = quoteIdent(role);
  return [`GRANT USAGE ON SCHEMA ${s} TO ${r}`, `GRANT SELECT, INSERT, UPDATE, DELETE ON ${TEAM_TABLES.map(t => `${s}.${t}`).join(', ')} TO ${r}`];
}
