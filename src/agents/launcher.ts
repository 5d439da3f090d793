// The `failure-memory` launcher in ~/.failure-memory/bin: a stable path that hook files, terminals
// (PATH, set by the extension) and people use. The extension re-points it at its dist/ at each
// activation, so it keeps working after an update; `failure-memory setup-agents` writes it when it
// is missing or broken (pointing at the CLI that ran setup), so a CLI-only machine is gated too.
// `failure-memory hook …` goes to the small dist/hook.js; everything else to dist/cli.js. Without
// Node.js it falls back to VS Code's own runtime (ELECTRON_RUN_AS_NODE). A hook call that cannot
// start answers in its harness's visible channel (the adapter's notice) and lets the agent go on.

import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HARNESS_IDS, HOOK_EVENTS } from './hooks/types';
import { HARNESSES } from './hooks';
import { shellQuote } from '../core/approach/lexer';
import { readRegularSync } from '../store/regularFile';
import { launcherDir, launcherName } from './userCommand';

export { launcherDir } from './userCommand';

export interface LauncherTarget {
  /** The extension's (or the CLI package's) dist folder (cli.js, hook.js). */
  dist: string;
  /** Node.js to run it with: an absolute path, or `node` from PATH. */
  node: string;
  /** VS Code's own executable, usable as Node with ELECTRON_RUN_AS_NODE=1 when there is no Node.js. */
  electron?: string;
  version: string;
  /** Who keeps it current, for the header line ("the extension", "failure-memory setup-agents"). */
  writer?: string;
}

/** A printf format that prints `s` as it is (no escapes, no conversions). */
const fmt = (s: string) => s.replace(/\\/g, '\\\\').replace(/%/g, '%%');
const PLACEHOLDER = '\u0001';

/**
 * One `case` line per harness and event: the adapter's notice for a message held in $msg (its JSON
 * escaping in $jmsg), so that a hook that cannot start says so where that harness's user sees it.
 */
function noticeCases(): string {
  const lines: string[] = [];
  for (const h of HARNESS_IDS) {
    for (const e of HOOK_EVENTS) {
      const r = HARNESSES[h].notice(e, PLACEHOLDER, {});
      const parts = r.stdout.replace(/\n$/, '').split(JSON.stringify(PLACEHOLDER).slice(1, -1));
      const out = r.stdout ? `printf ${shellQuote(`${parts.map(fmt).join('%s')}\\n`)}${' "$jmsg"'.repeat(parts.length - 1)}; ` : '';
      lines.push(`    ${h}:${e}) ${out}printf '%s\\n' "$msg" >&2; exit ${r.exitCode};;`);
    }
  }
  return lines.join('\n');
}

/** `s` as the inside of a JSON string (what goes between the quotes). */
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

export function launcherScript(t: LauncherTarget): string {
  const gone = `Failure Memory: the gate is OFF: ${t.dist} is missing (Failure Memory was removed or moved). Run \`failure-memory setup-agents\` again, or reinstall; commands are not checked.`;
  const noNode = 'Failure Memory: the gate is OFF: Node.js 20 or later is needed and was not found on PATH; commands are not checked.';
  return `#!/bin/sh
# failure-memory launcher (Failure Memory ${t.version}), kept current by ${t.writer ?? 'the extension'}.
# Hook files and terminals call this path, so it keeps working when Failure Memory updates.
dist=${shellQuote(t.dist)}
node=${shellQuote(t.node)}
electron=${shellQuote(t.electron ?? '')}
notice() {
  case "$2:$3" in
${noticeCases()}
  esac
  printf '%s\\n' "$msg" >&2; exit 1
}
fail() {
  if [ "$1" = hook ]; then notice "$@"; fi
  printf 'failure-memory: %s\\n' "$msg" >&2; exit 1
}
if [ ! -f "$dist/cli.js" ]; then msg=${shellQuote(gone)}; jmsg=${shellQuote(jsonInner(gone))}; fail "$@"; fi
if ! command -v "$node" >/dev/null 2>&1; then
  if [ -n "$electron" ] && [ -x "$electron" ]; then node=$electron; ELECTRON_RUN_AS_NODE=1; export ELECTRON_RUN_AS_NODE
  else msg=${shellQuote(noNode)}; jmsg=${shellQuote(jsonInner(noNode))}; fail "$@"
  fi
fi
if [ "$1" = hook ]; then shift; exec "$node" "$dist/hook.js" "$@"; fi
exec "$node" "$dist/cli.js" "$@"
`;
}

export function launcherCmd(t: LauncherTarget): string {
  return `@echo off\r\nrem failure-memory launcher (Failure Memory ${t.version}), kept current by ${t.writer ?? 'the extension'}.\r\nif not exist "${t.dist}\\cli.js" (echo Failure Memory: the gate is OFF: ${t.dist} is missing; not checked. 1>&2 & exit /b 1)\r\n"${t.node}" "${t.dist}\\cli.js" %*\r\n`;
}


