// The hooks' V8 code cache (src/hookLoader.ts), kept only as Failure Memory wrote it. V8 accepts
// cached code for any source of the same length, so a cache file written by someone else could run
// other code in place of the hook: each file is named by a hash of the bundle it was made from, and
// carries an HMAC-SHA256 of that hash and of its bytes under the per-user secret (./userSecret.ts);
// a file that does not match is never given to V8, and is replaced by the next hook.
//   FMCACHE1 <sha-256 of the bundle> <hmac>\n<V8 cached data>
// What it does not stop: a program of the same user that reads the secret and signs its own cache,
// or that edits the bundle itself (both are files of that user; the pre hook refuses writes to them
// where it can see them, and doctor checks every cache file).

import { closeSync, constants, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularSync } from './regularFile';
import { crypto, hmac, sameMac, secret, stateDir } from './userSecret';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const MAGIC = 'FMCACHE1';
/** A cache file larger than this is not read (the hook bundles' caches are a few hundred KB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/** ~/.failure-memory/cache (FAILURE_MEMORY_CACHE_DIR: tests, a special setup). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FAILURE_MEMORY_CACHE_DIR || join(homedir(), '.failure-memory', 'cache');
}

export interface CacheKey {
  file: string;
  /** SHA-256 of the bundle's source, hex. */
  bundle: string;
}

/** Where the cache of a bundle with this source is: named by the bundle's hash, Node's version and the architecture. */
export function cacheKey(name: string, source: string, dir: string = cacheDir()): CacheKey {
  const bundle = crypto().createHash('sha256').update(source).digest('hex');
  return { file: join(dir, `${name}-${bundle.slice(0, 24)}-${process.version}-${process.arch}.v8`), bundle };
}

/** Splits a cache file: its bundle hash, its signature and the V8 data; undefined when it is not one. */
function parse(buf: Buffer): { bundle: string; mac: string; data: Buffer } | undefined {
  const nl = buf.indexOf(0x0a);
  if (nl < 0 || nl > 200) return undefined;
  const m = /^FMCACHE1 ([0-9a-f]{64}) ([0-9a-f]{64})$/.exec(buf.subarray(0, nl).toString('latin1'));
  return m ? { bundle: m[1], mac: m[2], data: buf.subarray(nl + 1) } : undefined;
}

/** The V8 data of a cache Failure Memory wrote for this very bundle; undefined for anything else. */
export function readCache(key: CacheKey, env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  let buf: Buffer;
  try {
    buf = readRegularSync(key.file, undefined, { noFollow: true, maxBytes: MAX_CACHE_BYTES });
  } catch {
    return undefined;
  }
  const c = parse(buf);
  const k = c && c.bundle === key.bundle ? secret(stateDir(env), false) : undefined;
  return k && sameMac(c!.mac, hmac(k, c!.bundle, c!.data)) ? c!.data : undefined;
}

/** Writes a bundle's cache, signed (a new file renamed over the old one, never through a link). */
export function writeCache(key: CacheKey, data: Buffer, env: NodeJS.ProcessEnv = process.env): void {
  const k = secret(stateDir(env), true)!;
  const dir = join(key.file, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${key.file}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${MAGIC} ${key.bundle} ${hmac(k, key.bundle, data)}\n`);
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, key.file);
}

/**
 * Every file of the cache folder that is not a cache Failure Memory signed (doctor): removed, named
 * in the answer. A hook never runs them; their removal only makes the folder say so no more.
 */
export function foreignCacheFiles(env: NodeJS.ProcessEnv = process.env, remove = true): string[] {
  const dir = cacheDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const k = secret(stateDir(env), false);
  const foreign: string[] = [];
  for (const name of names) {
    if (name.endsWith('.tmp')) continue;
    const file = join(dir, name);
    let ok = false;
    try {
      const c = parse(readRegularSync(file, undefined, { noFollow: true, maxBytes: MAX_CACHE_BYTES }));
      ok = !!c && !!k && sameMac(c.mac, hmac(k, c.bundle, c.data));
    } catch {
      // not a regular file, unreadable: not ours either
    }
    if (ok) continue;
    foreign.push(file);
    if (remove) rmSync(file, { force: true, recursive: false });
  }
  return foreign;
}
