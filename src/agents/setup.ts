// `failure-memory setup-agents` and "Failure Memory: Set Up Agent Gates": writes Failure Memory's
// hook entries into each coding-agent harness's own configuration in a workspace, merged with the
// user's other hooks (never touched), idempotent, and undone by --remove.
// The command written is the same on every machine: the launcher in ~/.failure-memory/bin (which
// the extension re-points at each activation); where it is missing (a teammate without the
// extension) the command says so in one stderr line and lets the agent go on.

import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HARNESS_IDS, type HarnessId, type HookEvent } from './hooks/types';

/** Where the launcher lives, as a shell expression (committed files must not name a user's home). */
export const LAUNCHER_SH = '${FAILURE_MEMORY_BIN:-$HOME/.failure-memory/bin/failure-memory}';

/** The shell command a harness runs for one event; fails open with one line when the launcher is absent. */
export function hookCommand(harness: HarnessId, event: HookEvent): string {
  return (
    `f="${LAUNCHER_SH}"; if [ -x "$f" ]; then exec "$f" hook ${harness} ${event}; fi; ` +
    `echo "Failure Memory: $f not found (the extension is not installed on this machine); not checked." >&2`
  );
}

/** The same for PowerShell (Copilot's `powershell` field). */
export function hookCommandPowerShell(harness: HarnessId, event: HookEvent): string {
  return (
    `$f = if ($env:FAILURE_MEMORY_BIN) { $env:FAILURE_MEMORY_BIN } else { Join-Path $HOME '.failure-memory\\bin\\failure-memory.cmd' }; ` +
    `if (Test-Path $f) { $input | & $f hook ${harness} ${event}; exit $LASTEXITCODE }; ` +
    `[Console]::Error.WriteLine("Failure Memory: $f not found (the extension is not installed on this machine); not checked.")`
  );
}

/** Is this hook command ours (any harness, any event, any version of the wording)? */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && /failure-memory/.test(command) && /\bhook (?:vscode|claude|copilot|cursor|gemini|codex|cline|windsurf) (?:pre|post|session-start|prompt)\b/.test(command);
}

type Json = Record<string, unknown>;
type Entry = Json;

/** How one harness's configuration looks: one JSON file with event arrays, or one script file per event. */
interface JsonTarget {
  kind: 'json';
  file: string;
  /** The whole file is ours (removed with --remove). */
  owned?: boolean;
  /** Top-level fields a new file starts with. */
  base?: Json;
  /** event name → entries to add. */
  entries: Record<string, Entry[]>;
}
interface ScriptsTarget {
  kind: 'scripts';
  files: Record<string, string>;
}
type Target = JsonTarget | ScriptsTarget;

const cmd = hookCommand;
const group = (harness: HarnessId, event: HookEvent, matcher?: string, extra: Json = {}): Entry => ({
  ...(matcher ? { matcher } : {}),
  hooks: [{ type: 'command', command: cmd(harness, event), ...extra }],
});

/** What each harness gets. vscode and copilot share .github/hooks (VS Code reads Copilot's format). */
export function targetFor(harness: HarnessId): Target {
  switch (harness) {
    case 'claude':
      return {
        kind: 'json',
        file: '.claude/settings.json',
        entries: {
          PreToolUse: [group('claude', 'pre', 'Bash', { timeout: 30 })],
          PostToolUse: [group('claude', 'post', 'Bash', { timeout: 30 })],
          PostToolUseFailure: [group('claude', 'post', 'Bash', { timeout: 30 })],
          SessionStart: [group('claude', 'session-start', undefined, { timeout: 30 })],
          UserPromptSubmit: [group('claude', 'prompt', undefined, { timeout: 30 })],
        },
      };
    case 'vscode':
    case 'copilot': {
      const e = (event: HookEvent): Entry => ({ type: 'command', bash: cmd('copilot', event), powershell: hookCommandPowerShell('copilot', event), timeoutSec: 30 });
      return {
        kind: 'json',
        file: '.github/hooks/failure-memory.json',
        owned: true,
        base: { version: 1 },
        entries: { preToolUse: [e('pre')], postToolUse: [e('post')], postToolUseFailure: [e('post')], sessionStart: [e('session-start')], userPromptSubmitted: [e('prompt')] },
      };
    }
    case 'cursor':
      return {
        kind: 'json',
        file: '.cursor/hooks.json',
        base: { version: 1 },
        entries: {
          beforeShellExecution: [{ command: cmd('cursor', 'pre') }],
          afterShellExecution: [{ command: cmd('cursor', 'post') }],
          sessionStart: [{ command: cmd('cursor', 'session-start') }],
        },
      };
    case 'gemini':
      return {
        kind: 'json',
        file: '.gemini/settings.json',
        entries: {
          BeforeTool: [group('gemini', 'pre', 'run_shell_command', { name: 'failure-memory', timeout: 30000 })],
          AfterTool: [group('gemini', 'post', 'run_shell_command', { name: 'failure-memory', timeout: 30000 })],
          SessionStart: [group('gemini', 'session-start', undefined, { name: 'failure-memory', timeout: 30000 })],
          BeforeAgent: [group('gemini', 'prompt', undefined, { name: 'failure-memory', timeout: 30000 })],
        },
      };
    case 'codex':
      return {
        kind: 'json',
        file: '.codex/hooks.json',
        entries: {
          PreToolUse: [group('codex', 'pre', 'Bash', { timeout: 30 })],
          PostToolUse: [group('codex', 'post', 'Bash', { timeout: 30 })],
          SessionStart: [group('codex', 'session-start', undefined, { timeout: 30 })],
          UserPromptSubmit: [group('codex', 'prompt', undefined, { timeout: 30 })],
        },
      };
    case 'cline': {
      const script = (event: HookEvent) => `#!/bin/sh\n# Failure Memory (written by failure-memory setup-agents; \`failure-memory setup-agents --remove\` removes it)\n${cmd('cline', event)}\n`;
      return {
        kind: 'scripts',
        files: { '.clinerules/hooks/PreToolUse': script('pre'), '.clinerules/hooks/PostToolUse': script('post'), '.clinerules/hooks/TaskStart': script('session-start'), '.clinerules/hooks/UserPromptSubmit': script('prompt') },
      };
    }
    case 'windsurf':
      return { kind: 'json', file: '.windsurf/hooks.json', entries: { pre_run_command: [{ command: cmd('windsurf', 'pre'), show_output: true }] } };
  }
}

