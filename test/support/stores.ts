// Memory stores for the store tests: a maker of fresh ones, a learning to write, a lock file as
// another process would leave it (its JSON, and an age set through the file's mtime), and a lock
// clock that moves only when the lock sleeps.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Learning } from '../../src/core/types';
import type { LockClock } from '../../src/store/lock';
import { MemoryStore, memoryDirFor, type StoreOptions } from '../../src/store/memoryStore';

/** Writes `dir`/memory.json.lock holding `info`, `ageMs` old; returns its path. */
export function writeLock(dir: string, info: object, ageMs = 0): string {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'memory.json.lock');
  fs.writeFileSync(lock, JSON.stringify(info));
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lock, then, then);
  }
  return lock;
}

/** A maker of memory stores, each in a fresh folder of `workspace()`, that collect their warnings. */
export function storeMaker(workspace: () => string): (options?: StoreOptions) => { store: MemoryStore; warnings: string[]; dir: string } {
  return (options = {}) => {
    const warnings: string[] = [];
    const dir = memoryDirFor(workspace());
    const store = new MemoryStore(dir, { onWarning: m => warnings.push(m), ...options });
    return { store, warnings, dir };
  };
}

/** A learning whose text names its id. */
export function learning(id: string): Learning {
  return { id, type: 'learning', text: `fact ${id}`, source: 'note', createdAt: '2026-11-20T10:00:00.000Z' };
}

/**
 * A lock clock that starts at the real time (lock files' mtimes are real) and moves only when the
 * lock sleeps: a wait of seconds takes none, and the sleeps it asked for are kept to look at.
 */
export function fakeLockClock(): LockClock & { sleeps: number[] } {
  let t = Date.now();
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async ms => {
      sleeps.push(ms);
      t += ms;
      // still a real turn of the event loop, as a timer would be
      await new Promise(resolve => setImmediate(resolve));
    },
  };
}
