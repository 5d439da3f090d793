// Codex CLI hooks (behind `[features] codex_hooks = true`): .codex/hooks.json in the Claude Code
// format — PreToolUse / PostToolUse for Bash, SessionStart, UserPromptSubmit. A block is exit 2 with
// the reason on stderr; context is hookSpecificOutput.additionalContext.
// https://developers.openai.com/codex/hooks

import { block2, claudeStyleReply, claudeStyleResult, obj, str, type HarnessAdapter } from './types';

const EVENT_NAMES = { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' } as const;

export const codex: HarnessAdapter = {
  id: 'codex',
  title: 'Codex CLI',
  doc: 'https://developers.openai.com/codex/hooks',
  nativeEvents: EVENT_NAMES,
  terminalTools: ['Bash', 'shell', 'local_shell'],
  failOpenExitCode: 1,
  parse(event, p) {
    const tool = str(p.tool_name);
    const input = obj(p.tool_input);
    const cmd = input.command;
    return {
      cwd: str(p.cwd) || undefined,
      tool,
      command: this.terminalTools.includes(tool) ? (Array.isArray(cmd) ? cmd.filter(x => typeof x === 'string').join(' ') : str(cmd)) : undefined,
      result: event === 'post' ? claudeStyleResult(p) : undefined,
    };
  },
  reply(event, answer, p) {
    if (event === 'pre' && answer.kind === 'deny') return block2(answer.reason);
    return claudeStyleReply(event, answer, str(p.hook_event_name) || EVENT_NAMES[event]);
  },
};
