// Team recall's database side: the candidates of one project that the client then scores
// (TeamMemory.recall): the best full-text matches and, with an embedder, the vectors of the same
// model and dimension (pgvector: the project's nearest by cosine distance; else its most recent,
// bounded, compared here). Every lookup is scoped by the project (indexes led by the project).

import type { PoolClient } from 'pg';
import { dot } from '../../core/recall';
import type { VectorMode } from './schema';

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


/** The query's vector, from the embedder whose vectors the database holds. */
export interface QueryVector {
  model: string;
  dim: number;
  vector: Float32Array;
}

/**
 * What team recall compares: the best full-text matches (their ts_rank kept) and, with an
 * embedder, the vectors of the same model and dimension: with pgvector the project's nearest by
 * cosine distance, else its most recent ones (bounded), plus those of the full-text matches. The
 * client fuses the two (TeamMemory.recall); nothing is scored across two embedders.
 */
export async function queryRecallCandidates(c: PoolClient, mode: VectorMode | undefined, project: string, query: string, embedder?: QueryVector): Promise<RecallCandidates> {
  const byId = await textCandidates(c, project, query);
  if (!embedder || !mode) return { candidates: [...byId.values()], mode: 'full-text' };
  const found = await vectorNeighbours(c, mode, project, embedder, byId);
  await addDocuments(c, project, byId, found);
  for (const [k, cand] of byId) {
    const v = found.get(k);
    if (v) cand.vector = v;
  }
  return { candidates: [...byId.values()], mode };
}

const id = (kind: string, ref: string) => `${kind}:${ref}`;

/** The project's best full-text matches of the query's words (prefixes), by kind:ref. */
async function textCandidates(c: PoolClient, project: string, query: string): Promise<Map<string, RecallCandidate>> {
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
  for (const r of text.rows) byId.set(id(r.kind, r.ref), { ...r, rank: Number(r.rank) });
  return byId;
}

/** The vectors to compare, by kind:ref: the query's nearest of the project, and those of the full-text matches. */
async function vectorNeighbours(c: PoolClient, mode: VectorMode, project: string, embedder: QueryVector, byId: ReadonlyMap<string, RecallCandidate>): Promise<Map<string, Float32Array>> {
  const pg = mode === 'pgvector';
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
  return found;
}

/** The documents behind vectors that full-text search did not find (rank 0). */
async function addDocuments(c: PoolClient, project: string, byId: Map<string, RecallCandidate>, found: ReadonlyMap<string, Float32Array>): Promise<void> {
  const missing = { attempt: [] as string[], learning: [] as string[], reflection: [] as string[] };
  for (const k of found.keys()) {
    if (byId.has(k)) continue;
    const [kind, ...ref] = k.split(':');
    if (kind in missing) missing[kind as keyof typeof missing].push(ref.join(':'));
  }
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
}
