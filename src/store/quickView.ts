// What the hooks read: memory.json with the journal's pending records applied, read synchronously,
// without the lock (memory.json is replaced by atomic renames; the journal only grows until a fold
// removes it) and without loading the store. The agents' context reads it whole (readView 'all').
// With memory.index.json describing the current memory.json, a reader of a few approaches (the gate:
// readView with a guard; a post hook about to record a run: readApproach; a journal-mode writer:
// readView with keys) parses only those whole, the lists beside them (learnings, edits, starts,
// decisions) and, for the others, their index entries (headOf), which hold all that applying a run
// reads of another approach. The gate's heads are watched: a decision that asks one for more than it
// holds is made again from the whole memory. Either way the answer for those keys is the one a full
// read gives (test/integration/journal.test.ts).

import { closeSync, lstatSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { applyRecord, pendingRecords, recordKey, type ApplyContext, type JournalContents } from '../core/journal';
import { notePatternFailure } from '../core/rules/patternRecords';
import { approachOf, journalStateOf, listOf, patternRecordShape, runRecordOf } from '../core/storedShapes';
import { heldHeadOf, heldHeads, type GateHead, type HeldHead } from '../core/gateState';
import { approachBytes } from '../core/memory';
import { emptyMemory, SCHEMA_VERSION, type Approach, type MemoryData, type PatternRecord } from '../core/types';
import { readJournalSync } from './journal';
import { describes, headOf, headsOf, INDEX_FILE_NAME, LISTS, parseIndex, spanWithin, type ListName, type ParsedIndex } from './memoryIndex';
import { MEMORY_FILE_NAME, migrateMemory } from './memorySchema';
import { openRegularSync, readRegularSync } from './regularFile';

/** memory.json over this size is left to the store (which moves it aside). */
const MAX_MEMORY_BYTES = 64 * 1024 * 1024;

/** The last index parsed, kept by a caller that reads more than once (a post hook reads before and inside the lock). */
export interface IndexCache {
  key?: string;
  index?: ParsedIndex;
}

/**
 * Set when a reader used more of an approach it did not load whole than its head holds (its
 * attempts, its ledger, a field the index does not carry, its list of keys): what that reader
 * computed may differ from a full read's, so it reads again in full (readView's `guard`).
 */
export interface HeadGuard {
  touched: boolean;
}

export interface View {
  data: MemoryData;
  /** What an approach counts toward maxTotalBytes (heads carry their size: their attempts are not loaded). */
  sizeOf: (a: Approach) => number;
  /**
   * Memory's exhausted approaches (their failures and last failure), read without touching a
   * watched head: what the gate's copy is compared with. Absent: not known without making every
   * head (an index of an older version); the reader looks at the memory itself.
   */
  exhausted?: Map<string, HeldHead>;
}

/** `view` with its exhausted approaches noted (before any head is watched: reading them touches nothing). */
const withExhausted = (view: View): View => ({ ...view, exhausted: heldHeads(view.data) });

/**
 * Memory as a reader sees it, with the approaches of `keys` (or all) loaded whole. null: no memory
 * at all yet. undefined: memory.json cannot be read here (an older schema, damaged, too large): ask
 * the store, which migrates or moves it aside.
 */
export function readView(dir: string, keys: readonly string[] | 'all', ctx: Pick<ApplyContext, 'redact'>, cache: IndexCache = {}, guard?: HeadGuard): View | null | undefined {
  // the journal first: a fold that lands between the two reads is then seen in memory.json (marked folded)
  const journalRead = readJournalSync(dir);
  const journal = journalRead.kind === 'ok' ? journalRead.contents : undefined;
  let fd: number;
  let stat;
  try {
    // never blocking: a FIFO or a device in its place is left to the store, which says so
    ({ fd, stat } = openRegularSync(path.join(dir, MEMORY_FILE_NAME), { noFollow: true }));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
    if (!journal?.entries.length) return null;
    return withExhausted(applyPending({ data: emptyMemory(), sizeOf: approachBytes }, journal, ctx));
  }
  try {
    if (stat.size > MAX_MEMORY_BYTES) return undefined;
    const index = keys === 'all' ? undefined : readIndex(dir, cache);
    if (index && index.schemaVersion === SCHEMA_VERSION && describes(index, stat)) {
      const wanted = new Set(keys);
      const pending = pendingRecords({ ...emptyMemory(), journal: journalStateOf(index.journal) }, journal);
      for (const r of pending) {
        const k = recordKey(r);
        if (k !== undefined) wanted.add(k);
      }
      const lazy = guard && !pending.length ? lazyView(fd, index, wanted, guard) : undefined;
      if (lazy) return lazy;
      const partial = partialView(fd, index, wanted);
      // the journal's runs are applied to the heads as a writer applies them (they read only what a
      // head holds and add to another approach only its alternatives: journal.test.ts); the reader's
      // own use is watched from here
      if (partial) {
        const applied = withExhausted(applyPending(partial.view, journal, ctx));
        return guard ? watchView(applied, partial.heads, guard) : applied;
      }
    }
    const view = wholeView(fd, stat.size);
    return view && withExhausted(applyPending(view, journal, ctx));
  } finally {
    closeSync(fd);
  }
}

function applyPending(view: View, journal: JournalContents | undefined, ctx: Pick<ApplyContext, 'redact'>): View {
  for (const r of pendingRecords(view.data, journal)) {
    try {
      applyRecord(view.data, r, { ...ctx, sizeOf: view.sizeOf });
    } catch {
      // a record the engine cannot apply is left to the fold, which reports it
    }
  }
  return view;
}

/**
 * memory.json's exhausted approaches as its index lists them, without reading memory.json or the
 * journal: undefined when the index does not describe memory.json (or lists none, an older one).
 * Runs waiting in the journal are not in it: a reader that finds less than it expects reads more.
 */
export function indexedExhausted(dir: string, cache: IndexCache = {}): Map<string, HeldHead> | undefined {
  let stat;
  try {
    stat = lstatSync(path.join(dir, MEMORY_FILE_NAME));
  } catch {
    return undefined;
  }
  const index = readIndex(dir, cache);
  if (!index?.gate || index.schemaVersion !== SCHEMA_VERSION || !stat.isFile() || !describes(index, stat)) return undefined;
  return new Map(index.gate.map(([key, failures, last]) => [key, [failures, last]]));
}

function readIndex(dir: string, cache: IndexCache): ParsedIndex | undefined {
  const file = path.join(dir, INDEX_FILE_NAME);
  try {
    const st = statSync(file);
    const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (cache.key === key) return cache.index;
    const index = parseIndex(readRegularSync(file, 'utf8', { noFollow: true }));
    cache.key = key;
    cache.index = index;
    return index;
  } catch {
    return undefined;
  }
}

function readSlice(fd: number, start: number, length: number): unknown {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, start + got);
    if (n === 0) throw new Error('memory.json is shorter than its index says');
    got += n;
  }
  return JSON.parse(buf.toString('utf8'));
}

