// Gemini CLI hooks: settings.json `hooks`: BeforeTool / AfterTool (run_shell_command),
// SessionStart and BeforeAgent (hookSpecificOutput.additionalContext). A deny is
// {"decision":"deny","reason":…} on stdout (the reason goes to the agent as the tool's error);
// `systemMessage` is shown to the user. https://geminicli.com/docs/hooks/reference
// Seen in Gemini CLI 0.61.0: {"decision":"ask"} puts the call to the user ("Allow execution of
// [Shell]?", with the hook's systemMessage) in the interactive UI, and waits forever under -p: it is
// given only in a session known to be interactive (./sessionMode.ts). BeforeTool's additionalContext
// is ignored, AfterTool's is appended to the tool's result: the gate's warning reaches the model with
// the result of the call it warned about (the pre hook leaves it for the post hook).
// Gemini CLI loads a project's hooks only in a trusted folder (GEMINI_CLI_TRUST_WORKSPACE=true
// headless). AfterTool's tool_response.llmContent is what the model saw, wrapped for it:
// "<untrusted_context>\nOutput: …\nExit Code: 1\nProcess Group PGID: …\n</untrusted_context>";
// the command's own output is the Output section, its exit code the Exit Code line.

import { trimTrailing } from '../../core/approach/paths';
import { exitCodeIn, json, obj, str, systemMessage, type HarnessAdapter, type ShellResult } from './types';

const EVENT_NAMES = { pre: 'BeforeTool', post: 'AfterTool', 'session-start': 'SessionStart', prompt: 'BeforeAgent' } as const;

/** The labels of run_shell_command's result, each at the start of a line. */
const LABEL = /^(?:Command|Directory|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?/;

/** Output section and Exit Code line of a run_shell_command result (the wrapper taken off). */
export function geminiShellResult(llmContent: string): { output?: string; exitCode?: number } {
  const text = llmContent.replace(/^\s*<untrusted_context>\n?/, '').replace(/\n?<\/untrusted_context>\s*$/, '');
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const m = LABEL.exec(line);
    if (m) {
      current = [line.slice(m[0].length)];
      sections.set(m[0].replace(/: ?$/, ''), current);
    } else current?.push(line);
  }
  const out = sections.get('Output')?.join('\n');
  const code = /^-?\d{1,10}/.exec(sections.get('Exit Code')?.[0] ?? '');
  return { output: out === '(empty)' ? '' : out, exitCode: code ? Number(code[0]) : undefined };
}

function afterTool(r: Record<string, unknown>): ShellResult {
  const llm = str(r.llmContent);
  const parsed = llm ? geminiShellResult(llm) : {};
  const error = r.error ? (typeof r.error === 'string' ? r.error : str(obj(r.error).message) || JSON.stringify(r.error)) : '';
  const output = [parsed.output ?? (str(r.returnDisplay) || llm), error].filter(Boolean).join('\n');
  const exitCode = parsed.exitCode ?? (error ? (exitCodeIn(error) ?? 1) : 0);
  return { exitCode, output };
}

export const gemini: HarnessAdapter = {
  id: 'gemini',
  title: 'Gemini CLI',
  doc: 'https://geminicli.com/docs/hooks/reference',
  nativeEvents: EVENT_NAMES,
  terminalTools: ['run_shell_command'],
  warnsAfterTool: true,
  parse(event, p, env) {
    const tool = str(p.tool_name);
    const input = obj(p.tool_input);
    const cwd = str(p.cwd) || undefined;
    const dir = str(input.dir_path) || str(input.directory);
    const command = this.terminalTools.includes(tool) ? str(input.command) : undefined;
    const session = str(p.session_id);
    return {
      root: env.GEMINI_PROJECT_DIR || env.CLAUDE_PROJECT_DIR || undefined,
      cwd: dir && cwd && !dir.startsWith('/') ? `${trimTrailing(cwd)}/${dir}` : dir || cwd,
      tool,
      command,
      result: event === 'post' ? afterTool(obj(p.tool_response)) : undefined,
      ...(command && session ? { noteKey: `${session}\n${dir}\n${command}` } : {}),
    };
  },
  reply(event, answer) {
    // BeforeTool has no context for the model: a warning is shown to the user here, the model gets it with the result (AfterTool)
    if (event === 'pre') {
      if (answer.kind === 'deny') return json({ decision: 'deny', reason: answer.reason });
      if (answer.kind === 'ask') return json({ decision: 'ask', reason: answer.reason, systemMessage: answer.reason });
      return json(answer.kind === 'context' ? { systemMessage: answer.text } : {});
    }
    if (answer.kind === 'context') return json({ hookSpecificOutput: { hookEventName: EVENT_NAMES[event], additionalContext: answer.text } });
    return json({});
  },
  notice: (event, message) => systemMessage(message, event === 'session-start' || event === 'prompt' ? EVENT_NAMES[event] : undefined),
};
