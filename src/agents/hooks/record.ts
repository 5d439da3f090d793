// The post hook's write: one command result into the workspace memory (redacted, locked, atomic),
// and into the team outbox when team memory is on. Its own small bundle (dist/hook-record.js),
// loaded only by post calls, so that the gate's bundle carries no store writer; the team link here
// is the local one (outbox and cached view): no database driver is loaded.
import { join } from 'node:path';
import type { MemoryData } from '../../core/types';
import { MemoryStore } from '../../store/memoryStore';
import { memoryDirFor } from '../../store/paths';
import { TeamLocal } from '../../store/team/teamLink';
import { openWorkspaceMemory } from '../../app/openMemory';

export interface HookRecord {
  workspace: string;
  command: string;
  cwd: string;
  exitCode: number | null;
  output: string;
}

export async function recordHookResult(r: HookRecord): Promise<void> {
  // one record per process: nothing to keep the parsed memory for (longLived: false)
  // team memory on: the record is queued, and a detached process (dist/team-sync.js) sends it
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: () => undefined, team: options => new TeamLocal(options), backgroundSync: join(__dirname, 'team-sync.js') });
  await memory.record({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' });
}

/** The store's full read: migrations, a damaged file moved aside (when the hook's quick read cannot use it). */
export function readMemoryFull(workspace: string): Promise<MemoryData> {
  return new MemoryStore(memoryDirFor(workspace), { onWarning: () => undefined, cache: false }).read();
}
