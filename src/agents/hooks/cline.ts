// Cline hooks: executable files named after the hook in .clinerules/hooks/ (PreToolUse,
// PostToolUse, TaskStart, UserPromptSubmit). Input: base fields (workspaceRoots, …) and one object
// named after the hook; output JSON {cancel, contextModification, errorMessage}.
// https://docs.cline.bot/features/hooks/hook-reference (not available on Windows).

import { exitCodeIn, json, obj, str, type HarnessAdapter } from './types';

export const cline: HarnessAdapter = {
  id: 'cline',
  title: 'Cline',
  doc: 'https://docs.cline.bot/features/hooks/hook-reference',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'TaskStart', prompt: 'UserPromptSubmit' },
  terminalTools: ['execute_command'],
  failOpenExitCode: 1,
  parse(event, p) {
    const roots = Array.isArray(p.workspaceRoots) ? p.workspaceRoots.filter((r): r is string => typeof r === 'string') : [];
    const call = obj(event === 'pre' ? p.preToolUse : p.postToolUse);
    const tool = str(call.toolName);
    const params = obj(call.parameters);
    let result: { exitCode: number | null; output: string } | undefined;
    if (event === 'post') {
      const output = typeof call.result === 'string' ? call.result : call.result ? JSON.stringify(call.result) : '';
      result = { exitCode: exitCodeIn(output.slice(-400)) ?? (call.success === false ? 1 : call.success === true ? 0 : null), output };
    }
    return { root: roots[0], cwd: str(params.cwd) || roots[0], tool, command: this.terminalTools.includes(tool) ? str(params.command) : undefined, result };
  },
  reply(event, answer) {
    if (answer.kind === 'deny') return json({ cancel: true, errorMessage: answer.reason });
    if (answer.kind === 'context') return json({ cancel: false, contextModification: answer.text });
    return json({ cancel: false });
  },
};
