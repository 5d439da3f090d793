// memory.index.json beside memory.json: where each approach's JSON starts and ends in memory.json,
// and the few fields of each approach that deciding for another one reads (see IndexEntry). With it
// the hooks answer for one command by reading a few kilobytes of memory.json instead of parsing all
// of it. It is derived data, written after every full write of memory.json and naming the file it
// describes (inode, size, mtime): a reader that finds it missing, damaged or describing another
// memory.json reads memory.json whole, as before. Small on purpose: the hooks' gate loads it.

import type { Stats } from 'node:fs';
import { approachBytes } from '../core/memory';
import type { Approach, JournalState, MemoryData } from '../core/types';

export const INDEX_FILE_NAME = 'memory.index.json';
const INDEX_FORMAT = 1;

/**
 * What a reader deciding for other approaches reads of an approach it does not load whole (see
 * quickView.ts): key, byte span in memory.json, its size toward maxTotalBytes, and the fields the
 * gate, the deny reason and applying a run read of another approach. Positional, to stay small.
 */
export type IndexEntry = [
  key: string,
  start: number,
  length: number,
  bytes: number,
  label: string,
  command: string,
  cwd: string,
  status: string,
  failures: number,
  updatedAt: string,
  lastFailure: string | null,
  lastErrorSignature: string,
  /** Only for exhausted approaches (the only ones another command's gate looks at). */
  streakErrors: string[] | null,
];

export interface MemoryIndex {
  format: number;
  /** The memory.json this describes. */
  file: { ino: number; size: number; mtimeMs: number };
  schemaVersion: number;
  journal?: JournalState;
  /** Byte span of the learnings list in memory.json. */
  learnings: [start: number, length: number] | null;
  /** In memory.json's order. */
  approaches: IndexEntry[];
}

export interface SerializedMemory {
  /** Exactly JSON.stringify(data). */
  text: string;
  approaches: Array<[key: string, start: number, length: number]>;
  learnings: [number, number] | null;
}

/**
 * JSON.stringify(data), built piece by piece to know the byte span of each approach and of the
 * learnings. Same text as JSON.stringify gives (a property whose value is undefined is left out).
 */
export function serializeMemory(data: MemoryData): SerializedMemory {
  const parts: string[] = [];
  let at = 0;
  const put = (s: string) => {
    parts.push(s);
    at += Buffer.byteLength(s, 'utf8');
  };
  const spans: SerializedMemory['approaches'] = [];
  let learnings: SerializedMemory['learnings'] = null;
  put('{');
  let first = true;
  for (const [k, v] of Object.entries(data)) {
    if (k === 'approaches' && v && typeof v === 'object' && !Array.isArray(v)) {
      put(`${first ? '' : ','}${JSON.stringify(k)}:{`);
      let firstApproach = true;
      for (const [key, a] of Object.entries(v as Record<string, Approach>)) {
        const text = JSON.stringify(a) as string | undefined;
        if (text === undefined) continue;
        put(`${firstApproach ? '' : ','}${JSON.stringify(key)}:`);
        spans.push([key, at, Buffer.byteLength(text, 'utf8')]);
        put(text);
        firstApproach = false;
      }
      put('}');
    } else {
      const text = JSON.stringify(v) as string | undefined;
      if (text === undefined) continue;
      put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      if (k === 'learnings') learnings = [at, Buffer.byteLength(text, 'utf8')];
      put(text);
    }
    first = false;
  }
  put('}');
  return { text: parts.join(''), approaches: spans, learnings };
}

/** The index of `data` as written in memory.json (`written`: its serialization; `stat`: the file after the rename). */
export function buildIndex(data: MemoryData, written: SerializedMemory, stat: Stats): MemoryIndex {
  const approaches = written.approaches.map(([key, start, length]): IndexEntry => {
    const a = data.approaches[key];
    const streak = a.status === 'exhausted' && Array.isArray(a.streakErrors) ? a.streakErrors : null;
    return [key, start, length, approachBytes(a), a.label, a.command, a.cwd, a.status, a.failures, a.updatedAt, a.lastFailure ?? null, a.lastErrorSignature, streak];
  });
  return {
    format: INDEX_FORMAT,
    file: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs },
    schemaVersion: data.schemaVersion,
    ...(data.journal ? { journal: data.journal } : {}),
    learnings: written.learnings,
    approaches,
  };
}

/**
 * An approach as a reader that did not load it whole sees it: its entry's fields, nothing of its
 * own history (attempts, ledger, alternatives: empty, and never read of another approach).
 */
export function headOf(e: IndexEntry): Approach {
  const a: Approach = {
    key: e[0],
    label: e[4],
    command: e[5],
    cwd: e[6],
    status: e[7] as Approach['status'],
    failures: e[8],
    totalAttempts: 0,
    updatedAt: e[9],
    lastErrorSignature: e[11],
    alternativesTried: [],
    learnedFacts: [],
    attempts: [],
    ledger: [],
  };
  if (e[10] !== null) a.lastFailure = e[10];
  if (e[12] !== null) a.streakErrors = e[12];
  return a;
}

/** Is `stat` the memory.json this index describes? */
export function describes(index: MemoryIndex, stat: Stats): boolean {
  return index.file.ino === stat.ino && index.file.size === stat.size && index.file.mtimeMs === stat.mtimeMs;
}

/** The index in `text`, or undefined when it is not one this version reads (any doubt: read memory.json whole). */
export function parseIndex(text: string): MemoryIndex | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(v) || v.format !== INDEX_FORMAT || !isObject(v.file) || typeof v.schemaVersion !== 'number' || !Array.isArray(v.approaches)) return undefined;
  const { ino, size, mtimeMs } = v.file;
  if (typeof ino !== 'number' || typeof size !== 'number' || typeof mtimeMs !== 'number') return undefined;
  if (!(v.learnings === null || isSpan(v.learnings, size))) return undefined;
  for (const e of v.approaches) if (!isEntry(e, size)) return undefined;
  return v as unknown as MemoryIndex;
}

function isEntry(e: unknown, size: number): e is IndexEntry {
  return (
    Array.isArray(e) && e.length === 13 && typeof e[0] === 'string' && isSpan([e[1], e[2]], size) && typeof e[3] === 'number' &&
    typeof e[4] === 'string' && typeof e[5] === 'string' && typeof e[6] === 'string' && STATUSES.has(e[7]) && typeof e[8] === 'number' &&
    typeof e[9] === 'string' && (e[10] === null || typeof e[10] === 'string') && typeof e[11] === 'string' &&
    (e[12] === null || (Array.isArray(e[12]) && e[12].every(x => typeof x === 'string')))
  );
}

const STATUSES = new Set<unknown>(['active', 'exhausted', 'resolved']);

function isSpan(s: unknown, size: number): boolean {
  return Array.isArray(s) && Number.isInteger(s[0]) && Number.isInteger(s[1]) && s[0] >= 0 && s[1] >= 0 && s[0] + s[1] <= size;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
