// The run ledger: per approach, a bounded history of runs, passes included, with the git state of
// each run. From it: "passed 12 of the last 20 runs, last passed 2 hours ago", what changed since the
// last pass (when something that used to pass fails), and what fixed it (when a failing approach
// passes: the files changed since its last failure become a lesson).
//
// Only approaches that failed at least once have a ledger: the success of a command that never failed
// here is not written at all (one lock-free read, no git), so the hot path stays as cheap as before.

import { INLINE_SCRIPT_PATH, PACKAGES_PATH } from './edits';
import { flakyVerdict } from './flaky';
import { userFiles } from '../ownFiles';
import { readableSignature } from '../text/shownText';
import type { Approach, Attempt, EditEvent, FixRecord, GitState, LedgerRun } from '../types';

/** Runs kept per approach. */
export const LEDGER_SIZE = 20;
/** Files listed in a "changed since" or "fixed by" record. */
export const MAX_CHANGED_FILES = 12;

/** The ledger entry of an attempt (the transient `committed` list is not kept per run). */
export function ledgerRun(attempt: Attempt): LedgerRun {
  const run: LedgerRun = { at: attempt.timestamp, outcome: attempt.outcome, exitCode: attempt.exitCode, signature: attempt.errorSignature };
  if (attempt.testResults) run.tests = { passed: attempt.testResults.passed, failed: attempt.testResults.failed, total: attempt.testResults.total };
  if (attempt.git) {
    const { committed: _committed, ...git } = attempt.git;
    run.git = git;
  }
  return run;
}

/** Appends the run, keeping the last `size` runs (FIFO). */
export function appendRun(approach: Approach, attempt: Attempt, size: number = LEDGER_SIZE): void {
  const ledger = (approach.ledger ??= []);
  ledger.push(ledgerRun(attempt));
  if (ledger.length > size) ledger.splice(0, ledger.length - size);
}

const counted = (r: LedgerRun) => r.outcome === 'success' || r.outcome === 'failure';

function lastRun(ledger: readonly LedgerRun[], outcome: 'success' | 'failure'): LedgerRun | undefined {
  for (let i = ledger.length - 1; i >= 0; i--) if (ledger[i].outcome === outcome) return ledger[i];
  return undefined;
}

/**
 * Files that differ between two git states: uncommitted paths whose content hash differs (a path
 * dirty in one state and clean in the other counts: it was edited or reverted), plus the files
 * committed in between when HEAD moved (given by the store, which asked git).
 */
export function changedFiles(from: GitState, to: GitState): { files: string[]; more: number } {
  const set = new Set<string>();
  for (const p of new Set([...Object.keys(from.dirty), ...Object.keys(to.dirty)])) {
    if (from.dirty[p] !== to.dirty[p]) set.add(p);
  }
  if (to.committed && to.committed.from === from.head && from.head !== to.head) for (const f of to.committed.files) set.add(f);
  // what a person or an agent changed: never Failure Memory's own memory, exports or hook files
  const files = userFiles([...set]).sort();
  return { files: files.slice(0, MAX_CHANGED_FILES), more: Math.max(0, files.length - MAX_CHANGED_FILES) };
}

/**
 * The failing streak a pass ends (the failures since the last pass, oldest first) and its recurring
 * error: the signature most of them failed with (at least twice; the earliest first when two came as
 * often) — the error the streak was about, not the one an edit's own typo printed once on the way to
 * the fix. When no error came twice (each run failed its own way: work in progress), there is none,
 * and the fix is measured from the last failure.
 */
export function endedStreak(ledger: readonly LedgerRun[]): { runs: LedgerRun[]; signature: string; reference: LedgerRun | undefined } {
  const runs: LedgerRun[] = [];
  for (let i = ledger.length - 1; i >= 0 && ledger[i].outcome !== 'success'; i--) if (ledger[i].outcome === 'failure') runs.unshift(ledger[i]);
  const counts = new Map<string, number>();
  for (const r of runs) if (r.signature) counts.set(r.signature, (counts.get(r.signature) ?? 0) + 1);
  let signature = '';
  for (const r of runs) if (r.signature && (counts.get(r.signature) ?? 0) >= 2 && (counts.get(r.signature) ?? 0) > (counts.get(signature) ?? 0)) signature = r.signature;
  // the state the fix is measured from: the last run that still failed with that error
  let reference: LedgerRun | undefined;
  for (let i = runs.length - 1; i >= 0 && !reference; i--) if (!signature || runs[i].signature === signature) reference = runs[i];
  return { runs, signature, reference };
}

