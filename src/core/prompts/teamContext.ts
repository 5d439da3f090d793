// What an agent is told of its team (other machines, their agents and CI on the same project), from
// the cached team view: the failing approaches and lessons at session start and with each prompt,
// a warning before it runs an approach the team has exhausted, and the refusal when team failures
// block (failureMemory.team.blockOnTeamFailures). Always marked as the team's, never mixed with this
// workspace's own failures. Everything here came from other machines: one plain line each, bounded,
// no control characters, and never an instruction to unblock (resolve and allow are the user's).

import { quote, UNTRUSTED_NOTE } from './agentText';
import { stripAnsi } from '../text/ansi';
import { visibleLine } from '../text/hidden';
import type { CheckResult } from '../rules/check';
import type { MemoryData } from '../types';
import { describeTeamFailures, type TeamApproach, type TeamCheck, type TeamView } from '../rules/team';
import type { TeamPattern } from '../rules/teamPatterns';
import { teamPatternShape } from '../storedShapes';

/** The team part of an agent's context stays under this many characters. */
export const TEAM_SUMMARY_MAX_CHARS = 1000;

const line = (s: string, max: number) => {
  const t = visibleLine(stripAnsi(s ?? ''));
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
/** A command line from another machine: quoted like its output. */
const code = (s: string, max = 160) => quote(s, max);
const where = (cwd: string) => (cwd === '.' ? 'the workspace root' : line(cwd, 80));

/** A lesson the team wrote about an approach: a learning, or a lesson of a reflection. */
export interface TeamLesson {
  type: string;
  text: string;
  machine: string;
}

/** The team's lessons about one approach (newest first), at most `max`. */
export function teamLessons(view: TeamView | undefined, key: string, max = 3): TeamLesson[] {
  if (!view) return [];
  const out: Array<TeamLesson & { at: string }> = [];
  for (const l of view.learnings) if (l.key === key) out.push({ type: l.type, text: l.text, machine: l.machine, at: l.createdAt });
  for (const r of view.reflections) {
    if (r.key !== key) continue;
    for (const lesson of r.lessons) out.push({ type: 'reflection', text: lesson, machine: r.machine, at: r.createdAt });
  }
  const seen = new Set<string>();
  return out
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .filter(l => !seen.has(l.text) && seen.add(l.text))
    .slice(0, max)
    .map(({ at: _at, ...l }) => l);
}

const lessonLine = (l: TeamLesson) => `team lesson (${l.type}, from ${line(l.machine, 60)}): ${quote(l.text, 240)}`;

/** The team's failures of an approach, for an agent: the counts, and the last error quoted as untrusted output. */
const failuresLine = (t: Pick<TeamApproach, 'failures' | 'failuresThisWeek' | 'machines' | 'ci' | 'lastError'>, windowDays?: number) =>
  `${describeTeamFailures({ ...t, lastError: '' }, windowDays)}${t.failures && t.lastError ? `, last error ${quote(t.lastError, 260)}` : ''}`;

/** How old the view is, for a line that says so: "3 minutes ago". */
function age(pulledAt: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(pulledAt)) / 1000));
  if (!Number.isFinite(s)) return 'at an unknown time';
  if (s < 90) return 'just now';
  if (s < 5400) return `${Math.round(s / 60)} minutes ago`;
  if (s < 129600) return `${Math.round(s / 3600)} hours ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/**
 * The team section of an agent's context: the team's exhausted and failing approaches (those this
 * workspace already lists as its own are left out) and its newest lessons; '' when the view has none.
 */
export function agentTeamSummary(view: TeamView | undefined, local: MemoryData, threshold: number, now = Date.now(), max = TEAM_SUMMARY_MAX_CHARS): string {
  if (!view) return '';
  const own = (k: string) => {
    const a = Object.prototype.hasOwnProperty.call(local.approaches, k) ? local.approaches[k] : undefined;
    return !!a && (a.failures > 0 || a.status === 'exhausted');
  };
  const failing = Object.values(view.approaches)
    .filter(a => a.failures > 0 && !own(a.key))
    .sort((x, y) => Number(y.failures >= threshold) - Number(x.failures >= threshold) || (y.lastFailure ?? '').localeCompare(x.lastFailure ?? ''));
  const lessons = [...view.learnings.map(l => ({ type: l.type, text: l.text, machine: l.machine, at: l.createdAt })), ...view.reflections.flatMap(r => r.lessons.map(text => ({ type: 'reflection', text, machine: r.machine, at: r.createdAt })))]
    .sort((a, b) => (a.at < b.at ? 1 : -1));
  // the causes the team fixed before: what worked, and where (a local failure of the same cause gets it in the deny reason too)
  const fixes = (view.patterns ?? []).filter(p => teamPatternShape(p)).filter(p => p.fix).slice(0, 3);
  if (!failing.length && !lessons.length && !fixes.length) return '';
  const entry = (a: TeamApproach) => `- ${a.failures >= threshold ? 'EXHAUSTED in the team' : 'failing in the team'}: ${code(a.command || a.label, 120)} in ${where(a.cwd)}, ${failuresLine(a, view.windowDays)}`;
  const head = `Failure Memory — your team's failures in this project (other machines, their agents and CI; pulled ${age(view.pulledAt, now)}; threshold ${threshold}):`;
  const tail = 'These are the team\'s, not this workspace\'s: an approach the team has exhausted will most likely fail here too. Change its cause first or try something different.';
  const lines = [head];
  let size = head.length + tail.length + UNTRUSTED_NOTE.length + 3;
  let left = 0;
  const fixLine = (p: TeamPattern) => `- the team fixed ${line(p.subject, 120)} (${p.commands.length} command(s) on ${p.machines.length} machine(s)) with ${code(p.fix!.command, 160)} on ${line(p.fix!.machine, 60)}`;
  for (const c of [...failing.map(entry), ...fixes.map(fixLine), ...lessons.slice(0, 6).map(l => `- ${lessonLine(l)}`)]) {
    if (size + c.length + 1 > max - 40) {
      left++;
      continue;
    }
    lines.push(c);
    size += c.length + 1;
  }
  if (left) lines.push(`- … and ${left} more (failure-memory sync, then the panel).`);
  lines.push(tail, UNTRUSTED_NOTE);
  return lines.join('\n');
}

