// The journal: what a hook recorded, one record a line in journal.jsonl beside memory.json, waiting
// to be folded into memory.json by the next full write. A hook appends its run there instead of
// rewriting the whole memory; every reader applies the records memory.json does not hold yet, with
// the same steps a direct write takes (applyRun), so a journaled run and a run written at once give
// the same memory. Records of a kind this version does not know (a newer Failure Memory wrote them)
// are never applied nor dropped: a fold carries them in memory.json until a version that knows
// them folds them. Pure: the store reads and writes the file (src/store/journal.ts).

import { addLearnings, isLearningType } from './learnings';
import { fixLessonText } from './rules/ledger';
import { applyAttempt, approachBytes, type RecordResult } from './memory';
import type { Approach, Attempt, JournalState, JudgingSettings, Learning, LearningType, MemoryData } from './types';

/** A record as the journal holds it: a kind, an id unique to it, and the kind's own fields. */
export type JournalRecord = { kind: string; id: string } & Record<string, unknown>;

/** One command run a hook saw: the attempt as prepared (redacted, bounded, judged) and what judges it. */
export type RunRecord = {
  kind: 'run';
  id: string;
  attempt: Attempt;
  /** The recorder's threshold, window and caps: a run is counted as its recorder would have. */
  settings: StoredJudging;
  /** LEARNING[type]: lines found in the output (found before the output may be dropped by storeOutput). */
  learnings: Array<{ type: LearningType; text: string }>;
};

/** How many folded journals memory.json remembers (a reader would need this many folds between two reads to err). */
export const FOLDED_KEPT = 8;

/** JudgingSettings as a journal line holds them: the file's own names (`window` is failureMemory.shortTermWindow). */
type StoredJudging = Pick<JudgingSettings, 'threshold' | 'limits'> & { window: number };

export function runRecord(attempt: Attempt, settings: JudgingSettings, learnings: RunRecord['learnings']): RunRecord {
  return { kind: 'run', id: attempt.id, attempt, settings: { threshold: settings.threshold, window: settings.shortTermWindow, limits: { ...settings.limits } }, learnings };
}

export interface ApplyContext {
  /** Redacts a fix lesson's text (file names come from git, not from the redacted output). */
  redact: (text: string) => string;
  /** Ids of the learnings a run adds. */
  newId: () => string;
  /** What an approach counts toward maxTotalBytes (a partial view knows the sizes of approaches it did not load). */
  sizeOf?: (a: Approach) => number;
}

export interface RunOutcome extends RecordResult {
  /** Learnings the run added: LEARNING[type]: lines of its output, and what fixed it. */
  learnings: Learning[];
}

/** Records one prepared run into memory (mutates `data`): the attempt, the output's learnings and, when it fixed a failure, the fix lesson. */
export function applyRun(data: MemoryData, attempt: Attempt, found: RunRecord['learnings'], settings: JudgingSettings, ctx: ApplyContext): RunOutcome {
  const result = applyAttempt(data, attempt, settings, ctx.sizeOf ?? approachBytes);
  const learnings = found.length ? addLearnings(data.learnings, found, { source: 'output', key: attempt.key, now: attempt.timestamp, newId: ctx.newId }) : [];
  const fix = result.ledger.fix;
  if (fix) {
    // what fixed it, as a lesson recall and the panel offer for similar failures
    const text = ctx.redact(`“${result.approach.label}” ${fixLessonText(fix)}`).slice(0, 2000);
    learnings.push(...addLearnings(data.learnings, [{ type: 'learning', text }], { source: 'fix', key: attempt.key, now: attempt.timestamp, newId: ctx.newId }));
    if (data.learnings.length > settings.limits.maxLearnings) data.learnings.splice(0, data.learnings.length - settings.limits.maxLearnings);
  }
  return { ...result, learnings };
}

/** A kind of record this version applies (others are carried, never dropped). */
export function isKnownKind(record: JournalRecord): boolean {
  return record.kind === 'run';
}

/**
 * Applies one journal record (mutates `data`) and says what it did. Learning ids derive from the
 * record's id, so every reader that applies it, and the fold that keeps it, agree. undefined: not
 * applied (a kind this version does not know, or a record not of its kind's shape).
 */
export function applyRecord(data: MemoryData, record: JournalRecord, ctx: Omit<ApplyContext, 'newId'>): RunOutcome | undefined {
  if (!isRunRecord(record)) return undefined;
  let n = 0;
  // a copy of the attempt: applying may rewrite its outcome (a pipe that hid a failure), and memory keeps it
  const { threshold, window, limits } = record.settings;
  return applyRun(data, cloneAttempt(record.attempt), record.learnings, { threshold, shortTermWindow: window, limits }, { ...ctx, newId: () => `${record.id}.${++n}` });
}

/** A record's approach key, for a reader that loads only the approaches the journal touches. */
export function recordKey(record: JournalRecord): string | undefined {
  return isRunRecord(record) ? record.attempt.key : undefined;
}