/** Signs that a harness is used in this folder. */
const SIGNS: Record<HarnessId, string[]> = {
  vscode: ['.vscode'],
  claude: ['.claude', 'CLAUDE.md'],
  copilot: ['.github/copilot-instructions.md', '.github/hooks', '.github/agents'],
  cursor: ['.cursor', '.cursorrules'],
  gemini: ['.gemini', 'GEMINI.md'],
  codex: ['.codex'],
  cline: ['.clinerules', '.clineignore'],
  windsurf: ['.windsurf', '.windsurfrules'],
};

/** The harnesses whose folders or files are present in the workspace. */
export function detectHarnesses(workspace: string): HarnessId[] {
  return HARNESS_IDS.filter(h => SIGNS[h].some(s => existsSync(join(workspace, s))));
}

/** For each harness, the signs of it found in the workspace ('.claude', 'GEMINI.md'…); none: not found. */
export function harnessSigns(workspace: string): Record<HarnessId, string[]> {
  return Object.fromEntries(HARNESS_IDS.map(h => [h, SIGNS[h].filter(s => existsSync(join(workspace, s)))])) as Record<HarnessId, string[]>;
}

export interface FileChange {
  /** Relative to the workspace, '/' separated. */
  file: string;
  harnesses: HarnessId[];
  action: 'create' | 'update' | 'remove' | 'unchanged' | 'skip';
  /** Why a file is skipped (not ours, not valid JSON). */
  reason?: string;
  /** The new content (create/update). */
  content?: string;
  executable?: boolean;
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function entryIsOurs(e: unknown): boolean {
  if (!isObj(e)) return false;
  if (isOurCommand(e.command) || isOurCommand(e.bash)) return true;
  return Array.isArray(e.hooks) && e.hooks.some(h => isObj(h) && isOurCommand(h.command)) && e.hooks.every(h => isObj(h) && isOurCommand(h.command));
}

/** Removes our entries (whole groups, or our hooks inside a group shared with the user's). */
function stripOurs(hooks: Json): Json {
  const out: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      out[event] = list;
      continue;
    }
    const kept: unknown[] = [];
    for (const e of list) {
      if (entryIsOurs(e)) continue;
      if (isObj(e) && Array.isArray(e.hooks) && e.hooks.some(h => isObj(h) && isOurCommand(h.command))) {
        kept.push({ ...e, hooks: e.hooks.filter(h => !(isObj(h) && isOurCommand(h.command))) });
      } else kept.push(e);
    }
    if (kept.length) out[event] = kept;
  }
  return out;
}

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

