// The format of memory.json: its schema versions, the migrations between them, and the validation that
// turns parsed JSON into MemoryData (anything that is not memory is refused, never trusted).

import { readJournalState } from '../core/journal';
import { isPatternRecord, seedPatterns } from '../core/rules/patternRecords';
import { SCHEMA_VERSION, type Approach, type DecisionRecord, type EditEvent, type MemoryData, type StartEvent } from '../core/types';
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
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, a]) => [k, isObject(a) ? fn(a) : a]));
}

function seedLedger(a: Doc): Doc {
  if (a.ledger !== undefined || !Array.isArray(a.attempts)) return a;
  const ledger = a.attempts.filter(isObject).map(t => {
    const run: Doc = { at: t.timestamp, outcome: t.outcome, exitCode: t.exitCode ?? null, signature: t.errorSignature ?? '' };
    const tr = t.testResults;
    if (isObject(tr)) run.tests = { passed: tr.passed, failed: tr.failed, total: tr.total };
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
  if (!isObject(raw)) throw new CorruptMemoryError(`the top level is ${describe(raw)}, not an object`);
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
  const approaches = field(doc, 'approaches', isObject, {});
  const normalized: Record<string, Approach> = {};
  for (const [key, value] of Object.entries(approaches)) {
    if (!isObject(value)) throw new CorruptMemoryError(`an approach is ${describe(value)}`);
    // defineProperty: a key "__proto__" stays a plain entry instead of replacing the map's prototype
    Object.defineProperty(normalized, key, { value: normalizeApproach(key, value, now), enumerable: true, writable: true, configurable: true });
  }
  const journal = readJournalState(doc.journal);
  const { journal: _journal, ...rest } = doc;
  return {
    ...rest, // fields this version does not know are kept, not dropped
    ...(journal ? { journal } : {}),
    schemaVersion: SCHEMA_VERSION,
    approaches: normalized,
    reflections: field(doc, 'reflections', isObjectList, []),
    learnings: field(doc, 'learnings', isLearningList, []),
    // bounded logs: an entry of the wrong shape is dropped, not a reason to refuse the memory
    edits: field(doc, 'edits', Array.isArray, []).filter(isEditEvent),
    starts: field(doc, 'starts', Array.isArray, []).filter(isStartEvent),
    decisions: field(doc, 'decisions', Array.isArray, []).filter(isDecisionRecord),
    patterns: field(doc, 'patterns', Array.isArray, []).filter(isPatternRecord),
    updatedAt: field(doc, 'updatedAt', isString, now),
  };
}

function isEditEvent(v: unknown): v is EditEvent {
  return isObject(v) && typeof v.at === 'string' && typeof v.path === 'string' && typeof v.ok === 'boolean' && typeof v.source === 'string';
}
function isStartEvent(v: unknown): v is StartEvent {
  return isObject(v) && typeof v.at === 'string' && typeof v.command === 'string';
}
function isDecisionRecord(v: unknown): v is DecisionRecord {
  return isObject(v) && ['at', 'command', 'key', 'label', 'cwd', 'decision', 'policy', 'code', 'reason', 'via'].every(k => typeof v[k] === 'string');
}

function normalizeApproach(key: string, a: Doc, now: string): Approach {
  const command = field(a, 'command', isString, key);
  return {
    ...(a as Partial<Approach>),
    key: field(a, 'key', isString, key),
    command,
    label: field(a, 'label', isString, command),
    cwd: field(a, 'cwd', isString, '.'),
    status: field(a, 'status', (s): s is Approach['status'] => s === 'active' || s === 'exhausted' || s === 'resolved', 'active'),
    failures: field(a, 'failures', isCount, 0),
    totalAttempts: field(a, 'totalAttempts', isCount, 0),
    lastErrorSignature: field(a, 'lastErrorSignature', isString, ''),
    alternativesTried: field(a, 'alternativesTried', isStringList, []),
    learnedFacts: field(a, 'learnedFacts', isStringList, []),
    attempts: field(a, 'attempts', isAttemptList, []),
    ledger: field(a, 'ledger', Array.isArray, []),
    updatedAt: field(a, 'updatedAt', isString, now),
  };
}

/** A missing field gets its default; a present field of the wrong type means the file is not ours. */
function field<T>(doc: Doc, name: string, ok: (v: unknown) => v is T, fallback: T): T {
  const v = doc[name];
  if (v === undefined || v === null) return fallback;
  if (!ok(v)) throw new CorruptMemoryError(`"${name}" is ${Array.isArray(v) ? 'a list with entries of the wrong type' : describe(v)}`);
  return v;
}

/** Memory is at most a few levels deep; a document nested deeper is not ours (and would overflow the stack). */
const MAX_DEPTH = 64;

function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v as object)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Attempts are objects whose fields the engine reads have the right types. */
function isAttemptList(v: unknown): v is Approach['attempts'] {
  return (
    Array.isArray(v) &&
    v.every(
      x =>
        isObject(x) &&
        typeof x.command === 'string' &&
        typeof x.outcome === 'string' &&
        (x.errorSignature === undefined || typeof x.errorSignature === 'string') &&
        (x.timestamp === undefined || typeof x.timestamp === 'string') &&
        (x.output === undefined || typeof x.output === 'string'),
    )
  );
}
function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(x => typeof x === 'string');
}
function isObjectList(v: unknown): v is Doc[] {
  return Array.isArray(v) && v.every(isObject);
}
function isLearningList(v: unknown): v is MemoryData['learnings'] {
  return Array.isArray(v) && v.every(x => isObject(x) && typeof x.text === 'string' && typeof x.type === 'string');
}

function isObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isString(v: unknown): v is string {
  return typeof v === 'string';
}
function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return 'a string'; // never its content: the warning is shown to a person
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