/** The HEAD a run that is being recorded should be compared against (for the store to ask git). */
export function comparisonHead(approach: Approach | undefined, outcome: Attempt['outcome']): string | undefined {
  if (!approach?.ledger?.length) return undefined;
  const ref = outcome === 'success' ? (endedStreak(approach.ledger).reference ?? lastRun(approach.ledger, 'failure')) : lastRun(approach.ledger, 'success');
  return ref?.git?.head;
}


export interface LedgerUpdate {
  /** Set when a failing approach passed and files changed since its last failure. */
  fix?: FixRecord;
  /** Set when an approach that passed before fails now and files changed since that pass. */
  changedSinceLastPass?: Approach['changedSinceLastPass'];
}

/**
 * What a pass after failures changed: with git, the files whose content differs from the last run
 * that failed with the streak's recurring error (a file an edit broke and the next edit restored is
 * no part of the fix; one left changed is); without git (no repository, or the folder is one git
 * ignores), the files the edit events name since the last failure.
 */
function fixOf(approach: Approach, before: readonly LedgerRun[], attempt: Attempt, edits: readonly EditEvent[]): FixRecord | undefined {
  const streak = endedStreak(before);
  const last = streak.runs[streak.runs.length - 1];
  const signature = streak.signature || last?.signature || approach.lastErrorSignature;
  let changed: { files: string[]; more: number };
  if (attempt.git && streak.reference?.git) changed = changedFiles(streak.reference.git, attempt.git);
  else if (!attempt.git && last && !last.git) changed = editedFiles(edits, last.at, attempt.timestamp);
  else return undefined;
  if (!changed.files.length) return undefined;
  const fix: FixRecord = { files: changed.files, signature, at: attempt.timestamp };
  if (changed.more) fix.more = changed.more;
  return fix;
}

/** The files edit events name after `since` up to `until` (both ISO times): a person's or an agent's changes, not ours. */
export function editedFiles(edits: readonly EditEvent[], since: string, until: string): { files: string[]; more: number } {
  const set = new Set<string>();
  for (const e of edits) if (e.ok && e.at > since && e.at <= until) set.add(e.path);
  const files = userFiles([...set]).sort();
  return { files: files.slice(0, MAX_CHANGED_FILES), more: Math.max(0, files.length - MAX_CHANGED_FILES) };
}

/**
 * Records the run in the ledger (call it before the approach's failure count is updated, with
 * `wasFailing` = the approach had failures or was exhausted before this run). On a pass after
 * failures: the fix (see fixOf). On a failure after a pass: what changed since that pass (git
 * states of both runs; without git nothing is claimed). `edits`: the workspace's edit events.
 */
export function addToLedger(approach: Approach, attempt: Attempt, wasFailing: boolean, edits: readonly EditEvent[] = [], size: number = LEDGER_SIZE): LedgerUpdate {
  const before = approach.ledger ?? [];
  const out: LedgerUpdate = {};
  if (attempt.outcome === 'success' && wasFailing) {
    const fix = fixOf(approach, before, attempt, edits);
    if (fix) {
      out.fix = fix;
      approach.fix = fix;
    }
  }
  if (attempt.outcome === 'failure') {
    const passed = lastRun(before, 'success');
    const lastCounted = [...before].reverse().find(counted);
    // only on the first failure after a pass: later failures keep the list of that regression
    if (passed?.git && attempt.git && lastCounted?.outcome === 'success') {
      const { files, more } = changedFiles(passed.git, attempt.git);
      out.changedSinceLastPass = { files, since: passed.at, ...(more ? { more } : {}) };
      approach.changedSinceLastPass = out.changedSinceLastPass;
    }
  } else if (attempt.outcome === 'success') {
    delete approach.changedSinceLastPass;
  }
  appendRun(approach, attempt, size);
  return out;
}

