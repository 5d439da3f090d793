import { reflectionToMarkdown } from '../../core/reflection';
import type { Command } from '../types';

export const reflect: Command = {
  name: 'reflect',
  usage: 'reflect [--command CMD] [--cwd DIR]',
  summary: 'a reflection on the latest (or given) failing approach',
  semantic: true,
  options: {
    command: { type: 'string', help: 'the approach to reflect on (default: the latest failing one)' },
    cwd: { type: 'string', help: 'folder it ran in' },
    lexical: { type: 'boolean', help: 'recall similar failures by words only' },
  },
  async run(ctx) {
    const command = ctx.str('command');
    const r = await ctx.memory().reflect(command, ctx.cwd);
    if (!r) {
      if (ctx.json) ctx.print('', null);
      else ctx.io.out(command ? `No memory of \`${command}\` failing here.\n` : 'Nothing to reflect on: no failing approach in memory.\n');
      return command ? 1 : 0;
    }
    ctx.print(reflectionToMarkdown(r), r);
    return 0;
  },
};
