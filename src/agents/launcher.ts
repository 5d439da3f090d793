// The `failure-memory` launcher in ~/.failure-memory/bin: a stable path that hook files, terminals
// (PATH, set by the extension) and people use, re-pointed at the installed extension's dist/ at
// each activation, so it keeps working after an update. `failure-memory hook …` goes to the small
// dist/hook.js; everything else to dist/cli.js. Without Node.js it falls back to VS Code's own
// runtime (ELECTRON_RUN_AS_NODE), and a hook call without either fails open with one line.

import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function launcherDir(home: string = homedir()): string {
  return join(home, '.failure-memory', 'bin');
}

export interface LauncherTarget {
  /** The extension's dist folder (cli.js, hook.js). */
  dist: string;
  /** Node.js to run it with: an absolute path, or `node` from PATH. */
  node: string;
  /** VS Code's own executable, usable as Node with ELECTRON_RUN_AS_NODE=1 when there is no Node.js. */
  electron?: string;
  version: string;
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function launcherScript(t: LauncherTarget): string {
  return `#!/bin/sh
# failure-memory launcher (Failure Memory ${t.version}). Rewritten by the extension at each activation;
# hook files and terminals call this path, so it keeps working when the extension updates.
dist=${sq(t.dist)}
node=${sq(t.node)}
electron=${sq(t.electron ?? '')}
fail() {
  if [ "$1" = hook ]; then echo "Failure Memory hook: $2; not checked, the agent goes on." >&2; exit 1; fi
  echo "failure-memory: $2" >&2; exit 1
}
[ -f "$dist/cli.js" ] || fail "$1" "the Failure Memory extension is no longer installed ($dist is missing)"
if ! command -v "$node" >/dev/null 2>&1; then
  if [ -n "$electron" ] && [ -x "$electron" ]; then node=$electron; ELECTRON_RUN_AS_NODE=1; export ELECTRON_RUN_AS_NODE
  else fail "$1" "Node.js 20 or later is needed and was not found on PATH"
  fi
fi
if [ "$1" = hook ]; then shift; exec "$node" "$dist/hook.js" "$@"; fi
exec "$node" "$dist/cli.js" "$@"
`;
}

export function launcherCmd(t: LauncherTarget): string {
  return `@echo off\r\nrem failure-memory launcher (Failure Memory ${t.version}), rewritten by the extension at each activation.\r\nif not exist "${t.dist}\\cli.js" (echo Failure Memory: the extension is no longer installed; not checked. 1>&2 & exit /b 1)\r\n"${t.node}" "${t.dist}\\cli.js" %*\r\n`;
}

/** Writes the launcher when its content changed; returns its folder. */
export function installLauncher(t: LauncherTarget, dir: string = launcherDir(), platform: NodeJS.Platform = process.platform): { dir: string; changed: boolean } {
  const [name, content] = platform === 'win32' ? ['failure-memory.cmd', launcherCmd(t)] : ['failure-memory', launcherScript(t)];
  const file = join(dir, name);
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // not there yet
  }
  if (current === content) return { dir, changed: false };
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o755 });
  chmodSync(tmp, 0o755);
  renameSync(tmp, file);
  return { dir, changed: true };
}
