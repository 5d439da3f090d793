// `failure-memory setup-agents` and "Failure Memory: Set Up Agent Gates": which hook entries each
// coding-agent harness gets in a workspace, and where (./setupFiles.ts plans and writes them: merged
// with the user's other hooks, never touching those, idempotent, and undone by --remove).
// The command written is the same on every machine: the launcher in ~/.failure-memory/bin (which
// setup-agents writes when it is missing, and the extension re-points at each activation); where it
// is missing (a teammate without Failure Memory) the command says so in the harness's visible
// channel (Claude Code's systemMessage, …) and lets the agent go on.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HARNESSES } from './hooks';
import { rulesText } from '../app/agentRules';
import { harnessFacts } from './hooks/harnessTable';
import { HARNESS_IDS, HOOK_EVENTS, type HarnessId, type HookEvent } from './hooks/types';
import { shellQuote } from '../core/approach/lexer';
import { onPath } from './userCommand';

/** Where the launcher lives, as a shell expression (committed files must not name a user's home). */
export const LAUNCHER_SH = '${FAILURE_MEMORY_BIN:-$HOME/.failure-memory/bin/failure-memory}';

/** What the user is told where the launcher is missing: the gate is off, and how to turn it on. */
export const LAUNCHER_MISSING =
  'Failure Memory: the gate is OFF on this machine: ~/.failure-memory/bin/failure-memory is missing. Run `failure-memory setup-agents` here (or open VS Code with the Failure Memory extension); commands are not checked.';


/** The shell lines that give a harness's notice (its visible channel) for `message`, then exit. */
function shellNotice(harness: HarnessId, event: HookEvent, message: string): string {
  const r = HARNESSES[harness].notice(event, message, {});
  const out = r.stdout ? `printf '%s\\n' ${shellQuote(r.stdout.replace(/\n$/, ''))}; ` : '';
  return `${out}printf '%s\\n' ${shellQuote(message)} >&2; exit ${r.exitCode}`;
}

/** The shell command a harness runs for one event; says so in the harness when the launcher is absent. */
export function hookCommand(harness: HarnessId, event: HookEvent): string {
  return `f="${LAUNCHER_SH}"; if [ -x "$f" ]; then exec "$f" hook ${harness} ${event}; fi; ${shellNotice(harness, event, LAUNCHER_MISSING)}`;
}

/** The same for PowerShell (Copilot's `powershell` field). */
export function hookCommandPowerShell(harness: HarnessId, event: HookEvent): string {
  return (
    `$f = if ($env:FAILURE_MEMORY_BIN) { $env:FAILURE_MEMORY_BIN } else { Join-Path $HOME '.failure-memory\\bin\\failure-memory.cmd' }; ` +
    `if (Test-Path $f) { $input | & $f hook ${harness} ${event}; exit $LASTEXITCODE }; ` +
    `[Console]::Error.WriteLine("Failure Memory: $f not found (Failure Memory is not installed on this machine); not checked.")`
  );
}

/** `hook <harness> <event>` of any harness and event, wherever it stands in a command. */
const OUR_HOOK = new RegExp(`\\bhook (?:${HARNESS_IDS.join('|')}) (?:${HOOK_EVENTS.join('|')})\\b`);

/** Is this hook command ours (any harness, any event, any version of the wording)? */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && /failure-memory/.test(command) && OUR_HOOK.test(command);
}

export type Json = Record<string, unknown>;
type Entry = Json;

/** How one harness's configuration looks: one JSON file with event arrays, or one script file per event. */
export interface JsonTarget {
  kind: 'json';
  file: string;
  /** The whole file is ours (removed with --remove). */
  owned?: boolean;
  /** Top-level fields a new file starts with. */
  base?: Json;
  /** event name → entries to add. */
  entries: Record<string, Entry[]>;
}
export interface ScriptsTarget {
  kind: 'scripts';
  /** file → its content; executable unless listed in `plain`. */
  files: Record<string, string>;
  plain?: string[];
}
export type Target = JsonTarget | ScriptsTarget;

