// GitHub Copilot CLI and the Copilot cloud agent: .github/hooks/*.json (version 1, lowerCamel
// events, `bash`/`powershell` commands). Two payload formats on the same page: camelCase (toolName,
// toolArgs — sometimes a JSON string — toolResult) for lowerCamel event names, and a VS Code
// compatible snake_case one; VS Code itself reads these files too. We answer in the format we got.
// https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
// sessionStart and userPromptSubmitted outputs are ignored by the CLI: no context injection there.

import { VSCODE_TERMINAL_TOOLS } from './vscode';
import { args, CLAUDE_EVENT_NAMES, claudeStyleReply, exitCodeIn, json, none, obj, str, type HarnessAdapter, type Json } from './types';

const snake = (p: Json) => 'tool_name' in p || 'hook_event_name' in p || 'hookEventName' in p;
function result(p: Json): { exitCode: number | null; output: string } {
  if (typeof p.error === 'string' || p.error) {
    const err = typeof p.error === 'string' ? p.error : JSON.stringify(p.error);
    return { exitCode: exitCodeIn(err) ?? 1, output: err };
  }
  const r = obj(p.toolResult ?? p.tool_result);
  const kind = str(r.resultType ?? r.result_type);
  const text = str(r.textResultForLlm ?? r.text_result_for_llm);
  const code = exitCodeIn(text);
  if (code !== undefined) return { exitCode: code, output: text };
  if (kind === 'success') return { exitCode: 0, output: text };
  if (kind === 'failure' || kind === 'error') return { exitCode: 1, output: text };
  return { exitCode: null, output: text }; // denied, or a shape we do not know: not counted
}

export const copilot: HarnessAdapter = {
  id: 'copilot',
  title: 'GitHub Copilot CLI / cloud agent',
  doc: 'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference',
  nativeEvents: { pre: 'preToolUse', post: 'postToolUse, postToolUseFailure', 'session-start': 'sessionStart (VS Code only)', prompt: 'userPromptSubmitted (VS Code only)' },
  terminalTools: ['bash', 'powershell', ...VSCODE_TERMINAL_TOOLS],
  failOpenExitCode: 1, // "logged and skipped"
  parse(event, p) {
    const tool = str(p.toolName ?? p.tool_name);
    const input = args(p.toolArgs ?? p.tool_input);
    return {
      cwd: str(p.cwd) || undefined,
      tool,
      command: this.terminalTools.includes(tool) ? str(input.command) : undefined,
      result: event === 'post' ? result(p) : undefined,
      recordedElsewhere: VSCODE_TERMINAL_TOOLS.includes(tool),
    };
  },
  reply(event, answer, p) {
    if (snake(p)) return claudeStyleReply(event, answer, str(p.hook_event_name) || str(p.hookEventName) || CLAUDE_EVENT_NAMES[event]);
    if (event === 'pre' && (answer.kind === 'deny' || answer.kind === 'ask')) return json({ permissionDecision: answer.kind, permissionDecisionReason: answer.reason });
    return none;
  },
};
