// Cursor hooks: .cursor/hooks.json (version 1): beforeShellExecution (gate: permission "deny" with
// user_message and agent_message), afterShellExecution (command, output, duration), sessionStart
// (additional_context). beforeSubmitPrompt cannot add context. https://cursor.com/docs/agent/hooks
// afterShellExecution carries no exit code in the documented payload: it is read when present,
// else from "exit code N" in the output; otherwise the result is kept as unknown (never counted).

import { exitCodeIn, int, json, none, stderrNotice, str, type HarnessAdapter } from './types';

export const cursor: HarnessAdapter = {
  id: 'cursor',
  title: 'Cursor',
  doc: 'https://cursor.com/docs/agent/hooks',
  nativeEvents: { pre: 'beforeShellExecution', post: 'afterShellExecution', 'session-start': 'sessionStart' },
  terminalTools: ['Shell'],
  parse(event, p) {
    const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
    const shell = event === 'pre' || event === 'post';
    const output = str(p.output);
    return {
      root: roots[0],
      cwd: str(p.cwd) || undefined,
      tool: shell ? 'Shell' : '',
      command: shell ? str(p.command) : undefined,
      result: event === 'post' ? { exitCode: int(p.exit_code) ?? int(p.exitCode) ?? exitCodeIn(output.slice(-400)) ?? null, output } : undefined,
    };
  },
  reply(event, answer) {
    if (event === 'pre') {
      return answer.kind === 'deny' || answer.kind === 'ask' ? json({ permission: answer.kind, user_message: answer.reason.split('\n')[0], agent_message: answer.reason }) : json({});
    }
    if (answer.kind === 'context') return json({ additional_context: answer.text });
    return event === 'session-start' ? json({}) : none;
  },
  // no runnable Cursor here to learn its visible channel from: a non-blocking exit with stderr
  notice: stderrNotice(1),
};
