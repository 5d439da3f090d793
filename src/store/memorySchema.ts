// The format of memory.json: its schema versions, the migrations between them, and the validation that
// turns parsed JSON into MemoryData (anything that is not memory is refused, never trusted).

import { seedPatterns } from '../core/rules/patternRecords';
import { isRecord, list, str } from '../core/shape';
import { approachOf, journalStateOf, listOf } from '../core/storedShapes';
import { SCHEMA_VERSION, type Approach, type MemoryData } from '../core/types';
import { CorruptMemoryError, StoreError } from './storeError';

export const MEMORY_FILE_NAME = 'memory.json';

type Doc = Record<string, unknown>;

/** migrations[v] turns a version-v document into a version v+1 document. */
const migrations: Record<number, (doc: Doc) => Doc> = {
  // v0: files written before schemaVersion existed; fields may be missing, normalize() fills them.
  0: doc => ({ ...doc, schemaVersion: 1 }),
  // v1 → v2: the run ledger (core/rules/ledger.ts). Each approach's ledger starts from the attempts of its
  // short-term window (passes included, no git state: that was not recorded before).
  1: doc => ({ ...doc, schemaVersion: 2, approaches: mapObject(doc.approaches, seedLedger) }),
  // v2 → v3: the workspace's edit events, the jobs and services started, and the gate's decisions (all
  // start empty: nothing of the kind was recorded before)
  2: doc => ({ ...doc, schemaVersion: 3, edits: [], starts: [], decisions: [] }),
  // v3 → v4: pattern records (one cause across approaches), seeded after validation from the
  // approaches' short-term windows (seedPatterns): a memory that already holds the runs knows their causes
  3: doc => ({ ...doc, schemaVersion: 4, patterns: [] }),
};

/** The first version that holds pattern records: an older memory gets them seeded from its runs. */
const PATTERNS_SINCE = 4;

function mapObject(v: unknown, fn: (a: Doc) => Doc): unknown {
  if (!isRecord(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, a]) => [k, isRecord(a) ? fn(a) : a]));
}

function seedLedger(a: Doc): Doc {
  if (a.ledger !== undefined || !Array.isArray(a.attempts)) return a;
  const ledger = a.attempts.filter(isRecord).map(t => {
    const run: Doc = { at: t.timestamp ?? t.endedAt ?? '', outcome: t.outcome, exitCode: t.exitCode ?? null, signature: t.errorSignature ?? '' };
    const tr = t.testResults;
    if (isRecord(tr) && [tr.passed, tr.failed, tr.total].every(n => typeof n === 'number')) run.tests = { passed: tr.passed, failed: tr.failed, total: tr.total };
    return run;
  });
  return { ...a, ledger };
}

/**
 * Turns parsed memory.json into MemoryData: applies migrations from the file's schemaVersion (missing
 * means 0) and fills missing fields with defaults. Does not modify `raw`. A file from a newer Failure
 * Memory throws StoreError('IO'); anything that is not memory (not an object, a field of the wrong
 * type) throws a plain Error, which the store treats as corrupt.
 */
export function migrateMemory(raw: unknown, file = MEMORY_FILE_NAME): MemoryData {
  if (!isRecord(raw)) throw new CorruptMemoryError(`the top level is ${describe(raw)}, not an object`);
  if (nestedDeeperThan(raw, MAX_DEPTH)) throw new CorruptMemoryError(`it is nested more than ${MAX_DEPTH} levels deep`);
  const version = raw.schemaVersion ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new CorruptMemoryError(`schemaVersion is ${describe(version)}`);
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError('IO', file, `${file} was written by a newer version of Failure Memory (schema version ${version}; this version understands up to ${SCHEMA_VERSION}). Update Failure Memory to use this memory; the file was left untouched.`);
  }
  let doc: Doc = raw;
  for (let v = version; v < SCHEMA_VERSION; v++) doc = migrations[v](doc);
  const data = normalize(doc);
  if (version < PATTERNS_SINCE) seedPatterns(data);
  return data;
}

function normalize(doc: Doc): MemoryData {
  const now = new Date().toISOString();
  const approaches = field(doc, 'approaches', isRecord, {});
  const normalized: Record<string, Approach> = {};
  for (const [key, value] of Object.entries(approaches)) {
    const read = approachOf(key, value, now);
    if ('wrong' in read) throw new CorruptMemoryError(read.wrong === 'approach' ? `an approach is ${describe(value)}` : `"${read.wrong}" is ${wrongly(read.value)}`);
    // defineProperty: a key "__proto__" stays a plain entry instead of replacing the map's prototype
    Object.defineProperty(normalized, key, { value: read.approach, enumerable: true, writable: true, configurable: true });
  }
  const journal = journalStateOf(doc.journal);
  const { journal: _journal, ...rest } = doc;
  const learnings = listOf('learnings', doc.learnings);
  if (!learnings) throw new CorruptMemoryError(`"learnings" is ${wrongly(doc.learnings)}`);
  return {
    ...rest, // fields this version does not know are kept, not dropped
    ...(journal ? { journal } : {}),
    schemaVersion: SCHEMA_VERSION,
    approaches: normalized,
    reflections: field(doc, 'reflections', isRecordList, []),
    learnings,
    // bounded logs: an entry of the wrong shape is dropped, not a reason to refuse the memory
    edits: listOf('edits', doc.edits) ?? [],
    starts: listOf('starts', doc.starts) ?? [],
    decisions: listOf('decisions', doc.decisions) ?? [],
    patterns: listOf('patterns', doc.patterns) ?? [],
    updatedAt: field(doc, 'updatedAt', str, now),
  };
}

/** A missing field gets its default; a present field of the wrong type means the file is not ours. */
function field<T>(doc: Doc, name: string, ok: (v: unknown) => v is T, fallback: T): T {
  const v = doc[name];
  if (v === undefined || v === null) return fallback;
  if (!ok(v)) throw new CorruptMemoryError(`"${name}" is ${wrongly(v)}`);
  return v;
}

const isRecordList = list(isRecord);
const wrongly = (v: unknown) => (Array.isArray(v) ? 'a list with entries of the wrong type' : describe(v));

/** Memory is at most a few levels deep; a document nested deeper is not ours (and would overflow the stack). */
const MAX_DEPTH = 64;

function nestedDeeperThan(v: unknown, max: number): boolean {
  // recursion at most `max` deep; no list of pending objects to allocate (every read of a whole memory pays this)
  if (typeof v !== 'object' || v === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && nestedDeeperThan(v[i], max - 1)) return true;
    return false;
  }
  for (const k in v) {
    const child = (v as Record<string, unknown>)[k];
    if (typeof child === 'object' && nestedDeeperThan(child, max - 1)) return true;
  }
  return false;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return 'a string'; // never its content: the warning is shown to a person
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
