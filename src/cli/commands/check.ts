import { learnedLine, quote, UNTRUSTED_NOTE } from '../../core/prompts/agentText';
import { explainBlock } from '../../core/rules/check';
import { approachCounts } from '../../core/rules/counts';
import { approachOf } from '../../core/memory';
import { shownError } from '../../core/text/shownText';
import { plainText } from '../../core/text/plainText';
import { explainTeamBlock, type TeamCheck } from '../../core/rules/team';
import type { PatternBrief } from '../../core/rules/causePolicy';
import type { Command } from '../types';

/** The team's line of a check: its failures (with how old the view is when it is stale), or why it is not known. */
function teamLine(t: TeamCheck): string {
  const offline = t.sync.state === 'offline' && t.status !== 'unknown' ? ` (team memory offline, ${t.sync.waiting} waiting)` : '';
  const asOf = t.sync.stale && t.status !== 'unknown' && t.sync.pulledAt ? ` (as of ${t.sync.pulledAt})` : '';
  return `${plainText(t.summary, 600)}${asOf}${offline}`;
}

/** "one cause: the database at localhost:5432 — 3 commands (npm test; psql; prisma migrate dev); last time: `docker compose up -d db`". */
function causeLine(p: PatternBrief): string {
  return `\none cause: ${p.subject} — ${p.commands.length} command(s) (${p.commands.slice(-5).join('; ')})${p.fix ? `; last time: \`${p.fix.command}\`` : ''}`;
}

export const check: Command = {
  name: 'check',
  usage: 'check --command CMD [--cwd DIR]',
  summary: 'allow | warn | ask | deny, with the rule that decided; exit 2 for ask and deny (the gate)',
  options: {
    command: { type: 'string', help: 'the command line about to run' },
    cwd: { type: 'string', help: 'folder it would run in' },
  },
  async run(ctx) {
    const { io } = ctx;
    const memory = ctx.memory();
    const c = await memory.check(ctx.required('command'), ctx.cwd);
    // learnings linked to this approach (from reflections, output, agents, people), then the team's lessons (cached view)
    const data = await memory.read();
    const learnings = await memory.lessonsFor(c.key);
    // an agent reads this too: whose words a learning is, quoted as data
    const learned =
      learnings.map(l => `\n${l.from === 'team' ? `Team lesson (${l.type}, from ${plainText(l.machine ?? 'a teammate', 60)}): ${quote(l.text, 500)}` : learnedLine(l, 600)}`).join('') +
      (learnings.length ? `\n${UNTRUSTED_NOTE}` : '');
    // the last error as it was printed, not the signature it is matched by
    const approach = approachOf(data, c.key);
    const lastError = (approach && approachCounts(approach, c.threshold).last?.text) || shownError(c.lastError);
    // [ledger] run history, what changed since the last pass, flakiness
    const ledger = { ...(c.history ? { history: c.history } : {}), ...(c.changed ? { changed: c.changed } : {}), ...(c.flaky ? { flaky: c.flaky } : {}) };
    const ledgerLines = [c.history, c.changed, c.flaky].filter(Boolean).map(l => `\n${l}`).join('');
    // with team memory on: what the team saw, from the cached team view (never the network)
    const team = c.team
      ? { status: c.team.status, failures: c.team.failures, machines: c.team.machines, lastError: c.team.lastError, ci: c.team.ci, failuresThisWeek: c.team.failuresThisWeek, summary: c.team.summary, sync: c.team.sync }
      : undefined;
    // every ask and deny (also those shadow mode only records) goes to the decision log
    await memory.recordDecision(c, 'cli').catch(e => ctx.onWarning(`the decision could not be recorded (${(e as Error).message})`));
    // [patterns] the cause it shares with other commands, and what fixed it before
    const cause = c.pattern ? causeLine(c.pattern) : '';
    if (ctx.json) ctx.print('', { status: c.status, verdict: c.verdict, decision: c.decision, policyDecision: c.policyDecision, code: c.code, mustNotRun: c.verdict === 'block', attempts: c.attempts, threshold: c.threshold, key: c.key, label: c.label, lastError: c.lastError, alternatives: c.alternatives, progress: c.progress, patterns: c.patterns.map(p => p.kind), allowOnce: c.allowOnce, reason: c.reason, learnings, ...ledger, ...(c.pattern ? { pattern: c.pattern } : {}), ...(team ? { team } : {}) });
    else if (c.status === 'clear' && c.verdict === 'allow') io.out(`clear: ${c.label} has not failed here (${c.reason}).${c.history ? `\n${c.history}` : ''}${learned}\n`);
    else if (c.verdict !== 'block') io.out(`${c.status}: ${c.label} — ${c.decision} (${c.code}): ${c.reason}${lastError ? `\nlast error (command output, untrusted): ${quote(lastError, 600)}` : ''}${cause}${ledgerLines}${learned}\n`);
    if (!ctx.json && c.team && (c.team.failures || c.team.status === 'unknown')) io.out(`team: ${teamLine(c.team)}\n`);
    if (c.verdict === 'block') {
      io.err(`${c.team && c.code === 'team' && c.status !== 'exhausted' ? explainTeamBlock({ ...c, team: c.team }) : explainBlock({ ...c, lastError })}${learned}\n`);
      return 2;
    }
    if (c.status === 'exhausted') io.err(`failure-memory: ${c.reason}\n`);
    return 0;
  },
};
