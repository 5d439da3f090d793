// Reads failureMemory.* from <workspace>/.vscode/settings.json, so that the CLI, the hooks and MCP
// use the settings the editor uses. The file is JSONC (comments, trailing commas), parsed with
// jsonc-parser as VS Code itself parses it: tolerant, a syntax error reported and the rest used.
// Validation is core/config.ts's (one schema, one set of limits, whoever reads).

import { join } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { SECTION, type SettingGetter } from '../core/config';
import { NotRegularFile, readRegularSync } from './regularFile';

export const SETTINGS_FILE = '.vscode/settings.json';

export interface SettingsFile {
  /** A raw value by its key under `failureMemory.` (undefined: not set). */
  get: SettingGetter;
  /** What is wrong with the file itself (unreadable, a syntax error); each value is validated by the reader. */
  problems: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The value at a dotted key, written flat (`"failureMemory.team.enabled"`) or nested at any dot
 * (`"failureMemory": { "team": { "enabled": … } }`); own properties only, so `__proto__` and
 * `constructor` are never read through.
 */
export function lookupSetting(obj: Record<string, unknown>, parts: readonly string[]): unknown {
  for (let i = parts.length; i >= 1; i--) {
    const name = parts.slice(0, i).join('.');
    if (!Object.prototype.hasOwnProperty.call(obj, name)) continue;
    const v = obj[name];
    if (i === parts.length) return v;
    if (isObject(v)) {
      const inner = lookupSetting(v, parts.slice(i));
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * settings.json as a person changes it: its settings without Failure Memory's own (`failureMemory.*`,
 * flat or nested), in one canonical form — so that a change of only those (the threshold, the gate)
 * or of the file's comments and layout is no change of the workspace, never "what fixed it". Text
 * that does not parse as an object is given back as it is.
 */
export function settingsWithoutOwnKeys(text: string): string {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, allowEmptyContent: true, disallowComments: false });
  if (errors.length || !isObject(value)) return text;
  const rest = Object.keys(value)
    .filter(k => k !== SECTION && !k.startsWith(`${SECTION}.`))
    .sort()
    .map(k => [k, value[k]]);
  return JSON.stringify(rest);
}

/** Line and column (1-based) of an offset, for a message a person can act on. */
function position(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return `line ${line}, column ${offset - last}`;
}

/** Parses settings.json text (JSONC); a syntax error is a problem and the values around it are still used. */
export function parseSettingsText(text: string, file = SETTINGS_FILE): SettingsFile {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, allowEmptyContent: true, disallowComments: false });
  const problems: string[] = [];
  if (errors.length) {
    const e = errors[0];
    problems.push(`${file}: ${printParseErrorCode(e.error)} at ${position(text, e.offset)}; the settings Failure Memory could read around it are used, the others keep their defaults.`);
  }
  if (value !== undefined && !isObject(value)) problems.push(`${file} is not a JSON object; Failure Memory uses its defaults.`);
  const root = isObject(value) ? value : {};
  return { get: key => lookupSetting(root, [SECTION, ...key.split('.')]), problems };
}

/** The workspace's settings file; missing: no settings and no problem. */
export function readSettingsFile(workspaceFolder: string): SettingsFile {
  let text: string;
  try {
    text = readRegularSync(join(workspaceFolder, SETTINGS_FILE), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { get: () => undefined, problems: [] };
    if (e instanceof NotRegularFile) return { get: () => undefined, problems: [`${SETTINGS_FILE} is ${e.kind}, not a file: not read; Failure Memory uses its defaults.`] };
    return { get: () => undefined, problems: [`${SETTINGS_FILE} cannot be read (${code ?? (e as Error).message}); Failure Memory uses its defaults.`] };
  }
  return parseSettingsText(text);
}
