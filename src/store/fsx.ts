// File-system helpers shared by the JSON store (memory.json) and the vector store (vectors.*):
// atomic writes (temp file in the same folder, fsync, rename, the Windows rename retry), cleanup of
// temp files left by a killed writer, and the check that the memory folder stays inside the workspace.

import { constants, lstatSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { errnoCode, randomHex } from './lock';
import { MEMORY_DIR_NAME } from './paths';

/** How long a writer waits for another's lock: longer than a stale lock takes to be recognised. */
export const DEFAULT_LOCK_TIMEOUT_MS = 20_000;
/** A lock not refreshed (or not changed while watched) for this long is stale. */
export const DEFAULT_STALE_LOCK_MS = 10_000;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export async function exists(p: string): Promise<boolean> {
  try {
    await fsp.access(p);
    return true;
  } catch {
    return false;
  }
}

/** `.<name>.<pid>.<random>.tmp` next to `target`: recognisable by removeStaleTemps. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomHex(4)}.tmp`);
}

/**
 * Writes `data` to `target` atomically: a new temp file (O_EXCL, never through a symbolic link),
 * fsync (unless `sync: false`), then `beforeRename` (e.g. "is the lock still ours?"; throw to abort), then rename. The temp
 * file is removed on any failure.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, beforeRename?: () => Promise<void>, options: { sync?: boolean } = {}): Promise<void> {
  const temp = tempPathFor(target);
  try {
    const handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    try {
      await handle.writeFile(data);
      // the bytes are on disk before the rename makes them the file (derived files, rebuilt from it, skip this)
      if (options.sync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await beforeRename?.();
    await renameWithRetry(temp, target);
  } catch (err) {
    await fsp.unlink(temp).catch(() => undefined);
    throw err;
  }
}

export async function renameWithRetry(from: string, to: string): Promise<void> {
  // On Windows a reader holding the file open makes the rename fail briefly (EPERM/EBUSY).
  for (let attempt = 0; ; attempt++) {
    try {
      return await fsp.rename(from, to);
    } catch (err) {
      const code = errnoCode(err);
      const transient = process.platform === 'win32' && (code === 'EPERM' || code === 'EBUSY' || code === 'EACCES');
      if (!transient || attempt >= 10) throw err;
      await new Promise(resolve => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
}

/**
 * Inside the lock: removes temp files of `targets` left by a writer that was killed (kill -9, a
 * crash) between creating and renaming them. Writers create temp files only while holding the
 * lock, so every one found by the holder is an orphan. Returns how many were removed.
 */
export async function removeStaleTemps(dir: string, targets: string[], extraPrefixes: string[] = []): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  const isTemp = (n: string) =>
    targets.some(t => n.startsWith(`.${path.basename(t)}.`) && n.endsWith('.tmp')) || extraPrefixes.some(p => n.startsWith(p));
  let removed = 0;
  for (const n of names) {
    if (!isTemp(n)) continue;
    try {
      await fsp.unlink(path.join(dir, n));
      removed++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** For `<root>/.vscode/failure-memory`, `<root>`: the folder the memory must stay inside. */
export function workspaceRootOf(dir: string): string | undefined {
  const tail = path.join(...MEMORY_DIR_NAME.split('/'));
  const resolved = path.resolve(dir);
  return resolved.endsWith(path.sep + tail) ? resolved.slice(0, -(tail.length + 1)) : undefined;
}

/** The memory folder leaves the workspace through a symbolic link (or is not a folder). */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks that no component of `dir` below `root` is a symbolic link (or a file where a folder should
 * be): `.vscode/failure-memory` linked to another folder would make every write, move-aside and
 * clear happen outside the workspace. Missing components are fine (mkdir creates real folders).
 */
export async function assertInsideWithoutLinks(root: string, dir: string): Promise<void> {
  const rel = path.relative(root, dir);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return;
  let current = root;
  for (const part of rel.split(path.sep)) {
    current = path.join(current, part);
    let st;
    try {
      st = lstatSync(current); // two or three folders: no trip through the thread pool
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return;
      throw err;
    }
    if (st.isSymbolicLink()) {
      throw new UnsafePathError(current, `Failure Memory will not use ${current}: it is a symbolic link, and memory must stay inside the workspace folder (${root}). Replace it with a real folder (or remove it) to let Failure Memory keep a memory here.`);
    }
    if (!st.isDirectory()) {
      throw new UnsafePathError(current, `Failure Memory cannot use ${current}: it is a file, not a folder. Move it away to let Failure Memory keep a memory here.`);
    }
  }
}
