// VS Code agent hooks (Preview): .github/hooks/*.json and .claude/settings*.json, the Claude Code
// format with snake_case input (tool_name, tool_input, tool_use_id) and hookSpecificOutput answers.
// VS Code ignores matchers: every tool call reaches the hook, so anything but the terminal tool is
// answered at once. https://code.visualstudio.com/docs/agent-customization/hooks
// Commands run through run_in_terminal are recorded by the extension (shell integration), never here.

import { claudeStyleReply, claudeStyleResult, obj, str, type HarnessAdapter } from './types';

/** VS Code's own terminal tool (id and reference name). */
export const VSCODE_TERMINAL_TOOLS: readonly string[] = ['run_in_terminal', 'runInTerminal'];

const EVENT_NAMES = { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' } as const;

export const vscode: HarnessAdapter = {
  id: 'vscode',
  title: 'VS Code agent mode',
  doc: 'https://code.visualstudio.com/docs/agent-customization/hooks',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' },
  terminalTools: VSCODE_TERMINAL_TOOLS,
  failOpenExitCode: 1, // "warning": shown to the user only
  parse(event, p) {
    const tool = str(p.tool_name);
    const input = obj(p.tool_input);
    return {
      cwd: str(p.cwd) || undefined,
      tool,
      command: this.terminalTools.includes(tool) ? str(input.command) : undefined,
      result: event === 'post' ? claudeStyleResult(p) : undefined,
      recordedElsewhere: true,
    };
  },
  reply(event, answer, p) {
    return claudeStyleReply(event, answer, str(p.hookEventName) || str(p.hook_event_name) || EVENT_NAMES[event]);
  },
};
