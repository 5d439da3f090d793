// Git context of a run: HEAD, branch and a fingerprint of the working tree's changes, read with one
// `git status` after the run (never before it, never on the check path), bounded in time and size.
// No git, not a repository, a slow or broken git: no context, no error.

import { closeSync, constants, existsSync, fstatSync, openSync, promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { mayHoldOnlyOwnFiles, userFiles } from '../core/ownFiles';
import type { GitState } from '../core/types';
import { O_NONBLOCK } from './regularFile';
import { SETTINGS_FILE, settingsWithoutOwnKeys } from './workspaceSettings';

/** Changed paths kept (and hashed) per run. */
export const MAX_DIRTY_FILES = 32;
/** Files larger than this are fingerprinted by size and modification time, not read. */
const MAX_HASHED_BYTES = 1024 * 1024;
const MAX_STATUS_BYTES = 1024 * 1024;
const MAX_COMMITTED_FILES = 50;

export interface GitOptions {
  /** Each git call is killed after this long. Default 1500 ms. */
  timeoutMs?: number;
  /** The git program. Default 'git'. */
  git?: string;
  /**
   * Wait for git synchronously (a one-shot process, a hook, has nothing else to do meanwhile: this
   * spares it the asynchronous child-process machinery, a few ms per run). Never in a long-lived process.
   */
  sync?: boolean;
}

/**
 * A SHA-1 hasher from node:crypto. node:crypto and node:child_process are loaded on first use rather
 * than with the module: loading them costs a hook call a few milliseconds, and only a run in a
 * repository uses them.
 */
function sha1(): import('node:crypto').Hash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when needed, on purpose
  return (require('node:crypto') as typeof import('node:crypto')).createHash('sha1');
}

function run(args: string[], cwd: string, o: GitOptions): Promise<string | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when git runs (not in a folder without git)
  const cp = require('node:child_process') as typeof import('node:child_process');
  const options = {
    cwd,
    timeout: o.timeoutMs ?? 1500,
    maxBuffer: MAX_STATUS_BYTES,
    windowsHide: true,
    encoding: 'utf8' as const,
    // no index refresh lock taken by a read (another git in the same repository never waits on us),
    // no pager, no prompt for credentials (status never needs the network anyway)
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
    ...(o.sync ? { stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'] } : {}),
  };
  if (o.sync) {
    try {
      return Promise.resolve(cp.execFileSync(o.git ?? 'git', args, options));
    } catch {
      return Promise.resolve(undefined); // not a repository, no git, too slow: no context
    }
  }
  return new Promise(resolve => {
    try {
      cp.execFile(o.git ?? 'git', args, options, (err, stdout) => resolve(err ? undefined : stdout));
    } catch {
      resolve(undefined); // git missing on some platforms throws synchronously
    }
  });
}

/** Parses `git status --porcelain=v2 --branch -z`: HEAD, branch and the changed paths. */
export function parseStatus(out: string): { head: string; branch?: string; paths: string[]; ignored: string[] } {
  let head = '';
  let branch: string | undefined;
  const paths: string[] = [];
  const ignored: string[] = [];
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (!r) continue;
    if (r.startsWith('# branch.oid ')) {
      const oid = r.slice('# branch.oid '.length).trim();
      head = /^[0-9a-f]{7,64}$/.test(oid) ? oid : '';
    } else if (r.startsWith('# branch.head ')) {
      const b = r.slice('# branch.head '.length).trim();
      if (b && b !== '(detached)') branch = b;
    } else if (r.startsWith('1 ')) {
      paths.push(field(r, 8));
    } else if (r.startsWith('2 ')) {
      paths.push(field(r, 9));
      i++; // the original path of a rename follows as its own record
    } else if (r.startsWith('u ')) {
      paths.push(field(r, 10));
    } else if (r.startsWith('? ')) {
      paths.push(r.slice(2));
    } else if (r.startsWith('! ')) {
      ignored.push(r.slice(2));
    }
  }
  return { head, branch, paths: paths.filter(Boolean), ignored };
}

/** The path of a porcelain v2 record: everything after the first `n` space-separated fields. */
function field(r: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) {
    at = r.indexOf(' ', at) + 1;
    if (at === 0) return '';
  }
  return r.slice(at);
}

/** A file's content hash as a run's git state gives it ('deleted' when it is gone): what an edit left. */
export function fileHash(file: string): string {
  return contentHashSync(file);
}

/**
 * The short hash of a file's content; a workspace's settings.json is hashed without Failure
 * Memory's own settings (changing the threshold is no change of the code).
 */
function hashOf(file: string, content: Buffer): string {
  const text = file.replace(/\\/g, '/').endsWith(`/${SETTINGS_FILE}`) ? settingsWithoutOwnKeys(content.toString('utf8')) : content;
  return sha1().update(text).digest('hex').slice(0, 12);
}

