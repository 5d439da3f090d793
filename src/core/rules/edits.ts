// Edits as evidence: the workspace's recent edit events (editor saves, agents' edit tools, shell
// commands that write files, `failure-memory edit`) and the jobs and services started, kept bounded in
// the memory. What changed since an approach's last failure is what tells trying fixes from looping
// blind: the same error after nothing changed is the surest loop.

import { trimTrailing } from '../approach/paths';
import { isOwnFile } from '../ownFiles';
import { editsBeforeRun, shellEffects, workSignature, type ShellEffects } from './shellEffects';
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
  /** A hash of the file's content after the edit ('deleted' when it is gone), when the recorder read it. */
  hash?: string;
}

/** A path as stored: '/' separated, relative to the workspace when inside it, bounded. */
export function editPath(path: string, workspace?: string): string {
  let p = path.replace(/\\/g, '/').trim();
  const w = workspace === undefined ? undefined : trimTrailing(workspace.replace(/\\/g, '/'));
  if (w && p.startsWith(`${w}/`)) p = p.slice(w.length + 1);
  return p.replace(/^\.\//, '').slice(0, MAX_PATH_CHARS);
}


/** The time of the latest failure memory holds ('' when none). */
function latestFailure(data: MemoryData): string {
  let latest = '';
  for (const a of Object.values(data.approaches)) if (typeof a.lastFailure === 'string' && a.lastFailure > latest) latest = a.lastFailure;
  return latest;
}

/** One millisecond after `iso` (an ISO time), as an ISO time. */
function justAfter(iso: string): string | undefined {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t + 1).toISOString();
}

/**
 * Appends edit events (mutates `data`), keeping the newest MAX_EDITS. Returns the events kept.
 * `ordered`: the edits are reported after the runs memory holds (an editor save, an edit tool's
 * report): one stamped at or before the latest failure (the same millisecond) is stamped just after
 * it, so that it is seen after that failure. A run's own edits are not (`sed -i … && run` edits
 * before its run ends).
 */
