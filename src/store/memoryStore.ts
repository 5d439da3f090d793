// The workspace memory file, <workspace>/.vscode/failure-memory/memory.json, shared by every VS Code
// window and every CLI run on that folder. lowdb's Low drives a custom adapter (MemoryFileAdapter) so
// that we control: compact JSON, fsync before rename, a unique temp name per writer, a size guard,
// and keeping the exact bytes of a corrupt file. Writers serialize on memory.json.lock (see lock.ts)
// and always re-read inside the lock, so concurrent updates merge instead of overwriting each other.
// Beside it: the hooks' journal (journal.ts), applied by every read and folded in by every write, and
// memory.index.json (memoryIndex.ts), rewritten after every write.
// A long-lived process (the extension host, the MCP server) keeps the last memory it parsed or wrote,
// deep-frozen, and re-parses only when the file's stat changes (see `read`).

import { constants, type Stats } from 'node:fs';
import { lstat, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Adapter, Low as LowType } from 'lowdb' with { 'resolution-mode': 'import' };
import { applyRecord, foldedState, isKnownKind, pendingRecords, type JournalContents, type JournalRecord } from '../core/journal';
import { createRedactor } from '../core/text/redact';
import { emptyMemory, type Approach, type MemoryData, type PatternRecord } from '../core/types';
import { exists, removeStaleTemps, workspaceRootOf, writeFileAtomic } from './fsx';
import { cloneJson, deepFreeze } from './frozen';
import { MEMORY_FILE_NAME, migrateMemory } from './memorySchema';
import { fsError, StoreError } from './storeError';
import { errnoCode, type HeldLock, type LockClock } from './lock';
import { FOLD_BYTES, FOLD_RECORDS, journalFile, journalFrom, journalKey, MAX_JOURNAL_BYTES, type Appended, type JournalRead } from './journal';
import { indexText, INDEX_FILE_NAME, serializeMemory, type SerializedMemory } from './memoryIndex';
import { FolderLock } from './folderLock';
import { JournalStore, type RecordEffect, type SeenBefore } from './journalStore';
import { GateGuard } from './gateGuard';
import { kindOf, noteNotRegular, O_NONBLOCK } from './regularFile';

export { migrateMemory } from './memorySchema';
export { StoreError } from './storeError';

export { MEMORY_DIR_NAME, memoryDirFor } from './paths';
/** A memory.json larger than this is not parsed (moved aside instead). */
export const MAX_MEMORY_FILE_BYTES = 64 * 1024 * 1024;


export interface StoreOptions {
  /** How long update() waits for another process's lock. Default 20000 (longer than staleLockMs). */
  lockTimeoutMs?: number;
  /** A lock not refreshed for this long is broken. Default 10000. */
  staleLockMs?: number;
  /**
   * The workspace folder the memory folder must stay inside: a symbolic link on the way from it to
   * the memory folder is refused (StoreError UNSAFE_PATH) before anything is read, written or moved.
   */
  root?: string;
  /** The lock's time (waiting, staleness, backoff). Default: the real clock; tests pass a fake one. */
  lockClock?: LockClock;
  /** Corrupt file moved aside, stale lock broken, ... Default: process.emitWarning. */
  onWarning?: (message: string) => void;
  /** Turns parsed JSON into MemoryData. Default migrateMemory. Throw a StoreError to refuse the file untouched. */
  migrate?: (raw: unknown) => MemoryData;
  /**
   * Keep the last memory parsed or written and answer reads from it while memory.json's stat
   * (inode, size, mtime, ctime) is unchanged. Default true. Off, read() parses the file every time
   * and returns data the caller owns (for one-shot processes that read once: no freeze, no copy).
   */
  cache?: boolean;
  /** The clock that tells a file changed just now from an old one (the cache's "racily clean" check). Default Date.now. */
  now?: () => number;
  /** Redacts the fix lesson of a journaled run as it is applied (default: the built-in rules). */
  redact?: (text: string) => string;
  /**
   * The gate's copy in the user's data folder (./gateGuard.ts): kept equal to memory's exhausted
   * approaches by every write, and what memory lost behind Failure Memory's back put back. `via`
   * names this writer in the events (cli, extension, hook:claude post); false: no copy (an import
   * into a scratch folder, a replay). Default: on, as 'failure-memory'.
   */
  gate?: false | { via: string; by?: string; dir?: string; warnRestored?: boolean };
}

