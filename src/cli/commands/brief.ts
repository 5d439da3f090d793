import type { Command } from '../types';

export const brief: Command = {
  name: 'brief',
  usage: 'brief [--command CMD] [--cwd DIR]',
  summary: 'a redacted markdown brief of a failing approach, for a chat or an issue',
  semantic: true,
  options: {
    command: { type: 'string', help: 'the approach to brief (default: the latest failing one)' },
    cwd: { type: 'string', help: 'folder it ran in' },
    lexical: { type: 'boolean', help: 'recall similar failures by words only' },
  },
  async run(ctx) {
    const command = ctx.str('command');
    const text = await ctx.memory().brief(command, ctx.cwd);
    if (text === undefined) {
      if (ctx.json) ctx.print('', null);
      else ctx.io.out(command ? `No memory of \`${command}\` failing here.\n` : 'Nothing to brief: no failing approach in memory.\n');
      return command ? 1 : 0;
    }
    ctx.print(text, { brief: text });
    return 0;
  },
};
