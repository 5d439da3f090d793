// Claude Code hooks: .claude/settings.json, PreToolUse / PostToolUse / PostToolUseFailure (Bash),
// SessionStart, UserPromptSubmit. https://docs.claude.com/en/docs/claude-code/hooks
// VS Code also runs the hooks in .claude/settings.json (with its own tool names), so VS Code's
// terminal tool counts as a terminal tool here too.

import { VSCODE_TERMINAL_TOOLS } from './vscode';
import { claudeStyleReply, claudeStyleResult, obj, str, type HarnessAdapter } from './types';

const EVENT_NAMES = { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' } as const;

export const claude: HarnessAdapter = {
  id: 'claude',
  title: 'Claude Code',
  doc: 'https://docs.claude.com/en/docs/claude-code/hooks',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse, PostToolUseFailure', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' },
  terminalTools: ['Bash', ...VSCODE_TERMINAL_TOOLS],
  failOpenExitCode: 1, // "non-blocking error": shown to the user, the call goes on
  parse(event, p, env) {
    const tool = str(p.tool_name);
    const input = obj(p.tool_input);
    return {
      root: env.CLAUDE_PROJECT_DIR || undefined,
      cwd: str(p.cwd) || undefined,
      tool,
      command: this.terminalTools.includes(tool) ? str(input.command) : undefined,
      result: event === 'post' ? claudeStyleResult(p) : undefined,
      recordedElsewhere: VSCODE_TERMINAL_TOOLS.includes(tool),
    };
  },
  reply(event, answer, p) {
    return claudeStyleReply(event, answer, str(p.hook_event_name) || EVENT_NAMES[event]);
  },
};
