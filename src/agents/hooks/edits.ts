// The files an agent's edit tool changed, read from a harness's post-tool hook payload: Claude Code
// Edit/Write/MultiEdit/NotebookEdit, VS Code's and Copilot's edit tools, Gemini CLI write_file/replace,
// Codex apply_patch, Cursor afterFileEdit, Cline editor/apply_patch (its CLI) and write_to_file/
// replace_in_file (its VS Code extension). An edit the harness reports as failed (an error, "String to
// replace not found") is kept with ok: false: it changed nothing.
// Codex also takes `apply_patch <<'EOF' … EOF` through its shell tool (models without its apply_patch
// tool write it so): it applies the patch itself and fires no post hook for it, so the pre hook is the
// only report; `shellPatch` reads the patch from the line and `patchApplies` tells whether Codex will
// apply it (its own check before it writes anything).
// Pure protocol reading, like the adapters: no memory, and files only through the reader given.

import { harnessFacts } from './harnessTable';
import { args, obj, str, type HarnessId, type HookEvent, type Json } from './types';

export interface EditReport {
  /** As the harness names it: absolute, or relative to the call's cwd. */
  path: string;
  ok: boolean;
  tool: string;
}

/** The files a Codex-style patch touches: `*** Add File: x`, `*** Update File: x`, `*** Delete File: x`, `*** Move to: y`. */
export function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.slice(0, 1_000_000).matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): ([^\n]+)$/gm)) {
    const file = m[1].trim();
    if (file && !out.includes(file)) out.push(file);
    if (out.length >= 50) break;
  }
  return out;
}

/** Paths an edit tool's input names: file_path, notebook_path, path, filePath, files[], or a patch. */
function inputPaths(input: Json): string[] {
  const direct = [input.file_path, input.notebook_path, input.path, input.filePath, input.absolute_path, input.target_file].map(str).filter(Boolean);
  if (direct.length) return [...new Set(direct)];
  if (Array.isArray(input.files)) {
    return input.files.map(f => (typeof f === 'string' ? f : str(obj(f).path) || str(obj(f).filePath))).filter(Boolean).slice(0, 50);
  }
  for (const v of [input.input, input.patch, input.command, input.content]) {
    const text = Array.isArray(v) ? v.filter(x => typeof x === 'string').join('\n') : str(v);
    const files = patchFiles(text);
    if (files.length) return files;
  }
  return [];
}

/** A Claude-style result (tool_response, or error / PostToolUseFailure): did the edit apply? */
function claudeStyleOk(p: Json): boolean {
  if (p.hook_event_name === 'PostToolUseFailure' || p.error !== undefined) return false;
  const r = p.tool_response;
  // Codex's apply_patch answers "Exit code: 0\nWall time: …\nOutput:\nSuccess. Updated the following files: …"
  if (typeof r === 'string') return !/^(?:error|failed)\b/i.test(r.trim()) && !/^Exit code: (?!0\b)-?\d+/.test(r.trimStart());
  const o = obj(r);
  return !(o.success === false || o.is_error === true || o.isError === true || typeof o.error === 'string');
}

/**
 * Cline CLI's result: tool_result.output (an object, or the JSON text of postToolUse.result) says
 * success: false for an edit that did not apply, while postToolUse.success stays true.
 */
function clineOk(p: Json, call: Json): boolean {
  if (call.success === false) return false;
  let out = obj(obj(p.tool_result).output);
  if (!Object.keys(out).length && typeof call.result === 'string') {
    try {
      out = obj(JSON.parse(call.result));
    } catch {
      out = {};
    }
  }
  return out.success !== false && !out.error;
}

function copilotOk(p: Json): boolean {
  if (p.error) return false;
  const r = obj(p.toolResult ?? p.tool_result);
  const kind = str(r.resultType ?? r.result_type);
  return kind !== 'failure' && kind !== 'error' && kind !== 'denied';
}

function report(paths: string[], ok: boolean, tool: string): EditReport[] {
  return paths.map(path => ({ path, ok, tool }));
}

/**
 * The edits a post-tool call reports, or undefined when the call is not an edit tool's (the runner then
 * treats it as a possible shell command). `payload` is the harness's own JSON.
 */
export function editsOf(harness: HarnessId, event: HookEvent, p: Json): EditReport[] | undefined {
  if (event !== 'post') return undefined;
  const tools = harnessFacts(harness).editTools;
  switch (harness) {
    case 'claude':
    case 'vscode':
    case 'codex': {
      const tool = str(p.tool_name);
      const input = args(p.tool_input);
      if (!tools.includes(tool)) {
        const patch = harness === 'codex' ? codexShellPatch(input.command) : undefined;
        return patch ? report(patchFiles(patch.patch), claudeStyleOk(p), 'apply_patch') : undefined;
      }
      return report(inputPaths(input), claudeStyleOk(p), tool);
    }
    case 'copilot': {
      const tool = str(p.toolName ?? p.tool_name);
      if (!tools.includes(tool) && !harnessFacts('vscode').editTools.includes(tool)) return undefined;
      const ok = 'tool_name' in p ? claudeStyleOk(p) : copilotOk(p);
      return report(inputPaths(args(p.toolArgs ?? p.tool_input)), ok, tool);
    }
    case 'gemini': {
      const tool = str(p.tool_name);
      if (!tools.includes(tool)) return undefined;
      const r = obj(p.tool_response);
      return report(inputPaths(obj(p.tool_input)), !r.error, tool);
    }
    case 'cursor':
      return p.hook_event_name === 'afterFileEdit' || (typeof p.file_path === 'string' && Array.isArray(p.edits)) ? report([str(p.file_path)].filter(Boolean), true, 'afterFileEdit') : undefined;
    case 'cline': {
      const call = obj(p.postToolUse);
      const tool = str(call.toolName);
      if (!tools.includes(tool)) return undefined;
      return report(inputPaths(args(call.parameters)), clineOk(p, call), tool);
    }
    default:
      return undefined;
  }
}

