import { isLearningType, LEARNING_TYPES } from '../../core/learnings';
import { UsageError, type Command } from '../types';

export const learn: Command = {
  name: 'learn',
  usage: 'learn --type TYPE --text TEXT [--command CMD] [--source user|agent]',
  summary: `add a learning (${LEARNING_TYPES.join(', ')})`,
  options: {
    type: { type: 'string', help: LEARNING_TYPES.join(', ') },
    text: { type: 'string', help: 'the learning, one or two sentences' },
    command: { type: 'string', help: 'the approach it is about (optional)' },
    cwd: { type: 'string', help: 'folder that approach ran in' },
    source: { type: 'string', help: 'who wrote it: user (default) or agent' },
  },
  async run(ctx) {
    const type = ctx.required('type');
    if (!isLearningType(type)) throw new UsageError(`--type must be one of ${LEARNING_TYPES.join(', ')}`);
    const text = ctx.required('text').trim();
    const command = ctx.str('command');
    const source = ctx.str('source') ?? 'user';
    if (source !== 'user' && source !== 'agent') throw new UsageError('--source must be user or agent');
    const memory = ctx.memory();
    // the approach it is about, also when it failed only elsewhere in the team
    const key = command ? await memory.keyOf(command, ctx.cwd) : undefined;
    const l = await memory.addLearning(type, text, { key, source });
    ctx.print(`learned (${l.type}): ${l.text}`, l);
    return 0;
  },
};
