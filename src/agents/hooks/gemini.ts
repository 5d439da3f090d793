// Gemini CLI hooks: settings.json `hooks`: BeforeTool / AfterTool (run_shell_command),
// SessionStart and BeforeAgent (hookSpecificOutput.additionalContext). A deny is
// {"decision":"deny","reason":…} on stdout (the reason goes to the agent as the tool's error).
// https://geminicli.com/docs/hooks/reference

import { trimTrailing } from '../../core/approach/paths';
import { exitCodeIn, json, obj, str, type HarnessAdapter } from './types';

const EVENT_NAMES = { pre: 'BeforeTool', post: 'AfterTool', 'session-start': 'SessionStart', prompt: 'BeforeAgent' } as const;

export const gemini: HarnessAdapter = {
  id: 'gemini',
  title: 'Gemini CLI',
  doc: 'https://geminicli.com/docs/hooks/reference',
  nativeEvents: EVENT_NAMES,
  terminalTools: ['run_shell_command'],
  failOpenExitCode: 1, // "warning": the CLI goes on
  parse(event, p, env) {
    const tool = str(p.tool_name);
    const input = obj(p.tool_input);
    const cwd = str(p.cwd) || undefined;
    const dir = str(input.dir_path) || str(input.directory);
    let result: { exitCode: number | null; output: string } | undefined;
    if (event === 'post') {
      const r = obj(p.tool_response);
      const text = [str(r.llmContent), str(r.returnDisplay)].filter(Boolean).join('\n');
      const error = r.error ? (typeof r.error === 'string' ? r.error : JSON.stringify(r.error)) : '';
      const code = exitCodeIn(text) ?? (error ? (exitCodeIn(error) ?? 1) : 0);
      result = { exitCode: code, output: [text, error].filter(Boolean).join('\n') };
    }
    return {
      root: env.GEMINI_PROJECT_DIR || env.CLAUDE_PROJECT_DIR || undefined,
      cwd: dir && cwd && !dir.startsWith('/') ? `${trimTrailing(cwd)}/${dir}` : dir || cwd,
      tool,
      command: this.terminalTools.includes(tool) ? str(input.command) : undefined,
      result,
    };
  },
  reply(event, answer) {
    if (event === 'pre') return json(answer.kind === 'deny' ? { decision: 'deny', reason: answer.reason } : {});
    if (answer.kind === 'context') return json({ hookSpecificOutput: { hookEventName: EVENT_NAMES[event], additionalContext: answer.text } });
    return json({});
  },
};
