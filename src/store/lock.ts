// A cross-process lock file next to the data it protects: `<file>.lock`, created with O_EXCL.
// Works between VS Code windows and the CLI on one machine, and (by age) across machines on a shared folder.

import { closeSync, constants, fstatSync, openSync, promises as fsp, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { kindOf } from './regularFile';

/** What a lock file holds (JSON). `token` tells our own lock from a newer one at the same path. */
export interface LockInfo {
  pid: number;
  host: string;
  time: string;
  token: string;
}

export interface LockOptions {
  /** Give up (LockTimeoutError) after waiting this long. */
  timeoutMs: number;
  /** A lock not refreshed for this long is stale and is broken. */
  staleMs: number;
  onWarning?: (message: string) => void;
  /** Default: the real clock. Tests of waiting and staleness pass a fake one so that they need not wait. */
  clock?: LockClock;
}

/**
 * Time as the lock sees it: when it waited, how old a lock is, how long to back off. The heartbeat's
 * interval stays a real timer (a holder must refresh its lock while it really works); the mtime it
 * writes comes from this clock, so that a fake clock judges ages in its own time.
 */
export interface LockClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: LockClock = { now: () => Date.now(), sleep };

/** The lock stayed held by someone else for the whole timeout. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  constructor(
    readonly lockPath: string,
    readonly holder: Partial<LockInfo> | undefined,
    readonly waitedMs: number,
  ) {
    super(`${lockPath} is held by ${describeHolder(holder)}; gave up after ${waitedMs} ms`);
  }
}

export function describeHolder(holder: Partial<LockInfo> | undefined): string {
  if (!holder || typeof holder.pid !== 'number') return 'another process';
  return `process ${holder.pid} on ${holder.host ?? 'an unknown host'}${holder.time ? ` since ${holder.time}` : ''}`;
}

/** A lock we hold. Its mtime is refreshed while held so that a slow holder is never mistaken for a dead one. */
export class HeldLock {
  private heartbeat: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    readonly path: string,
    readonly info: LockInfo,
    private readonly options: LockOptions,
  ) {
    const every = Math.max(50, Math.floor(options.staleMs / 3));
    const clock = options.clock ?? REAL_CLOCK;
    this.heartbeat = setInterval(() => {
      const now = new Date(clock.now());
      fsp.utimes(this.path, now, now).catch(() => undefined);
    }, every);
    this.heartbeat.unref();
  }

  /** True while the lock file is still ours (not broken as stale and re-taken by another process). */
  async stillHeld(): Promise<boolean> {
    const current = await readLock(this.path);
    return current?.info?.token === this.info.token;
  }

  /** Removes the lock file if it is still ours. Never throws. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    try {
      if (await this.stillHeld()) await fsp.unlink(this.path);
      else warn(this.options, `The lock ${this.path} was taken over by another process while this one held it.`);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') warn(this.options, `Could not remove the lock ${this.path}: ${(err as Error).message}`);
    }
  }
}

/**
 * Takes the lock at `lockPath`, waiting with jittered exponential backoff (5 ms doubling to 50 ms).
 * Breaks a stale lock: a dead pid on this host, not refreshed for staleMs by its mtime, or, whatever
 * its mtime says (a clock ahead, another host, a reused pid), not changed at all while this process
 * watched it for staleMs. Something that is not a lock file (a symbolic link, dangling or not) is
 * removed at once: locks are regular files. Throws LockTimeoutError when one holder kept the lock for
 * timeoutMs (waiting behind a queue of brief holders does not count), and rethrows
 * file-system errors other than EEXIST (EACCES, EROFS, ENOENT, ...).
 */
export async function acquireLock(lockPath: string, options: LockOptions): Promise<HeldLock> {
  // timeoutMs counts from the last time the lock changed hands: a queue of writers that each hold it
  // briefly is progress (16 processes at once), one holder that keeps it for timeoutMs is not
  const clock = options.clock ?? REAL_CLOCK;
  let started = clock.now();
  let holderKey: string | undefined;
  const token = randomHex(8);
  let backoff = 5;
  let holder: Partial<LockInfo> | undefined;
  let watched: { key: string; since: number } | undefined;
  for (;;) {
    const info: LockInfo = { pid: process.pid, host: hostname(), time: new Date(clock.now()).toISOString(), token };
    if (await tryCreate(lockPath, info)) return new HeldLock(lockPath, info, options);

    const seen = await readLock(lockPath);
    if (seen) {
      holder = seen.info;
      const who = `${seen.ino}:${seen.raw}`;
      if (holderKey !== undefined && holderKey !== who) started = clock.now();
      holderKey = who;
      const key = `${seen.ino}:${seen.mtimeMs}:${seen.raw}`;
      if (watched?.key !== key) watched = { key, since: clock.now() };
      const staleBecause = seen.notAFile ?? whyStale(seen, options.staleMs, clock.now(), clock.now() - watched.since);
      if (staleBecause && (await breakLock(lockPath, seen, staleBecause, options))) continue;
    }
    // nothing seen: released between our attempt and the look; back off anyway so that no state of
    // the file system can make this loop spin

    const waited = clock.now() - started;
    if (waited >= options.timeoutMs) throw new LockTimeoutError(lockPath, holder, waited);
    const jittered = backoff / 2 + Math.random() * backoff;
    await clock.sleep(Math.max(0, Math.min(jittered, options.timeoutMs - waited)));
    backoff = Math.min(backoff * 2, 50);
  }
}

/**
 * Takes the lock synchronously if it is free at this very moment; undefined when another holds it
 * (wait for it with acquireLock). The same lock file as acquireLock, without the heartbeat: for a
 * holder that keeps it for a few milliseconds (a hook appending one line), never near staleMs.
 */
export function tryLockSync(lockPath: string): LockInfo | undefined {
  const info: LockInfo = { pid: process.pid, host: hostname(), time: new Date().toISOString(), token: randomHex(8) };
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return undefined;
    throw err;
  }
  let written = false;
  try {
    writeSync(fd, JSON.stringify(info));
    written = true;
  } finally {
    closeSync(fd);
    // e.g. ENOSPC: no half-written lock left for others to wait on
    if (!written) unlinkQuietly(lockPath);
  }
  return info;
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/** Removes a lock taken with tryLockSync if it is still ours. Never throws. */
export function releaseSync(lockPath: string, info: LockInfo): void {
  let fd: number | undefined;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    if (fstatSync(fd).isFile() && parseLockInfo(readFileSync(fd, 'utf8'))?.token === info.token) unlinkSync(lockPath);
  } catch {
    // gone, or not ours: nothing to release
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Runs `fn` while holding the lock; the lock is released in every case. */
export async function withLock<T>(lockPath: string, options: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(lockPath, options);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

/**
 * Serializes async work on one key inside this process (two stores on the same file, or many
 * update() calls at once), so they queue in memory instead of polling the lock file.
 */
const queues = new Map<string, Promise<void>>();
export async function serialize<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>(resolve => (done = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    done();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

// ---------------------------------------------------------------------------------------------

interface SeenLock {
  raw: string;
  info: Partial<LockInfo> | undefined;
  ino: number;
  mtimeMs: number;
  /** Set when the path holds something that is not a lock file (a symbolic link): the reason to remove it. */
  notAFile?: string;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** Opening a lock file never waits: a FIFO in its place is not a lock (it is judged as "not a file"). */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  let handle;
  try {
    // O_EXCL never follows a symbolic link at the path; O_NOFOLLOW says so twice
    handle = await fsp.open(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(info), 'utf8');
    await handle.close();
    return true;
  } catch (err) {
    // e.g. ENOSPC: do not leave a half-written lock behind for others to wait on
    await handle.close().catch(() => undefined);
    await fsp.unlink(lockPath).catch(() => undefined);
    throw err;
  }
}

/** The lock file's content and identity, read through one handle (never through a symbolic link). */
async function readLock(lockPath: string): Promise<SeenLock | undefined> {
  let handle;
  try {
    handle = await fsp.open(lockPath, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO') {
      const st = await fsp.lstat(lockPath).catch(() => undefined);
      if (!st) return undefined;
      return { raw: '', info: undefined, ino: st.ino, mtimeMs: st.mtimeMs, notAFile: 'it is a symbolic link, not a lock file' };
    }
    throw err;
  }
  try {
    const st = await handle.stat();
    // a FIFO, a device or a folder is no lock: removed like a link (a folder cannot be, and says so)
    if (!st.isFile()) return { raw: '', info: undefined, ino: st.ino, mtimeMs: st.mtimeMs, notAFile: `it is ${kindOf(st)}, not a lock file` };
    const raw = await handle.readFile('utf8');
    return { raw, info: parseLockInfo(raw), ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function parseLockInfo(raw: string): Partial<LockInfo> | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial<LockInfo>) : undefined;
  } catch {
    return undefined; // empty while its creator is still writing it, or garbage: judged by age only
  }
}

function whyStale(seen: SeenLock, staleMs: number, now: number, unchangedForMs: number): string | undefined {
  const info = seen.info;
  if (info && typeof info.pid === 'number' && info.host === hostname() && isDead(info.pid)) {
    return `its process ${info.pid} is no longer running`;
  }
  // mtime is refreshed by the holder's heartbeat; the recorded time is a fallback for odd file systems
  const written = Date.parse(info?.time ?? '');
  const lastSign = Math.max(seen.mtimeMs, Number.isNaN(written) ? 0 : written);
  const age = now - lastSign;
  if (age > staleMs) return `it has not been refreshed for ${Math.round(age / 1000)} s`;
  // a live holder's heartbeat changes the mtime every staleMs/3: a lock that did not change at all
  // while we watched is stale, whatever its clock says (future mtime, another host, a reused pid)
  if (unchangedForMs > staleMs) return `it did not change for ${Math.round(unchangedForMs / 1000)} s (its holder is gone)`;
  return undefined;
}

function isDead(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return errnoCode(err) === 'ESRCH'; // EPERM: alive, owned by another user
  }
}

/**
 * Breaks a stale lock without racing another breaker or a new holder. Breakers serialize on
 * `<lock>.break` (O_EXCL; itself broken when older than staleMs). Holding it, the breaker re-reads
 * the lock and removes it only if it is still the very file judged stale (same inode and bytes): a
 * lock released and re-created in the meantime by a live process is never touched, so no live
 * holder ever loses its lock to a breaker (that was the "another process broke its lock" failure).
 */
async function breakLock(lockPath: string, seen: SeenLock, reason: string, options: LockOptions): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  let handle;
  try {
    handle = await fsp.open(breaker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    // another breaker is at work; a breaker lock left by a killed breaker is removed by age
    const st = await fsp.lstat(breaker).catch(() => undefined);
    if (st && (st.isSymbolicLink() || (options.clock ?? REAL_CLOCK).now() - st.mtimeMs > options.staleMs)) await fsp.unlink(breaker).catch(() => undefined);
    return false;
  }
  try {
    await handle.close();
    const now = await readLock(lockPath);
    if (!now) return true; // released meanwhile
    if (now.ino !== seen.ino || now.raw !== seen.raw || now.mtimeMs !== seen.mtimeMs) return false; // a new or refreshed lock
    try {
      await fsp.unlink(lockPath); // removes a symbolic link itself, never what it points to
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
    warn(options, `Broke a stale lock ${lockPath} held by ${describeHolder(seen.info)}: ${reason}.`);
    return true;
  } finally {
    await fsp.unlink(breaker).catch(() => undefined);
  }
}

function warn(options: LockOptions, message: string): void {
  try {
    options.onWarning?.(message);
  } catch {
    // a failing warning sink must never break the store
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * `bytes` random bytes as hex, for names and tokens that must differ between processes (temp files,
 * lock tokens, journal ids), never for secrets: node:crypto would cost every hook call a few ms to load.
 */
export function randomHex(bytes: number): string {
  let s = '';
  for (let i = 0; i < bytes; i++) s += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return s;
}

export function errnoCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
