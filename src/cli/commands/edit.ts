import { isAbsolute, resolve } from 'node:path';
import type { Command } from '../types';

export const edit: Command = {
  name: 'edit',
  usage: 'edit --path P [--failed] [--tool NAME] [--cwd DIR]',
  summary: 'record that a file changed (an edit between runs is trying a fix, not looping); --failed: the edit did not apply',
  options: {
    path: { type: 'string', help: 'the file that changed (relative to the workspace, or absolute)' },
    failed: { type: 'boolean', help: 'the edit failed and changed nothing' },
    tool: { type: 'string', help: 'what made the edit (an agent\'s edit tool, an editor); default cli' },
    cwd: { type: 'string', help: 'folder a relative --path is relative to (default: the workspace)' },
  },
  async run(ctx) {
    const raw = ctx.required('path');
    const path = isAbsolute(raw) ? raw : resolve(ctx.workspace, ctx.cwd && !isAbsolute(ctx.cwd) ? ctx.cwd : '.', raw);
    const ok = !ctx.flag('failed');
    const [event] = await ctx.memory().recordEdits([{ path, ok, source: 'cli', tool: ctx.str('tool') ?? 'cli' }]);
    if (!event) {
      ctx.print(`not recorded: ${raw} is one of Failure Memory's own files`, { recorded: false });
      return 0;
    }
    ctx.print(`recorded: ${event.path} ${ok ? 'changed' : 'edit failed (nothing changed)'}`, { recorded: true, ...event });
    return 0;
  },
};
