// One tool call, one record, even when two hooks fire for it (Copilot CLI runs its own
// .github/hooks entries and .claude/settings.json's for the same call): the first post hook to
// claim the call's key records it, the other sees the claim and records nothing. A claim is an
// empty file created exclusively (atomic across processes) in the memory folder; old ones are pruned.

import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { shortName } from '../../store/agentRuns';

const KEEP_MS = 60 * 60 * 1000;

function prune(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    try {
      const p = join(dir, name);
      if (now - statSync(p).mtimeMs > KEEP_MS) rmSync(p, { force: true });
    } catch {
      // gone already (another hook pruned it)
    }
  }
}

/**
 * True the first time `key` is claimed in this folder. Anything unexpected (a read-only folder):
 * true, so a result is never lost to the deduplication.
 */
export function claimCall(memoryFolder: string, key: string, now = Date.now()): boolean {
  const dir = join(memoryFolder, 'hook-calls');
  try {
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(join(dir, shortName(key)), 'wx'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  try {
    if (readdirSync(dir).length > 64) prune(dir, now);
  } catch {
    // pruning is housekeeping
  }
  return true;
}
