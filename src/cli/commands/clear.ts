import { UsageError, type Command } from '../types';

export const clear: Command = {
  name: 'clear',
  usage: 'clear --yes',
  summary: 'forget everything in this workspace',
  options: { yes: { type: 'boolean', help: 'confirm' } },
  async run(ctx) {
    if (!ctx.flag('yes')) throw new UsageError('clear forgets everything in this workspace: pass --yes to confirm');
    await ctx.memory().clear();
    ctx.print('Workspace memory cleared.', { cleared: true });
    return 0;
  },
};
