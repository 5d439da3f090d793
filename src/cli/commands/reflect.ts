import { reflectionToMarkdown } from '../../views/reflectionDoc';
import { aboutApproach } from '../aboutApproach';

export const reflect = aboutApproach({
  name: 'reflect',
  summary: 'a reflection on the latest (or given) failing approach',
  verb: 'reflect on',
  async show(ctx, command) {
    const r = await ctx.memory().reflect(command, ctx.cwd);
    return r ? { human: reflectionToMarkdown(r), value: r } : undefined;
  },
});
