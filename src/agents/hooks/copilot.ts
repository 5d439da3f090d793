// GitHub Copilot CLI and the Copilot cloud agent: .github/hooks/*.json (version 1, lowerCamel
// events, `bash`/`powershell` commands). Two payload formats on the same page: camelCase (toolName,
// toolArgs — sometimes a JSON string — toolResult) for lowerCamel event names, and a VS Code
// compatible snake_case one; VS Code itself reads these files too. We answer in the format we got.
// https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
// Seen in Copilot CLI 1.0.102: a top-level `additionalContext` from sessionStart,
// userPromptSubmitted and preToolUse reaches the model (after the call's result: "Additional context
// from preToolUse hook"); permissionDecision "ask" prompts in the interactive UI and is denied under
// -p ("unable to ask user for confirmation: <reason>"); a preToolUse hook that exits non-zero DENIES the call
// ("hook errored"), so a hook that cannot decide must exit 0; under `-p` repository hooks load only
// with GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (or a trusted folder, COPILOT_ALLOW_ALL=true).
// A shell result says its exit code in its last line ("<shellId: 0 completed with exit code 1>").
// VS Code 1.139 runs the lowerCamel entries of .github/hooks (preToolUse, postToolUse, sessionStart)
// with its own snake_case payload (./vscode.ts): run_in_terminal is recorded by the extension.

import { VSCODE_TERMINAL_TOOLS, vscodeTerminalOutput } from './vscode';
import { args, callKey, CLAUDE_EVENT_NAMES, claudeStyleReply, claudeStyleResult, exitCodeIn, json, none, obj, str, stripCopilotTrailer, tellTheUser, type HarnessAdapter, type Json, type ShellResult } from './types';

const snake = (p: Json) => 'tool_name' in p || 'hook_event_name' in p || 'hookEventName' in p;
function result(p: Json): ShellResult {
  // VS Code's own payload (it runs these hooks too): tool_response, the terminal output as a string
  if (p.tool_response !== undefined) {
    const r = claudeStyleResult(p);
    return VSCODE_TERMINAL_TOOLS.includes(str(p.tool_name)) ? vscodeTerminalOutput(r) : r;
  }
  if (typeof p.error === 'string' || p.error) {
    const err = typeof p.error === 'string' ? p.error : JSON.stringify(p.error);
    return { exitCode: exitCodeIn(err) ?? 1, output: err };
  }
  const r = obj(p.toolResult ?? p.tool_result);
  const kind = str(r.resultType ?? r.result_type);
  const text = str(r.textResultForLlm ?? r.text_result_for_llm);
  const code = exitCodeIn(text.slice(-400));
  const output = stripCopilotTrailer(text);
  if (code !== undefined) return { exitCode: code, output };
  if (kind === 'success') return { exitCode: 0, output };
  if (kind === 'failure' || kind === 'error') return { exitCode: 1, output };
  return { exitCode: null, output }; // denied, or a shape we do not know: not counted
}

export const copilot: HarnessAdapter = {
  id: 'copilot',
  title: 'GitHub Copilot CLI / cloud agent',
  doc: 'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference',
  nativeEvents: { pre: 'preToolUse', post: 'postToolUse, postToolUseFailure', 'session-start': 'sessionStart', prompt: 'userPromptSubmitted' },
  terminalTools: ['bash', 'powershell', ...VSCODE_TERMINAL_TOOLS],
  parse(event, p, env) {
    const tool = str(p.toolName ?? p.tool_name);
    const input = args(p.toolArgs ?? p.tool_input);
    return {
      // VS Code's snake_case payload (Copilot CLI sends camelCase here): its chat has a person at it
      ...(snake(p) && !env.COPILOT_CLI ? { interactive: true } : {}),
      cwd: str(p.cwd) || undefined,
      tool,
      command: this.terminalTools.includes(tool) ? str(input.command) : undefined,
      result: event === 'post' ? result(p) : undefined,
      recordedElsewhere: VSCODE_TERMINAL_TOOLS.includes(tool),
      callId: callKey(p.sessionId ?? p.session_id, p.tool_use_id ?? p.toolUseId, p.timestamp),
    };
  },
  reply(event, answer, p) {
    if (snake(p)) return claudeStyleReply(event, answer, str(p.hook_event_name) || str(p.hookEventName) || CLAUDE_EVENT_NAMES[event]);
    if (event === 'pre' && (answer.kind === 'deny' || answer.kind === 'ask')) return json({ permissionDecision: answer.kind, permissionDecisionReason: answer.reason });
    if (answer.kind === 'context' && event !== 'post') return json({ additionalContext: answer.text });
    return none;
  },
  // Copilot CLI shows no hook output to the user under -p; the model gets additionalContext (and
  // can say so), VS Code shows systemMessage. Always exit 0: a failing preToolUse hook denies.
  notice(event, message) {
    const tell = tellTheUser(message);
    const out = event === 'session-start' || event === 'prompt' ? { systemMessage: message, additionalContext: tell } : { systemMessage: message };
    return { exitCode: 0, stdout: `${JSON.stringify(out)}\n`, stderr: `${message}\n` };
  },
};
