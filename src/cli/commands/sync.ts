import { plainText } from '../../core/text/plainText';
import type { SyncResult } from '../../app/team';
import type { Command } from '../types';

/** "; retention removed 120 runs older than the limits" (nothing when retention was not due or removed nothing). */
function retained(r: SyncResult['retention']): string {
  if (!r) return '';
  if ('error' in r) return `; retention could not run: ${r.error}`;
  const n = r.attempts + r.resolves;
  return n ? `; retention removed ${n} old record(s)` : '';
}

export const sync: Command = {
  name: 'sync',
  usage: 'sync [--migrate]',
  summary: 'team memory: push what waits in the outbox and pull the team view, at once',
  options: {
    migrate: { type: 'boolean', help: 'first apply the team database schema, as `team init` does (needs a role that may)' },
  },
  async run(ctx) {
    const memory = ctx.memory();
    const team = ctx.team();
    if (!team.team) {
      ctx.io.err(`failure-memory: ${team.reason}\n`);
      return 1;
    }
    const t = team.team;
    try {
      if (ctx.flag('migrate')) {
        const init = await t.db.init().catch((e: unknown) => e as Error);
        if (init instanceof Error) {
          ctx.io.err(`failure-memory: ${init.message}\n`);
          return 3;
        }
        if (init.applied.length) ctx.io.err(`failure-memory: team database schema ${init.from} -> ${init.to}\n`);
      }
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
        ...(r.retention ? { retention: r.retention } : {}),
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
        `team ${t.project}: pushed ${r.pushed} (${r.inserted} new), ${r.waiting} waiting; pulled ${failing} failing approach(es)${r.cleared.length ? `; cleared here by a team success: ${r.clearedLabels.map(l => plainText(l, 120)).join(', ')}` : ''}${retained(r.retention)}`,
        value,
      );
      return 0;
    } finally {
      await t.close();
    }
  },
};
