// The shared shape of an agent-harness hook: each harness's adapter (one file per harness) maps
// its own stdin JSON to a HookInput and a HookAnswer back to its own protocol (exit code, stdout
// JSON, stderr). Pure protocol mapping: no memory, no files. The runner (./runner.ts) decides.

export const HOOK_EVENTS = ['pre', 'post', 'session-start', 'prompt'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

import type { HarnessId } from './harnessTable';

export { HARNESS_IDS, type HarnessId } from './harnessTable';

/** What a shell command did. exitCode null: the harness did not say (kept, never counted). */
export interface ShellResult {
  exitCode: number | null;
  output: string;
}

/** One shell command of a tool call, with its result once it ran. */
export interface ShellRun {
  command: string;
  result?: ShellResult;
}

/** One tool call or session event, as the runner needs it. */
export interface HookInput {
  /** The project folder the harness names (CLAUDE_PROJECT_DIR, workspace_roots[0], …), if any. */
  root?: string;
  /** Folder the command runs in (absolute), if the harness says. */
  cwd?: string;
  /** The harness's tool name ('' for session events). */
  tool: string;
  /** The shell command line, when the tool is one that runs shell commands. */
  command?: string;
  /** post: what the command did. exitCode null: the harness did not say. */
  result?: ShellResult;
  /**
   * Several shell commands in one tool call (Cline's run_commands): each is checked and recorded on
   * its own, and `command`/`result` stay unset.
   */
  runs?: ShellRun[];
  /**
   * The same tool call across the hook formats of one harness process (session and call id, or the
   * call's time): Copilot CLI runs both its own hooks and .claude/settings.json's for one call.
   */
  callId?: string;
  /** post: the exit code is not in the payload but in the harness's own transcript (Codex). */
  transcript?: { path: string; toolUseId: string };
  /** The payload itself says a person is there (VS Code's chat running another harness's entry). */
  interactive?: boolean;
  /**
   * The harness's session log, read only when the gate asks: it says whether the session is headless
   * (`codex exec`), which the refusal of the ask names.
   */
  sessionLog?: string;
  /**
   * A patch the model gave the shell tool (`apply_patch <<'EOF' … EOF`): Codex applies it itself,
   * never in a shell, and fires no post hook for it. An edit, not a command; `command` stays unset.
   */
  patch?: { patch: string; dir?: string };
  /**
   * The same call in its pre and post payloads where the harness names no call id (Gemini CLI: the
   * session and the command): the pre hook's warning goes to the post hook under this key.
   */
  noteKey?: string;
  /**
   * The command ran in VS Code's integrated terminal (VS Code's run_in_terminal): the extension
   * records it through shell integration already, so the hook must not record it twice.
   */
  recordedElsewhere?: boolean;
}

export type HookAnswer =
  /** Let it run: no opinion (never "allow" that would skip the user's own approval prompt). */
  | { kind: 'allow' }
  /** Do not run it; the reason is for the model. */
  | { kind: 'deny'; reason: string }
  /** Stop it until the user decides (the harness prompts; the reason is shown in the prompt). */
  | { kind: 'ask'; reason: string }
  /** Add this text to the agent's context. */
  | { kind: 'context'; text: string }
  /** Nothing to say (post). */
  | { kind: 'none' };

/** What the hook process does: exit code, stdout, stderr. */
export interface HookReply {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type Json = Record<string, unknown>;

export interface HarnessAdapter {
  id: HarnessId;
  title: string;
  /** The documentation page this adapter follows. */
  doc: string;
  /** The harness's own event name for each of our events it has; a missing event is not supported. */
  nativeEvents: Partial<Record<HookEvent, string>>;
  /** Tool names that run shell commands. */
  terminalTools: readonly string[];
  parse(event: HookEvent, payload: Json, env: NodeJS.ProcessEnv): HookInput;
  /** `env`: the hook process's environment (which program ran the hook, where the payload does not say). */
  reply(event: HookEvent, answer: HookAnswer, payload: Json, env: NodeJS.ProcessEnv): HookReply;
  /**
   * The pre-tool hook has no context for the model (Gemini CLI's BeforeTool): the gate's warning is
   * shown to the user there and given to the model with the call's result (its post hook's context).
   */
  warnsAfterTool?: boolean;
  /**
   * Where the failure summary goes when the harness's hooks cannot add it before its first model
   * request (a rules/instructions file it reads, relative to the workspace; Cline CLI).
   */
  rulesFile?: string;
  /**
   * The hook cannot decide (launcher missing, memory unreadable, …): let the call go on and say so
   * where the user of this harness sees it (never only in a debug log).
   */
  notice(event: HookEvent, message: string, payload: Json): HookReply;
}

// ---- helpers shared by the adapters ----

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^-?\d{1,10}$/.test(v.trim()) ? Number(v) : undefined;

/** Tool arguments that may come as an object or as a JSON string. */
export function args(v: unknown): Json {
  if (typeof v === 'string') {
    try {
      return obj(JSON.parse(v));
    } catch {
      return {};
    }
  }
  return obj(v);
}

/** "Exit code 1", "exited with exit code 2", "Exit Code: 3", "status code 4" in a tool's text result. */
export function exitCodeIn(text: string): number | undefined {
  // the last one: a harness appends its own "exit code N" after whatever the command printed
  let last: string | undefined;
  for (const m of text.slice(-20_000).matchAll(/(?:exit(?:ed)?(?: with)?(?: non-zero)?(?: status)? code|status code)\s*(?:[:=]\s*)?(-?\d{1,10})/gi)) last = m[1];
  return last === undefined ? undefined : Number(last);
}

export const none: HookReply = { exitCode: 0, stdout: '', stderr: '' };
export const json = (value: unknown): HookReply => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });
export const block2 = (reason: string): HookReply => ({ exitCode: 2, stdout: '', stderr: `${reason}\n` });