type Loaded =
  | { kind: 'missing' }
  | { kind: 'ok'; data: MemoryData; stat: Stats }
  | { kind: 'corrupt'; code: 'IO' | 'TOO_LARGE'; reason: string };

/** What WorkspaceMemory needs of a store: the file store below, or InMemoryStore (replay, tests). */
export interface MemoryStorePort {
  readonly dir: string;
  readonly file: string;
  /**
   * The current memory, shared with other readers: treat it as read-only (the file store and the
   * in-memory store hand out deep-frozen data; writing into it throws). Change memory with update().
   */
  read(): Promise<MemoryData>;
  update<T>(mutate: (data: MemoryData) => T | Promise<T>): Promise<T>;
  replace(data: MemoryData): Promise<void>;
  /** When memory (memory.json or its journal) last changed; undefined when there is none. */
  mtimeMs(): Promise<number | undefined>;
  /** Memory with only the approaches of `keys` loaded whole (a hook's read); absent: read() is used. */
  readFor?(keys: readonly string[]): Promise<MemoryData>;
  /** One approach as it stands, for a hook about to record a run of it (see JournalStore.readApproach). */
  readApproach?(key: string): Promise<{ approach: Approach | undefined; patterns?: PatternRecord[] }>;
  /** The gate's copy of this memory (absent: none; an in-memory store). */
  readonly gate?: GateGuard;
  /** Memory as its files hold it, without what the gate's copy puts back (read() gives that). */
  readAsIs?(): Promise<MemoryData>;
  /** Folds a long journal into memory.json unless another writer just did (see MemoryStore.foldJournal); absent: update(). */
  foldJournal?(): Promise<boolean>;
  /** Appends a record to the journal (a hook's write); absent: update() is used. See MemoryStore.appendRecord. */
  appendRecord?<T>(
    record: JournalRecord,
    about?: { key: string; apply: (view: MemoryData, sizeOf: (a: Approach) => number) => T },
    seen?: SeenBefore,
  ): Promise<{ result: T | undefined; appended: Appended } | undefined>;
}

export class MemoryStore implements MemoryStorePort {
  readonly dir: string;
  readonly file: string;
  private readonly lock: FolderLock;
  private readonly journal: JournalStore;
  private readonly migrate: (raw: unknown, file: string) => MemoryData;
  private readonly caching: boolean;
  private readonly now: () => number;
  /** The last memory parsed or written (deep-frozen) and the stat key of the file it is. */
  private cache: { key: string; data: MemoryData } | undefined;
  /** The cached memory with the journal's pending records applied, and the journal state it holds. */
  private withJournal: { base: MemoryData; key: string; data: MemoryData } | undefined;
  /** Inside a locked write: the journal being folded into memory.json (removed once memory.json holds it). */
  private folding: Pick<JournalContents, 'id' | 'bytes'> | undefined;
  private readonly redact: (text: string) => string;
  /** The gate's copy (undefined: off for this store). */
  readonly gate: GateGuard | undefined;

  constructor(dir: string, options: StoreOptions = {}) {
    this.dir = path.resolve(dir);
    this.file = path.join(this.dir, MEMORY_FILE_NAME);
    const root = options.root !== undefined ? path.resolve(options.root) : workspaceRootOf(this.dir);
    const onWarning = options.onWarning ?? ((message: string) => process.emitWarning(message, 'FailureMemoryWarning'));
    this.lock = new FolderLock(this.dir, this.file, { lockTimeoutMs: options.lockTimeoutMs, staleLockMs: options.staleLockMs, root, onWarning, lockClock: options.lockClock });
    this.migrate = options.migrate ?? migrateMemory;
    this.caching = options.cache ?? true;
    this.now = options.now ?? Date.now;
    this.redact = options.redact ?? (t => createRedactor().redact(t).text);
    this.gate = options.gate === false ? undefined : new GateGuard({ workspace: root ?? this.dir, via: 'failure-memory', ...options.gate, onWarning });
    this.journal = new JournalStore(this.lock, this.redact, this.gate);
  }

