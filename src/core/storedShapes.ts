// The stored formats, each written once: an attempt, an approach, the lists beside them in
// memory.json (learnings, edit events, starts, decisions, pattern records), a journal record and a
// run record, memory's journal state, the gate's heads and events, a team pattern. Every reader and
// writer checks with these: the store's full read (store/memorySchema.ts), the hooks' partial reads
// of slices (store/quickView.ts), the journal (core/journal.ts), the index (store/memoryIndex.ts),
// the gate's copy (store/gateCopy.ts) and the team view. The types
// are declared in types.ts (documented field by field); the checks at the end of this file fail to
// compile when a shape and its type disagree. A field added to a type is added here, and then every
// reader reads it (test/unit/storedShapes.test.ts feeds the same variants to each).

import { isLearningType } from './learnings';
import { anyOf, bool, count, dict, int, isRecord, list, nullable, num, object, oneOf, positiveInt, str, text, tuple, type Accepts, type Assert, type Infer, type Same, type Shape } from './shape';
import type { GateEvent, GateHead } from './gateState';
import type { OutboxEntry, SharedAttempt, SharedLearning, SharedReflection, SharedResolve } from './rules/team';
import type { SharedPattern, TeamPattern } from './rules/teamPatterns';
import type { Approach, Attempt, AttemptCause, DecisionRecord, EditEvent, GitState, JournalState, LedgerRun, Learning, MemoryData, PatternRecord, StartEvent, TestResults } from './types';

const strings = list(str);
const outcome = oneOf('success', 'failure', 'interrupted', 'unknown');

const testResultsShape = object(
  { framework: str, total: count, passed: count, failed: count, failures: list(object({ name: str, message: str })) },
  { skipped: num },
);

const gitStateShape = object(
  { head: str, fingerprint: str, dirty: dict(str) },
  { branch: str, dirtyTruncated: bool, committed: object({ from: str, files: strings }) },
);

const causeClass = oneOf('service', 'credentials', 'resources', 'toolchain', 'files', 'code');
const causeShape = object({ kind: str, cls: causeClass, key: str, factors: dict(str) });

/** One run as memory keeps it (already redacted and bounded). */
export const attemptShape = object(
  {
    id: str, command: str, key: str, cwd: str, exitCode: nullable(int), outcome, source: oneOf('terminal', 'task', 'cli', 'agent', 'reported'),
    endedAt: str, output: str, outputTruncated: bool, outputBytes: count, errorSignature: str, testResults: nullable(testResultsShape), timestamp: str,
  },
  { note: str, startedAt: str, durationMs: num, errorLine: str, noErrorLine: bool, git: gitStateShape, work: strings, cause: causeShape },
);

const ledgerRunShape = object(
  { at: str, outcome, exitCode: nullable(num), signature: str },
  { tests: object({ passed: count, failed: count, total: count }), git: gitStateShape },
);

const filesSince = { files: strings };

/** An approach as memory.json holds it. */
export const approachShape = object(
  {
    key: str, command: str, label: str, cwd: str, status: oneOf('active', 'exhausted', 'resolved'), failures: count, totalAttempts: count,
    lastErrorSignature: str, alternativesTried: strings, learnedFacts: strings, attempts: list(attemptShape), updatedAt: str,
  },
  {
    firstFailure: str, lastFailure: str, lastSuccess: str, streakErrors: strings, streakChanged: list(bool), exhaustedAt: str, resolvedAt: str,
    resolvedBy: oneOf('success', 'manual'), allowOnce: bool, ledger: list(ledgerRunShape),
    changedSinceLastPass: object({ ...filesSince, since: str }, { more: count }),
    fix: object({ ...filesSince, signature: str, at: str }, { more: count }),
  },
);

/**
 * What an approach's fields are when memory.json leaves them out (an older version wrote fewer): the
 * approach's key gives its key and command, its command its label. A field present with another
 * type is not filled: the memory is not ours.
 */
function approachDefaults(key: string, a: Record<string, unknown>, now: string): Record<string, unknown> {
  const command = typeof a.command === 'string' ? a.command : key;
  return {
    key, command, label: command, cwd: '.', status: 'active', failures: 0, totalAttempts: 0, lastErrorSignature: '',
    alternativesTried: [], learnedFacts: [], attempts: [], ledger: [], updatedAt: now,
  };
}