/** What the model is asked to pass on when the gate is off (its answer is often what the user reads). */
export const tellTheUser = (message: string) => `${message} (Tell the user: the Failure Memory command gate is not active in this session.)`;

/**
 * The `systemMessage` field that Claude Code, Codex, Gemini CLI and VS Code show to the user; the
 * call goes on. On a context event (`contextEvent`: the harness's event name) the model is told
 * too, through additionalContext: a headless run (`codex exec`, `claude -p`) shows no hook message.
 */
export const systemMessage = (message: string, contextEvent?: string): HookReply => {
  const context = contextEvent ? { hookSpecificOutput: { hookEventName: contextEvent, additionalContext: tellTheUser(message) } } : {};
  return { exitCode: 0, stdout: `${JSON.stringify({ systemMessage: message, ...context })}\n`, stderr: `${message}\n` };
};

/** A harness whose only visible channel is a hook's stderr on a non-blocking exit code. */
export const stderrNotice = (exitCode: number) => (_event: HookEvent, message: string): HookReply => ({ exitCode, stdout: '', stderr: `${message}\n` });

/** The call's time in ms, from a number (ms) or an ISO string: the same call in two formats has the same. */
export function callTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** session + (call id or call time), or undefined when the payload names neither. */
export function callKey(session: unknown, id: unknown, time: unknown): string | undefined {
  const s = str(session);
  const rest = str(id) || (callTime(time) !== undefined ? `t${callTime(time)}` : '');
  return s && rest ? `${s}:${rest}` : undefined;
}

/** The Claude Code event names, also those of VS Code, Codex and Copilot's VS Code-compatible payloads. */
export const CLAUDE_EVENT_NAMES = { pre: 'PreToolUse', post: 'PostToolUse', 'session-start': 'SessionStart', prompt: 'UserPromptSubmit' } as const;

/**
 * A Claude-style tool call (tool_name, tool_input.command, cwd; tool_response or error once it ran),
 * shared by Claude Code, VS Code and Codex. `commandOf` reads tool_input.command (Codex may send an argv).
 */
export function claudeStyleParse(event: HookEvent, p: Json, terminalTools: readonly string[], commandOf: (v: unknown) => string = str): HookInput {
  const tool = str(p.tool_name);
  const input = obj(p.tool_input);
  return {
    cwd: str(p.cwd) || undefined,
    tool,
    command: terminalTools.includes(tool) ? commandOf(input.command) : undefined,
    result: event === 'post' ? claudeStyleResult(p) : undefined,
    callId: callKey(p.session_id ?? p.sessionId, p.tool_use_id, p.timestamp),
  };
}

/**
 * Where a harness's pre-tool hook can put the gate's question to a person (measured with the real
 * programs, docs/agents.md): `always` (VS Code's agent mode); `unless-headless`: its prompt, except in
 * a session known to be headless (Claude Code, Copilot CLI and Cursor refuse an ask themselves where no
 * one can answer, with our reason: safe when the mode is unknown); `interactive`: only in a session
 * known to be interactive (Gemini CLI's BeforeTool "ask" waits forever under -p); `never` (Codex has no
 * ask, Cline's hooks cannot prompt, Windsurf blocks or not).
 */
