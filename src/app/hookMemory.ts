// Memory's files as the hooks and doctor read them, without a WorkspaceMemory and without the
// store's writer: memory.json with the runs other hooks journaled since it was written, read
// without the lock (store/quickView.ts), and memory.index.json's list of exhausted approaches. The
// doors (src/agents) read memory through here, never from src/store themselves. Small on purpose:
// the pre hook's bundle loads it.

import { applyRecord, pendingRecords, newRunRecord, type JournalContents } from '../core/journal';
import { createRedactor } from '../core/text/redact';
import { DEFAULT_SETTINGS, type MemoryData } from '../core/types';
import { parseJournal } from '../store/journal';
import { headOf, headsOf, parseIndex } from '../store/memoryIndex';
import { memoryDirFor } from '../store/paths';
import { indexedExhausted, readView, type HeadGuard, type View } from '../store/quickView';
import { loadWorkspaceSettings } from './settings';

export type { HeadGuard };
/** Memory's exhausted approaches as a read knew them (what the gate's copy is compared with). */
export type KnownExhausted = View['exhausted'];

/**
 * Memory as the hook sees it: memory.json with the runs other hooks journaled since it was written,
 * read without the lock and without the store, with the approaches of `keys` loaded whole (all of
 * them for 'all'), the others' heads watched by `guard` when given (see readView). null: no memory
 * yet. undefined: the store's own read is needed (an older schema, damaged: the store migrates or
 * moves it aside).
 */
export function readMemorySnapshot(workspace: string, keys: readonly string[] | 'all' = 'all', guard?: HeadGuard, seen: { exhausted?: KnownExhausted } = {}): MemoryData | null | undefined {
  // a fix lesson in a journaled run is redacted with the workspace's patterns: loaded only then
  let redactor: ReturnType<typeof createRedactor> | undefined;
  const redact = (t: string) => (redactor ??= createRedactor(loadWorkspaceSettings(workspace).engine['redaction.extraPatterns'])).redact(t).text;
  const view = readView(memoryDirFor(workspace), keys, { redact }, {}, guard);
  // what the gate's copy is compared with: memory's exhausted approaches, as this read knows them
  seen.exhausted = view === null ? new Map() : view?.exhausted;
  return view ? view.data : view;
}

/** Memory as it is on disk, its journal applied, nothing redacted again (what doctor compares with the gate's copy); null: none. */
export function readMemoryAsIs(workspace: string): MemoryData | null | undefined {
  const view = readView(memoryDirFor(workspace), 'all', { redact: t => t });
  return view === null ? null : view?.data;
}

/**
 * memory.json's exhausted approaches as its index lists them (one small read, neither memory.json nor
 * the journal): undefined when the index does not describe memory.json. Runs waiting in the journal
 * are not in it: a reader that finds less than it expects reads more.
 */
export function listedExhausted(workspace: string): KnownExhausted {
  return indexedExhausted(memoryDirFor(workspace));
}

/** Runs the quick read's parsers once on made-up text, for the hooks' code cache (agents/hooks/warmUp.ts). */
export function warmUpMemoryReads(data: MemoryData, key: string, at: string, attempt: Parameters<typeof newRunRecord>[0], redact: (t: string) => string): void {
  const index = parseIndex(`${JSON.stringify({ format: 2, file: { ino: 1, size: 100, mtimeMs: 1 }, schemaVersion: data.schemaVersion, lists: {}, spans: [[key, 0, 10, 10]] })}\n${JSON.stringify([['tsc', 'npx tsc -p .', '.', 'exhausted', 5, at, at, 'x', ['x']]])}\n`);
  const heads = index && headsOf(index);
  if (heads) headOf(key, heads[0]);
  const record = newRunRecord(attempt, DEFAULT_SETTINGS, []);
  const journal = parseJournal(Buffer.from(`{"journal":1,"id":"0123456789abcdef"}\n${JSON.stringify(record)}\n`)) as JournalContents;
  for (const r of pendingRecords(data, journal)) applyRecord(data, r, { redact });
}
