import { plainText } from '../../core/text/plainText';
import { classifyDatabaseError, LATEST_SCHEMA } from '../../app/team';
import { UsageError, type Command } from '../types';

const ROLE = /^[A-Za-z_][\w$.-]{0,62}$/;

export const team: Command = {
  name: 'team',
  usage: 'team init [--grant ROLE] | team status',
  summary: 'team memory: init applies the schema (as the database owner) and grants ROLE; status says what this machine knows',
  args: 1,
  options: {
    grant: { type: 'string', help: 'init: also grant this role what it needs (SELECT, INSERT, UPDATE, DELETE on the tables, USAGE on the schema)' },
  },
  async run(ctx) {
    const sub = ctx.args[0];
    if (sub !== 'init' && sub !== 'status') throw new UsageError(`team takes init or status, not "${sub}"`);
    const { team: t, reason } = ctx.team();
    if (!t) {
      ctx.io.err(`failure-memory: ${reason}\n`);
      return 1;
    }
    try {
      if (sub === 'status') {
        const { file, view } = await t.view();
        const waiting = await t.outbox.count();
        const value = { project: t.project, machine: t.machine, database: t.db.target, state: file.state, waiting, ...(view ? { pulledAt: view.pulledAt } : {}), ...(file.checkedAt ? { checkedAt: file.checkedAt } : {}), ...(file.error ? { error: file.error } : {}) };
        ctx.print(
          [
            `team ${t.project} on ${t.db.target}, this machine: ${t.machine}`,
            `last pull: ${view ? view.pulledAt : 'never'}; ${waiting} record(s) waiting to be sent; state: ${file.state}${file.error ? ` (${plainText(file.error, 300)})` : ''}`,
          ].join('\n'),
          value,
        );
        return 0;
      }
      const grant = ctx.str('grant');
      if (grant !== undefined && !ROLE.test(grant)) throw new UsageError(`--grant takes a role name (letters, digits, _ $ . -), got "${grant}"`);
      const r = await t.db.init(grant);
      const value = { project: t.project, database: t.db.target, role: r.role, schema: r.schema, from: r.from, to: r.to, applied: r.applied, vectorMode: r.vectorMode, projectSearch: r.projectSearch, granted: r.granted };
      ctx.print(
        [
          `team database ${t.db.target} (schema ${r.schema}, as ${r.role}): ${r.applied.length ? `version ${r.from} -> ${r.to}, applied ${r.applied.join('; ')}` : `already at version ${r.to} (this version needs ${LATEST_SCHEMA})`}.`,
          ...r.detail,
          ...(r.granted.length ? [`granted: ${r.granted.join('; ')}`] : ['A role that only reads and writes needs: failure-memory team init --grant ROLE (or the GRANTs in the README\'s "Least privilege").']),
        ].join('\n'),
        value,
      );
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      ctx.io.err(`failure-memory: ${classifyDatabaseError(e, t.db.target).message}\n`);
      return 3;
    } finally {
      await t.close();
    }
  },
};
