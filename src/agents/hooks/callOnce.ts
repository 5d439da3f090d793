// One tool call, one record, even when two hooks fire for it (Copilot CLI runs its own
// .github/hooks entries and .claude/settings.json's for the same call): the first post hook to
// claim the call's key records it, the other sees the claim and records nothing. A claim is an
// empty file created exclusively (atomic across processes) in the memory folder; old ones are
// pruned, at most every few minutes (a busy session claims hundreds of calls an hour: a hook that
// looked at each of them on every call paid ~3 ms for it).

import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortName } from '../../app/agentRuns';
import { pruneWitness } from './witness';
import { readRegularSync } from '../../store/regularFile';

const KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 5 * 60 * 1000;
/** An empty file whose time says when the claims were last pruned. */
export const PRUNED_MARKER = '.pruned';

function pruneDue(dir: string, now: number): boolean {
  try {
    return now - statSync(join(dir, PRUNED_MARKER)).mtimeMs > PRUNE_EVERY_MS;
  } catch {
    return true;
  }
}

function prune(dir: string, now: number): void {
  // the marker first, created anew (never written through a link): the hooks that follow do not prune too
  const marker = join(dir, PRUNED_MARKER);
  rmSync(marker, { force: true });
  closeSync(openSync(marker, 'wx'));
  for (const name of readdirSync(dir)) {
    if (name === PRUNED_MARKER || pruneWitness(dir, name, now)) continue;
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
    if (pruneDue(dir, now)) prune(dir, now);
  } catch {
    // pruning is housekeeping
  }
  return true;
}

/**
 * A note from a call's pre hook to its post hook (the gate's warning, where the harness's pre hook has
 * no context for the model but its post hook has): beside the claims, pruned with them. Best effort.
 */
export function leaveNote(memoryFolder: string, key: string, text: string): void {
  const dir = join(memoryFolder, 'hook-calls');
  const file = join(dir, `note-${shortName(key)}`);
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text.slice(0, 16_000), { flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    // the warning was shown to the user at least (the pre hook's own channel)
  }
}

/** The note left for this call, once (read and removed); undefined when there is none. */
export function takeNote(memoryFolder: string, key: string): string | undefined {
  const file = join(memoryFolder, 'hook-calls', `note-${shortName(key)}`);
  try {
    // never waiting on a FIFO put where a note goes
    const text = readRegularSync(file, 'utf8', { noFollow: true, maxBytes: 64 * 1024 });
    rmSync(file, { force: true });
    return text || undefined;
  } catch {
    return undefined;
  }
}