  /**
   * The current memory, without taking the lock (writes are atomic renames, so a read never sees half a
   * file). Missing file: empty memory. Corrupt or oversized file: moved aside (under the lock), a
   * warning, empty memory. Throws StoreError for a file from a newer Failure Memory or one that cannot
   * be read at all (permissions, a folder in its place).
   *
   * With the cache on (the default), an unchanged file is not read again: the memory parsed last (or
   * written last by this store) is returned as is, deep-frozen and shared by every caller — so the same
   * object comes back until the file changes, and recall can keep what it derives from it. The file
   * counts as unchanged while its inode, size, mtime and ctime are; our own writes refresh the cache.
   */
  async read(): Promise<MemoryData> {
    // the journal first: a fold landing between the two reads is then seen in memory.json, marked folded
    const journal = await readJournal(this.dir);
    return this.guarded(this.overlay(await this.readBase(), journal));
  }

  async readAsIs(): Promise<MemoryData> {
    const journal = await readJournal(this.dir);
    return this.overlay(await this.readBase(), journal);
  }

  /**
   * Memory as every door must see it: what it lost behind Failure Memory's back (the gate's copy
   * holds more) is put back in what this read returns; the next write keeps it, with the event.
   */
  private guarded(data: MemoryData): MemoryData {
    const lost = this.gate?.lostIn(data);
    if (!lost?.length) return data;
    const restored = this.gate!.restore(cloneJson(data), lost);
    return restored ? this.handOut(restored.data) : data;
  }

  /** memory.json alone (cached while unchanged), a corrupt one moved aside. */
  private async readBase(): Promise<MemoryData> {
    const cached = await this.fromCache();
    if (cached) return cached;
    const loaded = await this.load();
    if (loaded.kind === 'ok') return this.keep(loaded);
    if (loaded.kind === 'missing') return this.handOut(emptyMemory());
    try {
      return await this.lock.locked(async () => {
        const again = await this.load();
        if (again.kind === 'ok') return this.keep(again); // repaired by another process meanwhile
        if (again.kind === 'corrupt') await this.moveAside(again);
        return this.handOut(emptyMemory());
      });
    } catch (err) {
      if (err instanceof StoreError && (err.code === 'READ_ONLY' || err.code === 'LOCK_TIMEOUT')) {
        this.lock.warn(`${this.file} cannot be used (${loaded.reason}) and could not be moved aside: ${err.message} Starting with empty memory.`);
        return this.handOut(emptyMemory());
      }
      throw err;
    }
  }

  /** `base` with the journal's pending records applied (a copy when `base` is the shared cached memory). */
  private overlay(base: MemoryData, journal: JournalRead): MemoryData {
    const pending = pendingRecords(base, journal.kind === 'ok' ? journal.contents : undefined);
    if (!pending.length) return base;
    if (!this.caching) {
      this.applyPending(base, pending);
      return base;
    }
    const key = journalKey(journal);
    if (this.withJournal?.base === base && this.withJournal.key === key) return this.withJournal.data;
    const data = cloneJson(base);
    this.applyPending(data, pending);
    this.withJournal = { base, key, data: deepFreeze(data) };
    return this.withJournal.data;
  }

  /** Applies journal records in order; returns those of a kind this version cannot apply (carried by the fold). */
  private applyPending(data: MemoryData, records: JournalRecord[]): JournalRecord[] {
    const unknown: JournalRecord[] = [];
    for (const r of records) {
      if (!isKnownKind(r)) {
        unknown.push(r);
        continue;
      }
      let applied;
      try {
        applied = applyRecord(data, r, { redact: this.redact });
      } catch (err) {
        this.lock.warn(`A journaled record (${r.kind} ${r.id}) could not be applied and was left out: ${(err as Error).message}`);
        continue;
      }
      if (!applied) this.lock.warn(`A journaled record (${r.kind} ${r.id}) is not of the shape of its kind and was left out.`);
    }
    return unknown;
  }

  /** Memory for a hook deciding about `keys` (see JournalStore.readFor); the full read when memory.json needs it. */
  async readFor(keys: readonly string[]): Promise<MemoryData> {
    return (await this.journal.readFor(keys)) ?? cloneJson(await this.read());
  }

  /** One approach for a hook about to record a run of it (see JournalStore.readApproach); the full read when memory.json needs it. */
  async readApproach(key: string): Promise<{ approach: Approach | undefined; patterns: PatternRecord[] }> {
    const quick = await this.journal.readApproach(key);
    if (quick) return quick;
    const data = await this.read();
    return { approach: Object.prototype.hasOwnProperty.call(data.approaches, key) ? cloneJson(data.approaches[key]) : undefined, patterns: cloneJson(data.patterns ?? []) };
  }

