// Claude Code hooks: .claude/settings.json, PreToolUse / PostToolUse / PostToolUseFailure (Bash),
// SessionStart, UserPromptSubmit. https://docs.claude.com/en/docs/claude-code/hooks
// Others run the hooks in .claude/settings.json too: VS Code (with its own tool names; its terminal
// records the run already) and Copilot CLI (its VS Code-compatible payload, tool_result instead of
// tool_response; the runner records one call once when Copilot's own hooks fire for it as well).
// The user sees `systemMessage`; an exit-0 hook's stderr goes only to Claude Code's debug log.
// Seen in Claude Code 2.1.197: PreToolUse's additionalContext reaches the model (a system reminder
// after the call's result); "ask" prompts the user in the interactive UI and is a refusal with our
// reason under -p; the hook's environment says which (CLAUDE_CODE_ENTRYPOINT cli / sdk-cli).

import { VSCODE_TERMINAL_TOOLS } from './vscode';
import { CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, systemMessage, type HarnessAdapter } from './types';

export const claude: HarnessAdapter = {
  id: 'claude',
  title: 'Claude Code',
  doc: 'https://docs.claude.com/en/docs/claude-code/hooks',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse, PostToolUseFailure', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' },
  terminalTools: ['Bash', ...VSCODE_TERMINAL_TOOLS],
  parse(event, p, env) {
    const call = claudeStyleParse(event, p, this.terminalTools);
    return { root: env.CLAUDE_PROJECT_DIR || undefined, ...call, recordedElsewhere: VSCODE_TERMINAL_TOOLS.includes(call.tool) };
  },
  reply(event, answer, p) {
    return claudeStyleReply(event, answer, str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
  notice: (event, message) => systemMessage(message, event === 'session-start' || event === 'prompt' ? CLAUDE_EVENT_NAMES[event] : undefined),
};
