// Codex CLI hooks: .codex/hooks.json in the Claude Code format — PreToolUse / PostToolUse for Bash,
// SessionStart, UserPromptSubmit. A block is exit 2 with the reason on stderr; context is
// hookSpecificOutput.additionalContext; `systemMessage` is shown to the user.
// https://developers.openai.com/codex/hooks
// Codex loads a project's hooks only when the project is trusted and the hooks were reviewed
// (/hooks); `codex exec` skips unreviewed hooks without a word (see `failure-memory doctor`).
// PostToolUse's tool_response is the command's output as a plain string with no exit code: the
// code is the one Codex wrote in its own transcript for that call (transcript_path, tool_use_id).
// Codex 0.169 has no ask (a permissionDecision "ask" is ignored and the call runs: the gate never
// gives one here, ./types.ts ASKS); PreToolUse's additionalContext reaches the model as a developer
// message (the gate's warning). An apply_patch given to
// its shell tool (`apply_patch <<'EOF' … EOF`, what models without its apply_patch tool write) is
// applied by Codex itself: PreToolUse sees it as Bash, and no PostToolUse follows.

import { argvLine } from '../../core/approach/lexer';
import { codexShellPatch } from './edits';
import { block2, CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, systemMessage, type HarnessAdapter } from './types';

export const codex: HarnessAdapter = {
  id: 'codex',
  title: 'Codex CLI',
  doc: 'https://developers.openai.com/codex/hooks',
  nativeEvents: CLAUDE_EVENT_NAMES,
  terminalTools: ['Bash', 'shell', 'local_shell', 'exec_command', 'shell_command'],
  parse(event, p) {
    // the command may come as an argv: quoted back into the line a shell reads (`bash -lc 'npm test'`)
    const call = claudeStyleParse(event, p, this.terminalTools, cmd => (Array.isArray(cmd) ? argvLine(cmd.filter((x): x is string => typeof x === 'string')) : str(cmd) || str((p.tool_input as { cmd?: unknown } | undefined)?.cmd)));
    const transcript = str(p.transcript_path);
    const toolUseId = str(p.tool_use_id);
    const patch = this.terminalTools.includes(call.tool) ? codexShellPatch((p.tool_input as { command?: unknown } | undefined)?.command ?? (p.tool_input as { cmd?: unknown } | undefined)?.cmd) : undefined;
    if (patch) return { ...call, command: undefined, result: undefined, patch, sessionLog: transcript || undefined };
    if (event === 'pre') return { ...call, sessionLog: transcript || undefined };
    if (call.result && call.result.exitCode === null && transcript && toolUseId) return { ...call, transcript: { path: transcript, toolUseId } };
    return call;
  },
  reply(event, answer, p) {
    if (event === 'pre' && answer.kind === 'deny') return block2(answer.reason);
    return claudeStyleReply(event, answer, str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
  notice: (event, message) => systemMessage(message, event === 'session-start' || event === 'prompt' ? CLAUDE_EVENT_NAMES[event] : undefined),
};