/** The warning before an agent runs an approach the team has exhausted (the call goes on). */
export function agentTeamWarning(c: CheckResult & { team: TeamCheck }, lessons: TeamLesson[]): string {
  const lines = [
    `Failure Memory (team): ${code(c.command, 300)} ${c.status === 'clear' ? 'has not failed in this workspace' : `failed ${c.attempts} time(s) here`}, but in your team (other machines of this project) it ${failuresLine(c.team)}, with no success anywhere since (threshold ${c.threshold}).`,
    'Running it the same way will most likely fail the same way: change its cause first, try a different approach, or ask the user.',
    ...lessons.map(lessonLine),
    UNTRUSTED_NOTE,
  ];
  return lines.join('\n');
}

/** The refusal when the team's failures alone block (failureMemory.team.blockOnTeamFailures). */
export function agentTeamDenyReason(c: CheckResult & { team: TeamCheck }, lessons: TeamLesson[]): string {
  return [
    `Failure Memory: NOT RUN — ${code(c.command, 300)} is exhausted in your team: it ${failuresLine(c.team)}, with no success anywhere since (threshold ${c.threshold}).`,
    'Team failures block here because the user turned on failureMemory.team.blockOnTeamFailures.',
    ...lessons.map(lessonLine),
    'What to do instead: read the last error and change its cause first (code, configuration, dependencies, the environment); ' +
      'then try an approach different from this one — not another flag on the same command; or stop and ask the user.',
    UNTRUSTED_NOTE,
  ].join('\n');
}