/**
 * What an attempt's fields are when an older version left them out (a version-1 attempt has a
 * command, an outcome and little else). Its key is its approach's in memory.json; a journal record's
 * attempt has no approach around it, so there a missing key stays missing.
 */
function attemptDefaults(key: string | undefined, t: Record<string, unknown>): Record<string, unknown> {
  const at = typeof t.timestamp === 'string' ? t.timestamp : typeof t.endedAt === 'string' ? t.endedAt : '';
  return {
    id: '', ...(key === undefined ? {} : { key }), cwd: '.', exitCode: null, source: 'terminal', endedAt: at, output: '', outputTruncated: false, outputBytes: 0,
    errorSignature: '', testResults: null, timestamp: at,
  };
}

function attemptOf(key: string | undefined, t: Record<string, unknown>): Record<string, unknown> {
  const out = filled(t, attemptDefaults(key, t));
  // an older version's test results: the counts alone
  if (isRecord(out.testResults)) out.testResults = filled(out.testResults, { framework: '', failures: [] });
  return out;
}

/** `raw` with every field it leaves out (undefined or null) set to its default; `raw` itself is not changed. */
function filled(raw: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined || out[k] === null) out[k] = v;
  return out;
}

/** An approach as read from memory.json, or the first of its fields that is of the wrong type (for the store's message). */
export type ApproachRead = { approach: Approach } | { wrong: string; value: unknown };

/**
 * The approach memory.json holds under `key`, its left-out fields filled: what every reader of
 * memory.json makes of it (the store's full read and the hooks' read of its slice alike). `raw` is
 * not changed; fields this version does not know are kept.
 */
export function approachOf(key: string, raw: unknown, now: string): ApproachRead {
  if (!isRecord(raw)) return { wrong: 'approach', value: raw };
  // what this version wrote is read as it is (no copy: a whole read of 500 approaches checks them in a few ms)
  if (Array.isArray(raw.ledger) && approachShape(raw)) return { approach: raw };
  const a = filled(raw, approachDefaults(key, raw, now));
  if (Array.isArray(a.attempts)) a.attempts = a.attempts.map(t => (isRecord(t) ? attemptOf(a.key as string, t) : t));
  if (approachShape(a)) return { approach: a };
  const wrong = Object.keys(a).find(k => !fieldOk(k, a[k])) ?? 'approach';
  return { wrong, value: a[wrong] };
}

/** Does one field of an approach pass its shape (a field the shape does not name always does)? */
function fieldOk(name: string, v: unknown): boolean {
  return approachShape({ ...SAMPLE, [name]: v });
}
const SAMPLE: Approach = {
  key: '', command: '', label: '', cwd: '.', status: 'active', failures: 0, totalAttempts: 0, lastErrorSignature: '', alternativesTried: [], learnedFacts: [], attempts: [], updatedAt: '',
};

/** A cause as the team knows it, in the team view file (core/rules/teamPatterns.ts). */
export const teamPatternShape = object(
  {
    id: str, cause: str, kind: str, cls: causeClass, subject: str, factors: dict(str), failures: count, occurrences: count, systemic: bool,
    status: oneOf('active', 'resolved'), since: str, lastSeen: str, lastError: str, commands: strings, machines: strings,
  },
  { resolvedAt: str, fix: object({ command: str, worked: count, machine: str }) },
);

// ---- the team's outbox: what this machine queued for the team's database -------------------------

const source = oneOf('terminal', 'task', 'cli', 'agent', 'reported');
const entry = <K extends string, F extends string, S extends Shape<unknown>>(kind: K, field: F, payload: S) =>
  object({ kind: oneOf(kind), id: str, queuedAt: str, machine: str, ci: bool, [field]: payload } as { kind: Shape<K>; id: Shape<string>; queuedAt: Shape<string>; machine: Shape<string>; ci: Shape<boolean> } & Record<F, S>);
