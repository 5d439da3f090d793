// Codex CLI hooks (behind `[features] codex_hooks = true`): .codex/hooks.json in the Claude Code
// format — PreToolUse / PostToolUse for Bash, SessionStart, UserPromptSubmit. A block is exit 2 with
// the reason on stderr; context is hookSpecificOutput.additionalContext.
// https://developers.openai.com/codex/hooks

import { block2, CLAUDE_EVENT_NAMES, claudeStyleParse, claudeStyleReply, str, type HarnessAdapter } from './types';

export const codex: HarnessAdapter = {
  id: 'codex',
  title: 'Codex CLI',
  doc: 'https://developers.openai.com/codex/hooks',
  nativeEvents: CLAUDE_EVENT_NAMES,
  terminalTools: ['Bash', 'shell', 'local_shell'],
  failOpenExitCode: 1,
  parse(event, p) {
    // the command may come as an argv
    return claudeStyleParse(event, p, this.terminalTools, cmd => (Array.isArray(cmd) ? cmd.filter(x => typeof x === 'string').join(' ') : str(cmd)));
  },
  reply(event, answer, p) {
    if (event === 'pre' && answer.kind === 'deny') return block2(answer.reason);
    return claudeStyleReply(event, answer, str(p.hook_event_name) || CLAUDE_EVENT_NAMES[event]);
  },
};
