// A memory store that lives in the process only: the same interface as MemoryStore, no files.
// Used by `failure-memory replay` (one fresh, isolated memory per trajectory) and by tests, so
// that they go through WorkspaceMemory — the very code path of `check` and `record`.

import { emptyMemory, type MemoryData } from '../core/types';
import type { MemoryStorePort } from './memoryStore';

export class InMemoryStore implements MemoryStorePort {
  readonly dir: string;
  readonly file: string;
  private data: MemoryData;

  constructor(name = 'in-memory', initial: MemoryData = emptyMemory()) {
    this.dir = `(${name})`;
    this.file = `(${name})/memory.json`;
    this.data = structuredClone(initial);
  }

  /** A copy, as a file read would give: callers never hold the live document. */
  async read(): Promise<MemoryData> {
    return structuredClone(this.data);
  }

  async update<T>(mutate: (data: MemoryData) => T | Promise<T>): Promise<T> {
    const next = structuredClone(this.data);
    const result = await mutate(next);
    next.updatedAt = new Date().toISOString();
    this.data = next;
    return result;
  }

  async replace(data: MemoryData): Promise<void> {
    this.data = { ...structuredClone(data), updatedAt: new Date().toISOString() };
  }

  async mtimeMs(): Promise<number | undefined> {
    return undefined;
  }
}