/** A journal as read: its id and each complete line's start offset and record (undefined: not a record). */
export interface JournalContents {
  id: string;
  /** Bytes read: everything up to here is what a fold of this read consumes. */
  bytes: number;
  entries: Array<{ start: number; record: JournalRecord | undefined }>;
}

/** The records of `journal` (and those carried in memory) that `data` does not hold yet, oldest first. */
export function pendingRecords(data: MemoryData, journal: JournalContents | undefined): JournalRecord[] {
  const carried = data.journal?.carried ?? [];
  if (!journal) return [...carried];
  const folded = data.journal?.folded.find(f => f.id === journal.id)?.bytes ?? 0;
  const fresh = journal.entries.filter(e => e.start >= folded && e.record).map(e => e.record!);
  return [...carried, ...fresh];
}

/** Memory's journal state after a fold of `journal`: it is remembered as folded; `carried` are the records left unapplied. */
export function foldedState(previous: JournalState | undefined, journal: Pick<JournalContents, 'id' | 'bytes'> | undefined, carried: JournalRecord[]): JournalState | undefined {
  const folded = (previous?.folded ?? []).filter(f => f.id !== journal?.id);
  if (journal) folded.push({ id: journal.id, bytes: journal.bytes });
  if (!folded.length && !carried.length) return undefined;
  return { folded: folded.slice(-FOLDED_KEPT), ...(carried.length ? { carried } : {}) };
}

/** The journal state memory.json claims, or undefined when it is missing or not of that shape (read as none). */
export function readJournalState(v: unknown): JournalState | undefined {
  if (!isObject(v) || !Array.isArray(v.folded)) return undefined;
  const folded = v.folded.filter((f): f is { id: string; bytes: number } => isObject(f) && typeof f.id === 'string' && isCount(f.bytes));
  const carried = Array.isArray(v.carried) ? v.carried.filter(isJournalRecord) : [];
  return { folded, ...(carried.length ? { carried } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Checking what the file says (it is untrusted: anything not of the right shape is not a record)

export function isJournalRecord(v: unknown): v is JournalRecord {
  return isObject(v) && typeof v.kind === 'string' && typeof v.id === 'string' && v.id.length > 0 && v.id.length <= 200;
}

export function isRunRecord(v: unknown): v is RunRecord {
  if (!isJournalRecord(v) || v.kind !== 'run') return false;
  const s = v.settings;
  const settingsOk =
    isObject(s) && isPositiveInt(s.threshold) && isPositiveInt(s.window) && isObject(s.limits) &&
    isPositiveInt(s.limits.maxApproaches) && isPositiveInt(s.limits.maxTotalBytes) && isCount(s.limits.maxReflections) && isCount(s.limits.maxLearnings);
  const learningsOk = Array.isArray(v.learnings) && v.learnings.every(l => isObject(l) && isLearningType(l.type) && typeof l.text === 'string');
  return settingsOk && learningsOk && isAttempt(v.attempt);
}

const OUTCOMES = new Set(['success', 'failure', 'interrupted', 'unknown']);

function isAttempt(v: unknown): v is Attempt {
  if (!isObject(v)) return false;
  const strings = ['id', 'command', 'key', 'cwd', 'source', 'endedAt', 'output', 'errorSignature', 'timestamp'];
  if (!strings.every(k => typeof v[k] === 'string')) return false;
  if (!OUTCOMES.has(v.outcome as string) || typeof v.outputTruncated !== 'boolean' || !isCount(v.outputBytes)) return false;
  if (!(v.exitCode === null || (typeof v.exitCode === 'number' && Number.isInteger(v.exitCode)))) return false;
  if (!optional(v.note, 'string') || !optional(v.startedAt, 'string') || !optional(v.durationMs, 'number')) return false;
  if (!optional(v.errorLine, 'string') || !optional(v.noErrorLine, 'boolean')) return false;
  return isTestResults(v.testResults) && (v.git === undefined || isGitState(v.git));
}

function isTestResults(v: unknown): boolean {
  if (v === null) return true;
  if (!isObject(v) || typeof v.framework !== 'string' || !isCount(v.total) || !isCount(v.passed) || !isCount(v.failed) || !optional(v.skipped, 'number')) return false;
  return Array.isArray(v.failures) && v.failures.every(f => isObject(f) && typeof f.name === 'string' && typeof f.message === 'string');
}

function isGitState(v: unknown): boolean {
  if (!isObject(v) || typeof v.head !== 'string' || typeof v.fingerprint !== 'string' || !isObject(v.dirty)) return false;
  if (!Object.values(v.dirty).every(h => typeof h === 'string') || !optional(v.branch, 'string') || !optional(v.dirtyTruncated, 'boolean')) return false;
  const c = v.committed;
  return c === undefined || (isObject(c) && typeof c.from === 'string' && Array.isArray(c.files) && c.files.every(f => typeof f === 'string'));
}

function cloneAttempt(a: Attempt): Attempt {
  return JSON.parse(JSON.stringify(a)) as Attempt;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
const optional = (v: unknown, type: 'string' | 'number' | 'boolean') => v === undefined || typeof v === type;
