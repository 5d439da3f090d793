// Reads failureMemory.* from <workspace>/.vscode/settings.json so the CLI and an agent's hook
// block at the same threshold the editor uses. settings.json is JSONC: comments and trailing commas.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGateAnswer } from '../core/config';
import type { EngineSettings } from '../core/types';

/** Removes // and /* comments and trailing commas, leaving strings intact. */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

const num = (v: unknown, min: number, max: number): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? Math.floor(v) : undefined;

/** The engine settings a workspace's settings.json sets; invalid values are ignored. */
export function readWorkspaceSettings(workspaceFolder: string): Partial<EngineSettings> {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(stripJsonc(readFileSync(join(workspaceFolder, '.vscode', 'settings.json'), 'utf8')));
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const get = (k: string) => raw[`failureMemory.${k}`] ?? (raw.failureMemory as Record<string, unknown> | undefined)?.[k];
  const extra = get('redaction.extraPatterns');
  return {
    threshold: num(get('threshold'), 1, 1000),
    window: num(get('shortTermWindow'), 1, 100),
    maxOutputBytes: num(get('maxOutputBytes'), 256, 16 * 1024 * 1024),
    storeOutput: typeof get('storeOutput') === 'boolean' ? (get('storeOutput') as boolean) : undefined,
    extraRedactionPatterns: Array.isArray(extra) ? extra.filter((x): x is string => typeof x === 'string') : undefined,
    strongestAnswer: parseGateAnswer(get('gate.strongestAnswer')),
  };
}
