// Recording one prepared run where a hook records it: into the journal beside memory.json, reading
// memory for that one approach only (see store/journalStore.ts). WorkspaceMemory.record takes this
// path in journal mode, and the post hook takes it directly, without loading the rest of the
// application: one behaviour, in one place. Also the run's git context, for both paths.

import { applyRecord, newRunRecord, type RunEffect, type RunRecord } from '../core/journal';
import { runRecordOf } from '../core/storedShapes';
import { comparisonHead } from '../core/rules/ledger';
import { applyAttempt, hasWorkspaceEffects, touchesPatterns } from '../core/memory';
import type { Approach, Attempt, EngineSettings, MemoryData, PatternRecord } from '../core/types';
import { committedFiles, readGitState, type GitOptions } from '../store/gitContext';
import { FOLD_BYTES, FOLD_RECORDS, type Appended } from '../store/journal';
import type { RecordEffect, SeenBefore } from '../store/journalStore';

/** The store's journal side (JournalStore, or MemoryStore which uses one). */
export interface JournalPort {
  readFor(keys: readonly string[]): Promise<MemoryData | undefined>;
  readApproach(key: string): Promise<{ approach: Approach | undefined; patterns?: PatternRecord[] } | undefined>;
  appendRecord<T>(record: RunRecord, effect?: RecordEffect<T>, seen?: SeenBefore): Promise<{ result: T | undefined; appended: Appended } | undefined>;
}

export interface JournalingOptions {
  workspace: string;
  store: JournalPort;
  settings: EngineSettings;
  redact: (text: string) => string;
  git: false | GitOptions;
  /**
   * What the caller is told of what the run did: nothing (a hook: memory is then read for this
   * approach only); as this process sees memory; or exactly, as memory stands under the lock
   * (someone else is told: the team's outbox).
   */
  tell: 'nothing' | 'view' | 'exact';
}

export interface JournaledRun {
  /** What the run did (absent when nothing was asked). */
  outcome?: RunEffect;
  /** false: nothing to keep (a success of a command that never failed here). */
  journaled: boolean;
  /** The journal is long enough to be folded into memory.json now. */
  fold: boolean;
}

/**
 * Records a prepared run into the journal. undefined: memory.json needs the store's full read or
 * write (an older schema, damaged): record it with the store instead.
 */
export async function journalRun(attempt: Attempt, found: RunRecord['learnings'], r: JournalingOptions): Promise<JournaledRun | undefined> {
  const current = r.tell === 'view' ? await r.store.readFor([attempt.key]) : undefined;
  const own = current ? { approach: current.approaches[attempt.key], patterns: current.patterns } : await r.store.readApproach(attempt.key);
  if (!own) return undefined;
  const quiet = !own.approach && !hasWorkspaceEffects(attempt.command, attempt.outcome) && !touchesPatterns({ patterns: own.patterns }, attempt);
  if (!found.length && (attempt.outcome === 'success' || attempt.outcome === 'interrupted') && quiet) {
    // most commands succeed and were never remembered: nothing is written, no git is asked
    return { ...(current ? { outcome: { ...applyAttempt(current, attempt, r.settings), learnings: [] } } : {}), journaled: false, fold: false };
  }
  // the git state after the run, before the lock (git is bounded; the lock is not held meanwhile)
  if (r.git !== false && attempt.outcome !== 'interrupted') await addGitContext(r.workspace, attempt, own.approach, r.git);
  const record = newRunRecord(attempt, r.settings, found);
  // a record every reader will apply, or none: one that does not pass the readers' check is written by the store
  if (!runRecordOf(record)) return undefined;
  const apply = (view: MemoryData, sizeOf?: (a: Approach) => number) => applyRecord(view, record, { redact: r.redact, ...(sizeOf ? { sizeOf } : {}) });
  const done = await r.store.appendRecord(record, r.tell === 'exact' ? { key: attempt.key, apply } : undefined, { approach: own.approach });
  if (!done) return undefined;
  // what it did: as memory stood under the lock, or from this process's own view (no other reader holds it)
  const outcome = done.result ?? (current ? apply(current) : undefined);
  if (r.tell !== 'nothing' && !outcome) return undefined;
  return { ...(outcome ? { outcome } : {}), journaled: true, fold: done.appended.records >= FOLD_RECORDS || done.appended.bytes >= FOLD_BYTES };
}

/** Git state of the run; the files committed since the run it is compared with when HEAD moved. */
export async function addGitContext(workspace: string, attempt: Attempt, before: Approach | undefined, options: GitOptions): Promise<void> {
  const state = await readGitState(workspace, options).catch(() => undefined);
  if (!state) return;
  const from = comparisonHead(before, attempt.outcome);
  if (from && state.head && from !== state.head) {
    const files = await committedFiles(workspace, from, state.head, options).catch(() => undefined);
    if (files) state.committed = { from, files };
  }
  attempt.git = state;
}
