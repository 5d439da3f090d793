// A cross-process lock file next to the data it protects: `<file>.lock`, created with O_EXCL.
// Works between VS Code windows and the CLI on one machine, and (by age) across machines on a shared folder.

import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';

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
}

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
    this.heartbeat = setInterval(() => {
      const now = new Date();
      utimes(this.path, now, now).catch(() => undefined);
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
      if (await this.stillHeld()) await unlink(this.path);
      else warn(this.options, `The lock ${this.path} was taken over by another process while this one held it.`);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') warn(this.options, `Could not remove the lock ${this.path}: ${(err as Error).message}`);
    }
  }
}

/**
 * Takes the lock at `lockPath`, waiting with jittered exponential backoff (5 ms doubling to 50 ms).
 * Breaks a stale lock (dead pid on this host, or not refreshed for staleMs). Throws LockTimeoutError
 * after timeoutMs, and rethrows file-system errors other than EEXIST (EACCES, EROFS, ENOENT, ...).
 */
export async function acquireLock(lockPath: string, options: LockOptions): Promise<HeldLock> {
  const started = Date.now();
  const token = randomBytes(8).toString('hex');
  let backoff = 5;
  let holder: Partial<LockInfo> | undefined;
  for (;;) {
    const info: LockInfo = { pid: process.pid, host: hostname(), time: new Date().toISOString(), token };
    if (await tryCreate(lockPath, info)) return new HeldLock(lockPath, info, options);

    const seen = await readLock(lockPath);
    if (!seen) continue; // released between our attempt and the look: try again at once
    holder = seen.info;
    const staleBecause = whyStale(seen, options.staleMs);
    if (staleBecause && (await breakLock(lockPath, seen, staleBecause, options))) continue;

    const waited = Date.now() - started;
    if (waited >= options.timeoutMs) throw new LockTimeoutError(lockPath, holder, waited);
    const jittered = backoff / 2 + Math.random() * backoff;
    await sleep(Math.min(jittered, options.timeoutMs - waited));
    backoff = Math.min(backoff * 2, 50);
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
}

async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx');
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
    await unlink(lockPath).catch(() => undefined);
    throw err;
  }
}

async function readLock(lockPath: string): Promise<SeenLock | undefined> {
  try {
    const [raw, st] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { raw, info: parseLockInfo(raw), ino: st.ino, mtimeMs: st.mtimeMs };
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
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

function whyStale(seen: SeenLock, staleMs: number): string | undefined {
  const info = seen.info;
  if (info && typeof info.pid === 'number' && info.host === hostname() && isDead(info.pid)) {
    return `its process ${info.pid} is no longer running`;
  }
  // mtime is refreshed by the holder's heartbeat; the recorded time is a fallback for odd file systems
  const written = Date.parse(info?.time ?? '');
  const lastSign = Math.max(seen.mtimeMs, Number.isNaN(written) ? 0 : written);
  const age = Date.now() - lastSign;
  if (age > staleMs) return `it has not been refreshed for ${Math.round(age / 1000)} s`;
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
 * Breaks a stale lock without racing another breaker: the lock is renamed to a unique name (only one
 * rename of a given file can succeed), then checked to be the very lock judged stale. If a fresh lock
 * was moved by mistake it is put back with link(), which fails if someone has taken the lock since.
 */
async function breakLock(lockPath: string, seen: SeenLock, reason: string, options: LockOptions): Promise<boolean> {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return true; // someone else broke or released it
    throw err;
  }
  let movedRaw: string | undefined;
  let movedIno: number | undefined;
  try {
    movedRaw = await readFile(aside, 'utf8');
    movedIno = (await stat(aside)).ino;
  } catch {
    // unreadable: treat as not the one we saw
  }
  if (movedRaw === seen.raw && movedIno === seen.ino) {
    await unlink(aside).catch(() => undefined);
    warn(options, `Broke a stale lock ${lockPath} held by ${describeHolder(seen.info)}: ${reason}.`);
    return true;
  }
  await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return false;
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

export function errnoCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
