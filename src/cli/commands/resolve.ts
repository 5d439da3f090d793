import { describeApproach } from '../../core/memory';
import type { Command, Context } from '../types';

const OPTIONS = {
  command: { type: 'string', help: 'the approach, as any of its command lines' },
  cwd: { type: 'string', help: 'folder it ran in' },
} as const;

async function mark(ctx: Context, how: 'resolve' | 'allow'): Promise<number> {
  const command = ctx.required('command');
  const memory = ctx.memory();
  const a = await memory.markByCommand(how, command, ctx.cwd);
  if (!a) {
    ctx.io.err(`failure-memory: no memory of \`${command}\`${ctx.cwd ? ` in ${ctx.cwd}` : ''}\n`);
    return 1;
  }
  ctx.print(how === 'resolve' ? `resolved: ${describeApproach(a)}` : `allowed once: the next run of ${describeApproach(a)} goes through`, { key: a.key, status: a.status, allowOnce: !!a.allowOnce });
  return 0;
}

export const resolve: Command = {
  name: 'resolve',
  usage: 'resolve --command CMD [--cwd DIR]',
  summary: 'mark an approach resolved (unblocks it)',
  options: { ...OPTIONS },
  run: ctx => mark(ctx, 'resolve'),
};

export const allow: Command = {
  name: 'allow',
  usage: 'allow --command CMD [--cwd DIR]',
  summary: 'let the next run of an exhausted approach through, once',
  options: { ...OPTIONS },
  run: ctx => mark(ctx, 'allow'),
};