/** The approach of `key` in its slice of memory.json, read as the store reads it (storedShapes.approachOf); undefined when it is not one. */
function approachAt(fd: number, key: string, start: number, length: number): Approach | undefined {
  const read = approachOf(key, readSlice(fd, start, length), new Date().toISOString());
  return 'approach' in read ? read.approach : undefined;
}

/** The approaches in `wanted` whole, the rest as heads (listed); undefined when a slice is not what the index says. */
function partialView(fd: number, index: ParsedIndex, wanted: Set<string>): { view: View; heads: Set<Approach> } | undefined {
  const heads = headsOf(index);
  if (!heads) return undefined;
  const data = emptyMemory();
  data.journal = journalStateOf(index.journal);
  const sizes = new WeakMap<Approach, number>();
  const made = new Set<Approach>();
  try {
    for (let i = 0; i < index.spans.length; i++) {
      const [key, start, length, bytes] = index.spans[i];
      let a: Approach;
      if (wanted.has(key)) {
        const whole = approachAt(fd, key, start, length);
        if (!whole) return undefined;
        a = whole;
      } else {
        a = headOf(key, heads[i]);
        made.add(a);
        sizes.set(a, bytes);
      }
      putOwn(data.approaches, key, a);
    }
    if (!readLists(fd, index, data)) return undefined;
  } catch {
    return undefined;
  }
  return { view: { data, sizeOf: a => sizes.get(a) ?? approachBytes(a) }, heads: made };
}