const cmd = hookCommand;
const group = (harness: HarnessId, event: HookEvent, matcher?: string, extra: Json = {}): Entry => ({
  ...(matcher ? { matcher } : {}),
  hooks: [{ type: 'command', command: cmd(harness, event), ...extra }],
});

/** The rules file that carries Cline's summary (see hooks/rules.ts). */
export const CLINE_RULES = HARNESSES.cline.rulesFile ?? '.clinerules/failure-memory.md';

/** vscode and copilot share one file: Copilot's format, which VS Code reads too. */
function copilotTarget(): JsonTarget {
  const e = (event: HookEvent): Entry => ({ type: 'command', bash: cmd('copilot', event), powershell: hookCommandPowerShell('copilot', event), timeoutSec: 30 });
  return {
    kind: 'json',
    file: '.github/hooks/failure-memory.json',
    owned: true,
    base: { version: 1 },
    // VS Code converts these lowerCamel names to its own; of userPromptSubmitted and UserPromptSubmit
    // (both its UserPromptSubmit) VS Code 1.139 keeps the last in the file, so the PascalCase entry
    // comes last and runs the vscode adapter (Copilot CLI fires it too, in its VS Code format; the
    // vscode adapter gives Copilot no second context there)
    entries: {
      preToolUse: [e('pre')],
      postToolUse: [e('post')],
      postToolUseFailure: [e('post')],
      sessionStart: [e('session-start')],
      userPromptSubmitted: [e('prompt')],
      UserPromptSubmit: [{ type: 'command', bash: cmd('vscode', 'prompt'), powershell: hookCommandPowerShell('vscode', 'prompt'), timeoutSec: 30 }],
    },
  };
}

/** Cline: one script per hook, and the rules file that carries the summary (see hooks/rules.ts). */
function clineTarget(): ScriptsTarget {
  const script = (event: HookEvent) => `#!/bin/sh\n# Failure Memory (written by failure-memory setup-agents; \`failure-memory setup-agents --remove\` removes it)\n${cmd('cline', event)}\n`;
  // Cline CLI ignores context from its hooks before the first request: the summary goes into a
  // rules file, kept current by the hooks (its content here is a placeholder: planSetup fills it)
  return {
    kind: 'scripts',
    files: {
      '.clinerules/hooks/PreToolUse': script('pre'),
      '.clinerules/hooks/PostToolUse': script('post'),
      '.clinerules/hooks/TaskStart': script('session-start'),
      '.clinerules/hooks/UserPromptSubmit': script('prompt'),
      [CLINE_RULES]: rulesText(''),
    },
    plain: [CLINE_RULES],
  };
}

