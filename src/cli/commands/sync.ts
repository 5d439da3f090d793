import type { Command } from '../types';

export const sync: Command = {
  name: 'sync',
  usage: 'sync',
  summary: 'team memory: push what waits in the outbox and pull the team view, at once',
  async run(ctx) {
    const memory = ctx.memory();
    const team = ctx.team();
    if (!team.team) {
      ctx.io.err(`failure-memory: ${team.reason}\n`);
      return 1;
    }
    const t = team.team;
    try {
      const r = await t.sync(memory.store);
      const value = {
        project: t.project,
        machine: t.machine,
        state: r.error ? 'offline' : 'online',
        pushed: r.pushed,
        inserted: r.inserted,
        waiting: r.waiting,
        pulled: r.pulled,
        cleared: r.cleared,
        ...(r.error ? { error: r.error.message, code: r.error.code } : {}),
      };
      if (r.error) {
        if (ctx.json) ctx.print('', value);
        ctx.io.err(`failure-memory: ${r.error.message}${r.waiting ? ` (${r.waiting} waiting)` : ''}\n`);
        return 3;
      }
      const view = (await t.view()).view;
      const failing = view ? Object.values(view.approaches).filter(a => a.failures > 0).length : 0;
      ctx.print(
        `team ${t.project}: pushed ${r.pushed} (${r.inserted} new), ${r.waiting} waiting; pulled ${failing} failing approach(es)${r.cleared.length ? `; cleared here by a team success: ${r.cleared.join(', ')}` : ''}`,
        value,
      );
      return 0;
    } finally {
      await t.close();
    }
  },
};
