// The background sync's lock (team-sync.lock beside memory.json): a burst of hooks starts one sync,
// not fifty. The caller that creates the file (O_EXCL) is the one that starts the sync process, and
// hands it the lock's token; the process takes the lock over, refreshes its mtime while it runs and
// removes it when it ends. A lock whose process died (its pid is gone on this host) or that was not
// refreshed for SYNC_LOCK_STALE_MS is broken by the next caller. Synchronous and small on purpose: a
// hook calls claimSyncLock on its way out, and it must cost a couple of system calls.

import { closeSync, constants, mkdirSync, openSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { readRegularSync } from '../regularFile';

export const SYNC_LOCK_FILE = 'team-sync.lock';
/** A lock not refreshed for this long is taken to be left over by a process that died. */
export const SYNC_LOCK_STALE_MS = 30_000;

interface SyncLockInfo {
  pid: number;
  host: string;
  token: string;
  /** 'starting': created by the caller that spawns the sync; 'running': taken over by the sync. */
  state: 'starting' | 'running';
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function read(file: string): { info?: Partial<SyncLockInfo>; mtimeMs: number } | undefined {
  try {
    const mtimeMs = statSync(file).mtimeMs;
    let info: Partial<SyncLockInfo> | undefined;
    try {
      info = JSON.parse(readRegularSync(file, 'utf8', { noFollow: true })) as Partial<SyncLockInfo>;
    } catch {
      // torn or foreign: judged by its age alone
    }
    return { info, mtimeMs };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function stale(seen: { info?: Partial<SyncLockInfo>; mtimeMs: number }, now: number): boolean {
  if (now - seen.mtimeMs > SYNC_LOCK_STALE_MS) return true;
  const { info } = seen;
  return !!info && info.host === hostname() && typeof info.pid === 'number' && info.state === 'running' && !alive(info.pid);
}

function create(file: string, info: SyncLockInfo): boolean {
  let fd: number;
  const open = () => openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  try {
    fd = open();
  } catch (e) {
    // EEXIST (held) or a folder we cannot write: either way, no sync from here
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      fd = open();
    } catch {
      return false;
    }
  }
  try {
    writeSync(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Whether a sync holds the lock now (a fresh lock file whose process lives). */
export function syncRunning(memoryDir: string, now = Date.now()): boolean {
  const seen = read(path.join(memoryDir, SYNC_LOCK_FILE));
  return !!seen && !stale(seen, now);
}

/**
 * Claims the lock for a sync about to be started: its token, or undefined when a sync runs already
 * (or the folder cannot be written). A stale lock is broken once.
 */
export function claimSyncLock(memoryDir: string, now = Date.now()): string | undefined {
  const file = path.join(memoryDir, SYNC_LOCK_FILE);
  // node:crypto loaded only here, when a sync is about to start: a hook pays nothing for it otherwise
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const token = (require('node:crypto') as typeof import('node:crypto')).randomBytes(8).toString('hex');
  const info: SyncLockInfo = { pid: process.pid, host: hostname(), token, state: 'starting' };
  if (create(file, info)) return token;
  const seen = read(file);
  if (!seen || !stale(seen, now)) return undefined;
  try {
    unlinkSync(file);
  } catch {
    return undefined;
  }
  return create(file, info) ? token : undefined;
}

/** Gives up a claim whose sync could not be started. */
export function dropSyncLock(memoryDir: string, token: string): void {
  const file = path.join(memoryDir, SYNC_LOCK_FILE);
  if (read(file)?.info?.token !== token) return;
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/** The sync process's hold on the lock: taken over from its claimer by the token, refreshed while it runs. */
export class SyncLock {
  private readonly file: string;
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(
    memoryDir: string,
    readonly token: string,
  ) {
    this.file = path.join(memoryDir, SYNC_LOCK_FILE);
  }

  /** Takes over the claim `token` (or claims the lock anew without one); undefined when another holds it. */
  static take(memoryDir: string, token?: string): SyncLock | undefined {
    const t = token ?? claimSyncLock(memoryDir);
    if (!t) return undefined;
    const lock = new SyncLock(memoryDir, t);
    if (read(lock.file)?.info?.token !== t) return undefined;
    writeFileSync(lock.file, JSON.stringify({ pid: process.pid, host: hostname(), token: t, state: 'running' } satisfies SyncLockInfo));
    lock.timer = setInterval(() => lock.refresh(), SYNC_LOCK_STALE_MS / 4);
    lock.timer.unref();
    return lock;
  }

  refresh(): void {
    try {
      const now = new Date();
      utimesSync(this.file, now, now);
    } catch {
      // removed under us: release() finds out
    }
  }

  /** Whether the lock file is still this process's (not broken as stale and taken by another). */
  held(): boolean {
    return read(this.file)?.info?.token === this.token;
  }

  release(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.held()) dropSyncLock(path.dirname(this.file), this.token);
  }
}
