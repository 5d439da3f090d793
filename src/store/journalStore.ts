// A hook's side of the store: memory read for a few approaches (see quickView.ts) and a run
// appended to the journal (see journal.ts), without parsing or rewriting memory.json and without
// the store's writer (MemoryStore uses this for the same two things). Small on purpose: the hooks'
// bundle loads it.

import { existsSync, renameSync } from 'node:fs';
import { applyRecord, recordKey, type JournalRecord } from '../core/journal';
import { runRecordOf } from '../core/storedShapes';
import { approachBytes } from '../core/memory';
import { emptyMemory, type Approach, type MemoryData, type PatternRecord } from '../core/types';
import type { FolderLock } from './folderLock';
import { appendRecordLocked, journalFile, readJournalSync, type Appended } from './journal';
import { errnoCode, releaseSync, tryLockSync } from './lock';
import { cloneJson } from './frozen';
import type { GateGuard } from './gateGuard';
import { readApproach, readOwn, readView, type IndexCache } from './quickView';
import { fsError, StoreError } from './storeError';

/** The approach of a run as its writer read it just before taking the lock (undefined: it was not in memory). */
export interface SeenBefore {
  approach: Approach | undefined;
}

/**
 * Whether a run may make its approach exhausted or no longer exhausted, judged from the approach as
 * its writer read it before the lock (none given: it may): a success of an approach that was not
 * exhausted, a failure well below the threshold, or one more failure of an exhausted one, cannot. The margin covers runs of the same
 * approach appended by other hooks between that read and the lock; a fold puts the copy right anyway.
 */
function mayChangeGate(record: JournalRecord, seen: SeenBefore | undefined): boolean {
  const run = runRecordOf(record);
  if (!seen || !run) return true;
  const a = seen.approach;
  // an exhausted approach stays exhausted through another failure (the copy keeps the evidence it was exhausted with)
  if (a?.status === 'exhausted') return run.attempt.outcome === 'success' || run.attempt.outcome === 'unknown';
  return run.attempt.outcome === 'failure' && (a?.failures ?? 0) + 3 >= run.settings.threshold;
}

/** What a record does to memory, told from memory as it stands (only the approach of `key` loaded whole). */
export interface RecordEffect<T> {
  key: string;
  apply: (view: MemoryData, sizeOf: (a: Approach) => number) => T;
}

export class JournalStore {
  private readonly indexCache: IndexCache = {};

  constructor(
    private readonly lock: FolderLock,
    /** Redacts the fix lesson of a journaled run as a reader applies it. */
    private readonly redact: (text: string) => string,
    /** The gate's copy, kept equal to memory's exhausted approaches by every append (none: off). */
    private readonly gate?: GateGuard,
  ) {}

  get dir(): string {
    return this.lock.dir;
  }

  /**
   * Memory with only the approaches of `keys` (and those the journal touches) loaded whole, the
   * others as their index entries (see quickView.ts): what a hook needs to decide for one command.
   * Not cached, not frozen: the caller's own. undefined: memory.json needs the store's full read
   * (an older schema, damaged, no usable file).
   */
  async readFor(keys: readonly string[]): Promise<MemoryData | undefined> {
    await this.lock.checkPath();
    const view = readView(this.dir, keys, { redact: this.redact }, this.indexCache);
    return view === null ? emptyMemory() : view?.data;
  }

  /**
   * One approach as it stands for a writer about to record a run of it (see quickView.readApproach):
   * whether it exists and its own history, without the rest of memory. undefined: memory.json needs
   * the store's full read.
   */
  async readApproach(key: string): Promise<{ approach: Approach | undefined; patterns: PatternRecord[] } | undefined> {
    await this.lock.checkPath();
    return readApproach(this.dir, key, { redact: this.redact }, this.indexCache) ?? undefined;
  }

  /**
   * A hook's write: appends the record to the journal under memory.json's lock; memory.json is not
   * rewritten (the next full write folds the journal into it). With `effect`, it is first told what
   * the record does from memory as it stands under the lock. undefined (nothing written): memory.json
   * needs the store's full read for that (an older schema, damaged); write with the store instead.
   */
  async appendRecord<T>(record: JournalRecord, effect?: RecordEffect<T>, seen?: SeenBefore): Promise<{ result: T | undefined; appended: Appended } | undefined> {
    await this.lock.checkPath();
    // the usual case, a free lock, in one synchronous go: held for a fraction of a millisecond
    const quick = existsSync(this.dir) ? tryLockSync(this.lock.lockFile) : undefined;
    if (quick) {
      try {
        return this.appendHeld(record, effect, seen);
      } finally {
        releaseSync(this.lock.lockFile, quick);
      }
    }
    return this.lock.locked(async held => {
      if (!(await held.stillHeld().catch(() => false))) {
        throw new StoreError('LOCK_TIMEOUT', this.lock.lockFile, `Failure Memory did not record into ${journalFile(this.dir)}: another process broke its lock meanwhile. Nothing was written; try again.`);
      }
      return this.appendHeld(record, effect, seen);
    });
  }

  /** Inside the lock: a journal that is not one (a damaged first line, a link) is renamed aside, its bytes kept. */
  moveJournalAside(reason: string): void {
    const file = journalFile(this.dir);
    const target = `${file}.corrupt-${new Date().toISOString().replace(/:/g, '-')}`;
    try {
      renameSync(file, target);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return;
      throw fsError(err, this.dir, 'write');
    }
    this.lock.warn(`[IO] ${file} could not be used (${reason}). It was saved as ${target}; the runs it held are not in memory.`);
  }

  private appendHeld<T>(record: JournalRecord, effect?: RecordEffect<T>, seen?: SeenBefore): { result: T | undefined; appended: Appended } | undefined {
    let journal = readJournalSync(this.dir);
    if (journal.kind === 'corrupt') {
      this.moveJournalAside(journal.reason);
      journal = { kind: 'missing' };
    }
    let result: T | undefined;
    if (effect) {
      const view = readView(this.dir, [effect.key], { redact: this.redact }, this.indexCache);
      if (view === undefined) return undefined;
      result = view ? effect.apply(view.data, view.sizeOf) : effect.apply(emptyMemory(), approachBytes);
    }
    const change = this.gate && mayChangeGate(record, seen) ? this.gateChange(record) : undefined;
    if (change) this.gate!.beforeAppend(change.before, change.after);
    let appended: Appended;
    try {
      appended = appendRecordLocked(this.dir, record, journal);
    } catch (err) {
      throw fsError(err, this.dir, 'write');
    }
    if (change) this.gate!.afterAppend(change.after, change.before);
    return { result, appended };
  }

  /**
   * What a run does to its approach's status (read under the lock: its own history, the lists it is
   * judged with), for the gate's copy; undefined when it cannot change it (a run of a command that is
   * neither exhausted nor failing).
   */
  private gateChange(record: JournalRecord): { before: Approach | undefined; after: Approach | undefined } | undefined {
    const key = recordKey(record);
    if (key === undefined) return undefined;
    const own = readOwn(this.dir, key, { redact: this.redact }, this.indexCache);
    if (!own) return undefined;
    const before = Object.prototype.hasOwnProperty.call(own.approaches, key) ? cloneJson(own.approaches[key]) : undefined;
    try {
      applyRecord(own, record, { redact: this.redact });
    } catch {
      return undefined;
    }
    const after = Object.prototype.hasOwnProperty.call(own.approaches, key) ? own.approaches[key] : undefined;
    return before?.status === 'exhausted' || after?.status === 'exhausted' ? { before, after } : undefined;
  }
}
