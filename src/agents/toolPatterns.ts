// The tools' words for a cause failing several commands (a pattern record): in the check answer, the
// cause this command shares and the fix that worked before; in the record answer, the cause the
// failure joined (with that fix: "last time it was fixed by …") and the patterns a success resolved.

import { quote } from '../core/prompts/agentText';
import { lastFix } from '../core/rules/patternRecords';
import type { PatternBrief } from '../core/rules/causePolicy';
import type { RecordResult } from '../core/memory';

const oneLine = (s: string, max = 400) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** A cause across commands, for a model: what it is, the commands it broke, the fix that worked before. */
export function causeLines(p: PatternBrief): string[] {
  const lines = [`One cause: ${p.subject} — ${p.commands.length} command(s) failed on it since ${p.since.slice(11, 16)} UTC: ${p.commands.slice(-5).map(quote).join('; ')}. What to do first: ${p.remedy}.`];
  if (p.fix) lines.push(`Last time it was fixed by ${quote(p.fix.command)}${p.fix.worked > 1 ? ` (worked ${p.fix.worked} times)` : ''}${p.fix.from === 'team' ? ` — the team's fix${p.fix.machine ? `, on ${oneLine(p.fix.machine, 60)}` : ''}` : ''}.`);
  return lines;
}

/** A pattern for a tool's JSON answer. */
export function patternJson(p: PatternBrief) {
  return { id: p.id, cause: p.subject, kind: p.kind, systemic: p.systemic, failures: p.failures, commands: p.commands, since: p.since, lastSeen: p.lastSeen, seen: p.seen, remedy: p.remedy, fix: p.fix ?? null };
}

type TeamFix = { command: string; worked: number; machine: string };

/** What a recorded run did to the patterns: the cause it joined (when it spans commands or has a fix, here or in the team), the causes it resolved. */
export function recordCauseLines(r: Pick<RecordResult, 'pattern' | 'resolvedPatterns'> & { teamFix?: TeamFix }): string[] {
  const lines: string[] = [];
  const p = r.pattern;
  const commands = p ? p.approaches.filter(a => a.failures > 0).map(a => quote(a.label)) : [];
  const local = p ? lastFix(p) : undefined;
  const fix = local ?? r.teamFix;
  if (p && (commands.length >= 2 || fix)) {
    const whose = !local && r.teamFix ? ` — the team's fix, on ${oneLine(r.teamFix.machine, 60)}` : '';
    lines.push(`One cause: ${p.subject} — ${p.failures} failure(s) of ${commands.length} command(s) (${commands.join('; ')}).${fix ? ` Last time it was fixed by ${quote(fix.command)}${fix.worked > 1 ? ` (worked ${fix.worked} times)` : ''}${whose}.` : ''}`);
  }
  for (const x of r.resolvedPatterns) lines.push(`Resolved: ${x.subject} answers again${x.resolution?.fix ? ` (after ${quote(x.resolution.fix)})` : ''}.`);
  return lines;
}

/** The same for a record's JSON answer. */
export function recordPatternJson(r: Pick<RecordResult, 'pattern' | 'resolvedPatterns'> & { teamFix?: TeamFix }): Record<string, unknown> {
  const p = r.pattern;
  const fix = p ? (lastFix(p) ?? (r.teamFix ? { ...r.teamFix, from: 'team' } : null)) : null;
  return {
    ...(p ? { pattern: { id: p.id, cause: p.subject, kind: p.kind, systemic: p.systemic, failures: p.failures, commands: p.approaches.filter(a => a.failures > 0).map(a => a.label), fix } } : {}),
    ...(r.resolvedPatterns.length ? { resolvedPatterns: r.resolvedPatterns.map(x => ({ id: x.id, cause: x.subject, fix: x.resolution?.fix ?? null })) } : {}),
  };
}
