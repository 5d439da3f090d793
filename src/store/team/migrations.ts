// The team database schema, as versioned migrations. They run only when the database lacks one and
// only by a role that may change the schema (./schema.ts): on the first connect of such a role, or by
// `failure-memory team init`. Each runs once, in a transaction, under an advisory lock (many machines
// may connect for the first time at once). Every table is keyed by the client-generated id of the
// record, so a retried push inserts nothing twice.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The tables a role that only reads and writes needs SELECT, INSERT, UPDATE and DELETE on. */
export const TEAM_TABLES = ['fm_schema_migrations', 'fm_meta', 'fm_projects', 'fm_attempts', 'fm_resolves', 'fm_learnings', 'fm_reflections', 'fm_embeddings', 'fm_patterns'] as const;

/**
 * The oldest schema this client reads and writes: a database at this version or later works with a
 * role that may not migrate it (what later versions add is speed, not columns).
 */
export const REQUIRED_SCHEMA = 2;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'projects, attempts, resolves, learnings, reflections',
    sql: `
CREATE TABLE IF NOT EXISTS fm_projects (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- one row per command run that the team was told about (failures; successes that clear something)
CREATE TABLE IF NOT EXISTS fm_attempts (
  id text PRIMARY KEY,
  project text NOT NULL,
  key text NOT NULL,
  label text NOT NULL,
  command text NOT NULL,
  cwd text NOT NULL,
  exit_code integer,
  outcome text NOT NULL,
  source text NOT NULL,
  machine text NOT NULL,
  is_ci boolean NOT NULL DEFAULT false,
  error_signature text NOT NULL DEFAULT '',
  test_results jsonb,
  output text NOT NULL DEFAULT '',
  ended_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', label || ' ' || command || ' ' || error_signature)) STORED
);
-- check's lookup: an approach's failures since its last clearing, newest first
CREATE INDEX IF NOT EXISTS fm_attempts_project_key_time ON fm_attempts (project, key, ended_at DESC);
CREATE INDEX IF NOT EXISTS fm_attempts_project_outcome_time ON fm_attempts (project, outcome, ended_at DESC);
CREATE INDEX IF NOT EXISTS fm_attempts_search ON fm_attempts USING gin (search);

-- "mark resolved" by a person: clears the approach for the team like a success
CREATE TABLE IF NOT EXISTS fm_resolves (
  id text PRIMARY KEY,
  project text NOT NULL,
  key text NOT NULL,
  label text NOT NULL,
  cwd text NOT NULL,
  machine text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS fm_resolves_project_key_time ON fm_resolves (project, key, at DESC);

CREATE TABLE IF NOT EXISTS fm_learnings (
  id text PRIMARY KEY,
  project text NOT NULL,
  key text,
  type text NOT NULL,
  text text NOT NULL,
  machine text NOT NULL,
  created_at timestamptz NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
);
CREATE INDEX IF NOT EXISTS fm_learnings_project_time ON fm_learnings (project, created_at DESC);
CREATE INDEX IF NOT EXISTS fm_learnings_search ON fm_learnings USING gin (search);

CREATE TABLE IF NOT EXISTS fm_reflections (
  id text PRIMARY KEY,
  project text NOT NULL,
  key text NOT NULL,
  text text NOT NULL,
  lessons jsonb NOT NULL DEFAULT '[]',
  machine text NOT NULL,
  created_at timestamptz NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
);
CREATE INDEX IF NOT EXISTS fm_reflections_project_time ON fm_reflections (project, created_at DESC);
CREATE INDEX IF NOT EXISTS fm_reflections_search ON fm_reflections USING gin (search);
`,
  },
  {
    version: 2,
    name: 'embeddings for team recall by meaning',
    // One vector per shared document and embedder: an approach (ref = its key, from its latest
    // failure), a learning or a reflection (ref = its id). Keyed by the embedder's model id and
    // dimension too, so that vectors of two embedders never meet. `vec` is the vector as float32
    // little-endian bytes (dim × 4): it works on every server and a client fetches 1,000 of them ~7×
    // faster than as real[] (measured: 17 ms against 118 ms). When the server has pgvector,
    // TeamDatabase adds a `pgvec vector` column beside it (not here: the extension needs privileges,
    // and its absence must not stop the schema).
    sql: `
CREATE TABLE IF NOT EXISTS fm_embeddings (
  project text NOT NULL,
  kind text NOT NULL,
  ref text NOT NULL,
  model text NOT NULL,
  dim integer NOT NULL,
  vec bytea NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (project, kind, ref, model, dim)
);
-- client-scored recall reads a project's most recent vectors of one embedder
CREATE INDEX IF NOT EXISTS fm_embeddings_recent ON fm_embeddings (project, model, dim, at DESC);

-- facts about this database that every machine should agree on (vector_mode: pgvector | client)
CREATE TABLE IF NOT EXISTS fm_meta (
  name text PRIMARY KEY,
  value text NOT NULL,
  detail text NOT NULL DEFAULT '',
  at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 3,
    name: 'indexes that lead with the project for retention and the windowed pull',
    // retention deletes a project's oldest rows; the pull reads a project's recent failures
    sql: `
CREATE INDEX IF NOT EXISTS fm_attempts_project_time ON fm_attempts (project, ended_at);
CREATE INDEX IF NOT EXISTS fm_resolves_project_time ON fm_resolves (project, at);
`,
  },
  {
    version: 4,
    name: 'pattern records: one cause across commands, per machine',
    // One row per project, cause (the pattern id) and machine: each push of a machine's record
    // replaces its older snapshot (updated_at), never a newer one; the pull merges the machines' rows.
    sql: `
CREATE TABLE IF NOT EXISTS fm_patterns (
  project text NOT NULL,
  id text NOT NULL,
  machine text NOT NULL,
  cause text NOT NULL,
  kind text NOT NULL,
  cls text NOT NULL,
  subject text NOT NULL,
  factors jsonb NOT NULL DEFAULT '{}',
  commands jsonb NOT NULL DEFAULT '[]',
  failures integer NOT NULL,
  occurrences integer NOT NULL,
  systemic boolean NOT NULL,
  status text NOT NULL,
  since timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  resolved_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  fix text,
  fix_worked integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project, id, machine)
);
CREATE INDEX IF NOT EXISTS fm_patterns_project_time ON fm_patterns (project, last_seen DESC);
`,
  },
];

/** The first schema that holds pattern records (a database below it is used without them). */
export const PATTERNS_SCHEMA = 4;

/** The newest schema version this client knows. */
export const LATEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1].version;

export const MIGRATION_LOCK_ID = 0x466d656d; // 'Fmem'
