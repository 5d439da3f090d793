// VS Code agent hooks (Preview): .github/hooks/*.json (lowerCamel event names converted to
// PascalCase) and .claude/settings*.json; events SessionStart, UserPromptSubmit, PreToolUse,
// PostToolUse (no PostToolUseFailure); answers in hookSpecificOutput, `systemMessage` shown to the
// user. VS Code ignores matchers: every tool call reaches the hook, so anything but the terminal
// tool is answered at once.
// https://code.visualstudio.com/docs/agent-customization/hooks (its examples name the terminal
// tool runTerminalCommand and the common fields hookEventName/sessionId).
// What VS Code 1.139.1 really sends (test/fixtures/hooks/vscode/real-1.139.1): snake_case
// hook_event_name and session_id, transcript_path, the tool run_in_terminal with tool_input
// { command, explanation, goal, mode }. In a .github/hooks file it keeps one entry list per event,
// the last key that maps to it: our UserPromptSubmit entry (after userPromptSubmitted) runs this
// adapter, the other events run the copilot one.
// PostToolUse fires for failing commands too and carries the terminal output as a string with no
// exit code (VS Code adds notes such as "Command produced no output"); the extension records the
// same run through shell integration, with the terminal's exit code, so the hook never records it:
// one run, one record. It hands the output over to that record (./terminalHandoff.ts).

import { CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, systemMessage, type HarnessAdapter, type ShellResult } from './types';

/** VS Code's own terminal tool: its id, its reference name, and the name in the docs' examples. */
export const VSCODE_TERMINAL_TOOLS: readonly string[] = ['run_in_terminal', 'runInTerminal', 'runTerminalCommand'];

/** The lines run_in_terminal appends after a command's output: VS Code's words, not the command's. */
const VSCODE_NOTES = new Set(['Command produced no output', 'Output exceeded terminal scrollback; beginning of output was lost', 'Failed to retrieve command output']);
const isNote = (line: string) => VSCODE_NOTES.has(line.trim()) || /^Command exited with code -?\d{1,10}$/.test(line.trim());

/** The command's own output in a run_in_terminal result: VS Code's trailing notes taken off. */
export function vscodeTerminalOutput(r: ShellResult): ShellResult {
  const lines = r.output.split('\n');
  while (lines.length && (!lines[lines.length - 1].trim() || isNote(lines[lines.length - 1]))) lines.pop();
  return { ...r, output: lines.join('\n') };
}

export const vscode: HarnessAdapter = {
  id: 'vscode',
  title: 'VS Code agent mode',
  doc: 'https://code.visualstudio.com/docs/agent-customization/hooks',
  nativeEvents: CLAUDE_EVENT_NAMES,
  terminalTools: VSCODE_TERMINAL_TOOLS,
  parse(event, p) {
    const input = claudeStyleParse(event, p, this.terminalTools);
    return { ...input, result: input.result && vscodeTerminalOutput(input.result), recordedElsewhere: true };
  },
  reply(event, answer, p, env) {
    // Copilot CLI also runs the PascalCase entry of .github/hooks (in its VS Code-compatible payload);
    // it gets its context from its own userPromptSubmitted entry
    if (answer.kind === 'context' && env.COPILOT_CLI) return { exitCode: 0, stdout: '', stderr: '' };
    return claudeStyleReply(event, answer, str(p.hook_event_name) || str(p.hookEventName) || CLAUDE_EVENT_NAMES[event]);
  },
  notice: (event, message) => systemMessage(message, event === 'session-start' || event === 'prompt' ? CLAUDE_EVENT_NAMES[event] : undefined),
};
