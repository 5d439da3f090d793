// One typed mirror of every failureMemory.* setting, validated once per change.

import * as vscode from 'vscode';
import { validatePatterns } from '../core/redact';
import { DEFAULT_SETTINGS, type EngineSettings } from '../core/types';

export type BlockMode = 'interrupt' | 'warn' | 'off';

export interface ExtensionConfig {
  threshold: number;
  blockMode: BlockMode;
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

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/**
 * Settings a workspace may not set while it is not trusted (Restricted Mode): a cloned repository's
 * .vscode/settings.json must not choose what is redacted. Also declared as `restrictedConfigurations`
 * in package.json; read here from the user's own settings only, whatever VS Code version applies it.
 */
export const RESTRICTED_SETTINGS: readonly string[] = ['redaction.extraPatterns'];

/** One setting; in an untrusted workspace a restricted one comes from the user's settings only. */
export function readSetting(key: string): unknown {
  const c = vscode.workspace.getConfiguration(SECTION);
  if (!vscode.workspace.isTrusted && RESTRICTED_SETTINGS.includes(key)) return c.inspect(key)?.globalValue;
  return c.get(key);
}

/** Reads and sanitizes the configuration; `problems` lists what was wrong and what is used instead. */
export function readConfig(get: (key: string) => unknown = readSetting): {
  config: ExtensionConfig;
  problems: string[];
} {
  const problems: string[] = [];
  const mode = get('blockMode');
  const blockMode: BlockMode = mode === 'warn' || mode === 'off' || mode === 'interrupt' ? mode : 'interrupt';
  if (mode !== undefined && mode !== blockMode) problems.push(`${SECTION}.blockMode must be interrupt, warn or off; using interrupt.`);
  const patterns = validatePatterns(strings(get('redaction.extraPatterns')));
  for (const e of patterns.errors) problems.push(`${SECTION}.redaction.extraPatterns: ${e} (ignored).`);
  return {
    config: {
      threshold: int(get('threshold'), DEFAULT_SETTINGS.threshold, 1, 1000, 'threshold', problems),
      blockMode,
      shortTermWindow: int(get('shortTermWindow'), DEFAULT_SETTINGS.window, 1, 100, 'shortTermWindow', problems),
      captureTerminal: bool(get('capture.terminal'), true),
      captureTasks: bool(get('capture.tasks'), true),
      storeOutput: bool(get('storeOutput'), true),
      maxOutputBytes: int(get('maxOutputBytes'), DEFAULT_SETTINGS.maxOutputBytes, 1024, 1024 * 1024, 'maxOutputBytes', problems),
      extraRedactionPatterns: patterns.valid,
      ignoreCommands: strings(get('ignoreCommands')),
      notifySameError: bool(get('notifications.sameError'), true),
      useLanguageModel: bool(get('reflection.useLanguageModel'), false),
      omega: int(get('reflection.omega'), 3, 1, 10, 'reflection.omega', problems),
      modelPath: typeof get('embeddings.modelPath') === 'string' ? (get('embeddings.modelPath') as string).trim() : '',
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
  };
}