  /** A hook's write into the journal (see JournalStore.appendRecord). */
  appendRecord<T>(record: JournalRecord, effect?: RecordEffect<T>, seen?: SeenBefore): Promise<{ result: T | undefined; appended: Appended } | undefined> {
    return this.journal.appendRecord(record, effect, seen);
  }

  /**
   * Takes the lock, re-reads the file, runs `mutate` on the data in place, bumps updatedAt and writes
   * atomically. Returns what `mutate` returns; if it throws, nothing is written.
   */
  async update<T>(mutate: (data: MemoryData) => T | Promise<T>): Promise<T> {
    return this.lock.locked(async lock => {
      const db = await this.openDb(lock);
      const result = await mutate(db.data);
      db.data.updatedAt = new Date().toISOString();
      await db.write();
      return result;
    });
  }

  /**
   * Folds the journal into memory.json when it is still long once the lock is taken (FOLD_RECORDS runs
   * or FOLD_BYTES): of the hooks that each saw it long after their own append, the first folds and the
   * others find it short and write nothing (each would otherwise rewrite the whole memory in turn,
   * under the lock every other hook waits for). True when it wrote.
   */
  async foldJournal(): Promise<boolean> {
    return this.lock.locked(async lock => {
      const journal = await readJournal(this.dir);
      if (journal.kind === 'ok' && journal.contents.entries.length < FOLD_RECORDS && journal.contents.bytes < FOLD_BYTES) return false;
      if (journal.kind === 'missing') return false;
      const db = await this.openDb(lock);
      db.data.updatedAt = new Date().toISOString();
      await db.write();
      return true;
    });
  }

  /** Replaces the whole memory (clear, import). A corrupt current file is still moved aside first. */
  async replace(data: MemoryData): Promise<void> {
    let next: MemoryData;
    try {
      next = this.migrate(data, this.file);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError('IO', this.file, `Failure Memory cannot replace ${this.file}: the new data is not valid memory (${(err as Error).message}).`, { cause: err });
    }
    await this.lock.locked(async lock => {
      const db = await this.openDb(lock);
      db.data = { ...next, updatedAt: new Date().toISOString() };
      await db.write();
    });
  }

  /** When memory last changed: memory.json or its journal (a hook's record), whichever is later; undefined when neither exists. */
  async mtimeMs(): Promise<number | undefined> {
    const times = await Promise.all([this.file, journalFile(this.dir)].map(f => stat(f).then(st => st.mtimeMs, () => undefined)));
    const known = times.filter((t): t is number => t !== undefined);
    return known.length ? Math.max(...known) : undefined;
  }

  // -------------------------------------------------------------------------------------------

  /** The cached memory if memory.json is still the file it was parsed from (or written as), else undefined. */
  private async fromCache(): Promise<MemoryData | undefined> {
    const cache = this.cache;
    if (!cache) return undefined;
    await this.lock.checkPath(); // a memory folder swapped for a symbolic link is refused, cache or not
    let st: Stats;
    try {
      st = await lstat(this.file);
    } catch {
      this.cache = undefined; // gone or unreadable: load() says which
      return undefined;
    }
    if (st.isFile() && statKey(st) === cache.key) return cache.data;
    this.cache = undefined;
    return undefined;
  }

  /** Freezes freshly loaded memory and keeps it, unless its file may still change within the same timestamp. */
  private keep(loaded: Extract<Loaded, { kind: 'ok' }>): MemoryData {
    if (!this.caching) return loaded.data;
    const data = deepFreeze(loaded.data);
    // "racily clean" (as git calls it): a file changed within the file system's timestamp granularity
    // of being read could be rewritten in place with the same size and stat; parse it again next time
    const changedAt = Math.max(loaded.stat.mtimeMs, loaded.stat.ctimeMs);
    if (this.now() - changedAt >= RACY_MS) this.cache = { key: statKey(loaded.stat), data };
    return data;
  }

  /** What read() returns when it did not load a file: frozen like the rest when caching (the same contract). */
  private handOut(data: MemoryData): MemoryData {
    return this.caching ? deepFreeze(data) : data;
  }