const sharedAttemptShape = object({
  id: str, key: str, label: str, command: str, cwd: str, exitCode: nullable(num), outcome, source, errorSignature: str, testResults: nullable(testResultsShape), output: str, endedAt: str,
});
const sharedPatternShape = object(
  {
    id: str, cause: str, kind: str, cls: causeClass, subject: str, factors: dict(str), failures: count, occurrences: count, systemic: bool,
    status: oneOf('active', 'resolved'), since: str, lastSeen: str, lastError: str, commands: strings, updatedAt: str,
  },
  { resolvedAt: str, fix: str, fixWorked: count },
);
const sharedLearningShape = object({ id: str, type: isLearningType, text: str, createdAt: str }, { key: str });
const sharedReflectionShape = object({ id: str, key: str, text: str, lessons: strings, createdAt: str });
const sharedResolveShape = object({ id: str, key: str, label: str, cwd: str, at: str });

/** The kinds of entry this version queues, each of its own shape. */
const outboxEntryShape = anyOf(
  entry('attempt', 'attempt', sharedAttemptShape),
  entry('pattern', 'pattern', sharedPatternShape),
  entry('learning', 'learning', sharedLearningShape),
  entry('reflection', 'reflection', sharedReflectionShape),
  entry('resolve', 'resolve', sharedResolveShape),
);
const OUTBOX_KINDS: ReadonlySet<unknown> = new Set(['attempt', 'pattern', 'learning', 'reflection', 'resolve']);

/**
 * An outbox line as the pusher reads it: an entry of a kind this version queues, of that kind's
 * shape; an entry of a kind it does not know (a newer version queued it) is kept as it is, as the
 * journal carries records it cannot apply. 'wrong': of a known kind and not of its shape (it could
 * never reach the database). undefined: not an entry at all.
 */
export function outboxEntryOf(v: unknown): OutboxEntry | 'wrong' | undefined {
  if (!journalRecordShape(v)) return undefined;
  if (!OUTBOX_KINDS.has(v.kind)) return v as unknown as OutboxEntry;
  return outboxEntryShape(v) ? v : 'wrong';
}

/** What the gate's copy and memory.index.json keep of an exhausted approach (core/gateState.ts). */
export const gateHeadShape = tuple(str, num, str);

/** What the gate's copy says happened to it (core/gateState.ts). */
export const gateEventShape = object(
  { id: str, at: str, kind: oneOf('restored', 'copy-altered'), approaches: list(object({ key: str, label: str })), what: str, via: str },
  { by: str },
);

// ---- the lists beside the approaches ---------------------------------------------------------------

export const learningShape = object(
  { type: isLearningType, text: str },
  { id: str, key: str, source: oneOf('reflection', 'note', 'output', 'user', 'agent', 'fix'), createdAt: str, updatedAt: str },
);
const editEventShape = object({ at: str, path: str, ok: bool, source: oneOf('save', 'agent', 'cli', 'shell') }, { tool: str, hash: str });
const startEventShape = object({ at: str, command: str });
const decision = oneOf('allow', 'warn', 'ask', 'deny');
const decisionRecordShape = object({ at: str, command: str, key: str, label: str, cwd: str, decision, policy: decision, code: str, reason: str, via: str });

/** A pattern record: one cause failing one or several approaches (core/rules/patternRecords.ts). */
export const patternRecordShape = object(
  {
    id: str, cause: str, kind: str, cls: causeClass, subject: str, factors: dict(str),
    approaches: list(object({ key: str, label: str, cwd: str, failures: count, lastSeen: str })),
    runs: strings, occurrences: count, failures: count, firstSeen: str, since: str, lastSeen: str, lastError: str, systemic: bool, status: oneOf('active', 'resolved'),
  },
  {
    lastGit: str, resolvedAt: str,
    resolution: object({ at: str, by: oneOf('success', 'manual', 'team') }, { run: str, command: str, key: str, files: strings, fix: str }),
    fixes: list(object({ command: str, worked: count, lastWorked: str })),
    tried: list(object({ command: str, at: str })),
  },
);

/**
 * How each list of memory.json is read: `whole` lists are refused whole when an entry is wrong (the
 * learnings: a wrong one means the file is not ours); the bounded logs drop a wrong entry.
 */
const LIST_SHAPES = {
  learnings: { entry: learningShape, whole: true },
  edits: { entry: editEventShape, whole: false },
  starts: { entry: startEventShape, whole: false },
  decisions: { entry: decisionRecordShape, whole: false },
  patterns: { entry: patternRecordShape, whole: false },
} as const;
type StoredListName = keyof typeof LIST_SHAPES;

