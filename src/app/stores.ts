// The one place memory's stores are built, for every door: the full store (memory.json, its
// journal and index, under the folder's lock: WorkspaceMemory, the hooks' fold and full read, the
// extension's team hub), the journal's side alone (the post hook's append, which neither parses
// nor rewrites memory.json) and a memory in this process only (the replay). The doors (src/cli, src/agents, src/host and the entries at src/'s top)
// never import the store's memory modules: what a store is made with is said here, once.

import { join } from 'node:path';
import { FolderLock } from '../store/folderLock';
import { InMemoryStore } from '../store/inMemoryStore';
import { GateGuard } from '../store/gateGuard';
import { JournalStore } from '../store/journalStore';
import { MEMORY_FILE_NAME } from '../store/memorySchema';
import { MemoryStore, type StoreOptions } from '../store/memoryStore';
import { memoryDirFor } from '../store/paths';

export type { MemoryStore, StoreOptions };

/**
 * The store of `dir` (default: the workspace's memory folder, which must then stay inside the
 * workspace). A one-shot reader or writer (a hook) keeps no parsed memory (cache false, the default
 * here); a long-lived one (the extension, MCP) asks for the cache.
 */
export function openMemoryStore(workspace: string, options: StoreOptions & { dir?: string } = {}): MemoryStore {
  const { dir, ...rest } = options;
  return new MemoryStore(dir ?? memoryDirFor(workspace), { cache: false, ...rest, root: rest.root ?? (dir ? undefined : workspace) });
}

/** A memory that lives in this process only, named `name` (the replay of an agent's history: nothing is read or written). */
export function openScratchStore(name: string): InMemoryStore {
  return new InMemoryStore(name);
}

/**
 * The journal's side of the workspace's store, for a post hook that appends one run: the folder's
 * lock, the redaction of a journaled run's fix lesson, and the gate's copy (written as `via`, after
 * the command `by`) that follows what the run does to its approach.
 */
export function openJournalStore(workspace: string, redact: (text: string) => string, gate: { via: string; by?: string }): JournalStore {
  const dir = memoryDirFor(workspace);
  return new JournalStore(new FolderLock(dir, join(dir, MEMORY_FILE_NAME), { root: workspace, onWarning: () => undefined }), redact, new GateGuard({ workspace, ...gate }));
}