  /** One read: open, fstat (size guard), readFile, JSON.parse, migrate. */
  private async load(): Promise<Loaded> {
    let text: string;
    let st: Stats;
    await this.lock.checkPath();
    try {
      let handle;
      try {
        handle = await open(this.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | O_NONBLOCK);
      } catch (err) {
        // memory.json as a symbolic link: never read (nor show a byte of) whatever it points to
        if (errnoCode(err) === 'ELOOP') return { kind: 'corrupt', code: 'IO', reason: 'it is a symbolic link, not a file' };
        throw err;
      }
      try {
        st = await handle.stat();
        if (!st.isFile()) {
          throw new StoreError('IO', this.file, `Failure Memory cannot read ${this.file}: it is ${kindOf(st)}, not a regular file. Move it away to let Failure Memory start a new memory.`);
        }
        if (st.size > MAX_MEMORY_FILE_BYTES) {
          return { kind: 'corrupt', code: 'TOO_LARGE', reason: `it is ${formatMb(st.size)}, over the ${formatMb(MAX_MEMORY_FILE_BYTES)} limit` };
        }
        text = await handle.readFile('utf8');
      } finally {
        await handle.close().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof StoreError) throw err;
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };

      throw fsError(err, this.file, 'read');
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      // the message of JSON.parse quotes the file's first characters: say where, never what
      const at = /position (\d+)/.exec((err as Error).message)?.[1];
      return { kind: 'corrupt', code: 'IO', reason: `it is not valid JSON${at ? ` (at character ${at})` : ''}` };
    }
    try {
      return { kind: 'ok', data: this.migrate(raw, this.file), stat: st };
    } catch (err) {
      if (err instanceof StoreError) throw err;
      return { kind: 'corrupt', code: 'IO', reason: `it does not look like Failure Memory data (${(err as Error).message})` };
    }
  }

  /** A lowdb database over memory.json for one locked transaction. */
  private async openDb(lock: HeldLock): Promise<LowType<MemoryData>> {
    const { Low } = await loadLowdb();
    const db = new Low<MemoryData>(new MemoryFileAdapter(this, lock), emptyMemory());
    await db.read();
    return db;
  }



  /**
   * Inside the lock: the current data (the caller's own copy), a corrupt file having been moved
   * aside, with the journal's pending records applied: the write that follows folds them into
   * memory.json (null when there is neither memory.json nor a journal).
   */
  async loadLocked(): Promise<MemoryData | null> {
    this.folding = undefined;
    let journal = await readJournal(this.dir);
    if (journal.kind === 'corrupt') {
      this.journal.moveJournalAside(journal.reason);
      journal = { kind: 'missing' };
    }
    const base = await this.loadBaseLocked();
    const contents = journal.kind === 'ok' ? journal.contents : undefined;
    if (!contents && !base?.journal?.carried?.length) return this.gate ? this.gate.restoreForWrite(base) : base;
    const target = base ?? emptyMemory();
    const carried = this.applyPending(target, pendingRecords(target, contents));
    target.journal = { folded: target.journal?.folded ?? [], ...(carried.length ? { carried } : {}) };
    this.folding = contents && { id: contents.id, bytes: contents.bytes };
    return this.gate ? this.gate.restoreForWrite(target) : target;
  }

  private async loadBaseLocked(): Promise<MemoryData | null> {
    const cached = await this.fromCache();
    if (cached) return cloneJson(cached); // the update changes its copy, never the shared memory
    const loaded = await this.load();
    if (loaded.kind === 'ok') return loaded.data;
    if (loaded.kind === 'corrupt') await this.moveAside(loaded);
    return null;
  }

  /**
   * Inside the lock: atomic write of compact JSON (temp file in the same folder, fsync, rename); then
   * the folded journal is removed and the index rewritten.
   */
  async writeLocked(data: MemoryData, lock: HeldLock): Promise<void> {
    // the journal this write holds is marked as folded before it is removed: a crash in between never applies it twice
    const journal = foldedState(data.journal, this.folding, data.journal?.carried ?? []);
    if (journal) data.journal = journal;
    else delete data.journal;
    // compact on purpose: a 10k-attempt memory is several MB and is re-read on every check
    const written = serializeMemory(data);
    this.cache = undefined;
    try {
      // temp files of a writer killed mid-write (kill -9) are orphans now that we hold the lock
      await removeStaleTemps(this.dir, [this.file, this.indexFile]);
      if (!(await exists(this.file))) await this.writeGitignore();
      // what the gate's copy drops (a resolution, a clear) leaves it before memory.json changes
      this.gate?.beforeWrite(data);
      await writeFileAtomic(this.file, written.text, async () => {
        if (!(await lock.stillHeld().catch(() => false))) {
          throw new StoreError('LOCK_TIMEOUT', this.lock.lockFile, `Failure Memory did not write ${this.file}: another process broke its lock while this update was running (it took longer than ${this.lock.staleMs} ms). Nothing was written; try again.`);
        }
      });
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw fsError(err, this.dir, 'write');
    }
    if (this.folding) {
      await unlink(journalFile(this.dir)).catch(err => {
        if (errnoCode(err) !== 'ENOENT') this.lock.warn(`${journalFile(this.dir)} could not be removed after it was folded into ${this.file}: ${(err as Error).message}`);
      });
      this.folding = undefined;
    }
    const st = await lstat(this.file).catch(() => undefined);
    if (st?.isFile()) await this.writeIndex(data, written, st);
    // and what it gains (an exhaustion, a failure more) after
    this.gate?.afterWrite(data);
    // what was written is the memory now: a copy, since the writer's caller may still hold parts of `data`
    if (this.caching && st?.isFile()) this.cache = { key: statKey(st), data: deepFreeze(cloneJson(data)) };
  }

  private get indexFile(): string {
    return path.join(this.dir, INDEX_FILE_NAME);
  }

  /** The index of what was just written (derived data: not synced; a reader that finds it stale reads memory.json whole). */
  private async writeIndex(data: MemoryData, written: SerializedMemory, st: Stats): Promise<void> {
    try {
      await writeFileAtomic(this.indexFile, indexText(data, written, st), undefined, { sync: false });
    } catch {
      // readers fall back to memory.json: only slower
    }
  }


  /** `.gitignore` with `*` so memory is never committed by accident; an existing one is kept as is. */
  private async writeGitignore(): Promise<void> {
    try {
      await writeFile(path.join(this.dir, '.gitignore'), '*\n', { flag: 'wx' });
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }

  /** Inside the lock: renames the unusable file to memory.json.corrupt-<time>, keeping its exact bytes. */
  private async moveAside(loaded: Extract<Loaded, { kind: 'corrupt' }>): Promise<void> {
    const stamp = new Date().toISOString().replace(/:/g, '-');
    let target = `${this.file}.corrupt-${stamp}`;
    for (let n = 1; await exists(target); n++) target = `${this.file}.corrupt-${stamp}-${n}`;
    try {
      await rename(this.file, target);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return;
      throw fsError(err, this.dir, 'write');
    }
    const what = loaded.code === 'TOO_LARGE' ? 'too large to load' : 'corrupt';
    this.lock.warn(`[${loaded.code}] ${this.file} was ${what} (${loaded.reason}). It was saved as ${target} and Failure Memory started a new, empty memory.`);
  }

}

