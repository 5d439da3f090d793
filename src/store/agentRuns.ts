// A run of VS Code's agent terminal tool (run_in_terminal), handed from the agent hooks to the
// extension's terminal watcher. The terminal records the run (it has the exit code); VS Code's
// PostToolUse hook has the output, which shell integration often misses for a command that ends at
// once. Small files in <memory folder>/agent-runs/, one call each, named by the call:
//   <id>.expect   the pre hook let the call run: { command, at }
//   <id>.ended    the terminal watcher saw that command end and is recording it (renamed from .expect)
//   <id>.output   the post hook's output of the call: { output } (already redacted)
// The watcher removes a call's files once the run is recorded; the next pre hook waits (bounded)
// while a run is being recorded, so the gate never decides on a memory without the run before it.
// Nothing here is trusted: a file that does not parse is skipped and pruned later.

import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { MEMORY_DIR_NAME } from './paths';
import { readRegularSync } from './regularFile';

export const AGENT_RUNS_DIR = 'agent-runs';
/** A call expected, ended or answered longer ago than this is stale: pruned, never matched. */
const STALE_MS = 2 * 60 * 1000;
/** An .ended run older than this is not waited for (the watcher that claimed it is gone). */
const RECORDING_FRESH_MS = 12_000;
/** How much output a call hands over (its tail: the error is at the end). */
export const MAX_HANDED_OUTPUT = 64 * 1024;
/** The clock skew allowed between the hook's time and the terminal's start of the same run. */
const SKEW_MS = 2000;

/** FNV-1a, 52 bits, base 36: a short file name for a key (no node:crypto on the hook path). */
export function shortName(key: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < key.length; i++) {
    h ^= BigInt(key.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return (h >> 12n).toString(36);
}

/** The same command line, whatever whitespace the shell integration reports around it. */
const sameCommand = (a: string, b: string) => a.trim().replace(/\s+/g, ' ') === b.trim().replace(/\s+/g, ' ');

const dirOf = (memoryFolder: string) => join(memoryFolder, AGENT_RUNS_DIR);

/**
 * The folder to write in, refused when a folder on the way from the workspace is a symbolic link (a
 * repository could point .vscode/failure-memory anywhere): nothing is written through a link.
 */
export function writableDir(memoryFolder: string, sub: string = AGENT_RUNS_DIR): string {
  const folder = resolve(memoryFolder);
  const tail = join(...MEMORY_DIR_NAME.split('/'));
  const root = folder.endsWith(sep + tail) ? folder.slice(0, -(tail.length + 1)) : dirname(folder);
  const dir = join(folder, sub);
  let current = root;
  for (const part of relative(root, dir).split(sep)) {
    current = join(current, part);
    let link = false;
    try {
      link = lstatSync(current).isSymbolicLink();
    } catch {
      // not there yet: made below
    }
    if (link) throw new Error(`${current} is a symbolic link: nothing is written through it`);
  }
  mkdirSync(dir, { recursive: true });
  try {
    // the store's own guard, when a hook makes the memory folder before the first record
    writeFileSync(join(folder, '.gitignore'), '*\n', { flag: 'wx' });
  } catch {
    // there already (the store's, or the user's own)
  }
  return dir;
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readRegularSync(file, 'utf8', { noFollow: true }));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function list(memoryFolder: string): string[] {
  try {
    return readdirSync(dirOf(memoryFolder));
  } catch {
    return [];
  }
}

/** How old a file is; Infinity when it is gone or is not a regular file (a FIFO is never a run). */
const ageOf = (file: string, now: number): number => {
  try {
    const st = lstatSync(file);
    return st.isFile() ? now - st.mtimeMs : Infinity;
  } catch {
    return Infinity;
  }
};

function prune(memoryFolder: string, now: number): void {
  for (const name of list(memoryFolder)) {
    const file = join(dirOf(memoryFolder), name);
    if (ageOf(file, now) > STALE_MS) rmSync(file, { force: true });
  }
}

/** The pre hook let call `callKey` run `command`: the terminal watcher will look for it. */
export function expectAgentRun(memoryFolder: string, callKey: string, command: string, now = Date.now()): void {
  const dir = writableDir(memoryFolder);
  prune(memoryFolder, now);
  writeAtomic(join(dir, `${shortName(callKey)}.expect`), JSON.stringify({ command, at: now }));
}

/** The post hook's output of call `callKey`, for the watcher (only while the call is expected or being recorded). */
export function handAgentRunOutput(memoryFolder: string, callKey: string, output: string): boolean {
  if (!list(memoryFolder).some(n => n === `${shortName(callKey)}.expect` || n === `${shortName(callKey)}.ended`)) return false;
  writeAtomic(join(writableDir(memoryFolder), `${shortName(callKey)}.output`), JSON.stringify({ output: output.slice(-MAX_HANDED_OUTPUT) }));
  return true;
}

/**
 * The terminal watcher saw `command` end (it started at `startedAt`): the matching expected call,
 * now marked as being recorded, or undefined when no agent call ran it (a person typed it).
 */
export function claimAgentRun(memoryFolder: string, command: string, startedAt: number, now = Date.now()): string | undefined {
  if (!list(memoryFolder).some(n => n.endsWith('.expect'))) return undefined;
  const dir = writableDir(memoryFolder);
  const candidates = list(memoryFolder)
    .filter(n => n.endsWith('.expect'))
    .map(n => ({ id: n.slice(0, -'.expect'.length), v: readJson(join(dir, n)) }))
    .filter(c => c.v && typeof c.v.command === 'string' && sameCommand(c.v.command, command) && typeof c.v.at === 'number' && c.v.at >= startedAt - STALE_MS && c.v.at <= now + SKEW_MS)
    .sort((a, b) => Number(a.v!.at) - Number(b.v!.at));
  for (const c of candidates) {
    try {
      // the rename is the claim: one watcher (one window) records the call
      renameSync(join(dir, `${c.id}.expect`), join(dir, `${c.id}.ended`));
    } catch {
      continue; // another window claimed it
    }
    try {
      // its age is the recording's, not the call's (a long build ended just now)
      utimesSync(join(dir, `${c.id}.ended`), now / 1000, now / 1000);
    } catch {
      // gone already: recorded by now
    }
    return c.id;
  }
  return undefined;
}

/** The output the post hook handed over for a claimed call, if it has. */
export function handedOutput(memoryFolder: string, id: string): string | undefined {
  const v = readJson(join(dirOf(memoryFolder), `${id}.output`));
  return typeof v?.output === 'string' ? v.output : undefined;
}

/** The claimed call is recorded: its files go. */
export function finishAgentRun(memoryFolder: string, id: string): void {
  for (const ext of ['.expect', '.ended', '.output']) rmSync(join(dirOf(memoryFolder), `${id}${ext}`), { force: true });
}

/** Runs the terminal watcher is recording right now (claimed within the last seconds). */
export function runsBeingRecorded(memoryFolder: string, now = Date.now()): number {
  return list(memoryFolder).filter(n => n.endsWith('.ended') && ageOf(join(dirOf(memoryFolder), n), now) < RECORDING_FRESH_MS).length;
}
