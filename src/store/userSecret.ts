// The per-user secret that signs what Failure Memory keeps in the user's data folder (the gate's copy,
// the hooks' code cache) and the folder itself: ~/.failure-memory/state (FAILURE_MEMORY_STATE_DIR:
// tests, a special setup). node:crypto costs a hook a few ms to load: only a caller that signs or
// checks loads it. Small on purpose: dist/hook.js bundles it.

import { closeSync, constants, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularSync } from './regularFile';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The folder of the copies: FAILURE_MEMORY_STATE_DIR (tests, a special setup), else ~/.failure-memory/state. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FAILURE_MEMORY_STATE_DIR || join(homedir(), '.failure-memory', 'state');
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, on purpose
export const crypto = () => require('node:crypto') as typeof import('node:crypto');

/** The per-user secret of the HMAC; `create`: made on first use (0600 in a 0700 folder), a damaged one replaced. */
export function secret(dir: string, create: boolean): string | undefined {
  const file = join(dir, 'secret');
  let found: string | undefined;
  try {
    found = readRegularSync(file, 'utf8', { noFollow: true, maxBytes: 256 }).trim();
  } catch (e) {
    if (!create) return undefined;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(file, { force: true });
  }
  if (found !== undefined && /^[0-9a-f]{64}$/.test(found)) return found;
  if (!create) return undefined;
  if (found !== undefined) rmSync(file, { force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = crypto().randomBytes(32).toString('hex');
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  } catch (e) {
    // another process made it meanwhile: its secret is the one
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return secret(dir, false);
    throw e;
  }
  try {
    writeSync(fd, made);
  } finally {
    closeSync(fd);
  }
  return made;
}

/**
 * Writes a file of the user's data folder as a whole: a new file (0600, never through a link) renamed
 * over it, so that a reader sees the old file or the new one.
 */
export function writePrivate(file: string, ...parts: Array<string | Uint8Array>): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    for (const p of parts) {
      if (typeof p === 'string') writeSync(fd, p);
      else writeSync(fd, p);
    }
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** HMAC-SHA256 of `parts` under `key`, hex. */
export function hmac(key: string, ...parts: Array<string | Uint8Array>): string {
  const h = crypto().createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Whether a signature read from a file is the one expected (in constant time). */
export function sameMac(found: unknown, want: string): boolean {
  return typeof found === 'string' && found.length === want.length && crypto().timingSafeEqual(Buffer.from(found), Buffer.from(want));
}