/**
 * A partial view for a reader watched by `guard`, when no run waits to be applied: the wanted
 * approaches whole, and the others made from their index entries (as watched heads) only when the
 * reader asks for one of them or for the list of approaches; a check of a command that names no
 * other approach (most do not) parses no head at all.
 */
function lazyView(fd: number, index: ParsedIndex, wanted: Set<string>, guard: HeadGuard): View | undefined {
  // the gate counts only active systemic patterns: those alone are read (the others change no decision)
  const gate = gateRecords(fd, index);
  const skip: ReadonlySet<ListName> = gate ? new Set(['patterns']) : new Set();
  const data = emptyMemory();
  data.journal = journalStateOf(index.journal);
  const wholes = new Map<string, Approach>();
  const keys = new Set<string>();
  try {
    for (const [key, start, length] of index.spans) {
      keys.add(key);
      if (!wanted.has(key)) continue;
      const whole = approachAt(fd, key, start, length);
      if (!whole) return undefined;
      wholes.set(key, whole);
    }
    if (!readLists(fd, index, data, skip)) return undefined;
    if (gate) data.patterns = gate;
  } catch {
    return undefined;
  }
  const all: Record<string, Approach> = {};
  let made = false;
  // every approach in memory.json's order, as a full read has them
  const make = () => {
    if (made) return;
    made = true;
    const heads = headsOf(index);
    // heads that cannot be read: whatever the reader decides is decided again from the whole memory
    if (!heads) return void (guard.touched = true);
    const head = headWatcher(guard);
    index.spans.forEach(([key], i) => {
      putOwn(all, key, wholes.get(key) ?? head(headOf(key, heads[i])));
    });
  };
  const named = (p: PropertyKey): p is string => typeof p === 'string' && keys.has(p);
  data.approaches = new Proxy(all, {
    get: (t, p, r) => (!made && named(p) && wholes.has(p) ? wholes.get(p) : (named(p) && make(), Reflect.get(t, p, r))),
    has: (t, p) => (!made && named(p)) || Reflect.has(t, p),
    getOwnPropertyDescriptor: (t, p) =>
      !made && named(p) && wholes.has(p) ? { value: wholes.get(p), writable: true, enumerable: true, configurable: true } : (named(p) && make(), Reflect.getOwnPropertyDescriptor(t, p)),
    ownKeys: t => (make(), Reflect.ownKeys(t)),
    set: (t, p, v, r) => (make(), Reflect.set(t, p, v, r)),
    defineProperty: (t, p, d) => (make(), Reflect.defineProperty(t, p, d)),
    deleteProperty: (t, p) => (make(), Reflect.deleteProperty(t, p)),
  });
  return { data: watcher(guard, MEMORY_FIELDS)(data), sizeOf: approachBytes, ...(index.gate ? { exhausted: exhaustedFrom(index.gate, wholes) } : {}) };
}

/** The index's exhausted approaches, with those loaded whole as they are. */
function exhaustedFrom(gate: readonly GateHead[], wholes: Map<string, Approach>): Map<string, HeldHead> {
  const out = new Map<string, HeldHead>(gate.map(([key, failures, last]) => [key, [failures, last]]));
  for (const [key, a] of wholes) {
    if (a.status === 'exhausted') out.set(key, heldHeadOf(a));
    else out.delete(key);
  }
  return out;
}

/** The pattern records the index says the gate can count, each parsed alone; undefined when the index has no such spans, or one is not a record. */
function gateRecords(fd: number, index: ParsedIndex): PatternRecord[] | undefined {
  const spans = index.gatePatterns;
  if (!spans || !spans.every(s => spanWithin(s, index.file.size))) return undefined;
  const out: PatternRecord[] = [];
  for (const [start, length] of spans) {
    const p = readSlice(fd, start, length);
    if (!patternRecordShape(p)) return undefined;
    out.push(p);
  }
  return out;
}


/** `obj[key] = value`, also for the key `__proto__` (a command a person or a crafted memory.json may name). */
function putOwn(obj: Record<string, Approach>, key: string, value: Approach): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** The fields a head holds exactly as the full approach has them (headOf; a streak only when the head has one). */
const HEAD_FIELDS: ReadonlySet<PropertyKey> = new Set(['key', 'label', 'command', 'cwd', 'status', 'failures', 'updatedAt', 'lastFailure', 'lastErrorSignature']);
/** What a partial memory holds as a full read has it: all but the reflections and the time it was written. */
const MEMORY_FIELDS: ReadonlySet<PropertyKey> = new Set(['schemaVersion', 'approaches', 'journal', ...LISTS]);