export interface LedgerStats {
  runs: number;
  passes: number;
  failures: number;
  lastPass?: string;
  lastFailure?: string;
}

export function ledgerStats(approach: Pick<Approach, 'ledger'>): LedgerStats {
  const runs = (approach.ledger ?? []).filter(counted);
  return {
    runs: runs.length,
    passes: runs.filter(r => r.outcome === 'success').length,
    failures: runs.filter(r => r.outcome === 'failure').length,
    lastPass: lastRun(runs, 'success')?.at,
    lastFailure: lastRun(runs, 'failure')?.at,
  };
}

/** "2 hours ago", "3 days ago", "just now". */
export function ago(iso: string, now: Date = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return 'at an unknown time';
  if (s < 45) return 'just now';
  const units: [number, string][] = [
    [86400 * 365, 'year'],
    [86400 * 30, 'month'],
    [86400 * 7, 'week'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.round(s / size);
    if (n >= 1 && s >= size * 0.75) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** "passed 12 of the last 20 runs, last passed 2 hours ago"; undefined with fewer than two runs (nothing to tell). */
export function describeHistory(approach: Pick<Approach, 'ledger'>, now: Date = new Date()): string | undefined {
  const s = ledgerStats(approach);
  if (s.runs < 2) return undefined;
  const head = `passed ${s.passes} of the last ${s.runs} runs`;
  return s.lastPass ? `${head}, last passed ${ago(s.lastPass, now)}` : `${head}, never passed since it first failed`;
}

/** A list of files for a sentence: “a”, “b” and 3 more (quotes, not Markdown: most places show it as plain text). */
export function listFiles(files: readonly string[], more = 0): string {
  const shown = files.map(f => `“${f}”`);
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** What a fix did, in words: "installing packages and changing “a.js”", "changing “a.js” and “b.js”". */
export function fixedByText(files: readonly string[], more = 0): string {
  const doing: string[] = [];
  if (files.includes(PACKAGES_PATH)) doing.push('installing packages');
  if (files.includes(INLINE_SCRIPT_PATH)) doing.push('running an inline script');
  const real = files.filter(f => f !== PACKAGES_PATH && f !== INLINE_SCRIPT_PATH);
  if (real.length || more) doing.push(`changing ${listFiles(real, more)}`);
  return doing.join(' and ');
}

/** The lesson a fix teaches, as recall, the dialog and the agents show it. */
export function fixLessonText(fix: FixRecord): string {
  return `fixed by ${fixedByText(fix.files, fix.more)}${fix.signature ? ` (the error was: ${readableSignature(fix.signature.split('\n')[0]).slice(0, 160)})` : ''}`;
}

/** What the ledger says about an approach, one line each (panel, dialog): history, changes, fix, flakiness. */
export function ledgerLines(a: Approach, now: Date = new Date()): string[] {
  const lines: string[] = [];
  const history = describeHistory(a, now);
  if (history) lines.push(`${history[0].toUpperCase()}${history.slice(1)}`);
  const changed = a.failures > 0 ? describeChangedSinceLastPass(a, now) : undefined;
  if (changed) lines.push(`${changed[0].toUpperCase()}${changed.slice(1)}`);
  if (a.fix) lines.push(`Last time it was ${fixLessonText(a.fix)}`);
  const flaky = flakyVerdict(a.ledger);
  if (flaky.flaky) lines.push(`Flaky: ${flaky.reason.replace(/^flaky: /, '')}`);
  return lines;
}

/** "changed since the last pass (2 hours ago): “a”, “b”" or undefined. */
export function describeChangedSinceLastPass(approach: Pick<Approach, 'changedSinceLastPass'>, now: Date = new Date()): string | undefined {
  const c = approach.changedSinceLastPass;
  if (!c) return undefined;
  if (!c.files.length) return `nothing changed in git since it last passed (${ago(c.since, now)}): the cause is outside the code (environment, data, network) or the command is flaky`;
  return `changed since it last passed (${ago(c.since, now)}): ${listFiles(c.files, c.more)}`;
}
