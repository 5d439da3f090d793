// Where a hook call runs: the workspace folder (the one holding Failure Memory's folder, else the git
// top level, at or above the call's folder) and the folder relative to it. Real paths on both sides,
// so a symlinked project folder matches.

import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { memoryDirFor } from '../../store/paths';

const real = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
};

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** `inner` relative to `outer` with '/' separators; undefined when it is not inside. */
function inside(outer: string, inner: string): string | undefined {
  const rel = relative(outer, inner);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** The nearest folder at or above `dir` holding Failure Memory's folder, else a git top level. */
function findWorkspaceAbove(dir: string): string | undefined {
  let gitTop: string | undefined;
  for (let d = dir; ; d = dirname(d)) {
    if (isDir(memoryDirFor(d))) return d;
    if (!gitTop && existsSync(join(d, '.git'))) gitTop = d;
    if (dirname(d) === d) return gitTop;
  }
}

export interface Located {
  workspace: string;
  /** cwd relative to the workspace ('.' for the root). */
  rel: string;
}

/**
 * The workspace folder and relative cwd of a hook call. Both sides are compared as real paths, so
 * a symlinked project folder (a harness reporting /real/path while the project says /link) matches.
 */
export function locate(root: string | undefined, cwd: string | undefined): Located | string {
  const c = cwd && isAbsolute(cwd) ? real(cwd) : undefined;
  if (root && isAbsolute(root)) {
    const r = real(root);
    if (!c) return { workspace: r, rel: '.' };
    const rel = inside(r, c);
    if (rel !== undefined) return { workspace: r, rel };
  }
  if (c) {
    const ws = findWorkspaceAbove(c);
    if (ws) return { workspace: ws, rel: inside(ws, c) ?? '.' };
    return `${cwd} is outside any workspace (no .vscode/failure-memory or git repository above it)`;
  }
  return 'the call names no folder (no cwd, no project directory)';
}
