// The memory folder's lock, as every writer of it takes it (memory.json's rewrite, the journal's
// append): memory.json.lock (see lock.ts), taken after checking that the folder stays inside the
// workspace without a symbolic link and creating it, with the store's messages for a person.

import { promises as fsp } from 'node:fs';
import { assertInsideWithoutLinks, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STALE_LOCK_MS, UnsafePathError } from './fsx';
import { acquireLock, describeHolder, errnoCode, LockTimeoutError, serialize, type HeldLock, type LockClock } from './lock';
import { fsError, StoreError } from './storeError';

export interface FolderLockOptions {
  lockTimeoutMs?: number;
  staleLockMs?: number;
  /** The workspace folder the memory folder must stay inside (no symbolic link on the way). */
  root?: string;
  onWarning: (message: string) => void;
  /** Default: the real clock (see LockClock). */
  lockClock?: LockClock;
}

export class FolderLock {
  readonly lockFile: string;
  readonly timeoutMs: number;
  readonly staleMs: number;

  constructor(
    readonly dir: string,
    /** The file the lock protects (named in messages): memory.json. */
    readonly file: string,
    private readonly options: FolderLockOptions,
  ) {
    this.lockFile = `${file}.lock`;
    this.timeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.staleMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  }

  /** Runs `fn` under the in-process queue and the cross-process lock, creating the folder first. */
  locked<T>(fn: (lock: HeldLock) => Promise<T>): Promise<T> {
    return serialize(this.lockFile, async () => {
      const lock = await this.acquire();
      try {
        return await fn(lock);
      } finally {
        await lock.release();
      }
    });
  }

  /** Refuses a memory folder reached through a symbolic link (StoreError UNSAFE_PATH). */
  async checkPath(): Promise<void> {
    if (!this.options.root) return;
    try {
      await assertInsideWithoutLinks(this.options.root, this.dir);
    } catch (err) {
      if (err instanceof UnsafePathError) throw new StoreError('UNSAFE_PATH', err.path, err.message, { cause: err });
      throw fsError(err, this.dir, 'read');
    }
  }

  warn(message: string): void {
    try {
      this.options.onWarning(message);
    } catch {
      // a failing warning sink must never break the store
    }
  }

  private async acquire(): Promise<HeldLock> {
    const options = { timeoutMs: this.timeoutMs, staleMs: this.staleMs, onWarning: (m: string) => this.warn(m), clock: this.options.lockClock };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.checkPath();
        await fsp.mkdir(this.dir, { recursive: true });
        return await acquireLock(this.lockFile, options);
      } catch (err) {
        // the folder was deleted (e.g. memory cleared by hand) between mkdir and the lock: once more
        if (errnoCode(err) === 'ENOENT' && attempt === 0) continue;
        if (err instanceof StoreError) throw err;
        if (err instanceof LockTimeoutError) {
          throw new StoreError('LOCK_TIMEOUT', this.lockFile, `Failure Memory could not lock ${this.file}: it is in use by ${describeHolder(err.holder)} and was not released within ${Math.round(err.waitedMs / 100) / 10} s. Nothing was written; try again. If no other Failure Memory is running, delete ${this.lockFile}.`, { cause: err });
        }
        throw fsError(err, this.dir, 'write');
      }
    }
  }
}
