// The hooks' V8 code cache (src/hookLoader.ts), kept only as Failure Memory wrote it. V8 accepts
// cached code for any source of the same length, so a cache file written by someone else could run
// other code in place of the hook: each file carries the SHA-256 of the bundle it was made from and
// an HMAC-SHA256 of that hash and of its bytes under the per-user secret (./userSecret.ts); a file
// that does not match is never given to V8, and the next hook writes a good one.
//   FMCACHE1 <sha-256 of the bundle> <hmac>\n<V8 cached data>
// A hook checks the signature when the bundle or the cache file changed since it was last checked
// (their identities, inode and times, are kept beside it in `<cache>.seen`): node:crypto, hashing
// the bundle and the cache cost a hook ~5 ms, about a fifth of what the cache saves, and are paid
// once per new bundle or cache file, never on every call.
// What it does not stop: a program of the same user that reads the secret and signs its own cache,
// or that rewrites `.seen` after its cache; or one that edits the bundle itself (both are files of
// that user; the pre hook refuses writes to them where it can see them, and doctor checks every
// cache file's signature).

import { closeSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { openRegularSync, readOpenSync, readRegularSync } from './regularFile';
import { crypto, hmac, sameMac, secret, stateDir, writePrivate } from './userSecret';

const MAGIC = 'FMCACHE1';
/** A cache file larger than this is not read (the hook bundles' caches are a few hundred KB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/** ~/.failure-memory/cache (FAILURE_MEMORY_CACHE_DIR: tests, a special setup). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FAILURE_MEMORY_CACHE_DIR || join(homedir(), '.failure-memory', 'cache');
}

/** The identity of one version of a file: a rewrite changes its inode or times. */
const identity = (st: Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

export interface CacheKey {
  file: string;
  bundle: string;
  /** The bundle's identity when the key was made. */
  bundleId: string;
}

/** Where the cache of a bundle is: named by the bundle (its name, size and times), Node's version and the architecture. */
export function cacheKey(bundle: string, name: string, dir: string = cacheDir()): CacheKey {
  const st = statSync(bundle);
  return { file: join(dir, `${name}-${st.size}-${Math.floor(st.mtimeMs)}-${st.ino}-${process.version}-${process.arch}.v8`), bundle, bundleId: identity(st) };
}

/** Splits a cache file: its bundle hash, its signature and the V8 data; undefined when it is not one. */
function parse(buf: Buffer): { bundle: string; mac: string; data: Buffer } | undefined {
  const nl = buf.indexOf(0x0a);
  if (nl < 0 || nl > 200) return undefined;
  const m = /^FMCACHE1 ([0-9a-f]{64}) ([0-9a-f]{64})$/.exec(buf.subarray(0, nl).toString('latin1'));
  return m ? { bundle: m[1], mac: m[2], data: buf.subarray(nl + 1) } : undefined;
}

const seenFile = (file: string) => `${file}.seen`;

function readSeen(file: string): string | undefined {
  try {
    return readRegularSync(seenFile(file), 'utf8', { noFollow: true, maxBytes: 512 });
  } catch {
    return undefined;
  }
}

/**
 * The V8 data of a cache Failure Memory wrote for this very bundle (`source`: its text, hashed only
 * when the signature has to be checked); undefined for anything else.
 */
export function readCache(key: CacheKey, source: () => string, env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  let buf: Buffer | undefined;
  let st: Stats;
  try {
    const opened = openRegularSync(key.file, { noFollow: true });
    st = opened.stat;
    try {
      buf = readOpenSync(opened.fd, st.size, MAX_CACHE_BYTES);
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return undefined;
  }
  const c = buf && parse(buf);
  if (!c) return undefined;
  const seen = `${key.bundleId}|${identity(st)}`;
  if (readSeen(key.file) === seen) return c.data;
  // the bundle or the cache file changed since a hook last checked them: the signature is checked now
  const k = secret(stateDir(env), false);
  if (!k || c.bundle !== crypto().createHash('sha256').update(source()).digest('hex') || !sameMac(c.mac, hmac(k, c.bundle, c.data))) return undefined;
  try {
    writePrivate(seenFile(key.file), seen);
  } catch {
    // checked again next time
  }
  return c.data;
}

/** Writes a bundle's cache, signed (a new file renamed over the old one, never through a link), and notes it checked. */
export function writeCache(key: CacheKey, source: string, data: Buffer, env: NodeJS.ProcessEnv = process.env): void {
  const k = secret(stateDir(env), true)!;
  const bundle = crypto().createHash('sha256').update(source).digest('hex');
  mkdirSync(join(key.file, '..'), { recursive: true, mode: 0o700 });
  writePrivate(key.file, `${MAGIC} ${bundle} ${hmac(k, bundle, data)}\n`, data);
  writePrivate(seenFile(key.file), `${key.bundleId}|${identity(lstatSync(key.file))}`);
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
    if (name.endsWith('.tmp') || name.endsWith('.seen')) continue;
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
    if (remove) for (const f of [file, seenFile(file)]) rmSync(f, { force: true });
  }
  return foreign;
}
