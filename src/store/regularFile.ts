// Reading a file Failure Memory did not necessarily write, without ever blocking on it. Opening a FIFO
// for reading waits for a writer (`mkfifo journal.jsonl` made every hook wait out its harness's 30 s
// timeout), and a device may never end: every file the hooks, the store, setup and doctor read is
// opened here with O_NONBLOCK and read only when fstat says it is a regular file. Anything else is
// refused with NotRegularFile and remembered, so that the hook's answer can say which file it skipped
// (takeSkipped). O_NONBLOCK changes nothing for a regular file. Small on purpose: the hooks load it.

import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync, type Stats } from 'node:fs';

const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** What a file that is not a regular file is, in words. */
export function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** A file found where Failure Memory reads that is not a regular file: never read. */
export class NotRegularFile extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file: Failure Memory does not read it`);
    this.name = 'NotRegularFile';
  }
}

const skipped = new Map<string, string>();

/** Notes a file that was not read (a FIFO, a device…), once per path, for the answer of this process. */
export function noteNotRegular(path: string, st: Stats): NotRegularFile {
  const e = new NotRegularFile(path, kindOf(st));
  if (!skipped.has(path) && skipped.size < 20) skipped.set(path, e.kind);
  return e;
}

/** The files this process found and did not read, since the last call (each once). */
export function takeSkipped(): Array<{ path: string; kind: string }> {
  const out = [...skipped].map(([path, kind]) => ({ path, kind }));
  skipped.clear();
  return out;
}

export interface RegularOptions {
  /** Refuse a symbolic link at the last step (ELOOP), as the memory folder's own files are read. */
  noFollow?: boolean;
}

/**
 * Opens a file for reading without blocking; throws NotRegularFile (the descriptor closed) when it is
 * not a regular file, and the fs error (ENOENT, ELOOP…) when it cannot be opened.
 */
export function openRegularSync(file: string, opts: RegularOptions = {}): { fd: number; stat: Stats } {
  const fd = openSync(file, constants.O_RDONLY | NONBLOCK | (opts.noFollow ? NOFOLLOW : 0));
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw noteNotRegular(file, stat);
  }
  return { fd, stat };
}

/** The bytes of an open regular file, up to `max` (undefined: larger than that). */
export function readOpenSync(fd: number, size: number, max = Infinity): Buffer | undefined {
  if (size > max) return undefined;
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * A regular file's whole content (as text with `encoding`), read without blocking: NotRegularFile for a
 * FIFO, socket or device, the fs error when it cannot be opened, RangeError when it is over `maxBytes`.
 */
export function readRegularSync(file: string, encoding: 'utf8', opts?: RegularOptions & { maxBytes?: number }): string;
export function readRegularSync(file: string, encoding?: undefined, opts?: RegularOptions & { maxBytes?: number }): Buffer;
export function readRegularSync(file: string, encoding?: 'utf8', opts: RegularOptions & { maxBytes?: number } = {}): string | Buffer {
  const { fd, stat } = openRegularSync(file, opts);
  try {
    const buf = readOpenSync(fd, stat.size, opts.maxBytes);
    if (!buf) throw new RangeError(`${file} is larger than ${opts.maxBytes} bytes`);
    return encoding ? buf.toString(encoding) : buf;
  } finally {
    closeSync(fd);
  }
}

/** The same, asynchronously: a handle on a regular file, or NotRegularFile (the handle closed). */
export async function openRegular(file: string, opts: RegularOptions = {}): Promise<{ handle: fsp.FileHandle; stat: Stats }> {
  const handle = await fsp.open(file, constants.O_RDONLY | NONBLOCK | (opts.noFollow ? NOFOLLOW : 0));
  let stat: Stats;
  try {
    stat = await handle.stat();
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
  if (!stat.isFile()) {
    await handle.close().catch(() => undefined);
    throw noteNotRegular(file, stat);
  }
  return { handle, stat };
}

/** A regular file's whole text, asynchronously (see readRegularSync). */
export async function readRegular(file: string, opts: RegularOptions = {}): Promise<string> {
  const { handle } = await openRegular(file, opts);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** O_NONBLOCK for a caller that opens a file itself (a FIFO opened to append would wait for a reader). */
export const O_NONBLOCK = NONBLOCK;
