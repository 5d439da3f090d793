// Windsurf (Cascade) hooks: .windsurf/hooks.json, pre_run_command with tool_info.command_line and
// tool_info.cwd; exit code 2 blocks, stderr says why (shown with show_output). post_run_command
// reports no exit code and no output, and no hook adds context: Windsurf gets the gate only.
// https://docs.windsurf.com/windsurf/cascade/hooks

import { block2, none, obj, stderrNotice, str, type HarnessAdapter } from './types';

export const windsurf: HarnessAdapter = {
  id: 'windsurf',
  title: 'Windsurf (Cascade)',
  doc: 'https://docs.windsurf.com/windsurf/cascade/hooks',
  nativeEvents: { pre: 'pre_run_command' },
  terminalTools: ['run_command'],
  parse(_event, p) {
    const info = obj(p.tool_info);
    return { cwd: str(info.cwd) || undefined, tool: 'run_command', command: str(info.command_line) || str(info.command) };
  },
  reply(event, answer) {
    return event === 'pre' && answer.kind === 'deny' ? block2(answer.reason) : none;
  },
  // show_output shows the hook's output to the user
  notice: stderrNotice(1),
};