/** The view with its heads (those still in it) and the memory itself watched by `guard` (the memory's exact fields: MEMORY_FIELDS). */
function watchView(view: View, heads: Set<Approach>, guard: HeadGuard): View {
  const approaches = view.data.approaches;
  const head = headWatcher(guard);
  for (const key of Object.keys(approaches)) {
    if (heads.has(approaches[key])) putOwn(approaches, key, head(approaches[key]));
  }
  return { ...view, data: watcher(guard, MEMORY_FIELDS)(view.data) };
}

/** Watches heads: a head's exact fields are HEAD_FIELDS, and its streak when its index entry had one. */
function headWatcher(guard: HeadGuard): (head: Approach) => Approach {
  const watch = watcher(guard, HEAD_FIELDS);
  return head => watch(head, Array.isArray(head.streakErrors) ? 'streakErrors' : undefined);
}

/**
 * Wraps objects so that `guard.touched` is set when one is asked for anything but its exact fields
 * (`base`, and per object `also`): another field, whether a field exists, its keys. A field the
 * reader wrote itself reads back freely. One handler for all the objects.
 */
function watcher(guard: HeadGuard, base: ReadonlySet<PropertyKey>): <T extends object>(target: T, also?: PropertyKey) => T {
  const more = new WeakMap<object, Set<PropertyKey>>();
  const use = (t: object, p: PropertyKey) => {
    if (!base.has(p) && !more.get(t)?.has(p)) guard.touched = true;
  };
  const wrote = (t: object, p: PropertyKey) => {
    const m = more.get(t);
    if (m) m.add(p);
    else more.set(t, new Set([p]));
  };
  const handler: ProxyHandler<object> = {
    get: (t, p, r) => (use(t, p), Reflect.get(t, p, r)),
    has: (t, p) => (use(t, p), Reflect.has(t, p)),
    getOwnPropertyDescriptor: (t, p) => (use(t, p), Reflect.getOwnPropertyDescriptor(t, p)),
    ownKeys: t => ((guard.touched = true), Reflect.ownKeys(t)),
    set: (t, p, v, r) => (wrote(t, p), Reflect.set(t, p, v, r)),
    defineProperty: (t, p, d) => (wrote(t, p), Reflect.defineProperty(t, p, d)),
    deleteProperty: (t, p) => (wrote(t, p), Reflect.deleteProperty(t, p)),
  };
  return (target, also) => {
    if (also !== undefined) more.set(target, new Set([also]));
    return new Proxy(target, handler) as typeof target;
  };
}

/** The lists beside the approaches (learnings, edits, starts, decisions, patterns) into `data`, but `skip` (left empty); false when one is not a list. */
function readLists(fd: number, index: ParsedIndex, data: MemoryData, skip: ReadonlySet<ListName> = new Set()): boolean {
  for (const name of LISTS) {
    const span = index.lists[name];
    if (skip.has(name)) {
      (data as unknown as Record<string, unknown>)[name] = [];
      continue;
    }
    // as the store reads them: a list memory.json has not got is empty, a wrong entry of a log is dropped
    const list = listOf(name, span ? readSlice(fd, span[0], span[1]) : undefined);
    if (!list) return false;
    (data as unknown as Record<string, unknown>)[name] = list;
  }
  return true;
}

/**
 * One approach as it stands for a writer that needs only its own history (whether it exists, its
 * ledger: a hook about to record a run of it): memory.json's approach (found by the index, else in
 * the whole file) with the journal's runs of that approach applied to it alone. What other runs do
 * to it (an eviction, an alternative linked) is not seen: read with readView for anything that
 * depends on them. null: memory.json cannot be read here (ask the store).
 */
export function readApproach(dir: string, key: string, ctx: Pick<ApplyContext, 'redact'>, cache: IndexCache = {}): { approach: Approach | undefined; patterns: PatternRecord[] } | null {
  const read = readMine(dir, key, ctx, cache);
  return read && ownView(read.mine, key, read.journal);
}

