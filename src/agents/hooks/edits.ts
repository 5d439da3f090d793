// The files an agent's edit tool changed, read from a harness's post-tool hook payload: Claude Code
// Edit/Write/MultiEdit/NotebookEdit, VS Code's and Copilot's edit tools, Gemini CLI write_file/replace,
// Codex apply_patch, Cursor afterFileEdit, Cline write_to_file/replace_in_file. An edit the harness
// reports as failed (an error, "String to replace not found") is kept with ok: false: it changed nothing.
// Pure protocol reading, like the adapters: no memory, no files.

import { args, obj, str, type HarnessId, type HookEvent, type Json } from './types';

export interface EditReport {
  /** As the harness names it: absolute, or relative to the call's cwd. */
  path: string;
  ok: boolean;
  tool: string;
}

/** Edit tools by the name each harness gives them. */
export const EDIT_TOOLS: Readonly<Record<HarnessId, readonly string[]>> = {
  claude: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  vscode: ['editFiles', 'createFile', 'create_file', 'insert_edit_into_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'apply_patch', 'edit_notebook_file', 'edit_file'],
  copilot: ['edit', 'create', 'write', 'str_replace_editor', 'apply_patch', 'create_file', 'replace_string_in_file', 'insert_edit_into_file', 'multi_replace_string_in_file', 'editFiles'],
  gemini: ['write_file', 'replace', 'edit'],
  codex: ['apply_patch', 'Edit', 'Write'],
  cursor: ['afterFileEdit'],
  cline: ['write_to_file', 'replace_in_file', 'apply_diff', 'insert_content'],
  windsurf: [],
};

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
  if (typeof r === 'string') return !/^(?:error|failed)\b/i.test(r.trim());
  const o = obj(r);
  return !(o.success === false || o.is_error === true || o.isError === true || typeof o.error === 'string');
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
  const tools = EDIT_TOOLS[harness];
  switch (harness) {
    case 'claude':
    case 'vscode':
    case 'codex': {
      const tool = str(p.tool_name);
      if (!tools.includes(tool)) return undefined;
      return report(inputPaths(args(p.tool_input)), claudeStyleOk(p), tool);
    }
    case 'copilot': {
      const tool = str(p.toolName ?? p.tool_name);
      if (!tools.includes(tool) && !EDIT_TOOLS.vscode.includes(tool)) return undefined;
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
      return report(inputPaths(obj(call.parameters)), call.success !== false, tool);
    }
    default:
      return undefined;
  }
}
