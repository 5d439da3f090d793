// Every failureMemory.* setting, described once: its type, default and limits (SETTINGS_SCHEMA, held
// equal to package.json's contributes.configuration by a unit test). The extension reads the values
// from VS Code's configuration, the CLI, hooks and MCP from .vscode/settings.json: both through
// readConfig, so that a value means the same everywhere. A malformed value never stops anything:
// it is reported (problems) and its default used. Pure: callers pass a getter over their source.

import { validatePatterns } from './text/redact';
import { DEFAULT_SETTINGS, type EngineSettings, type GateAnswer } from './types';

export type BlockMode = 'interrupt' | 'warn' | 'off';

export const SECTION = 'failureMemory';

type Spec =
  | { readonly type: 'integer'; readonly default: number; readonly min: number; readonly max: number }
  | { readonly type: 'boolean'; readonly default: boolean }
  | { readonly type: 'string'; readonly default: string }
  | { readonly type: 'enum'; readonly default: string; readonly values: readonly string[] }
  | { readonly type: 'strings'; readonly default: readonly string[] };

/** Every key package.json contributes (under `failureMemory.`), with the one set of limits all readers use. */
export const SETTINGS_SCHEMA = {
  threshold: { type: 'integer', default: DEFAULT_SETTINGS.threshold, min: 1, max: 1000 },
  blockMode: { type: 'enum', default: 'interrupt', values: ['interrupt', 'warn', 'off'] },
  'gate.strongestAnswer': { type: 'enum', default: DEFAULT_SETTINGS.strongestAnswer, values: ['deny', 'ask', 'warn'] },
  shortTermWindow: { type: 'integer', default: DEFAULT_SETTINGS.window, min: 1, max: 100 },
  'capture.terminal': { type: 'boolean', default: true },
  'capture.tasks': { type: 'boolean', default: true },
  'terminal.gateAtEnter': { type: 'boolean', default: true },
  storeOutput: { type: 'boolean', default: DEFAULT_SETTINGS.storeOutput },
  maxOutputBytes: { type: 'integer', default: DEFAULT_SETTINGS.maxOutputBytes, min: 1024, max: 1024 * 1024 },
  'redaction.extraPatterns': { type: 'strings', default: [] },
  ignoreCommands: { type: 'strings', default: [] },
  'notifications.sameError': { type: 'boolean', default: true },
  'reflection.useLanguageModel': { type: 'boolean', default: false },
  'reflection.earlierReflections': { type: 'integer', default: 3, min: 1, max: 10 },
  'embeddings.modelPath': { type: 'string', default: '' },
  'embeddings.allowDownload': { type: 'boolean', default: true },
  'team.enabled': { type: 'boolean', default: false },
  'team.databaseUrl': { type: 'string', default: '' },
  'team.project': { type: 'string', default: '' },
  'team.shareOutput': { type: 'boolean', default: false },
  'team.blockOnTeamFailures': { type: 'boolean', default: false },
  'team.machineName': { type: 'string', default: '' },
  'team.pullIntervalSeconds': { type: 'integer', default: 60, min: 10, max: 3600 },
  'team.retentionDays': { type: 'integer', default: 90, min: 0, max: 3650 },
  'team.maxRowsPerProject': { type: 'integer', default: 100_000, min: 0, max: 100_000_000 },
} as const satisfies Record<string, Spec>;

export type SettingKey = keyof typeof SETTINGS_SCHEMA;

/** The value type a setting has once read. */
export type SettingValue<K extends SettingKey> = (typeof SETTINGS_SCHEMA)[K] extends { type: 'integer' }
  ? number
  : (typeof SETTINGS_SCHEMA)[K] extends { type: 'boolean' }
    ? boolean
    : (typeof SETTINGS_SCHEMA)[K] extends { type: 'strings' }
      ? string[]
      : string;

/** Reads one raw setting value by its key (undefined: not set). */
export type SettingGetter = (key: SettingKey) => unknown;

