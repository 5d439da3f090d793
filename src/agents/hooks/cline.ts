// Cline hooks: executable files named after the hook in .clinerules/hooks/ (PreToolUse,
// PostToolUse, TaskStart, UserPromptSubmit). Input: base fields (workspaceRoots, …) and one object
// named after the hook; output JSON {cancel, contextModification, errorMessage}.
// https://docs.cline.bot/features/hooks/hook-reference (not available on Windows).
// Cline CLI 3.x: the shell tool is run_commands with `commands: [...]` (preToolUse.parameters holds
// them as a JSON string, tool_call.input as an array; tool_result.output has one {query, result,
// error, success} per command, the result starting "[Command exited with code N]"). It ignores a
// TaskStart hook's contextModification (a tool hook's reaches the model), so the summary goes into
// .clinerules/failure-memory.md, which Cline reads into its system prompt.
// Its hooks cannot refuse one call: `cancel: true` stops the whole task (the model never learns
// why). A refused run_commands call is given instead a command that only prints the reason and
// fails (overrideInput), so the model reads why; the post hook knows it by its first word. Its hooks
// cannot ask either: the gate's ask is such a refusal too, saying what the user can do.

import { args, exitCodeIn, json, obj, str, tellTheUser, type HarnessAdapter, type Json, type ShellResult, type ShellRun } from './types';
import { shellQuote } from '../../core/approach/lexer';

const SHELL_TOOLS = ['execute_command', 'run_commands'];

/** What a refused run_commands call runs instead: a no-op marker, the reason on stderr, exit 1. */
export const REFUSED_MARKER = ': failure-memory refused;';
export const refusalCommand = (reason: string) => `${REFUSED_MARKER} printf '%s\\n' ${shellQuote(reason)} >&2; exit 1`;

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The commands of one call: tool_call.input (an array), else the parameters (maybe a JSON string). */
function commandsOf(tool: string, call: Json, params: Json): string[] {
  if (tool === 'execute_command') return [str(params.command) || str(obj(call.input).command)].filter(Boolean);
  const fromCall = stringList(obj(call.input).commands);
  if (fromCall.length) return fromCall;
  const raw = params.commands;
  if (typeof raw === 'string') {
    try {
      return stringList(JSON.parse(raw));
    } catch {
      return raw.trim() ? [raw] : [];
    }
  }
  return stringList(raw);
}

/** "[Command exited with code 1]\n\n[stderr]\n…": the code, and the output without Cline's markers. */
function clineResult(item: Json, fallbackSuccess: unknown): ShellResult {
  const text = str(item.result) || str(item.error);
  const output = text.replace(/^\[Command exited with code -?\d+\]\n*/, '').replace(/^\[(?:stdout|stderr)\]\n/gm, '').trim();
  const success = typeof item.success === 'boolean' ? item.success : fallbackSuccess;
  const code = exitCodeIn(text.slice(0, 200)) ?? exitCodeIn(str(item.error));
  // Cline aborts a call itself (its own guard against repeated calls, a cancel): nothing ran
  if (code === undefined && /\baborted\b/i.test(str(item.error))) return { exitCode: null, output };
  return { exitCode: code ?? (success === true ? 0 : success === false ? 1 : null), output };
}

function runsOf(event: 'pre' | 'post', tool: string, p: Json): ShellRun[] {
  const hook = obj(event === 'pre' ? p.preToolUse : p.postToolUse);
  const call = obj(event === 'pre' ? p.tool_call : p.tool_result);
  const commands = commandsOf(tool, call, args(hook.parameters));
  if (event === 'pre') return commands.map(command => ({ command }));
  let items = Array.isArray(call.output) ? call.output.map(obj) : [];
  if (!items.length && typeof hook.result === 'string') {
    try {
      const parsed: unknown = JSON.parse(hook.result);
      items = Array.isArray(parsed) ? parsed.map(obj) : [];
    } catch {
      items = [{ result: hook.result }];
    }
  }
  return commands
    .map((command, i) => {
      const item = items.find(x => str(x.query) === command) ?? items[i] ?? {};
      return { command, result: clineResult(item, hook.success) };
    })
    .filter(r => !r.command.startsWith(REFUSED_MARKER));
}

export const cline: HarnessAdapter = {
  id: 'cline',
  title: 'Cline',
  doc: 'https://docs.cline.bot/features/hooks/hook-reference',
  nativeEvents: { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'TaskStart', prompt: 'UserPromptSubmit' },
  terminalTools: SHELL_TOOLS,
  rulesFile: '.clinerules/failure-memory.md',
  parse(event, p) {
    const roots = Array.isArray(p.workspaceRoots) ? p.workspaceRoots.filter((r): r is string => typeof r === 'string') : [];
    const hook = obj(event === 'pre' ? p.preToolUse : p.postToolUse);
    const tool = str(hook.toolName) || str(obj(event === 'pre' ? p.tool_call : p.tool_result).name);
    const params = args(hook.parameters);
    const base = { root: roots[0], cwd: str(params.cwd) || roots[0], tool };
    if ((event !== 'pre' && event !== 'post') || !SHELL_TOOLS.includes(tool)) return base;
    return { ...base, runs: runsOf(event, tool, p) };
  },
  reply(event, answer, p) {
    if (answer.kind === 'deny' && str(obj(p.preToolUse).toolName) === 'run_commands') return json({ cancel: false, overrideInput: { commands: [refusalCommand(answer.reason)] } });
    if (answer.kind === 'deny') return json({ cancel: true, errorMessage: answer.reason });
    if (answer.kind === 'context') return json({ cancel: false, contextModification: answer.text });
    return json({ cancel: false });
  },
  // a tool hook's contextModification reaches the model (which can tell the user); nothing of a
  // hook's output is shown to the user by Cline CLI
  notice(event, message) {
    const out = event === 'pre' || event === 'post' ? { cancel: false, contextModification: tellTheUser(message) } : { cancel: false };
    return { exitCode: 0, stdout: `${JSON.stringify(out)}\n`, stderr: `${message}\n` };
  },
};
