// The pull: one project's team view from the database. Windowed: only the last PULL_WINDOW_DAYS of
// failures and clearings are read (through the indexes led by the project and the time), failures
// are counted per approach and machine in one hash aggregate (no sort of every failure), and the label
// and last error are looked up for the approaches returned only.

import type { PoolClient } from 'pg';
import type { TeamApproach, TeamView } from '../../core/rules/team';
import { mergeTeamPatterns, type PatternRow } from '../../core/rules/teamPatterns';

/** How far back a pull counts failures and clearings. */
export const PULL_WINDOW_DAYS = 30;
/** At most this many approaches per project (the most recently active). */
const PULL_MAX_APPROACHES = 500;
const PULL_LEARNINGS = 200;
const PULL_REFLECTIONS = 50;
/** The machines' pattern rows read per pull (the most recent), merged into at most PULL_PATTERNS causes. */
const PULL_PATTERN_ROWS = 400;
const PULL_PATTERNS = 100;

/** One row of the approach query (PostgreSQL returns counts as strings). */
interface ApproachRow {
  key: string; label: string; cwd: string; command: string; failures: string; week: string; machines: string; ci: boolean;
  last_error: string | null; last_failure: Date | null; last_cleared: Date | null; cleared_by: string | null;
}

// $1 project, $2 now, $3 window (days), $4 most approaches
const APPROACHES_SQL = `
WITH since AS (SELECT $2::timestamptz - make_interval(days => $3) AS t),
last_clear AS (
  SELECT DISTINCT ON (key) key, at, machine FROM (
    SELECT key, ended_at AS at, machine FROM fm_attempts WHERE project = $1 AND outcome = 'success' AND ended_at > (SELECT t FROM since)
    UNION ALL
    SELECT key, at, machine FROM fm_resolves WHERE project = $1 AND at > (SELECT t FROM since)
  ) c ORDER BY key, at DESC
),
per_machine AS (
  SELECT a.key, a.machine, count(*) AS n, count(*) FILTER (WHERE a.ended_at > $2::timestamptz - interval '7 days') AS week,
         bool_or(a.is_ci) AS ci, max(a.ended_at) AS last_failure
  FROM fm_attempts a LEFT JOIN last_clear lc ON lc.key = a.key
  WHERE a.project = $1 AND a.outcome = 'failure' AND a.ended_at > (SELECT t FROM since) AND (lc.at IS NULL OR a.ended_at > lc.at)
  GROUP BY a.key, a.machine
),
agg AS (
  SELECT key, sum(n) AS failures, sum(week) AS week, count(*) AS machines, bool_or(ci) AS ci, max(last_failure) AS last_failure
  FROM per_machine GROUP BY key
),
top AS (
  SELECT coalesce(agg.key, lc.key) AS key, agg.failures, agg.week, agg.machines, agg.ci, agg.last_failure, lc.at AS last_cleared, lc.machine AS cleared_by
  FROM agg FULL JOIN last_clear lc ON lc.key = agg.key
  ORDER BY greatest(agg.last_failure, lc.at) DESC NULLS LAST
  LIMIT $4
)
SELECT top.key, coalesce(latest.label, r.label, top.key) AS label, coalesce(latest.cwd, r.cwd, '.') AS cwd, coalesce(latest.command, '') AS command,
       coalesce(top.failures, 0) AS failures, coalesce(top.week, 0) AS week, coalesce(top.machines, 0) AS machines, coalesce(top.ci, false) AS ci,
       CASE WHEN top.failures > 0 THEN latest.error_signature END AS last_error, top.last_failure, top.last_cleared, top.cleared_by
FROM top
LEFT JOIN LATERAL (SELECT label, cwd, command, error_signature FROM fm_attempts
                   WHERE project = $1 AND key = top.key ORDER BY ended_at DESC LIMIT 1) latest ON true
LEFT JOIN LATERAL (SELECT label, cwd FROM fm_resolves WHERE project = $1 AND key = top.key ORDER BY at DESC LIMIT 1) r ON latest.label IS NULL
ORDER BY greatest(top.last_failure, top.last_cleared) DESC NULLS LAST`;

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

/** The team view of a project: per approach, failures in the window since the last success or resolve anywhere. */
export async function readTeamView(c: PoolClient, project: string, now: Date, windowDays = PULL_WINDOW_DAYS, patterns = false): Promise<TeamView> {
  const approaches = await c.query<ApproachRow>(APPROACHES_SQL, [project, now.toISOString(), windowDays, PULL_MAX_APPROACHES]);
  const learnings = await c.query<{ id: string; key: string | null; type: string; text: string; machine: string; created_at: Date }>(
    'SELECT id, key, type, text, machine, created_at FROM fm_learnings WHERE project = $1 ORDER BY created_at DESC LIMIT $2',
    [project, PULL_LEARNINGS],
  );
  const reflections = await c.query<{ id: string; key: string; text: string; lessons: string[]; machine: string; created_at: Date }>(
    'SELECT id, key, text, lessons, machine, created_at FROM fm_reflections WHERE project = $1 ORDER BY created_at DESC LIMIT $2',
    [project, PULL_REFLECTIONS],
  );
  const view: TeamView = { project, pulledAt: now.toISOString(), windowDays, approaches: {}, learnings: [], reflections: [] };
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
  if (patterns) view.patterns = mergeTeamPatterns(await readPatternRows(c, project, now, windowDays), PULL_PATTERNS);
  return view;
}

interface PatternRowDb {
  id: string; machine: string; cause: string; kind: string; cls: string; subject: string; factors: Record<string, string>; commands: string[]; failures: number; occurrences: number;
  systemic: boolean; status: string; since: Date; last_seen: Date; resolved_at: Date | null; last_error: string; fix: string | null; fix_worked: number; updated_at: Date;
}

/** The machines' records of the project's causes seen in the window, newest first. */
async function readPatternRows(c: PoolClient, project: string, now: Date, windowDays: number): Promise<PatternRow[]> {
  const r = await c.query<PatternRowDb>(
    `SELECT id, machine, cause, kind, cls, subject, factors, commands, failures, occurrences, systemic, status, since, last_seen, resolved_at, last_error, fix, fix_worked, updated_at
     FROM fm_patterns WHERE project = $1 AND last_seen > $2::timestamptz - make_interval(days => $3) ORDER BY last_seen DESC LIMIT $4`,
    [project, now.toISOString(), windowDays, PULL_PATTERN_ROWS],
  );
  return r.rows.map(x => ({
    id: x.id,
    machine: x.machine,
    cause: x.cause,
    kind: x.kind,
    cls: x.cls as PatternRow['cls'],
    subject: x.subject,
    factors: x.factors && typeof x.factors === 'object' ? x.factors : {},
    commands: Array.isArray(x.commands) ? x.commands.filter(v => typeof v === 'string') : [],
    failures: x.failures,
    occurrences: x.occurrences,
    systemic: x.systemic,
    status: x.status === 'resolved' ? 'resolved' : 'active',
    since: x.since.toISOString(),
    lastSeen: x.last_seen.toISOString(),
    ...(x.resolved_at ? { resolvedAt: x.resolved_at.toISOString() } : {}),
    lastError: x.last_error,
    ...(x.fix ? { fix: x.fix, fixWorked: x.fix_worked } : {}),
    updatedAt: x.updated_at.toISOString(),
  }));
}
