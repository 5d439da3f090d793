// A memory store that lives in the process only: the same interface as MemoryStore, no files.
// Used by `failure-memory replay` (one fresh, isolated memory per trajectory) and by tests, so
// that they go through WorkspaceMemory — the very code path of `check` and `record`.

import { emptyMemory, type MemoryData } from '../core/types';
import { cloneJson, deepFreeze } from './frozen';
import type { MemoryStorePort } from './memoryStore';

export class InMemoryStore implements MemoryStorePort {
  readonly dir: string;
  readonly file: string;
  private data: MemoryData;
  /** The frozen copy read() hands out, made once per version (like the file store's cache). */
  private view: MemoryData | undefined;

  constructor(name = 'in-memory', initial: MemoryData = emptyMemory()) {
    this.dir = `(${name})`;
    this.file = `(${name})/memory.json`;
    this.data = cloneJson(initial);
  }

  /** A frozen copy, shared until the next write, as the file store gives: callers never hold the live document. */
  async read(): Promise<MemoryData> {
    this.view ??= deepFreeze(cloneJson(this.data));
    return this.view;
  }

  async update<T>(mutate: (data: MemoryData) => T | Promise<T>): Promise<T> {
    const next = cloneJson(this.data);
    const result = await mutate(next);
    next.updatedAt = new Date().toISOString();
    this.data = next;
    this.view = undefined;
    return result;
  }

  async replace(data: MemoryData): Promise<void> {
    this.data = { ...cloneJson(data), updatedAt: new Date().toISOString() };
    this.view = undefined;
  }

  async mtimeMs(): Promise<number | undefined> {
    return undefined;
  }
}
