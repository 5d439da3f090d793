// Edits as evidence: the workspace's recent edit events (editor saves, agents' edit tools, shell
// commands that write files, `failure-memory edit`) and the jobs and services started, kept bounded in
// the memory. What changed since an approach's last failure is what tells trying fixes from looping
// blind: the same error after nothing changed is the surest loop.

import { trimTrailing } from '../approach/paths';
import { isOwnFile } from '../ownFiles';
import { shellEffects, workSignature, type ShellEffects } from './shellEffects';
import type { Approach, Attempt, EditEvent, EditSource, GitState, MemoryData, StartEvent } from '../types';

/** Paths of edit events that stand for work, not for a file: an install, an inline script that writes. */
export const PACKAGES_PATH = '(packages)';
export const INLINE_SCRIPT_PATH = '(inline script)';

/** Edit events kept per workspace (oldest dropped first). */
export const MAX_EDITS = 500;
/** Starts kept per workspace. */
export const MAX_STARTS = 50;
const MAX_PATH_CHARS = 500;

export interface EditInput {
  path: string;
  /** false: the edit failed and changed nothing (kept, never counted as a change). Default true. */
  ok?: boolean;
  source: EditSource;
  tool?: string;
  at?: string;
}

/** A path as stored: '/' separated, relative to the workspace when inside it, bounded. */
export function editPath(path: string, workspace?: string): string {
  let p = path.replace(/\\/g, '/').trim();
  const w = workspace === undefined ? undefined : trimTrailing(workspace.replace(/\\/g, '/'));
  if (w && p.startsWith(`${w}/`)) p = p.slice(w.length + 1);
  return p.replace(/^\.\//, '').slice(0, MAX_PATH_CHARS);
}


/** Appends edit events (mutates `data`), keeping the newest MAX_EDITS. Returns the events kept. */
export function addEdits(data: MemoryData, inputs: readonly EditInput[], now: string): EditEvent[] {
  const list = (data.edits ??= []);
  const added: EditEvent[] = [];
  for (const e of inputs) {
    const path = editPath(e.path);
    if (!path || isOwnFile(path)) continue;
    const event: EditEvent = { at: e.at ?? now, path, ok: e.ok !== false, source: e.source };
    if (e.tool) event.tool = e.tool.slice(0, 60);
    list.push(event);
    added.push(event);
  }
  if (list.length > MAX_EDITS) list.splice(0, list.length - MAX_EDITS);
  return added;
}

/** Remembers a job or service started (mutates `data`). */
export function addStart(data: MemoryData, command: string, at: string): StartEvent {
  const list = (data.starts ??= []);
  const start = { at, command: command.slice(0, 500) };
  list.push(start);
  if (list.length > MAX_STARTS) list.splice(0, list.length - MAX_STARTS);
  return start;
}

/** Edit events that changed something after `since` (exclusive), oldest first. */
export function editsSince(data: MemoryData, since: string | undefined): EditEvent[] {
  const list = data.edits ?? [];
  const out: EditEvent[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i];
    if (since && e.at <= since) break;
    if (e.ok) out.unshift(e);
  }
  return out;
}

/** The latest start at or after `since` (undefined when none). */
export function latestStart(data: MemoryData, since: number): StartEvent | undefined {
  const list = data.starts ?? [];
  for (let i = list.length - 1; i >= 0; i--) {
    const t = Date.parse(list[i].at);
    if (Number.isNaN(t) || t < since) break;
    return list[i];
  }
  return undefined;
}

/** Starts after `since` (inclusive), oldest first. */
export function startsSince(data: MemoryData, since: number): StartEvent[] {
  return (data.starts ?? []).filter(s => Date.parse(s.at) >= since);
}

