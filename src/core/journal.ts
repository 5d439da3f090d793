// The journal: what a hook recorded, one record a line in journal.jsonl beside memory.json, waiting
// to be folded into memory.json by the next full write. A hook appends its run there instead of
// rewriting the whole memory; every reader applies the records memory.json does not hold yet, with
// the same steps a direct write takes (applyRun), so a journaled run and a run written at once give
// the same memory. Records of a kind this version does not know (a newer Failure Memory wrote them)
// are never applied nor dropped: a fold carries them in memory.json until a version that knows
// them folds them. Pure: the store reads and writes the file (src/store/journal.ts).

import { addLearnings } from './learnings';
import { fixLessonText } from './rules/ledger';
import { applyAttempt, approachBytes, type AttemptEffect } from './memory';
import type { Infer } from './shape';
import { runRecordOf, type journalRecordShape } from './storedShapes';
import type { Approach, Attempt, JournalState, JudgingSettings, Learning, MemoryData } from './types';

/** A record as the journal holds it: a kind, an id unique to it, and the kind's own fields. */
export type JournalRecord = Infer<typeof journalRecordShape> & Record<string, unknown>;

/**
 * One command run a hook saw: the attempt as prepared (redacted, bounded, judged), the recorder's
 * threshold, window and caps (`settings`: a run is counted as its recorder would have) and the
 * LEARNING[type]: lines found in its output (found before the output may be dropped by storeOutput).
 */
export type RunRecord = NonNullable<ReturnType<typeof runRecordOf>>;

/** How many folded journals memory.json remembers (a reader would need this many folds between two reads to err). */
export const FOLDED_KEPT = 8;

export function newRunRecord(attempt: Attempt, settings: JudgingSettings, learnings: RunRecord['learnings']): RunRecord {
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

export interface RunEffect extends AttemptEffect {
  /** Learnings the run added: LEARNING[type]: lines of its output, and what fixed it. */
  learnings: Learning[];
}

/** Records one prepared run into memory (mutates `data`): the attempt, the output's learnings and, when it fixed a failure, the fix lesson. */
export function applyRun(data: MemoryData, attempt: Attempt, found: RunRecord['learnings'], settings: JudgingSettings, ctx: ApplyContext): RunEffect {
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
export function applyRecord(data: MemoryData, record: JournalRecord, ctx: Omit<ApplyContext, 'newId'>): RunEffect | undefined {
  const run = runRecordOf(record);
  if (!run) return undefined;
  let n = 0;
  // a copy of the attempt: applying may rewrite its outcome (a pipe that hid a failure), and memory keeps it
  const { threshold, window, limits } = run.settings;
  return applyRun(data, cloneAttempt(run.attempt), run.learnings, { threshold, shortTermWindow: window, limits }, { ...ctx, newId: () => `${run.id}.${++n}` });
}

/** A record's approach key, for a reader that loads only the approaches the journal touches. */
export function recordKey(record: JournalRecord): string | undefined {
  return runRecordOf(record)?.attempt.key;
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

function cloneAttempt(a: Attempt): Attempt {
  return JSON.parse(JSON.stringify(a)) as Attempt;
}
