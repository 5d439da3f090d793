import type { Command } from '../types';

export const exportMemory: Command = {
  name: 'export',
  raw: true,
  usage: 'export',
  summary: 'the whole memory as JSON',
  async run(ctx) {
    ctx.io.out(`${JSON.stringify(await ctx.memory().read(), null, 2)}\n`);
    return 0;
  },
};
