import { aboutApproach } from '../aboutApproach';

export const brief = aboutApproach({
  name: 'brief',
  summary: 'a redacted markdown brief of a failing approach, for a chat or an issue',
  verb: 'brief',
  async show(ctx, command) {
    const text = await ctx.memory().brief(command, ctx.cwd);
    return text === undefined ? undefined : { human: text, value: { brief: text } };
  },
});