export const ASKS: Readonly<Record<HarnessId, 'always' | 'unless-headless' | 'interactive' | 'never'>> = {
  vscode: 'always',
  claude: 'unless-headless',
  copilot: 'unless-headless',
  cursor: 'unless-headless',
  gemini: 'interactive',
  codex: 'never',
  cline: 'never',
  windsurf: 'never',
};

/** How a gate decision reaches a harness: deny, ask the user, warn the agent and the user while the call goes on, or nothing. */
export type GateShape = 'deny' | 'ask' | 'warn' | 'allow';

/**
 * The shape of one gate decision on one harness, decided here for every adapter: deny denies; warn
 * runs and says why; ask asks where a person can answer and is otherwise a refusal (its reason tells
 * the agent to stop and ask the user) — never a pass. `mode`: the session's, when known.
 */
export function gateShape(harness: HarnessId, decision: 'allow' | 'warn' | 'ask' | 'deny', mode?: 'headless' | 'interactive'): GateShape {
  if (decision !== 'ask') return decision;
  const asks = ASKS[harness];
  if (asks === 'always' || (asks === 'unless-headless' && mode !== 'headless') || (asks === 'interactive' && mode === 'interactive')) return 'ask';
  return 'deny';
}

/** Does the shape of an ask on this harness depend on the session's mode (read only then)? */
export const askNeedsMode = (harness: HarnessId): boolean => ASKS[harness] === 'unless-headless' || ASKS[harness] === 'interactive';

/** The Claude Code answer shape, shared by VS Code, Codex and Copilot's VS Code-compatible payloads. */
export function claudeStyleReply(event: HookEvent, answer: HookAnswer, eventName: string): HookReply {
  if ((answer.kind === 'deny' || answer.kind === 'ask') && event === 'pre') {
    return json({ hookSpecificOutput: { hookEventName: eventName, permissionDecision: answer.kind, permissionDecisionReason: answer.reason } });
  }
  if (answer.kind === 'context') return json({ hookSpecificOutput: { hookEventName: eventName, additionalContext: answer.text } });
  return none;
}

/**
 * Claude-style post payloads: tool_response (success) or error (PostToolUseFailure); Copilot CLI's
 * VS Code-compatible format says tool_result {result_type, text_result_for_llm}. A plain-string
 * response (VS Code, Codex) carries no exit code: unknown unless the text states one.
 */
export function claudeStyleResult(payload: Json): ShellResult {
  const r = payload.tool_response;
  const copilot = obj(payload.tool_result);
  if (r === undefined && payload.error === undefined && Object.keys(copilot).length) {
    const text = str(copilot.text_result_for_llm);
    const kind = str(copilot.result_type);
    const code = exitCodeIn(text.slice(-400));
    return { exitCode: code ?? (kind === 'success' ? 0 : kind === 'failure' || kind === 'error' ? 1 : null), output: stripCopilotTrailer(text) };
  }
  if (payload.hook_event_name === 'PostToolUseFailure' || (payload.error !== undefined && r === undefined)) {
    const err = typeof payload.error === 'string' ? payload.error : payload.error ? JSON.stringify(payload.error) : '';
    const code = payload.is_interrupt === true ? 130 : (exitCodeIn(err.slice(0, 200)) ?? 1);
    return { exitCode: code, output: err.replace(/^(?:Error: )?Exit code -?\d+\s*\n?/i, '') };
  }
  if (typeof r === 'string') return { exitCode: exitCodeIn(r.slice(-400)) ?? null, output: r };
  const o = obj(r);
  let code = int(o.exit_code) ?? int(o.exitCode) ?? int(o.returnCode) ?? int(o.code);
  if (code === undefined) code = o.interrupted === true ? 130 : o.is_error === true || o.isError === true ? 1 : 0;
  return { exitCode: code, output: [str(o.stdout), str(o.stderr), str(o.output)].filter(Boolean).join('\n') };
}

/** Copilot CLI ends a shell result with "<shellId: 0 completed with exit code 1>": not the command's output. */
export function stripCopilotTrailer(text: string): string {
  return text.replace(/\n?<shellId: [^>\n]{0,80}>\s*$/, '');
}
