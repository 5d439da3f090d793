// memory.index.json beside memory.json: where each approach's JSON starts and ends in memory.json,
// and the few fields of each approach that deciding for another one reads (see IndexHead). With it
// the hooks answer for one command by reading a few kilobytes of memory.json instead of parsing all
// of it. It is derived data, written after every full write of memory.json and naming the file it
// describes (inode, size, mtime): a reader that finds it missing, damaged or describing another
// memory.json reads memory.json whole, as before. Small on purpose: the hooks' gate loads it.

import type { Stats } from 'node:fs';
import { approachBytes } from '../core/memory';
import { gateHeadOf, type GateHead } from '../core/gateState';
import { dict, int, list, nullable, num, object, oneOf, str, tuple, type Shape } from '../core/shape';
import { gateHeadShape, journalStateOf } from '../core/storedShapes';
import type { Approach, JournalState, MemoryData } from '../core/types';

export const INDEX_FILE_NAME = 'memory.index.json';
const INDEX_FORMAT = 3;

/**
 * The lists of memory.json beside the approaches that a partial read loads whole: the learnings, the
 * edit events, starts and decisions the gate weighs (what changed since a failure, what started), and
 * the pattern records (bounded: the gate counts a cause across approaches without reading them).
 */
export const LISTS = ['learnings', 'edits', 'starts', 'decisions', 'patterns'] as const;
export type ListName = (typeof LISTS)[number];
export type ListSpans = Partial<Record<ListName, [start: number, length: number]>>;

/** Where an approach is in memory.json: key, byte span, and what it counts toward maxTotalBytes. */
export type IndexSpan = [key: string, start: number, length: number, bytes: number];

/**
 * What a reader deciding for other approaches reads of one it does not load whole (see quickView.ts):
 * the fields the gate, the deny reason and applying a run read of another approach. Positional, to
 * stay small; in the order of the spans.
 */
export type IndexHead = [
  label: string,
  command: string,
  cwd: string,
  status: Approach['status'],
  failures: number,
  updatedAt: string,
  lastFailure: string | null,
  lastErrorSignature: string,
  /** Only for exhausted approaches (the only ones another command's gate looks at). */
  streakErrors: string[] | null,
];
const indexHeadShape: Shape<IndexHead> = tuple(str, str, str, oneOf('active', 'exhausted', 'resolved'), num, str, nullable(str), str, nullable(list(str)));

/**
 * The index, two lines: the spans (all a writer needs to read one approach), then the heads (parsed
 * only by a reader that decides with the other approaches: headsOf).
 */
export interface MemoryIndex {
  format: number;
  /** The memory.json this describes. */
  file: { ino: number; size: number; mtimeMs: number };
  schemaVersion: number;
  journal?: JournalState;
  /** Byte spans of the lists in memory.json (a list memory.json has not got: absent). */
  lists: ListSpans;
  /**
   * Byte spans of the pattern records the gate can count (active and systemic): a gate's read parses
   * only these, not the whole list (the cause rule looks at nothing else of it). Absent: read the list.
   */
  gatePatterns?: Array<[start: number, length: number]>;
  /** In memory.json's order. */
  spans: IndexSpan[];
  /**
   * The exhausted approaches' failures and last failure (core/gateState.ts's heads): what a reader
   * compares with the gate's copy without making every head. Absent in an index of an older version.
   */
  gate?: GateHead[];
}

export interface SerializedMemory {
  /** Exactly JSON.stringify(data). */
  text: string;
  approaches: Array<[key: string, start: number, length: number]>;
  lists: ListSpans;
  /** The byte span of each pattern record, in the list's order. */
  patterns: Array<[start: number, length: number]>;
}

/**
 * JSON.stringify(data), built piece by piece to know the byte span of each approach and of the
 * lists beside them. Same text as JSON.stringify gives (a property whose value is undefined is left out).
 */
export function serializeMemory(data: MemoryData): SerializedMemory {
  const parts: string[] = [];
  let at = 0;
  const put = (s: string) => {
    parts.push(s);
    at += Buffer.byteLength(s, 'utf8');
  };
  const spans: SerializedMemory['approaches'] = [];
  const lists: ListSpans = {};
  const patterns: SerializedMemory['patterns'] = [];
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
    } else if (k === 'patterns' && Array.isArray(v)) {
      // each record's span too: the gate reads only those it can count
      put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      const start = at;
      put('[');
      v.forEach((p, i) => {
        const text = (JSON.stringify(p) as string | undefined) ?? 'null';
        if (i) put(',');
        patterns.push([at, Buffer.byteLength(text, 'utf8')]);
        put(text);
      });
      put(']');
      lists.patterns = [start, at - start];
    } else {
      const text = JSON.stringify(v) as string | undefined;
      if (text === undefined) continue;
      put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      if ((LISTS as readonly string[]).includes(k)) lists[k as ListName] = [at, Buffer.byteLength(text, 'utf8')];
      put(text);
    }
    first = false;
  }
  put('}');
  return { text: parts.join(''), approaches: spans, lists, patterns };
}

