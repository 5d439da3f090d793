// The pre hook as the witness of the user's files: Failure Memory's memory folder, its settings and
// its hook entries are refused to an agent's shell commands (core/rules/selfProtection.ts reads the line)
// and to its edit tools (Write, Edit, apply_patch, write_file, replace_in_file, …), read here from
// the payload of every harness in one pass, so no adapter needs to know about it.

import { realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { gateConfigRefusal, memoryRefusal, ownCodeRefusal, relation, settingsRefusal, type Protected, type Refusal } from '../../core/rules/selfProtection';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { readRegularSync } from '../../store/regularFile';
import { targetFor } from '../setup';
import { harnessFacts } from './harnessTable';
import { HARNESS_IDS } from './types';
import { gitWouldChange } from './gitTree';

const slash = (p: string) => p.replace(/\\/g, '/');
/** Our pre hook's command, as setup-agents writes it into a harness's configuration. */
const OUR_PRE_HOOK = /failure-memory[^\n]{0,400}\bhook \w+ pre\b/;
const read = (file: string): string | undefined => {
  try {
    return readRegularSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** The harness configuration files of a workspace, relative ('/'-separated). */
function configFiles(): string[] {
  const files = new Set<string>();
  for (const h of HARNESS_IDS) {
    const t = targetFor(h);
    if (t.kind === 'json') files.add(t.file);
    else for (const f of Object.keys(t.files)) files.add(f);
  }
  files.add('.claude/settings.local.json');
  return [...files];
}

/** Harness configurations outside the workspace that can hold hooks or switch them all off, relative to the home folder. */
const USER_CONFIGS = HARNESS_IDS.flatMap(h => harnessFacts(h).userConfigs);
/** …and in the workspace, besides the files setup-agents writes. */
const MORE_WORKSPACE_CONFIGS = ['.claude/settings.local.json', '.codex/config.toml', '.clinerules/hooks', '.github/hooks'];
/** Where Claude Code reads its managed settings (they too can switch hooks off). */
const MANAGED = ['/etc/claude-code/managed-settings.json', '/Library/Application Support/ClaudeCode/managed-settings.json'];

export interface ProtectOptions {
  /** The user's home ('/'-separated). */
  home?: string;
  /** The folder of the code the hooks run (dist/), protected like the launcher. */
  dist?: string;
}

/** The files an agent may not change in this workspace; their contents are read only when asked. */
export function protectedFor(workspace: string, opts: ProtectOptions = {}): Protected {
  const ws = slash(workspace);
  const settingsFile = join(workspace, '.vscode', 'settings.json');
  const home = opts.home ? slash(opts.home) : undefined;
  let gated: boolean | undefined;
  return {
    memoryDir: `${ws}/.vscode/failure-memory`,
    settings: `${ws}/.vscode/settings.json`,
    settingsHaveOurs: () => /"failureMemory[."]/.test(read(settingsFile) ?? ''),
    gateConfigs: near => configFiles().filter(f => (!near || near(`${ws}/${f}`)) && OUR_PRE_HOOK.test(read(join(workspace, f)) ?? '')).map(f => `${ws}/${f}`),
    ownDirs: [...(home ? [`${home}/.failure-memory`] : []), ...(opts.dist ? [slash(opts.dist)] : [])],
    harnessConfigs: [
      ...new Set([...configFiles(), ...MORE_WORKSPACE_CONFIGS].map(f => `${ws}/${f}`)),
      ...(home ? USER_CONFIGS.map(f => `${home}/${f}`) : []),
      ...MANAGED,
    ],
    gatesSetUp: () => (gated ??= agentGatesSetUp(workspace)),
    settingsBroken: () => {
      const text = read(settingsFile);
      if (text === undefined) return false;
      const errors: ParseError[] = [];
      parseJsonc(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, allowEmptyContent: true });
      return errors.length > 0;
    },
    fileText: boundedText,
    gitChanges: gitWouldChange,
    realPath: linkedPath,
  };
}

const MAX_READ = 8 * 1024 * 1024;

/** A path with the links of its longest existing part resolved (the rest, and everything from a glob on, kept as written). */
function linkedPath(path: string): string {
  const glob = path.search(/[*?[$`]/);
  const cut = glob < 0 ? path.length : path.lastIndexOf('/', glob);
  if (cut <= 0) return path;
  let head = path.slice(0, cut);
  let tail = path.slice(cut);
  for (let k = 0; k < 64 && head.length > 1; k++) {
    try {
      return slash(realpathSync.native(head)) + tail;
    } catch {
      const cut = head.lastIndexOf('/');
      if (cut <= 0) return path;
      tail = head.slice(cut) + tail;
      head = head.slice(0, cut);
    }
  }
  return path;
}

/**
 * A file's text for the gate (a script it would run, an archive it would unpack: gzip is opened, a
 * tar's or a zip's names are plain in its bytes); only a regular file (never a FIFO that would
 * block), bounded; undefined when it cannot be read.
 */
function boundedText(file: string): string | undefined {
  try {
    let bytes = readRegularSync(file, undefined, { maxBytes: MAX_READ });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a gzip archive (it costs every hook call otherwise)
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = (require('node:zlib') as typeof import('node:zlib')).gunzipSync(bytes, { maxOutputLength: 4 * MAX_READ });
    return bytes.toString('latin1');
  } catch {
    return undefined;
  }
}

/** Are agent gates set up in this workspace (a harness configuration holds our pre hook)? */
export function agentGatesSetUp(workspace: string): boolean {
  return protectedFor(workspace).gateConfigs().length > 0;
}

/** What a non-shell tool call would write: the files it names, its texts, and its edit when it can be replayed. */
export interface EditCall {
  tool: string;
  paths: string[];
  /** The strings of its input (new content, old and new strings, a patch), bounded. */
  texts: string[];
  /** The whole new content (a Write / create tool). */
  content?: string;
  /** Replacements it makes (Edit, replace, str_replace…), in order. */
  pairs: Array<{ old: string; new: string; all: boolean }>;
}

const WRITE_TOOL = /write|edit|replace|create|patch|insert|delete|remove|move|rename|notebook|str_replace|save|append/i;
const READ_TOOL = /^(?:read|view|list|search|grep|glob|find|get|fetch|ls|cat)|_(?:read|view|list|search)$/i;
const PATH_KEY = /^(?:file_?path|filepath|path|paths|files|notebook_?path|target_?file|absolute_?path|file|filename|dir_?path|destination|new_?path|old_?path|source)$/i;
const WHOLE_KEY = /^(?:content|contents|file_?text|code)$/i;
const OLD_KEY = /^old_?str(?:ing)?$/i;
const NEW_KEY = /^new_?str(?:ing)?$/i;
const PATCH_PATH = /^(?:\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|\+\+\+ b\/|--- a\/) *([^\s][^\n]*)$/gm;
const MAX_TEXT = 1024 * 1024;

const objectOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** The tool input of a pre payload, in every harness's shape (tool_input, toolArgs as JSON text, Cline's parameters, Windsurf's tool_info). */
function toolInput(payload: Record<string, unknown>): Record<string, unknown> | undefined {
  const cline = objectOf(payload.preToolUse);
  const direct = objectOf(payload.tool_input) ?? objectOf(cline?.parameters) ?? objectOf(payload.tool_info) ?? objectOf(payload.toolArgs);
  if (direct || typeof payload.toolArgs !== 'string') return direct;
  try {
    return objectOf(JSON.parse(payload.toolArgs));
  } catch {
    return undefined;
  }
}

/** The tool call of a pre payload when it edits files; undefined for shell commands, reads and everything else. */
export function editCall(payload: Record<string, unknown>): EditCall | undefined {
  const cline = objectOf(payload.preToolUse);
  const tool = String(payload.tool_name ?? payload.toolName ?? cline?.toolName ?? payload.agent_action_name ?? '');
  const input = toolInput(payload);
  if (!tool || !input || !WRITE_TOOL.test(tool) || READ_TOOL.test(tool)) return undefined;
  const call: EditCall = { tool, paths: [], texts: [], pairs: [] };
  let size = 0;
  const visit = (v: unknown, key: string, depth: number): void => {
    if (typeof v === 'string') {
      if (PATH_KEY.test(key)) call.paths.push(v);
      if (WHOLE_KEY.test(key) && call.content === undefined) call.content = v;
      if (size < MAX_TEXT) {
        call.texts.push(v.slice(0, MAX_TEXT - size));
        size += v.length;
      }
      for (const m of v.slice(0, MAX_TEXT).matchAll(PATCH_PATH)) call.paths.push(m[1].trim());
      return;
    }
    const o = objectOf(v);
    if (o) {
      const oldKey = Object.keys(o).find(k => OLD_KEY.test(k));
      const newKey = Object.keys(o).find(k => NEW_KEY.test(k));
      if (oldKey && newKey && typeof o[oldKey] === 'string' && typeof o[newKey] === 'string') {
        call.pairs.push({ old: o[oldKey] as string, new: o[newKey] as string, all: o.replace_all === true || o.replaceAll === true });
      }
    }
    if (depth < 4 && v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, 256)) visit(x, Array.isArray(v) ? key : k, depth + 1);
    }
  };
  visit(input, '', 0);
  return call.paths.length ? call : undefined;
}

/** The file as the edit would leave it; undefined when the edit cannot be replayed here (a patch, an unknown shape). */
function afterEdit(call: EditCall, before: string): string | undefined {
  if (call.content !== undefined && !call.pairs.length) return call.content;
  if (!call.pairs.length) return undefined;
  let text = before;
  for (const p of call.pairs) {
    if (!p.old || !text.includes(p.old)) return undefined;
    text = p.all ? text.split(p.old).join(p.new) : text.replace(p.old, () => p.new);
  }
  return text;
}

/** The failureMemory.* values of a settings.json text (flat or nested), as one comparable string; undefined when it is not JSON(C). */
function ourSettings(text: string): string | undefined {
  const errors: ParseError[] = [];
  const parsed: unknown = parseJsonc(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length) return undefined;
  const v = objectOf(parsed) ?? {};
  const ours = Object.entries(v).filter(([k]) => k === 'failureMemory' || k.startsWith('failureMemory.')).sort(([x], [y]) => (x < y ? -1 : 1));
  return JSON.stringify(ours);
}

const hookCount = (text: string) => (text.match(/failure-memory[^\n]{0,400}\bhook \w+ (?:pre|post|session-start|prompt)\b/g) ?? []).length;

/** Why an edit tool may not make this change, or undefined. `cwd` is absolute (relative paths start there). */
export function editRefusal(call: EditCall, cwd: string, prot: Protected): Refusal | undefined {
  const abs = [...new Set(call.paths.map(p => slash(isAbsolute(p) ? resolve(p) : resolve(cwd, p))))];
  const mentions = (re: RegExp) => call.texts.some(t => re.test(t));
  for (const p of abs) {
    if (relation(p, prot.memoryDir)) return memoryRefusal('edit');
    if (relation(p, prot.settings) === 'same') {
      const before = read(p) ?? '';
      const was = ourSettings(before) ?? '[]';
      const next = afterEdit(call, before);
      // an edit we cannot replay is judged by what it names; one we can, by what it changes
      const changed = next === undefined ? mentions(/failureMemory/i) || (was !== '[]' && !!call.content) : ourSettings(next) !== was && (was !== '[]' || /failureMemory/i.test(next));
      if (changed) return settingsRefusal();
    } else if (relation(p, prot.settings)) return settingsRefusal();
  }
  const own = abs.find(p => (prot.ownDirs ?? []).some(d => relation(p, d) === 'same' || relation(p, d) === 'inside'));
  if (own) return ownCodeRefusal(own);
  const configs = prot.gateConfigs(c => abs.some(p => relation(p, c)));
  const anyConfig = (p: string) => (prot.harnessConfigs ?? []).find(c => relation(p, c) === 'same' || relation(p, c) === 'inside');
  for (const p of abs) {
    const config = configs.find(c => relation(p, c)) ?? (anyConfig(p) && prot.gatesSetUp?.() ? anyConfig(p) : undefined);
    if (!config) continue;
    const before = read(p) ?? '';
    const next = afterEdit(call, before);
    // fewer of our hook commands after the edit, or a switch that turns hooks off or points them elsewhere
    if (next === undefined ? mentions(/failure-memory|disableAllHooks|FAILURE_MEMORY_/i) : weakens(before, next)) return gateConfigRefusal(config);
  }
  return undefined;
}

/** A harness configuration after an edit runs fewer of our hooks, switches hooks off, or overrides our launcher. */
function weakens(before: string, next: string): boolean {
  const switches = (t: string) => (t.match(/"disableAllHooks"\s*:\s*true|FAILURE_MEMORY_(?:BIN|CACHE_DIR)|codex_hooks\s*=\s*false|"hooks"\s*:\s*\{\s*"enabled"\s*:\s*false/gi) ?? []).length;
  return hookCount(next) < hookCount(before) || switches(next) > switches(before);
}
