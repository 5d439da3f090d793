// VS Code agent hooks (Preview): .github/hooks/*.json and .claude/settings*.json, the Claude Code
// format with snake_case input (tool_name, tool_input, tool_use_id) and hookSpecificOutput answers.
// VS Code ignores matchers: every tool call reaches the hook, so anything but the terminal tool is
// answered at once. https://code.visualstudio.com/docs/agent-customization/hooks
// Commands run through run_in_terminal are recorded by the extension (shell integration), never here.

import { CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, type HarnessAdapter } from './types';

/** VS Code's own terminal tool (id and reference name). */
export const VSCODE_TERMINAL_TOOLS: readonly string[] = ['run_in_terminal', 'runInTerminal'];

export const vscode: HarnessAdapter = {
  id: 'vscode',
  title: 'VS Code agent mode',
  doc: 'https://code.visualstudio.com/docs/agent-customization/hooks',
  nativeEvents: CLAUDE_EVENT_NAMES,
  terminalTools: VSCODE_TERMINAL_TOOLS,
  failOpenExitCode: 1, // "warning": shown to the user only
  parse(event, p) {
    return { ...claudeStyleParse(event, p, this.terminalTools), recordedElsewhere: true };
  },
  reply(event, answer, p) {
    return claudeStyleReply(event, answer, str(p.hookEventName) || str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
};