export function addEdits(data: MemoryData, inputs: readonly EditInput[], now: string, ordered = false): EditEvent[] {
  const list = (data.edits ??= []);
  const added: EditEvent[] = [];
  let floor: string | undefined;
  for (const e of inputs) {
    const path = editPath(e.path);
    if (!path || isOwnFile(path)) continue;
    let at = e.at ?? now;
    if (ordered) {
      floor ??= latestFailure(data);
      if (floor && at <= floor) at = justAfter(floor) ?? at;
    }
    const event: EditEvent = { at, path, ok: e.ok !== false, source: e.source };
    if (e.tool) event.tool = e.tool.slice(0, 60);
    if (e.hash && event.ok) event.hash = e.hash.slice(0, 64);
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

/**
 * The edits after the approach's last failure that left a file other than it was then: an edit whose
 * file hash is the one the file had at the failure (the same bytes written again, an edit undone) is
 * no change. What a file held at the failure is its last hashed edit before it, or the content hash
 * git gave with the failure's run; without either, an edit is a change.
 */
export function changingEdits(data: MemoryData, a: Approach): EditEvent[] {
  const since = a.lastFailure;
  const after = editsSince(data, since);
  if (!after.length) return after;
  const latest = new Map<string, EditEvent>();
  for (const e of after) latest.set(e.path, e);
  const dirty = previousFailure(a)?.git?.dirty;
  const list = data.edits ?? [];
  const out: EditEvent[] = [];
  for (const [path, e] of latest) {
    let before: string | undefined;
    for (let i = list.length - 1; i >= 0 && before === undefined; i--) {
      const x = list[i];
      if (x.path === path && x.ok && (!since || x.at <= since)) before = typeof x.hash === 'string' ? x.hash : '';
    }
    if (!before && dirty && Object.prototype.hasOwnProperty.call(dirty, path)) before = dirty[path];
    if (!(typeof e.hash === 'string' && e.hash && e.hash === before)) out.push(e);
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

/** The failing run, when the short-term window still holds it. */
function lastFailedAttempt(a: Approach): Attempt | undefined {
  for (let i = a.attempts.length - 1; i >= 0; i--) if (a.attempts[i].outcome === 'failure') return a.attempts[i];
  return undefined;
}

/** A step of a command line as the change verdict reads it (see ./steps.ts). */
export interface StepContext {
  /** The line the door was given. */
  whole: string;
  /** What the step does (work signatures, its scripts resolved): the failing run's work again is the same work. */
  works: readonly string[];
  /** An edit or an install runs before the step in the line (`sed -i … && run`). */
  editBefore: boolean;
}

/** A plain line as its own step: its work, and whether it edits before its run. */
export function lineStep(command: string): StepContext {
  return { whole: command, works: [workSignature(command)], editBefore: editsBeforeRun(shellEffects(command)) };
}

/** The work a failing run did for its approach: as recorded with it, else read from its line. */
function failedWorks(t: Attempt): string[] {
  const w = (t as { work?: unknown }).work;
  if (Array.isArray(w) && w.every(x => typeof x === 'string')) return w as string[];
  return [workSignature(t.command)];
}

export interface ChangeVerdict {
  changed: boolean;
  /** edit: files changed; git: the git state moved; chained: an edit chained before the run; line: the command line differs. */
  kind: 'edit' | 'git' | 'chained' | 'line' | 'none';
  /** What changed, for a person: "src/cart.js changed since the last failure", "the command line changed". */
  what: string;
}

const NOTHING: ChangeVerdict = { changed: false, kind: 'none', what: 'nothing changed' };

/** Two command lines run the same thing (cosmetics aside: output filters, flags, whitespace, package runners). */
const sameLine = (a: string, b: string) => workSignature(a) === workSignature(b);

/**
 * Did anything change since the approach's last failure, for the run of `command` about to start (or just
 * recorded)? An edit after it that left a file other than it was (./changingEdits), a git state that
 * differs from the one recorded with it, or an edit chained before the run in a command line other than
 * the one that failed (the same line again repeats the same edit: no new work). The same work spelled
 * otherwise (`npm t` for `npm test`, `npx jest` for a test script that runs jest, the run in a chain:
 * `npm test && git status`) is not a change; other arguments or other code are.
 */
export function changedSinceLastFailure(data: MemoryData, a: Approach, command: string, gitNow?: GitState, step: StepContext = lineStep(command)): ChangeVerdict {
  const edits = changingEdits(data, a);
  if (edits.length) return { changed: true, kind: 'edit', what: `${editsSentence(edits.map(e => e.path))} since the last failure` };
  const before = previousFailure(a)?.git;
  if (gitNow && before && gitNow.fingerprint !== before.fingerprint) return { changed: true, kind: 'git', what: 'the git state changed since the last failure' };
  const last = lastFailedAttempt(a);
  if (last === undefined || sameLine(step.whole, last.command)) return NOTHING;
  const works = failedWorks(last);
  const sameWork = step.works.some(w => works.includes(w));
  if (step.editBefore) return { changed: true, kind: 'chained', what: 'an edit chained before the run' };
  if (sameWork) return NOTHING;
  return { changed: true, kind: 'line', what: 'the command runs something other than the line that failed (other arguments, other code)' };
}

/** For recording: did something change between the approach's previous failure and this failing attempt? */
export function changedBeforeFailure(data: MemoryData, a: Approach, attempt: Attempt): boolean {
  if (!a.lastFailure) return true;
  const own = (attempt as { work?: unknown }).work;
  const step = Array.isArray(own) && own.length ? { ...lineStep(attempt.command), works: own as string[] } : lineStep(attempt.command);
  return changedSinceLastFailure(data, a, attempt.command, attempt.git, step).changed;
}