/** An apply_patch given to a shell tool: the patch, and the folder a leading `cd DIR &&` moves to. */
export interface ShellPatch {
  patch: string;
  dir?: string;
}

const MAX_PATCH_CHARS = 1_000_000;
const unquote = (w: string) => (/^(['"]).*\1$/s.test(w) ? w.slice(1, -1) : w);

/**
 * The patch of `apply_patch <<'EOF' … EOF` (also `<<EOF`, `<<"EOF"`, `applypatch`, a single-quoted
 * argument, after `cd DIR &&`), as Codex recognises the line; undefined for any other command.
 */
export function shellPatch(command: string): ShellPatch | undefined {
  let s = command.slice(0, MAX_PATCH_CHARS).trimStart();
  let dir: string | undefined;
  const cd = /^cd[ \t]+('[^'\n]*'|"[^"\n]*"|[^\s;&|'"]+)[ \t]*&&[ \t]*/.exec(s);
  if (cd) {
    dir = unquote(cd[1]);
    s = s.slice(cd[0].length);
  }
  const head = /^(?:apply_patch|applypatch)[ \t]+/.exec(s);
  if (!head) return undefined;
  s = s.slice(head[0].length);
  let patch: string | undefined;
  if (s.startsWith('<<')) {
    const nl = s.indexOf('\n');
    const open = nl < 0 ? null : /^<<-?[ \t]*(['"]?)([A-Za-z_]\w{0,40})\1[ \t]*$/.exec(s.slice(0, nl));
    if (!open) return undefined;
    const lines = s.slice(nl + 1).split('\n');
    let end = lines.length - 1;
    while (end >= 0 && !lines[end].trim()) end--;
    if (end < 0 || lines[end].trim() !== open[2]) return undefined;
    patch = lines.slice(0, end).join('\n');
  } else if (s.startsWith("'")) {
    const close = s.lastIndexOf("'");
    if (close <= 0 || s.slice(close + 1).trim()) return undefined;
    patch = s.slice(1, close).split("'\\''").join("'");
  }
  if (!patch?.trimStart().startsWith('*** Begin Patch')) return undefined;
  return dir ? { patch, dir } : { patch };
}

/** A Codex shell tool's command (a line, or an argv: `["apply_patch", patch]`, `["bash", "-lc", line]`) as an apply_patch. */
export function codexShellPatch(command: unknown): ShellPatch | undefined {
  if (typeof command === 'string') return shellPatch(command);
  if (!Array.isArray(command) || !command.every(x => typeof x === 'string')) return undefined;
  const argv = command as string[];
  if (argv.length === 2 && /^(?:apply_patch|applypatch)$/.test(argv[0]) && argv[1].trimStart().startsWith('*** Begin Patch')) return { patch: argv[1] };
  if (argv.length === 3 && /(?:^|\/)(?:ba|z)?sh$/.test(argv[0]) && /^-l?c$/.test(argv[1])) return shellPatch(argv[2]);
  return undefined;
}

interface PatchOp {
  op: 'add' | 'delete' | 'update';
  path: string;
  /** Each hunk's lines as they are before the patch (context and removed lines), in order. */
  hunks: string[][];
}

function patchOps(patch: string): PatchOp[] {
  const ops: PatchOp[] = [];
  let current: PatchOp | undefined;
  for (const line of patch.slice(0, MAX_PATCH_CHARS).split('\n')) {
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line);
    if (header) {
      current = { op: header[1].toLowerCase() as PatchOp['op'], path: header[2].trim(), hunks: [] };
      ops.push(current);
    } else if (current?.op === 'update') {
      if (line.startsWith('@@')) current.hunks.push([]);
      else if (line.startsWith(' ') || line.startsWith('-')) {
        if (!current.hunks.length) current.hunks.push([]);
        current.hunks[current.hunks.length - 1].push(line.slice(1));
      }
    }
  }
  return ops;
}

/** Where `want` starts in `lines` at or after `from` (exact, then ignoring trailing, then surrounding blanks), or -1. */
function seek(lines: readonly string[], want: readonly string[], from: number): number {
  for (const norm of [(x: string) => x, (x: string) => x.trimEnd(), (x: string) => x.trim()]) {
    for (let i = from; i + want.length <= lines.length; i++) {
      let k = 0;
      while (k < want.length && norm(lines[i + k]) === norm(want[k])) k++;
      if (k === want.length) return i;
    }
  }
  return -1;
}

/**
 * Will Codex apply this patch? Every file it updates or deletes can be read, and each hunk's lines
 * before the change are found in order (what Codex checks before it writes: "Failed to read file to
 * update", "Failed to find expected lines"). `read`: a file's text (relative paths as the patch
 * names them), undefined when it cannot be read.
 */
export function patchApplies(patch: string, read: (path: string) => string | undefined): boolean {
  for (const op of patchOps(patch)) {
    if (op.op === 'add') continue;
    const text = read(op.path);
    if (text === undefined) return false;
    const lines = text.split('\n');
    let from = 0;
    for (const hunk of op.hunks) {
      if (!hunk.length) continue;
      const at = seek(lines, hunk, from);
      if (at < 0) return false;
      from = at + hunk.length;
    }
  }
  return true;
}
