// Pattern records in team memory, the pure part: what a machine shares of a pattern (redacted already,
// bounded: the cause, its factors, the commands it failed, counts and times, the fix that worked), how
// the team's records of one cause (one per machine) merge into one, and the fix the team knows for a
// cause this machine meets. Shared like learnings: knowledge, never a stop (a database refusing on one
// machine says nothing of another's).

import { activeApproaches, lastFix } from './patternRecords';
import { teamPatternShape } from '../storedShapes';
import type { PatternRecord } from '../types';

/** A pattern as one machine shares it: the record's own fields (bounded), its commands by label, its fix, and when it was taken. */
export type SharedPattern = Pick<PatternRecord, 'id' | 'cause' | 'kind' | 'cls' | 'subject' | 'factors' | 'failures' | 'occurrences' | 'systemic' | 'status' | 'since' | 'lastSeen' | 'resolvedAt' | 'lastError'> & {
  /** The commands it failed (approach labels), most recent last. */
  commands: string[];
  /** The fix that worked, and how many times, on this machine. */
  fix?: string;
  fixWorked?: number;
  /** When this snapshot was taken: a newer one of the same machine replaces it. */
  updatedAt: string;
};

/** A cause as the team knows it: every machine's record of it merged. */
export interface TeamPattern extends Omit<SharedPattern, 'updatedAt' | 'fix' | 'fixWorked'> {
  /** Machines that met it. */
  machines: string[];
  /** The fix that worked the most times in the team, and where. */
  fix?: { command: string; worked: number; machine: string };
}

export const PATTERN_SHARE_LIMITS = { cause: 400, subject: 240, factor: 200, factors: 10, commands: 8, command: 200, lastError: 300, fix: 300 } as const;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Worth sharing: a cause that failed several commands, is systemic, or was fixed by a known command. */
export function worthSharing(p: PatternRecord): boolean {
  return p.systemic || new Set(p.approaches.map(a => a.key)).size >= 2 || !!lastFix(p);
}

/** The shared form of a pattern (its text is local memory's, redacted already; bounded here). */
export function sharedPattern(p: PatternRecord, updatedAt: string): SharedPattern {
  const L = PATTERN_SHARE_LIMITS;
  const fix = lastFix(p);
  const shown = p.status === 'active' && activeApproaches(p).length ? activeApproaches(p) : p.approaches;
  return {
    id: p.id,
    cause: cut(p.cause, L.cause),
    kind: p.kind,
    cls: p.cls,
    subject: cut(p.subject, L.subject),
    factors: Object.fromEntries(Object.entries(p.factors).slice(0, L.factors).map(([k, v]) => [k.slice(0, 40), cut(v, L.factor)])),
    commands: shown.slice(-L.commands).map(a => cut(a.cwd && a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label, L.command)),
    failures: p.failures,
    occurrences: p.occurrences,
    systemic: p.systemic,
    status: p.status,
    since: p.since,
    lastSeen: p.lastSeen,
    ...(p.resolvedAt ? { resolvedAt: p.resolvedAt } : {}),
    lastError: cut(p.lastError, L.lastError),
    ...(fix ? { fix: cut(fix.command, L.fix), fixWorked: fix.worked } : {}),
    updatedAt,
  };
}

/** One machine's row of a pattern, as the pull reads it. */
export type PatternRow = SharedPattern & { machine: string };

/**
 * The team's patterns: each cause's rows (one per machine) merged — counts summed, commands and
 * machines united, the latest times, the fix that worked most often. Newest first, at most `max`.
 */
export function mergeTeamPatterns(rows: readonly PatternRow[], max = 100): TeamPattern[] {
  const by = new Map<string, PatternRow[]>();
  for (const r of rows) (by.get(r.id) ?? by.set(r.id, []).get(r.id)!).push(r);
  const out: TeamPattern[] = [];
  for (const group of by.values()) {
    const latest = [...group].sort((a, b) => (b.lastSeen < a.lastSeen ? -1 : 1))[0];
    const commands = [...new Set(group.flatMap(r => r.commands))].slice(-PATTERN_SHARE_LIMITS.commands);
    const fixed = group.filter(r => r.fix).sort((a, b) => (b.fixWorked ?? 0) - (a.fixWorked ?? 0) || (b.lastSeen < a.lastSeen ? -1 : 1))[0];
    const active = group.filter(r => r.status === 'active');
    out.push({
      id: latest.id,
      cause: latest.cause,
      kind: latest.kind,
      cls: latest.cls,
      subject: latest.subject,
      factors: latest.factors,
      commands,
      failures: active.reduce((n, r) => n + r.failures, 0),
      occurrences: group.reduce((n, r) => n + r.occurrences, 0),
      systemic: group.some(r => r.systemic),
      status: active.length ? 'active' : 'resolved',
      since: group.reduce((m, r) => (r.since < m ? r.since : m), latest.since),
      lastSeen: latest.lastSeen,
      ...(latest.resolvedAt ? { resolvedAt: latest.resolvedAt } : {}),
      lastError: latest.lastError,
      machines: [...new Set(group.map(r => r.machine))].sort(),
      ...(fixed?.fix ? { fix: { command: fixed.fix, worked: group.filter(r => r.fix === fixed.fix).reduce((n, r) => n + (r.fixWorked ?? 1), 0), machine: fixed.machine } } : {}),
    });
  }
  return out.sort((a, b) => (b.lastSeen < a.lastSeen ? -1 : b.lastSeen > a.lastSeen ? 1 : 0)).slice(0, max);
}

/** The fix the team knows for a cause (by its pattern id), when one worked somewhere. */
export function teamFixFor(patterns: readonly unknown[] | undefined, id: string): TeamPattern['fix'] | undefined {
  return (patterns ?? []).find((p): p is TeamPattern => teamPatternShape(p) && p.id === id && !!p.fix)?.fix;
}
