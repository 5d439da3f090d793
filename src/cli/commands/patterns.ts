import { quote, UNTRUSTED_NOTE } from '../../core/prompts/agentText';
import { clockTime, patternSentence } from '../../core/rules/causePolicy';
import { activeApproaches, lastFix, shownPatterns } from '../../core/rules/patternRecords';
import type { PatternRecord } from '../../core/types';
import { isTeamPattern, type TeamPattern } from '../../core/rules/teamPatterns';
import type { Command } from '../types';

/** How a pattern was resolved, in one line: by what run, after which command, with which files changed. */
function resolutionLine(p: PatternRecord, now: Date): string {
  const r = p.resolution;
  if (!r) return '';
  const by = r.by === 'manual' ? 'marked resolved by the user' : r.by === 'team' ? 'resolved in the team' : `resolved by a passing run${r.command ? ` of \`${r.command}\`` : ''}`;
  const after = r.fix ? ` after \`${r.fix}\`` : '';
  const files = r.files?.length ? `; files changed: ${r.files.slice(0, 5).join(', ')}${r.files.length > 5 ? ` and ${r.files.length - 5} more` : ''}` : '';
  return `${by}${after} (${clockTime(r.at, now)})${files}`;
}

function patternLines(p: PatternRecord, now: Date): string[] {
  const active = p.status === 'active';
  const state = active ? `ACTIVE${p.systemic ? ', systemic' : ''}` : 'resolved';
  const shown = active ? activeApproaches(p) : p.approaches;
  const factors = Object.entries(p.factors).map(([k, v]) => `${k} ${v}`).join(', ');
  const lines = [
    `  ${state} — ${active ? patternSentence(p, now) : p.subject}`,
    `      commands: ${shown.map(a => (a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label)).join('; ')}`,
    `      ${p.occurrences} failure(s) in all, first seen ${clockTime(p.firstSeen, now)}, last seen ${clockTime(p.lastSeen, now)}${factors ? ` · common factors: ${factors}` : ''}`,
  ];
  if (p.lastError) lines.push(`      last error (command output, untrusted): ${quote(p.lastError, 300)}`);
  const fix = lastFix(p);
  if (fix) lines.push(`      fixed before by: \`${fix.command}\`${fix.worked > 1 ? ` (worked ${fix.worked} times)` : ''}`);
  const res = active ? '' : resolutionLine(p, now);
  if (res) lines.push(`      ${res}`);
  return lines;
}

/** A cause as the team knows it, in one line. */
function teamLine(p: TeamPattern): string {
  const fix = p.fix ? `; fixed by \`${p.fix.command}\` on ${p.fix.machine}${p.fix.worked > 1 ? ` (worked ${p.fix.worked} times)` : ''}` : '';
  return `  ${p.status === 'active' ? 'ACTIVE' : 'resolved'} — ${p.subject}: ${p.occurrences} failure(s) of ${p.commands.length} command(s) on ${p.machines.length} machine(s) (${p.machines.join(', ')})${fix}`;
}

export const patterns: Command = {
  name: 'patterns',
  usage: 'patterns [--all]',
  summary: 'causes failing several commands (a service down, a program or module missing…), with the commands, occurrences and what fixed them',
  options: {
    all: { type: 'boolean', help: 'every pattern record, also causes of one command and those resolved without a known fix' },
  },
  async run(ctx) {
    const data = await ctx.memory().read();
    const now = new Date();
    const list = ctx.flag('all') ? [...(data.patterns ?? [])].sort((a, b) => (b.lastSeen < a.lastSeen ? -1 : 1)) : shownPatterns(data);
    const here = list.length
      ? [`One cause across commands (${list.length}):`, ...list.flatMap(p => patternLines(p, now))]
      : [`No cause has failed several commands here${data.patterns?.length ? ` (${data.patterns.length} cause(s) of one command each: --all lists them)` : ''}.`];
    // team memory on: the team's causes from its cached view (never the network)
    const { team } = ctx.team();
    const teamPatterns = team ? ((await team.view().catch(() => undefined))?.view?.patterns ?? []).filter(isTeamPattern) : [];
    const inTeam = teamPatterns.length ? [`In the team (${teamPatterns.length}, from the last pull):`, ...teamPatterns.slice(0, 20).map(teamLine)] : [];
    const quoted = list.some(p => p.lastError) ? [UNTRUSTED_NOTE] : [];
    ctx.print([...here, ...inTeam, ...quoted].join('\n'), {
      patterns: list.map(p => ({ ...p, sentence: patternSentence(p, now), fix: lastFix(p) ?? null })),
      ...(team ? { team: teamPatterns } : {}),
    });
    return 0;
  },
};
