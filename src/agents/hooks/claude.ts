// Claude Code hooks: .claude/settings.json, PreToolUse / PostToolUse / PostToolUseFailure (Bash),
// SessionStart, UserPromptSubmit. https://docs.claude.com/en/docs/claude-code/hooks
// VS Code also runs the hooks in .claude/settings.json (with its own tool names), so VS Code's
// terminal tool counts as a terminal tool here too.

import { VSCODE_TERMINAL_TOOLS } from './vscode';
import { CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, type HarnessAdapter } from './types';

export const claude: HarnessAdapter = {
  id: 'claude',
  title: 'Claude Code',
  doc: 'https://docs.claude.com/en/docs/claude-code/hooks',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse, PostToolUseFailure', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' },
  terminalTools: ['Bash', ...VSCODE_TERMINAL_TOOLS],
  failOpenExitCode: 1, // "non-blocking error": shown to the user, the call goes on
  parse(event, p, env) {
    const call = claudeStyleParse(event, p, this.terminalTools);
    return { root: env.CLAUDE_PROJECT_DIR || undefined, ...call, recordedElsewhere: VSCODE_TERMINAL_TOOLS.includes(call.tool) };
  },
  reply(event, answer, p) {
    return claudeStyleReply(event, answer, str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
};