/** lowdb adapter over memory.json; only used inside the lock. */
class MemoryFileAdapter implements Adapter<MemoryData> {
  constructor(
    private readonly store: MemoryStore,
    private readonly lock: HeldLock,
  ) {}
  read(): Promise<MemoryData | null> {
    return this.store.loadLocked();
  }
  write(data: MemoryData): Promise<void> {
    return this.store.writeLocked(data, this.lock);
  }
}

// lowdb is ESM-only and this package compiles as CommonJS: a static import is TS1479 under tsc.
// A dynamic import type-checks, runs under tsx, and esbuild inlines it into the CJS bundle.
let lowdb: Promise<typeof import('lowdb', { with: { 'resolution-mode': 'import' } })> | undefined;
function loadLowdb(): Promise<typeof import('lowdb', { with: { 'resolution-mode': 'import' } })> {
  lowdb ??= import('lowdb');
  return lowdb;
}

// ---------------------------------------------------------------------------------------------
// File-system helpers

/** Reads the journal beside memory.json without blocking (the hooks read it synchronously), never through a symbolic link. */
async function readJournal(dir: string): Promise<JournalRead> {
  let handle;
  try {
    handle = await open(journalFile(dir), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | O_NONBLOCK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'corrupt', reason: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'corrupt', reason: noteNotRegular(journalFile(dir), stat).message, stat };
    return journalFrom(stat.size > MAX_JOURNAL_BYTES ? undefined : await handle.readFile(), stat);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * A file changed less than this long before it was read is not cached (see MemoryStore.keep): file
 * systems stamp times coarsely (a few ms on Linux, 2 s on FAT), and an in-place rewrite within the same
 * stamp, at the same size, would otherwise go unnoticed. Our own writes rename a new file into place.
 */
const RACY_MS = 2000;

/** Identity of one version of memory.json: a rewrite renames a new inode in; an edit in place changes size or times. */
function statKey(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