/** A raw value for a message: short, on one line (the caller escapes it where markup renders). */
function shown(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/**
 * One setting, validated against the schema: the value, or the default with a problem saying what
 * was wrong and what is used instead. Strings are trimmed; a list keeps its usable entries.
 */
export function readSetting<K extends SettingKey>(get: SettingGetter, key: K, problems: string[]): SettingValue<K> {
  const spec: Spec = SETTINGS_SCHEMA[key];
  const v = get(key);
  const name = `${SECTION}.${key}`;
  if (v === undefined || v === null) return (spec.type === 'strings' ? [...spec.default] : spec.default) as SettingValue<K>;
  const fail = (want: string): SettingValue<K> => {
    problems.push(`${name} must be ${want}, not ${shown(v)}; using ${shown(spec.default)}.`);
    return (spec.type === 'strings' ? [...spec.default] : spec.default) as SettingValue<K>;
  };
  switch (spec.type) {
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v) || v < spec.min || v > spec.max) return fail(`a number from ${spec.min} to ${spec.max}`);
      return Math.floor(v) as SettingValue<K>;
    case 'boolean':
      return (typeof v === 'boolean' ? v : fail('true or false')) as SettingValue<K>;
    case 'string':
      return (typeof v === 'string' ? v.trim() : fail('a string')) as SettingValue<K>;
    case 'enum':
      return (typeof v === 'string' && spec.values.includes(v) ? v : fail(`one of ${spec.values.join(', ')}`)) as SettingValue<K>;
    case 'strings': {
      if (!Array.isArray(v)) return fail('a list of strings');
      if (v.some(x => typeof x !== 'string')) problems.push(`${name}: entries that are not strings are ignored.`);
      return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') as SettingValue<K>;
    }
  }
}

export interface ExtensionConfig {
  threshold: number;
  blockMode: BlockMode;
  strongestAnswer: GateAnswer;
  shortTermWindow: number;
  captureTerminal: boolean;
  captureTasks: boolean;
  /** Check each line of VS Code's terminal when Enter is pressed (bash, zsh, fish; PowerShell through its profile). */
  gateAtEnter: boolean;
  storeOutput: boolean;
  maxOutputBytes: number;
  extraRedactionPatterns: string[];
  ignoreCommands: string[];
  notifySameError: boolean;
  useLanguageModel: boolean;
  omega: number;
  modelPath: string;
  allowModelDownload: boolean;
}

/**
 * Settings a workspace may not set while it is not trusted (Restricted Mode): a cloned repository's
 * .vscode/settings.json must not choose what is redacted. Also declared as `restrictedConfigurations`
 * in package.json; read here from the user's own settings only, whatever VS Code version applies it.
 */
export const RESTRICTED_SETTINGS: readonly SettingKey[] = ['redaction.extraPatterns'];

/** Reads and validates every non-team setting; `problems` lists what was wrong and what is used instead. */
export function readConfig(get: SettingGetter): { config: ExtensionConfig; problems: string[] } {
  const problems: string[] = [];
  const read = <K extends SettingKey>(k: K) => readSetting(get, k, problems);
  // a pattern the redactor cannot compile is dropped (named in the problem), never the whole list
  const patterns = validatePatterns(read('redaction.extraPatterns'));
  const config: ExtensionConfig = {
    threshold: read('threshold'),
    blockMode: read('blockMode') as BlockMode,
    strongestAnswer: read('gate.strongestAnswer') as GateAnswer,
    shortTermWindow: read('shortTermWindow'),
    captureTerminal: read('capture.terminal'),
    captureTasks: read('capture.tasks'),
    gateAtEnter: read('terminal.gateAtEnter'),
    storeOutput: read('storeOutput'),
    maxOutputBytes: read('maxOutputBytes'),
    extraRedactionPatterns: patterns.valid,
    ignoreCommands: read('ignoreCommands'),
    notifySameError: read('notifications.sameError'),
    useLanguageModel: read('reflection.useLanguageModel'),
    omega: read('reflection.earlierReflections'),
    modelPath: read('embeddings.modelPath'),
    allowModelDownload: read('embeddings.allowDownload'),
  };
  for (const e of patterns.errors) problems.push(`${SECTION}.redaction.extraPatterns: ${e} (ignored).`);
  return { config, problems };
}

/** What the engine takes from the configuration. */
export function engineSettings(c: ExtensionConfig): Partial<EngineSettings> {
  return {
    threshold: c.threshold,
    window: c.shortTermWindow,
    maxOutputBytes: c.maxOutputBytes,
    storeOutput: c.storeOutput,
    extraRedactionPatterns: c.extraRedactionPatterns,
    strongestAnswer: c.strongestAnswer,
  };
}

/** Engine settings complete: the given ones over the defaults (undefined values do not override). */
export function mergeSettings(s: Partial<EngineSettings> = {}): EngineSettings {
  return {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)),
    limits: { ...DEFAULT_SETTINGS.limits, ...(s.limits ?? {}) },
  } as EngineSettings;
}

/** deny, ask or warn; undefined for anything else. */
export function parseGateAnswer(v: unknown): GateAnswer | undefined {
  return v === 'deny' || v === 'ask' || v === 'warn' ? v : undefined;
}