/**
 * The memory readApproach reads (the approach of `key` with its own pending runs, the lists beside
 * it, the journal state): what applying one more run of it reads, to tell what that run does to it.
 */
export function readOwn(dir: string, key: string, ctx: Pick<ApplyContext, 'redact'>, cache: IndexCache = {}): MemoryData | null {
  return readMine(dir, key, ctx, cache)?.mine ?? null;
}

function readMine(dir: string, key: string, ctx: Pick<ApplyContext, 'redact'>, cache: IndexCache): { mine: MemoryData; journal: JournalContents | undefined } | null {
  const journalRead = readJournalSync(dir);
  const journal = journalRead.kind === 'ok' ? journalRead.contents : undefined;
  const mine = emptyMemory();
  let fd: number;
  let stat;
  try {
    ({ fd, stat } = openRegularSync(path.join(dir, MEMORY_FILE_NAME), { noFollow: true }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
    ownRuns(mine, key, journal, ctx);
    return { mine, journal };
  }
  try {
    if (stat.size > MAX_MEMORY_BYTES) return null;
    const index = readIndex(dir, cache);
    if (index && index.schemaVersion === SCHEMA_VERSION && describes(index, stat)) {
      mine.journal = journalStateOf(index.journal);
      // the edit events a run of it is judged with (what changed since its last failure)
      if (!readLists(fd, index, mine)) return null;
      const span = index.spans.find(s => s[0] === key);
      if (span) {
        const whole = approachAt(fd, key, span[1], span[2]);
        if (!whole) return null;
        putOwn(mine.approaches, key, whole);
      }
    } else {
      const view = wholeView(fd, stat.size);
      if (!view) return null;
      mine.journal = view.data.journal;
      for (const name of LISTS) (mine as unknown as Record<string, unknown>)[name] = view.data[name];
      const found = Object.prototype.hasOwnProperty.call(view.data.approaches, key) ? view.data.approaches[key] : undefined;
      if (found) putOwn(mine.approaches, key, found);
    }
    ownRuns(mine, key, journal, ctx);
    return { mine, journal };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The approach of `key` with the journal's pending runs of it applied, and the pattern records with
 * every pending failure's cause counted in (whether a success answers for a pattern does not depend
 * on the other approaches' histories, only on their keys).
 */
function ownView(mine: MemoryData, key: string, journal: JournalContents | undefined): { approach: Approach | undefined; patterns: PatternRecord[] } {
  const approach = Object.prototype.hasOwnProperty.call(mine.approaches, key) ? mine.approaches[key] : undefined;
  const records = { ...emptyMemory(), patterns: cloneList(mine.patterns) };
  for (const r of pendingRecords(mine, journal)) {
    const run = runRecordOf(r);
    if (!run || run.attempt.key === key || run.attempt.outcome !== 'failure') continue;
    const t = run.attempt;
    notePatternFailure(records, t, { key: t.key, label: t.command.split('\n')[0].slice(0, 200), cwd: t.cwd } as Approach);
  }
  return { approach, patterns: records.patterns ?? [] };
}

const cloneList = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? (JSON.parse(JSON.stringify(v)) as T[]) : []);

/** The approach of `key` in `mine` with the journal's pending runs of that approach applied. */
function ownRuns(mine: MemoryData, key: string, journal: JournalContents | undefined, ctx: Pick<ApplyContext, 'redact'>): Approach | undefined {
  for (const r of pendingRecords(mine, journal)) {
    if (recordKey(r) !== key) continue;
    try {
      applyRecord(mine, r, ctx);
    } catch {
      // left to the fold, which reports it
    }
  }
  return Object.prototype.hasOwnProperty.call(mine.approaches, key) ? mine.approaches[key] : undefined;
}

/** memory.json parsed whole and read as the store reads it; undefined when it is not a current, well-formed memory. */
function wholeView(fd: number, size: number): View | undefined {
  try {
    const raw = readSlice(fd, 0, size);
    if (typeof raw !== 'object' || raw === null || (raw as { schemaVersion?: unknown }).schemaVersion !== SCHEMA_VERSION) return undefined;
    return { data: migrateMemory(raw), sizeOf: approachBytes };
  } catch {
    return undefined;
  }
}