/** A list of memory.json as every reader reads it: absent → [], wrong entries dropped (or the list refused: undefined). */
export function listOf<N extends StoredListName>(name: N, raw: unknown): Required<MemoryData>[N] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return undefined;
  const { entry, whole } = LIST_SHAPES[name] as { entry: Shape<unknown>; whole: boolean };
  // a learning of an older memory may lack its id, source or time (the type promises them)
  if (whole) return raw.every(x => entry(x)) ? (raw as Required<MemoryData>[N]) : undefined;
  return raw.filter(x => entry(x)) as Required<MemoryData>[N];
}

// ---- the journal -----------------------------------------------------------------------------------

/** Any journal record: a kind, an id unique to it, and its kind's own fields (kinds this version does not know are carried). */
export const journalRecordShape = object({ kind: str, id: text(1, 200) });

/** One command run a hook saw, as the journal holds it (core/journal.ts). */
const runRecordShape = object({
  kind: oneOf('run'),
  id: text(1, 200),
  attempt: attemptShape,
  settings: object({
    threshold: positiveInt,
    window: positiveInt,
    limits: object({ maxApproaches: positiveInt, maxTotalBytes: positiveInt, maxReflections: count, maxLearnings: count }),
  }),
  learnings: list(object({ type: isLearningType, text: str })),
});

/**
 * The run a journal record holds, its attempt's left-out fields filled as memory.json's are (a record
 * an older hook appended); undefined when it is not a run or not of a run's shape. `v` is not changed.
 */
export function runRecordOf(v: unknown): Infer<typeof runRecordShape> | undefined {
  if (!isRecord(v) || v.kind !== 'run' || !isRecord(v.attempt)) return undefined;
  // a reader asks of one record several times (its key, then applying it): checked once
  if (readRuns.has(v)) return readRuns.get(v);
  const record = { ...v, attempt: attemptOf(undefined, v.attempt) };
  const run = runRecordShape(record) ? record : undefined;
  readRuns.set(v, run);
  return run;
}
const readRuns = new WeakMap<object, Infer<typeof runRecordShape> | undefined>();

const foldedShape = object({ id: str, bytes: count });

/** The journal state memory.json claims; undefined when it is missing or not of that shape (read as none). Wrong entries are dropped. */
export function journalStateOf(v: unknown): JournalState | undefined {
  if (!isRecord(v) || !Array.isArray(v.folded)) return undefined;
  const folded = v.folded.filter(f => foldedShape(f));
  const carried = Array.isArray(v.carried) ? v.carried.filter(r => journalRecordShape(r)) : [];
  return { folded, ...(carried.length ? { carried } : {}) };
}

// ---- the shapes agree with the types the code uses -------------------------------------------------

type _ShapesAgreeWithTypes = [
  Assert<Same<Infer<typeof testResultsShape>, TestResults>>,
  Assert<Same<Infer<typeof gitStateShape>, GitState>>,
  Assert<Same<Infer<typeof causeShape>, AttemptCause>>,
  Assert<Same<Infer<typeof attemptShape>, Attempt>>,
  Assert<Same<Infer<typeof ledgerRunShape>, LedgerRun>>,
  Assert<Same<Infer<typeof approachShape>, Approach>>,
  Assert<Same<Infer<typeof editEventShape>, EditEvent>>,
  Assert<Same<Infer<typeof startEventShape>, StartEvent>>,
  Assert<Same<Infer<typeof decisionRecordShape>, DecisionRecord>>,
  Assert<Same<Infer<typeof patternRecordShape>, PatternRecord>>,
  Assert<Same<Infer<typeof gateHeadShape>, GateHead>>,
  Assert<Same<Infer<typeof gateEventShape>, GateEvent>>,
  Assert<Same<Infer<typeof teamPatternShape>, TeamPattern>>,
  Assert<Same<Infer<typeof sharedAttemptShape>, SharedAttempt>>,
  Assert<Same<Infer<typeof sharedPatternShape>, SharedPattern>>,
  Assert<Same<Infer<typeof sharedLearningShape>, SharedLearning>>,
  Assert<Same<Infer<typeof sharedReflectionShape>, SharedReflection>>,
  Assert<Same<Infer<typeof sharedResolveShape>, SharedResolve>>,
  Assert<Same<Infer<typeof outboxEntryShape>, OutboxEntry>>,
  // a learning of an older memory may lack its id, source and time: every learning written today is read
  Assert<Accepts<Infer<typeof learningShape>, Learning>>,
];
