import { explainBlock } from '../../core/check';
import { plainText } from '../../core/plainText';
import { explainTeamBlock, type TeamCheck } from '../../core/team';
import type { Command } from '../types';

/** The team's line of a check: its failures (with how old the view is when it is stale), or why it is not known. */
function teamLine(t: TeamCheck): string {
  const offline = t.sync.state === 'offline' && t.status !== 'unknown' ? ` (team memory offline, ${t.sync.waiting} waiting)` : '';
  const asOf = t.sync.stale && t.status !== 'unknown' && t.sync.pulledAt ? ` (as of ${t.sync.pulledAt})` : '';
  return `${plainText(t.summary, 600)}${asOf}${offline}`;
}

export const check: Command = {
  name: 'check',
  usage: 'check --command CMD [--cwd DIR]',
  summary: 'clear | failing | exhausted; exit 2 when exhausted (the gate)',
  options: {
    command: { type: 'string', help: 'the command line about to run' },
    cwd: { type: 'string', help: 'folder it would run in' },
  },
  async run(ctx) {
    const { io } = ctx;
    const memory = ctx.memory();
    const c = await memory.check(ctx.required('command'), ctx.cwd);
    // learnings linked to this approach (from reflections, output, agents, people), then the team's lessons (cached view)
    const learnings = await memory.lessonsFor(c.key);
    const learned = learnings.map(l => (l.from === 'team' ? `\nteam lesson (${l.type}, from ${plainText(l.machine ?? '', 60)}): ${plainText(l.text, 500)}` : `\nlearned (${l.type}): ${l.text}`)).join('');
    // [ledger] run history, what changed since the last pass, flakiness
    const ledger = { ...(c.history ? { history: c.history } : {}), ...(c.changed ? { changed: c.changed } : {}), ...(c.flaky ? { flaky: c.flaky } : {}) };
    const ledgerLines = [c.history, c.changed, c.flaky].filter(Boolean).map(l => `\n${l}`).join('');
    // with team memory on: what the team saw, from the cached team view (never the network)
    const team = c.team
      ? { status: c.team.status, failures: c.team.failures, machines: c.team.machines, lastError: c.team.lastError, ci: c.team.ci, failuresThisWeek: c.team.failuresThisWeek, summary: c.team.summary, sync: c.team.sync }
      : undefined;
    if (ctx.json) ctx.print('', { status: c.status, verdict: c.verdict, mustNotRun: c.verdict === 'block', attempts: c.attempts, threshold: c.threshold, key: c.key, label: c.label, lastError: c.lastError, alternatives: c.alternatives, progress: c.progress, patterns: c.patterns.map(p => p.kind), allowOnce: c.allowOnce, reason: c.reason, learnings, ...ledger, ...(team ? { team } : {}) });
    else if (c.status === 'clear' && c.verdict === 'allow') io.out(`clear: ${c.label} has not failed here (${c.reason}).${c.history ? `\n${c.history}` : ''}${learned}\n`);
    else if (c.verdict !== 'block') io.out(`${c.status}: ${c.label} — ${c.reason}${c.lastError ? `\nlast error: ${c.lastError}` : ''}${ledgerLines}${learned}\n`);
    if (!ctx.json && c.team && (c.team.failures || c.team.status === 'unknown')) io.out(`team: ${teamLine(c.team)}\n`);
    if (c.verdict === 'block') {
      io.err(`${c.team && c.status !== 'exhausted' ? explainTeamBlock({ ...c, team: c.team }) : explainBlock(c)}${learned}\n`);
      return 2;
    }
    if (c.status === 'exhausted') io.err(`failure-memory: ${c.reason}\n`);
    return 0;
  },
};