/** contentHash without the asynchronous file machinery (a one-shot process: see GitOptions.sync). */
function contentHashSync(file: string): string {
  let fd: number | undefined;
  try {
    // never blocking: a FIFO among the changed files is hashed as what it is, never opened for a writer
    fd = openSync(file, constants.O_RDONLY | O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return 'not-a-file';
    if (st.size > MAX_HASHED_BYTES) return `size:${st.size}:${Math.round(st.mtimeMs)}`;
    return hashOf(file, readFileSync(fd));
  } catch {
    return 'deleted';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function contentHash(file: string): Promise<string> {
  let handle;
  try {
    handle = await fsp.open(file, constants.O_RDONLY | O_NONBLOCK);
    const st = await handle.stat();
    if (!st.isFile()) return 'not-a-file';
    if (st.size > MAX_HASHED_BYTES) return `size:${st.size}:${Math.round(st.mtimeMs)}`;
    return hashOf(file, await handle.readFile());
  } catch {
    return 'deleted';
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The git state of the repository holding `folder`, or undefined (no git, not a repository, too slow).
 * Paths are relative to the repository root.
 */
export async function readGitState(folder: string, o: GitOptions = {}): Promise<GitState | undefined> {
  // not inside a repository (no .git up the tree): no git process at all
  const top = findRepositoryRoot(folder);
  if (top === undefined) return undefined;
  // a folder below the repository's root may be one it ignores (a demo in an ignored folder): git
  // then sees none of its changes, and the folder has no repository of its own
  const rel = path.relative(top, path.resolve(folder)).split(path.sep).join('/');
  const args = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', ...(rel ? ['--ignored=matching'] : [])];
  const status = await run(args, folder, o);
  if (status === undefined) return undefined;
  const { head, branch, paths, ignored } = parseStatus(status);
  if (rel && isIgnoredFolder(rel, ignored)) return undefined;
  const changed = await withoutOwnSettingsChanges(await expandOwnFolders(paths, folder, o), top, o);
  const sorted = [...new Set(userFiles(changed))].sort();
  const kept = sorted.slice(0, MAX_DIRTY_FILES);
  const hashes = o.sync ? kept.map(p => contentHashSync(path.join(top, p))) : await Promise.all(kept.map(p => contentHash(path.join(top, p))));
  const dirty: Record<string, string> = {};
  kept.forEach((p, i) => (dirty[p] = hashes[i]));
  const fp = sha1().update(head);
  for (const p of kept) fp.update(`\0${p}\0${dirty[p]}`);
  if (sorted.length > kept.length) fp.update(`\0+${sorted.length}`);
  const state: GitState = { head, fingerprint: fp.digest('hex').slice(0, 16), dirty };
  if (branch) state.branch = branch;
  if (sorted.length > kept.length) state.dirtyTruncated = true;
  return state;
}

/**
 * The changed paths with the new folders git collapsed into one entry (`.github/`) listed file by
 * file when one of our own files may be inside (a hook file setup wrote): Failure Memory's own
 * writes are then left out, and a folder that held only those is no change at all.
 */
async function expandOwnFolders(paths: string[], folder: string, o: GitOptions): Promise<string[]> {
  const folders = paths.filter(mayHoldOnlyOwnFiles);
  if (!folders.length) return paths;
  const inside = await run(['status', '--porcelain=v2', '-z', '--untracked-files=all', '--', ...folders.map(f => `:/${f}`)], folder, o);
  if (inside === undefined) return paths;
  return [...paths.filter(p => !folders.includes(p)), ...parseStatus(inside).paths];
}

/**
 * The changed paths without a settings.json whose only change is Failure Memory's own settings
 * (the threshold written by the walkthrough, a gate setting): compared, without those, with its
 * version at HEAD (one `git show`, only when a settings.json is among the changes), or with an
 * empty file when it is new.
 */
async function withoutOwnSettingsChanges(paths: string[], top: string, o: GitOptions): Promise<string[]> {
  const settings = paths.filter(p => p === SETTINGS_FILE || p.endsWith(`/${SETTINGS_FILE}`));
  if (!settings.length) return paths;
  const same: string[] = [];
  for (const p of settings) {
    let now: string;
    try {
      now = settingsWithoutOwnKeys(readFileSync(path.join(top, p), 'utf8'));
    } catch {
      continue; // deleted or unreadable: a change
    }
    const atHead = await run(['show', `HEAD:${p}`], top, o);
    if (now === settingsWithoutOwnKeys(atHead ?? '{}')) same.push(p);
  }
  return same.length ? paths.filter(p => !same.includes(p)) : paths;
}

/** `folder` (relative to the repository root) is, or is inside, one of the ignored paths git listed. */
export function isIgnoredFolder(folder: string, ignored: readonly string[]): boolean {
  const f = folder.endsWith('/') ? folder : `${folder}/`;
  return ignored.some(p => f.startsWith(p.endsWith('/') ? p : `${p}/`));
}

/** The nearest folder up from `folder` holding a `.git` (a folder, or a file for worktrees and submodules). */
function findRepositoryRoot(folder: string): string | undefined {
  let dir = path.resolve(folder);
  for (let i = 0; i < 64; i++) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** Files changed by the commits between two HEADs (bounded), or undefined when git cannot tell. */
export async function committedFiles(folder: string, from: string, to: string, o: GitOptions = {}): Promise<string[] | undefined> {
  if (!/^[0-9a-f]{7,64}$/.test(from) || !/^[0-9a-f]{7,64}$/.test(to)) return undefined;
  const out = await run(['diff', '--name-only', '-z', '--no-renames', from, to], folder, o);
  if (out === undefined) return undefined;
  return out.split('\0').filter(Boolean).slice(0, MAX_COMMITTED_FILES);
}
