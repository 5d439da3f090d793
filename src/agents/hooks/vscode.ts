// VS Code agent hooks (Preview): .github/hooks/*.json (lowerCamel event names converted to
// PascalCase) and .claude/settings*.json; events SessionStart, UserPromptSubmit, PreToolUse,
// PostToolUse (no PostToolUseFailure, no userPromptSubmitted: VS Code has neither), input with
// tool_name, tool_input, tool_use_id and the common hookEventName/sessionId; answers in
// hookSpecificOutput, `systemMessage` shown to the user. VS Code ignores matchers: every tool call
// reaches the hook, so anything but the terminal tool is answered at once.
// https://code.visualstudio.com/docs/agent-customization/hooks (its examples name the terminal
// tool runTerminalCommand; the tool's id is run_in_terminal).
// PostToolUse fires for failing commands too and carries the terminal output as a string with no
// exit code; the extension records the same run through shell integration, with the terminal's exit
// code, so the hook never records it: one run, one record.

import { CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, systemMessage, type HarnessAdapter } from './types';

/** VS Code's own terminal tool: its id, its reference name, and the name in the docs' examples. */
export const VSCODE_TERMINAL_TOOLS: readonly string[] = ['run_in_terminal', 'runInTerminal', 'runTerminalCommand'];

export const vscode: HarnessAdapter = {
  id: 'vscode',
  title: 'VS Code agent mode',
  doc: 'https://code.visualstudio.com/docs/agent-customization/hooks',
  nativeEvents: CLAUDE_EVENT_NAMES,
  terminalTools: VSCODE_TERMINAL_TOOLS,
  parse(event, p) {
    return { ...claudeStyleParse(event, p, this.terminalTools), recordedElsewhere: true };
  },
  reply(event, answer, p) {
    // Copilot CLI also runs a PascalCase entry of .github/hooks (its VS Code-compatible payload:
    // snake_case session_id); it gets its context from its own userPromptSubmitted entry
    if (answer.kind === 'context' && 'session_id' in p && !('sessionId' in p)) return { exitCode: 0, stdout: '', stderr: '' };
    return claudeStyleReply(event, answer, str(p.hookEventName) || str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
  notice: (event, message) => systemMessage(message, event === 'session-start' || event === 'prompt' ? CLAUDE_EVENT_NAMES[event] : undefined),
};
