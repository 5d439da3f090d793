import { streamLines } from '../stdin';
import type { Command } from '../types';

export const redact: Command = {
  name: 'redact',
  raw: true,
  usage: 'redact',
  summary: 'stdin to stdout with secrets replaced (streams input of any size)',
  async run(ctx) {
    const memory = ctx.memory();
    await streamLines(ctx.io.stdin ?? process.stdin, text => memory.redact(text), ctx.io.out);
    return 0;
  },
};