function planJson(workspace: string, t: JsonTarget, harnesses: HarnessId[], remove: boolean): FileChange {
  const abs = join(workspace, t.file);
  const before = readText(abs);
  let doc: Json = {};
  if (before !== undefined && before.trim()) {
    try {
      const v: unknown = JSON.parse(before);
      if (!isObj(v)) throw new Error('not an object');
      doc = v;
    } catch (e) {
      return { file: t.file, harnesses, action: 'skip', reason: `not valid JSON (${(e as Error).message}): left untouched; fix it and run again` };
    }
  }
  if (doc.hooks !== undefined && !isObj(doc.hooks)) return { file: t.file, harnesses, action: 'skip', reason: '"hooks" is not an object: left untouched' };
  const stripped = stripOurs(isObj(doc.hooks) ? doc.hooks : {});
  if (remove) {
    if (before === undefined) return { file: t.file, harnesses, action: 'unchanged' };
    const rest: Json = { ...doc, hooks: stripped };
    if (!Object.keys(stripped).length) delete rest.hooks;
    const onlyBase = Object.keys(rest).every(k => t.base && k in t.base);
    if (t.owned || onlyBase) return { file: t.file, harnesses, action: 'remove' };
    const content = `${JSON.stringify(rest, null, 2)}\n`;
    return { file: t.file, harnesses, action: content === before ? 'unchanged' : 'update', content };
  }
  const current = isObj(doc.hooks) ? doc.hooks : {};
  const oursNow = (event: string) => (Array.isArray(current[event]) ? (current[event] as unknown[]).filter(entryIsOurs) : []);
  const inPlace =
    before !== undefined &&
    Object.entries(t.entries).every(([event, entries]) => JSON.stringify(oursNow(event)) === JSON.stringify(entries)) &&
    Object.keys(current).every(event => event in t.entries || !oursNow(event).length);
  if (inPlace) return { file: t.file, harnesses, action: 'unchanged' };
  const hooks: Json = { ...stripped };
  for (const [event, entries] of Object.entries(t.entries)) hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), ...entries];
  const next: Json = before === undefined ? { ...(t.base ?? {}), hooks } : { ...(t.base ?? {}), ...doc, hooks };
  const content = `${JSON.stringify(next, null, 2)}\n`;
  if (before === undefined) return { file: t.file, harnesses, action: 'create', content };
  return { file: t.file, harnesses, action: content === before || sameJson(before, next) ? 'unchanged' : 'update', content };
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function planScripts(workspace: string, t: ScriptsTarget, harnesses: HarnessId[], remove: boolean): FileChange[] {
  return Object.entries(t.files).map(([file, content]) => {
    const before = readText(join(workspace, file));
    const ours = before !== undefined && isOurCommand(before) && /Failure Memory/.test(before);
    if (before !== undefined && !ours) return { file, harnesses, action: 'skip' as const, reason: 'a hook of your own is there: left untouched (add the Failure Memory line to it yourself)' };
    if (remove) return { file, harnesses, action: before === undefined ? ('unchanged' as const) : ('remove' as const) };
    return { file, harnesses, action: before === undefined ? ('create' as const) : before === content ? ('unchanged' as const) : ('update' as const), content, executable: true };
  });
}

export interface SetupPlanOptions {
  harnesses: HarnessId[];
  remove?: boolean;
}

/** What setup (or --remove) would change, file by file. Reads the workspace; writes nothing. */
export function planSetup(workspace: string, opts: SetupPlanOptions): FileChange[] {
  const byFile = new Map<string, { target: Target; harnesses: HarnessId[] }>();
  for (const h of opts.harnesses) {
    const t = targetFor(h);
    const key = t.kind === 'json' ? t.file : Object.keys(t.files)[0];
    const seen = byFile.get(key);
    if (seen) seen.harnesses.push(h);
    else byFile.set(key, { target: t, harnesses: [h] });
  }
  const changes: FileChange[] = [];
  for (const { target, harnesses } of byFile.values()) {
    if (target.kind === 'json') changes.push(planJson(workspace, target, harnesses, !!opts.remove));
    else changes.push(...planScripts(workspace, target, harnesses, !!opts.remove));
  }
  return changes;
}

/** Writes a plan (only creates, updates and removes). */
export function applySetup(workspace: string, changes: FileChange[]): void {
  for (const c of changes) {
    const abs = join(workspace, c.file);
    if (c.action === 'remove') {
      rmSync(abs, { force: true });
    } else if ((c.action === 'create' || c.action === 'update') && c.content !== undefined) {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, c.content);
      if (c.executable) chmodSync(abs, statSync(abs).mode | 0o755);
    }
  }
}

/** One line per file, for a person: what happens where. */
export function describeChanges(changes: FileChange[], removing = false): string[] {
  const verb = removing
    ? ({ create: 'create', update: 'take the entries out of', remove: 'delete', unchanged: 'nothing to remove in', skip: 'skip' } as const)
    : ({ create: 'create', update: 'add entries to', remove: 'delete', unchanged: 'already set up:', skip: 'skip' } as const);
  return changes.map(c => `${verb[c.action]} ${c.file} (${c.harnesses.join(', ')})${c.reason ? ` — ${c.reason}` : ''}`);
}

export function parseHarnessList(v: string): HarnessId[] {
  const ids = v.split(',').map(s => s.trim()).filter(Boolean);
  const bad = ids.filter(id => !(HARNESS_IDS as readonly string[]).includes(id));
  if (bad.length) throw new Error(`unknown harness ${bad.join(', ')} (one of ${HARNESS_IDS.join(', ')})`);
  return ids as HarnessId[];
}