/** Writes the launcher when its content changed; returns its folder. */
export function installLauncher(t: LauncherTarget, dir: string = launcherDir(), platform: NodeJS.Platform = process.platform): { dir: string; changed: boolean } {
  const [name, content] = [launcherName(platform), platform === 'win32' ? launcherCmd(t) : launcherScript(t)];
  const file = join(dir, name);
  let current: string | undefined;
  try {
    current = readRegularSync(file, 'utf8');
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

export interface LauncherState {
  file: string;
  exists: boolean;
  /** The dist folder it points at (read back from the script). */
  dist?: string;
  /** That folder still has the CLI. */
  distOk: boolean;
  /**
   * The file is exactly what Failure Memory writes for the target it names (false: something else
   * wrote it or changed it, `printf '#!/bin/sh\nexit 0\n'` or an edit: every hook could pass silently).
   */
  ours: boolean;
  /** The target it names, read back (when it names one). */
  target?: LauncherTarget;
}

/** `shellQuote`'s inverse for one value of the script's `name='…'` lines. */
const unquote = (v: string) => v.replace(/'\\''/g, "'");

/** The target a launcher script names (its dist, node, electron, version and writer), read back. */
function targetIn(text: string, platform: NodeJS.Platform): LauncherTarget | undefined {
  const header = /^(?:#|rem) failure-memory launcher \(Failure Memory ([^)\r\n]*)\), kept current by ([^\r\n]*)\.\r?$/m.exec(text);
  if (!header) return undefined;
  if (platform === 'win32') {
    const dist = /if not exist "(.*)\\cli\.js"/.exec(text)?.[1];
    const node = /^"(.*)" "[^"\r\n]*\\cli\.js" %\*\r?$/m.exec(text)?.[1];
    return dist && node ? { dist, node, version: header[1], writer: header[2] } : undefined;
  }
  const field = (name: string) => new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, 'm').exec(text)?.[1];
  const [dist, node, electron] = ['dist', 'node', 'electron'].map(field);
  if (dist === undefined || node === undefined) return undefined;
  return { dist: unquote(dist), node: unquote(node), ...(electron ? { electron: unquote(electron) } : {}), version: header[1], writer: header[2] };
}

export function readLauncher(dir: string = launcherDir(), platform: NodeJS.Platform = process.platform): LauncherState {
  const file = join(dir, launcherName(platform));
  let text: string;
  try {
    text = readRegularSync(file, 'utf8', { maxBytes: 1024 * 1024 });
  } catch {
    return { file, exists: false, distOk: false, ours: false };
  }
  const target = targetIn(text, platform);
  const ours = !!target && text === (platform === 'win32' ? launcherCmd(target) : launcherScript(target));
  const dist = target?.dist;
  return { file, exists: true, dist, distOk: !!dist && existsSync(join(dist, 'cli.js')), ours, ...(target ? { target } : {}) };
}

/**
 * A launcher that is not what Failure Memory `version` writes, and not one another version wrote (its
 * own header, another version): changed or replaced behind Failure Memory's back.
 */
export function launcherTampered(state: LauncherState, version: string | undefined): boolean {
  return state.exists && !state.ours && (!state.target || state.target.version === version);
}

/**
 * A launcher that is not Failure Memory's (edited, replaced) written again: for the install it names
 * when that one still works, else for `fallback`. Said by whoever calls it (session start, doctor,
 * the extension). undefined: it was ours (or missing: writing one is setup's and the extension's).
 */
export function repairLauncher(fallback: LauncherTarget | undefined, dir: string = launcherDir(), platform: NodeJS.Platform = process.platform): { before: LauncherState; after: LauncherState } | undefined {
  const before = readLauncher(dir, platform);
  if (!before.exists || before.ours) return undefined;
  const target = before.target && before.distOk ? before.target : fallback;
  if (!target) return { before, after: before };
  installLauncher(target, dir, platform);
  return { before, after: readLauncher(dir, platform) };
}

/**
 * setup-agents' part: writes the launcher when it is missing or points at a Failure Memory that is
 * gone, and refreshes it when it points at this one. One that points at another working install
 * (the extension) is kept: the extension re-points it at each activation anyway.
 */
export function ensureLauncher(t: LauncherTarget, dir: string = launcherDir(), platform: NodeJS.Platform = process.platform): { action: 'written' | 'updated' | 'unchanged' | 'kept'; state: LauncherState } {
  const before = readLauncher(dir, platform);
  if (before.exists && before.distOk && before.dist !== t.dist) return { action: 'kept', state: before };
  const { changed } = installLauncher(t, dir, platform);
  return { action: !before.exists ? 'written' : changed ? 'updated' : 'unchanged', state: readLauncher(dir, platform) };
}
