// A subcommand about one failing approach: the one given (--command, --cwd) or the latest failing
// one. `reflect` and `brief` are two views of the same lookup: one set of options, one "not found".

import type { Command, Context } from './types';

export function aboutApproach(spec: {
  name: string;
  summary: string;
  /** What the command does to the approach, for the help and the "nothing to …" line: "brief", "reflect on". */
  verb: string;
  /** Options of its own, besides --command, --cwd and --lexical. */
  options?: Command['options'];
  /** The human text and the --json value, or undefined when the memory has no such failing approach. */
  show(ctx: Context, command: string | undefined): Promise<{ human: string; value: unknown } | undefined>;
}): Command {
  return {
    name: spec.name,
    usage: `${spec.name} [--command CMD] [--cwd DIR]`,
    summary: spec.summary,
    semantic: true,
    options: {
      command: { type: 'string', help: `the approach to ${spec.verb} (default: the latest failing one)` },
      cwd: { type: 'string', help: 'folder it ran in' },
      lexical: { type: 'boolean', help: 'recall similar failures by words only' },
      ...spec.options,
    },
    async run(ctx) {
      const command = ctx.str('command');
      const shown = await spec.show(ctx, command);
      if (!shown) {
        if (ctx.json) ctx.print('', null);
        else ctx.io.out(command ? `No memory of \`${command}\` failing here.\n` : `Nothing to ${spec.verb}: no failing approach in memory.\n`);
        return command ? 1 : 0;
      }
      ctx.print(shown.human, shown.value);
      return 0;
    },
  };
}
