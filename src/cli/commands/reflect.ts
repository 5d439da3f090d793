import { reflectionToMarkdown, reflectionToText } from '../../views/reflectionDoc';
import { aboutApproach } from '../aboutApproach';
import { UsageError } from '../types';

const FORMATS = ['text', 'markdown'] as const;

export const reflect = aboutApproach({
  name: 'reflect',
  summary: 'a reflection on the latest (or given) failing approach',
  verb: 'reflect on',
  options: {
    format: { type: 'string', help: 'text (the default at a terminal) or markdown (the default into a pipe or a file)' },
  },
  async show(ctx, command) {
    const format = ctx.str('format') ?? (process.stdout.isTTY ? 'text' : 'markdown');
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be ${FORMATS.join(' or ')}, got "${format}"`);
    const r = await ctx.memory().reflect(command, ctx.cwd);
    return r ? { human: format === 'text' ? reflectionToText(r) : reflectionToMarkdown(r), value: r } : undefined;
  },
});
