// Every failureMemory.* setting is declared once, in package.json's contributes.configuration: its
// type, default, limits and description. ./settingsDeclared.ts mirrors what reading needs of it
// (scripts/gen-settings.mjs writes it), and everything here derives from that: a setting keeps its
// declared name everywhere (`failureMemory.capture.terminal` is `settings['capture.terminal']`), and
// a new one is its declaration plus its use. The extension reads the values from VS Code's
// configuration, the CLI, hooks and MCP from .vscode/settings.json: both through readConfig, so that
// a value means the same everywhere. A malformed value never stops anything: it is reported
// (problems) and its default used. Pure: callers pass a getter over their source.

import { DECLARED_SETTINGS } from './settingsDeclared';
import { validatePatterns } from './text/redact';
import type { EngineSettings, MemoryLimits } from './types';

export const SECTION = 'failureMemory';

type Declared = typeof DECLARED_SETTINGS;
/** Every key package.json declares (under `failureMemory.`). */
export type SettingKey = keyof Declared;
type Spec = Declared[SettingKey];

/** The value type a setting has once read: its enum's values, a number, a boolean, a list of strings or a string. */
export type SettingValue<K extends SettingKey> = Declared[K] extends { enum: readonly (infer E)[] }
  ? E
  : Declared[K] extends { type: 'integer' }
    ? number
    : Declared[K] extends { type: 'boolean' }
      ? boolean
      : Declared[K] extends { type: 'array' }
        ? string[]
        : string;

/** The team's settings: read by store/team/config.ts, with the environment's overrides and a password check. */
type TeamKey = Extract<SettingKey, `team.${string}`>;

/** Every setting but the team's, by its declared name. */
export type Settings = { [K in Exclude<SettingKey, TeamKey>]: SettingValue<K> };

export type BlockMode = Settings['blockMode'];

const KEYS = (Object.keys(DECLARED_SETTINGS) as SettingKey[]).filter((k): k is Exclude<SettingKey, TeamKey> => !k.startsWith('team.'));

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
 * One setting, validated against its declaration: the value, or the default with a problem saying what
 * was wrong and what is used instead. Strings are trimmed; a list keeps its usable entries.
 */
export function readSetting<K extends SettingKey>(get: SettingGetter, key: K, problems: string[]): SettingValue<K> {
  const spec: Spec = DECLARED_SETTINGS[key];
  const v = get(key);
  const name = `${SECTION}.${key}`;
  const fallback = () => (Array.isArray(spec.default) ? [...spec.default] : spec.default) as SettingValue<K>;
  if (v === undefined || v === null) return fallback();
  const fail = (want: string): SettingValue<K> => {
    problems.push(`${name} must be ${want}, not ${shown(v)}; using ${shown(spec.default)}.`);
    return fallback();
  };
  switch (spec.type) {
    case 'integer': {
      const [min, max] = ['minimum' in spec ? spec.minimum : -Infinity, 'maximum' in spec ? spec.maximum : Infinity];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) return fail(`a number from ${min} to ${max}`);
      return Math.floor(v) as SettingValue<K>;
    }
    case 'boolean':
      return (typeof v === 'boolean' ? v : fail('true or false')) as SettingValue<K>;
    case 'string':
      if ('enum' in spec) return (typeof v === 'string' && (spec.enum as readonly string[]).includes(v) ? v : fail(`one of ${spec.enum.join(', ')}`)) as SettingValue<K>;
      return (typeof v === 'string' ? v.trim() : fail('a string')) as SettingValue<K>;
    case 'array': {
      if (!Array.isArray(v)) return fail('a list of strings');
      if (v.some(x => typeof x !== 'string')) problems.push(`${name}: entries that are not strings are ignored.`);
      return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') as SettingValue<K>;
    }
  }
}

/**
 * Settings a workspace may not set while it is not trusted (Restricted Mode): a cloned repository's
 * .vscode/settings.json must not choose what is redacted. Also declared as `restrictedConfigurations`
 * in package.json; read here from the user's own settings only, whatever VS Code version applies it.
 */
export const RESTRICTED_SETTINGS: readonly SettingKey[] = ['redaction.extraPatterns'];

/** Reads and validates every setting but the team's; `problems` lists what was wrong and what is used instead. */
export function readConfig(get: SettingGetter): { config: Settings; problems: string[] } {
  const problems: string[] = [];
  const read = Object.fromEntries(KEYS.map(k => [k, readSetting(get, k, problems)])) as unknown as Settings;
  // a pattern the redactor cannot compile is dropped (named in the problem), never the whole list
  const patterns = validatePatterns(read['redaction.extraPatterns']);
  for (const e of patterns.errors) problems.push(`${SECTION}.redaction.extraPatterns: ${e} (ignored).`);
  return { config: { ...read, 'redaction.extraPatterns': patterns.valid }, problems };
}

/** Caps per workspace: the engine's own, not settings (the oldest resolved approaches are evicted first). */
const LIMITS: MemoryLimits = { maxApproaches: 500, maxTotalBytes: 8 * 1024 * 1024, maxReflections: 200, maxLearnings: 1000 };

/** What the engine runs with when nothing is set: every setting's declared default, and the caps. */
export const DEFAULT_SETTINGS: EngineSettings = { ...readConfig(() => undefined).config, limits: LIMITS };

/** Engine settings complete: the given ones over the defaults (undefined values do not override). */
export function mergeSettings(s: Partial<EngineSettings> = {}): EngineSettings {
  return {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)),
    limits: { ...DEFAULT_SETTINGS.limits, ...(s.limits ?? {}) },
  } as EngineSettings;
}