/** The index of `data` as written in memory.json (`written`: its serialization; `stat`: the file after the rename). */
export function indexText(data: MemoryData, written: SerializedMemory, stat: Stats): string {
  const spans: IndexSpan[] = [];
  const heads: IndexHead[] = [];
  const gate: GateHead[] = [];
  for (const [key, start, length] of written.approaches) {
    const a = data.approaches[key];
    spans.push([key, start, length, approachBytes(a)]);
    const streak = a.status === 'exhausted' && Array.isArray(a.streakErrors) ? a.streakErrors : null;
    heads.push([a.label, a.command, a.cwd, a.status, a.failures, a.updatedAt, a.lastFailure ?? null, a.lastErrorSignature, streak]);
    if (a.status === 'exhausted') gate.push(gateHeadOf(a));
  }
  const index: MemoryIndex = {
    format: INDEX_FORMAT,
    file: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs },
    schemaVersion: data.schemaVersion,
    ...(data.journal ? { journal: data.journal } : {}),
    lists: written.lists,
    gatePatterns: (data.patterns ?? []).flatMap((p, i) => (p && p.status === 'active' && p.systemic && written.patterns[i] ? [written.patterns[i]] : [])),
    spans,
    gate,
  };
  return `${JSON.stringify(index)}\n${JSON.stringify(heads)}\n`;
}

/**
 * An approach as a reader that did not load it whole sees it: its head's fields, nothing of its
 * own history (attempts, ledger, alternatives: empty, and never read of another approach).
 */
export function headOf(key: string, h: IndexHead): Approach {
  const a: Approach = {
    key,
    label: h[0],
    command: h[1],
    cwd: h[2],
    status: h[3] as Approach['status'],
    failures: h[4],
    totalAttempts: 0,
    updatedAt: h[5],
    lastErrorSignature: h[7],
    alternativesTried: [],
    learnedFacts: [],
    attempts: [],
    ledger: [],
  };
  if (h[6] !== null) a.lastFailure = h[6];
  if (h[8] !== null) a.streakErrors = h[8];
  return a;
}

/** Is `stat` the memory.json this index describes? */
export function describes(index: MemoryIndex, stat: Stats): boolean {
  return index.file.ino === stat.ino && index.file.size === stat.size && index.file.mtimeMs === stat.mtimeMs;
}

/** A parsed index, and its second line kept as text until headsOf needs it. */
export type ParsedIndex = MemoryIndex & { readonly headsText: string };

/** The index in `text` (its first line), or undefined when it is not one this version reads (any doubt: read memory.json whole). */
export function parseIndex(text: string): ParsedIndex | undefined {
  const nl = text.indexOf('\n');
  let v: unknown;
  try {
    v = JSON.parse(nl < 0 ? text : text.slice(0, nl));
  } catch {
    return undefined;
  }
  if (!indexShape(v)) return undefined;
  // every span inside the file it describes
  const size = v.file.size;
  if (!Object.entries(v.lists).every(([k, span]) => (LISTS as readonly string[]).includes(k) && spanWithin(span, size))) return undefined;
  if (!v.spans.every(e => spanWithin([e[1], e[2]], size))) return undefined;
  // an unreadable gate list is read as absent: the reader then looks at the heads themselves
  const { gate, journal, ...rest } = v as typeof v & { gate?: unknown; journal?: unknown };
  const state = journalStateOf(journal);
  return { ...rest, ...(state ? { journal: state } : {}), ...(gateHeadsShape(gate) ? { gate } : {}), headsText: nl < 0 ? '' : text.slice(nl + 1) };
}

/** The heads of an index (its second line), one per span; undefined when that line is not what it should be. */
export function headsOf(index: ParsedIndex): IndexHead[] | undefined {
  let v: unknown;
  try {
    v = JSON.parse(index.headsText);
  } catch {
    return undefined;
  }
  if (!Array.isArray(v) || v.length !== index.spans.length || !v.every(h => indexHeadShape(h))) return undefined;
  return v;
}

/** A byte span [start, length] inside a file of `size` bytes (an empty one is no JSON value: refused). */
export const spanWithin = (s: readonly [number, number], size: number): boolean => s[0] >= 0 && s[1] > 0 && s[0] + s[1] <= size;

const span = tuple(int, int);
/** The index's first line as this version writes it (its spans checked against the file's size after). */
const indexShape = object(
  { format: oneOf(INDEX_FORMAT), file: object({ ino: num, size: num, mtimeMs: num }), schemaVersion: num, lists: dict(span), spans: list(tuple(str, int, int, num)) },
  // memory's journal state and the gate's list are read apart (parseIndex): a wrong one is read as none
  { gatePatterns: list(span) },
);
const gateHeadsShape = list(gateHeadShape);