/** What each harness gets. vscode and copilot share .github/hooks (VS Code reads Copilot's format). */
export function targetFor(harness: HarnessId): Target {
  switch (harness) {
    case 'claude':
      return {
        kind: 'json',
        file: '.claude/settings.json',
        entries: {
          // the edit tools too: the gate refuses an agent's edit of Failure Memory's own files and settings,
          // and a finished edit is the evidence that tells trying fixes from looping
          PreToolUse: [group('claude', 'pre', 'Bash|Write|Edit|MultiEdit|NotebookEdit', { timeout: 30 })],
          PostToolUse: [group('claude', 'post', 'Bash|Edit|Write|MultiEdit|NotebookEdit', { timeout: 30 })],
          PostToolUseFailure: [group('claude', 'post', 'Bash|Edit|Write|MultiEdit|NotebookEdit', { timeout: 30 })],
          SessionStart: [group('claude', 'session-start', undefined, { timeout: 30 })],
          UserPromptSubmit: [group('claude', 'prompt', undefined, { timeout: 30 })],
        },
      };
    case 'vscode':
    case 'copilot':
      return copilotTarget();
    case 'cursor':
      return {
        kind: 'json',
        file: '.cursor/hooks.json',
        base: { version: 1 },
        entries: {
          beforeShellExecution: [{ command: cmd('cursor', 'pre') }],
          afterShellExecution: [{ command: cmd('cursor', 'post') }],
          afterFileEdit: [{ command: cmd('cursor', 'post') }],
          sessionStart: [{ command: cmd('cursor', 'session-start') }],
        },
      };
    case 'gemini':
      return {
        kind: 'json',
        file: '.gemini/settings.json',
        entries: {
          BeforeTool: [group('gemini', 'pre', 'run_shell_command|write_file|replace', { name: 'failure-memory', timeout: 30000 })],
          AfterTool: [group('gemini', 'post', 'run_shell_command|write_file|replace', { name: 'failure-memory', timeout: 30000 })],
          SessionStart: [group('gemini', 'session-start', undefined, { name: 'failure-memory', timeout: 30000 })],
          BeforeAgent: [group('gemini', 'prompt', undefined, { name: 'failure-memory', timeout: 30000 })],
        },
      };
    case 'codex':
      return {
        kind: 'json',
        file: '.codex/hooks.json',
        entries: {
          PreToolUse: [group('codex', 'pre', 'Bash|apply_patch', { timeout: 30 })],
          PostToolUse: [group('codex', 'post', 'Bash|apply_patch', { timeout: 30 })],
          SessionStart: [group('codex', 'session-start', undefined, { timeout: 30 })],
          UserPromptSubmit: [group('codex', 'prompt', undefined, { timeout: 30 })],
        },
      };
    case 'cline':
      return clineTarget();
    case 'windsurf':
      return {
        kind: 'json',
        file: '.windsurf/hooks.json',
        entries: { pre_run_command: [{ command: cmd('windsurf', 'pre'), show_output: true }], pre_write_code: [{ command: cmd('windsurf', 'pre'), show_output: true }] },
      };
  }
}

/** The programs of the harnesses a machine may have: `claude`, `codex`, … */
export function harnessPrograms(): string[] {
  return HARNESS_IDS.flatMap(h => harnessFacts(h).program?.bin ?? []);
}

/** The folders (and files) at a workspace's top that tell a harness is used there: `.claude`, `.github`, … */
export function harnessSignNames(): string[] {
  return [...new Set(HARNESS_IDS.map(h => harnessFacts(h).signs[0].split('/')[0]))];
}

/** The harnesses whose folders or files are present in the workspace. */
export function detectHarnesses(workspace: string): HarnessId[] {
  return HARNESS_IDS.filter(h => harnessFacts(h).signs.some(s => existsSync(join(workspace, s))));
}

/**
 * The harnesses installed on this machine (their program on PATH, or their folder in HOME), each with
 * how it was found: what setup-agents sets up in a project that has no sign of any harness yet.
 */
export function installedHarnesses(env: NodeJS.ProcessEnv, home: string): Array<{ id: HarnessId; found: string }> {
  const out: Array<{ id: HarnessId; found: string }> = [];
  for (const h of HARNESS_IDS) {
    const p = harnessFacts(h).program;
    if (!p) continue;
    if (onPath(p.bin, env)) out.push({ id: h, found: `${p.bin} on PATH` });
    else if (existsSync(join(home, p.home))) out.push({ id: h, found: `~/${p.home}` });
  }
  return out;
}

/** For each harness, the signs of it found in the workspace ('.claude', 'GEMINI.md'…); none: not found. */
export function harnessSigns(workspace: string): Record<HarnessId, string[]> {
  return Object.fromEntries(HARNESS_IDS.map(h => [h, harnessFacts(h).signs.filter(s => existsSync(join(workspace, s)))])) as Record<HarnessId, string[]>;
}

export function parseHarnessList(v: string): HarnessId[] {
  const ids = v.split(',').map(s => s.trim()).filter(Boolean);
  const bad = ids.filter(id => !(HARNESS_IDS as readonly string[]).includes(id));
  if (bad.length) throw new Error(`unknown harness ${bad.join(', ')} (one of ${HARNESS_IDS.join(', ')})`);
  return ids as HarnessId[];
}
