// Retention: a project's team rows are bounded by age and by count, applied by the sync (at most
// every RETENTION_EVERY_MS per machine). Deletes go in batches so that no statement holds its locks
// long on a large table; lessons (learnings and reflections) are kept: they are few and they are the
// point. What a role needs: DELETE on the tables (the README's GRANT).

import type { PoolClient } from 'pg';

export interface RetentionPolicy {
  /** Attempts, resolves and approach vectors older than this many days go; 0: no age limit. */
  days: number;
  /** At most this many attempts per project (the oldest go first); 0: no count limit. */
  maxRows: number;
}

export interface RetentionResult {
  attempts: number;
  resolves: number;
  vectors: number;
  /** Machines' pattern records not seen within the age limit. */
  patterns?: number;
}

/** How often one machine applies retention to its project. */
export const RETENTION_EVERY_MS = 6 * 3600_000;
const BATCH = 5000;
/** Batches per table and run: a first run on a huge table finishes over several syncs. */
const MAX_BATCHES = 40;

/** Deletes in batches the rows `where` selects (by ctid, a batch at a time); returns how many went. */
async function deleteBatched(c: PoolClient, table: string, where: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const r = await c.query(`DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT ${BATCH}))`, params);
    total += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < BATCH) break;
  }
  return total;
}

/** Applies the policy to one project's rows. */
export async function applyRetention(c: PoolClient, project: string, policy: RetentionPolicy, now: Date = new Date(), patterns = false): Promise<RetentionResult> {
  const out: RetentionResult = { attempts: 0, resolves: 0, vectors: 0 };
  if (policy.days > 0) {
    const before = new Date(now.getTime() - policy.days * 86400_000).toISOString();
    // a cause not seen anywhere within the limit goes too
    if (patterns) out.patterns = await deleteBatched(c, 'fm_patterns', 'project = $1 AND last_seen < $2', [project, before]);
    out.attempts += await deleteBatched(c, 'fm_attempts', 'project = $1 AND ended_at < $2', [project, before]);
    out.resolves += await deleteBatched(c, 'fm_resolves', 'project = $1 AND at < $2', [project, before]);
    // an approach's vector is as old as its latest failure: older than the limit, its failures are gone too
    out.vectors += await deleteBatched(c, 'fm_embeddings', "project = $1 AND kind = 'attempt' AND at < $2", [project, before]);
  }
  if (policy.maxRows > 0) {
    const cut = await c.query<{ ended_at: Date }>('SELECT ended_at FROM fm_attempts WHERE project = $1 ORDER BY ended_at DESC OFFSET $2 LIMIT 1', [project, policy.maxRows]);
    const at = cut.rows[0]?.ended_at;
    if (at) out.attempts += await deleteBatched(c, 'fm_attempts', 'project = $1 AND ended_at <= $2', [project, at.toISOString()]);
  }
  return out;
}