/** The edit events a recorded command line stands for: the files it wrote, or `(packages)` for an install. */
export function shellEditInputs(effects: ShellEffects, ok: boolean, at: string, tool: string): EditInput[] {
  const inputs: EditInput[] = effects.writes.map(path => ({ path, ok, source: 'shell' as const, tool, at }));
  if (effects.installs) inputs.push({ path: PACKAGES_PATH, ok, source: 'shell', tool, at });
  if (!inputs.length && effects.firstEdit >= 0) inputs.push({ path: INLINE_SCRIPT_PATH, ok, source: 'shell', tool, at });
  return inputs;
}

/**
 * What edit events changed, in words: "src/a.js and src/b.js changed", "packages were installed and
 * src/a.js changed" (an install and an inline script are work, not files).
 */
export function editsSentence(paths: readonly string[]): string {
  const names = [...new Set(paths)];
  const parts: string[] = [];
  if (names.includes(PACKAGES_PATH)) parts.push('packages were installed');
  if (names.includes(INLINE_SCRIPT_PATH)) parts.push('an inline script wrote files');
  const files = names.filter(n => n !== PACKAGES_PATH && n !== INLINE_SCRIPT_PATH);
  if (files.length) {
    const shown = files.slice(0, 3);
    const list = files.length > 3 ? `${shown.join(', ')} and ${files.length - 3} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown[0];
    parts.push(`${list} changed`);
  }
  return parts.join(' and ');
}

/** The run before `attempt` in the approach's ledger that failed (its git state, when recorded). */
function previousFailure(a: Approach): { git?: GitState } | undefined {
  const ledger = a.ledger ?? [];
  for (let i = ledger.length - 1; i >= 0; i--) if (ledger[i].outcome === 'failure') return ledger[i];
  return undefined;
}

/** The failing run's command line, when the short-term window still holds it. */
function lastFailedCommand(a: Approach): string | undefined {
  for (let i = a.attempts.length - 1; i >= 0; i--) if (a.attempts[i].outcome === 'failure') return a.attempts[i].command;
  return undefined;
}

export interface ChangeVerdict {
  changed: boolean;
  /** edit: files changed; git: the git state moved; chained: an edit chained before the run; line: the command line differs. */
  kind: 'edit' | 'git' | 'chained' | 'line' | 'none';
  /** What changed, for a person: "src/cart.js changed since the last failure", "the command line changed". */
  what: string;
}

const NOTHING: ChangeVerdict = { changed: false, kind: 'none', what: 'nothing changed' };

/** Two command lines run the same thing (cosmetics aside: output filters, flags, whitespace). */
const sameLine = (a: string, b: string | undefined) => b !== undefined && workSignature(a) === workSignature(b);

/**
 * Did anything change since the approach's last failure, for the run of `command` about to start (or just
 * recorded)? An edit event after it, a git state that differs from the one recorded with it, or an edit
 * chained before the run in a command line other than the one that failed (the same line again repeats
 * the same edit: no new work).
 */
export function changedSinceLastFailure(data: MemoryData, a: Approach, command: string, gitNow?: GitState): ChangeVerdict {
  const edits = editsSince(data, a.lastFailure);
  if (edits.length) return { changed: true, kind: 'edit', what: `${editsSentence(edits.map(e => e.path))} since the last failure` };
  const before = previousFailure(a)?.git;
  if (gitNow && before && gitNow.fingerprint !== before.fingerprint) return { changed: true, kind: 'git', what: 'the git state changed since the last failure' };
  const last = lastFailedCommand(a);
  if (sameLine(command, last) || last === undefined) return NOTHING;
  const effects = shellEffects(command);
  if (effects.firstEdit >= 0 && effects.runIndex > effects.firstEdit) return { changed: true, kind: 'chained', what: 'an edit chained before the run' };
  return { changed: true, kind: 'line', what: 'the command runs something other than the line that failed (other arguments, other code)' };
}

/** For recording: did something change between the approach's previous failure and this failing attempt? */
export function changedBeforeFailure(data: MemoryData, a: Approach, attempt: Attempt): boolean {
  if (!a.lastFailure) return true;
  return changedSinceLastFailure(data, a, attempt.command, attempt.git).changed;
}
