// One typed mirror of every failureMemory.* setting, validated once per change. Pure: the host
// passes a getter over vscode.workspace.getConfiguration, the tests a plain object.

import { validatePatterns } from './redact';
import { DEFAULT_SETTINGS, type EngineSettings, type GateAnswer } from './types';

export type BlockMode = 'interrupt' | 'warn' | 'off';

export interface ExtensionConfig {
  threshold: number;
  blockMode: BlockMode;
  strongestAnswer: GateAnswer;
  shortTermWindow: number;
  captureTerminal: boolean;
  captureTasks: boolean;
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

export const SECTION = 'failureMemory';

/** The settings as package.json declares them (keys under `failureMemory.`), with their raw types. */
export interface RawSettings {
  threshold: number;
  blockMode: BlockMode;
  'gate.strongestAnswer': GateAnswer;
  shortTermWindow: number;
  'capture.terminal': boolean;
  'capture.tasks': boolean;
  storeOutput: boolean;
  maxOutputBytes: number;
  'redaction.extraPatterns': string[];
  ignoreCommands: string[];
  'notifications.sameError': boolean;
  'reflection.useLanguageModel': boolean;
  'reflection.earlierReflections': number;
  'embeddings.modelPath': string;
  'embeddings.allowDownload': boolean;
}

/** Every key package.json contributes; a unit test checks both lists agree. */
export const SETTING_KEYS = [
  'threshold',
  'blockMode',
  'gate.strongestAnswer',
  'shortTermWindow',
  'capture.terminal',
  'capture.tasks',
  'storeOutput',
  'maxOutputBytes',
  'redaction.extraPatterns',
  'ignoreCommands',
  'notifications.sameError',
  'reflection.useLanguageModel',
  'reflection.earlierReflections',
  'embeddings.modelPath',
  'embeddings.allowDownload',
] as const satisfies ReadonlyArray<keyof RawSettings>;

/** Reads one setting by its key; the key must be one package.json declares. */
export type SettingGetter = (key: keyof RawSettings) => unknown;

function int(v: unknown, def: number, min: number, max: number, name: string, problems: string[]): number {
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    problems.push(`${SECTION}.${name} must be a number from ${min} to ${max}; using ${def}.`);
    return def;
  }
  return Math.floor(v);
}

function bool(v: unknown, def: boolean): boolean {
  return typeof v === 'boolean' ? v : def;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/**
 * Settings a workspace may not set while it is not trusted (Restricted Mode): a cloned repository's
 * .vscode/settings.json must not choose what is redacted. Also declared as `restrictedConfigurations`
 * in package.json; read here from the user's own settings only, whatever VS Code version applies it.
 */
export const RESTRICTED_SETTINGS: readonly string[] = ['redaction.extraPatterns'];

/** Reads and sanitizes the configuration; `problems` lists what was wrong and what is used instead. */
export function readConfig(get: SettingGetter): {
  config: ExtensionConfig;
  problems: string[];
} {
  const problems: string[] = [];
  const mode = get('blockMode');
  const blockMode: BlockMode = mode === 'warn' || mode === 'off' || mode === 'interrupt' ? mode : 'interrupt';
  if (mode !== undefined && mode !== blockMode) problems.push(`${SECTION}.blockMode must be interrupt, warn or off; using interrupt.`);
  const answer = get('gate.strongestAnswer');
  const strongestAnswer = parseGateAnswer(answer) ?? DEFAULT_SETTINGS.strongestAnswer;
  if (answer !== undefined && answer !== strongestAnswer) problems.push(`${SECTION}.gate.strongestAnswer must be deny, ask or warn; using ${DEFAULT_SETTINGS.strongestAnswer}.`);
  const patterns = validatePatterns(strings(get('redaction.extraPatterns')));
  for (const e of patterns.errors) problems.push(`${SECTION}.redaction.extraPatterns: ${e} (ignored).`);
  return {
    config: {
      threshold: int(get('threshold'), DEFAULT_SETTINGS.threshold, 1, 1000, 'threshold', problems),
      blockMode,
      strongestAnswer,
      shortTermWindow: int(get('shortTermWindow'), DEFAULT_SETTINGS.window, 1, 100, 'shortTermWindow', problems),
      captureTerminal: bool(get('capture.terminal'), true),
      captureTasks: bool(get('capture.tasks'), true),
      storeOutput: bool(get('storeOutput'), true),
      maxOutputBytes: int(get('maxOutputBytes'), DEFAULT_SETTINGS.maxOutputBytes, 1024, 1024 * 1024, 'maxOutputBytes', problems),
      extraRedactionPatterns: patterns.valid,
      ignoreCommands: strings(get('ignoreCommands')),
      notifySameError: bool(get('notifications.sameError'), true),
      useLanguageModel: bool(get('reflection.useLanguageModel'), false),
      omega: int(get('reflection.earlierReflections'), 3, 1, 10, 'reflection.earlierReflections', problems),
      modelPath: str(get('embeddings.modelPath')),
      allowModelDownload: bool(get('embeddings.allowDownload'), true),
    },
    problems,
  };
}

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

/** deny, ask or warn; undefined for anything else. */
export function parseGateAnswer(v: unknown): GateAnswer | undefined {
  return v === 'deny' || v === 'ask' || v === 'warn' ? v : undefined;
}
