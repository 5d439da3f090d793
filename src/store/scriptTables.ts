// The project's manifests, read for the scripts they name (src/core/approach/manifests.ts): the nearest
// package.json (only its `scripts`) or pyproject.toml (only `[tool.pdm.scripts]`) at or above a folder,
// the folder's Makefile or composer.json, inside the workspace folder. Read only when a command line runs
// such a script, bounded in size, and kept per file until its size or modification time changes. A
// manifest that cannot be read or parsed is no table: the line is then judged as written.

import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { normalizeCwd } from '../core/approach';
import { composerScripts, makeTargets, packageScripts, pdmScripts, type ScriptKind, type ScriptTable } from '../core/approach/manifests';
import type { ScriptNeed } from '../core/approach/scripts';

/** Reads the table a need names (null: none). */
export type ScriptReader = (need: ScriptNeed) => ScriptTable | null;

interface ManifestKind {
  names: readonly string[];
  /** Looked for in the folder's parents too (npm and pdm do; make and composer use the folder's own). */
  walkUp: boolean;
  parse: (text: string) => Pick<ScriptTable, 'scripts' | 'first'>;
}

const MAX_BYTES = 1024 * 1024;
/** Parent folders looked at, at most. */
const MAX_LEVELS = 12;

const json = (text: string): unknown => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

const KINDS: Readonly<Record<ScriptKind, ManifestKind>> = {
  npm: { names: ['package.json'], walkUp: true, parse: t => ({ scripts: packageScripts(json(t)) }) },
  pdm: { names: ['pyproject.toml'], walkUp: true, parse: t => ({ scripts: pdmScripts(t) }) },
  make: { names: ['GNUmakefile', 'makefile', 'Makefile'], walkUp: false, parse: t => makeTargets(t) },
  composer: { names: ['composer.json'], walkUp: false, parse: t => ({ scripts: composerScripts(json(t)) }) },
};

interface Cached {
  stamp: string;
  table: Pick<ScriptTable, 'scripts' | 'first'> | null;
}

/**
 * A reader for one workspace folder (absolute). Its cache lives as long as the reader: a hook's process,
 * the extension's memory of the folder.
 */
export function scriptReader(workspace: string): ScriptReader {
  const cache = new Map<string, Cached>();
  const root = path.resolve(workspace);
  /** A manifest's table, from the cache while the file is unchanged; undefined: no such file. */
  const tableAt = (file: string, kind: ManifestKind): Cached['table'] | undefined => {
    let st;
    try {
      st = statSync(file);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    const hit = cache.get(file);
    if (hit?.stamp === stamp) return hit.table;
    let table: Cached['table'] = null;
    if (st.size <= MAX_BYTES) {
      try {
        table = kind.parse(readFileSync(file, 'utf8'));
      } catch {
        table = null; // unreadable or not JSON: no scripts from it
      }
    }
    if (cache.size > 64) cache.clear();
    cache.set(file, { stamp, table });
    return table;
  };
  const inside = (dir: string) => dir === root || dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  return need => {
    const kind = KINDS[need.kind];
    if (!kind || need.folder === '~' || need.folder.startsWith('~/')) return null;
    let dir = path.isAbsolute(need.folder) ? path.resolve(need.folder) : path.resolve(root, need.folder);
    // the project's own manifests: a folder outside the workspace names none
    if (!inside(dir)) return null;
    for (let level = 0; level < MAX_LEVELS; level++) {
      for (const name of kind.names) {
        const found = tableAt(path.join(dir, name), kind);
        if (found === undefined) continue;
        return found && { kind: need.kind, folder: folderOf(root, dir), ...found };
      }
      const parent = path.dirname(dir);
      // npm and pdm stop at the workspace folder when the script runs inside it
      if (!kind.walkUp || parent === dir || dir === root) return null;
      dir = parent;
    }
    return null;
  };
}

/** A folder inside the workspace as approach keys name it: relative to the workspace. */
function folderOf(root: string, dir: string): string {
  return normalizeCwd(path.relative(root, dir) || '.');
}
