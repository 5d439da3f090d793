// The post hook's store: its own bundle (dist/hook-record.js), loaded only when the hooks' own quick
// write (./quickRecord.ts) cannot do: with team memory on (every write reaches the outbox: the team
// link here is the local one, outbox and cached view, no database driver), to fold a long journal
// into memory.json, and for a memory.json the store must migrate or repair.
import type { MemoryData } from '../../core/types';
import { MemoryStore } from '../../store/memoryStore';
import { memoryDirFor } from '../../store/paths';
import { TeamLocal } from '../../store/team/teamLink';
import { openWorkspaceMemory } from '../../app/openMemory';
import { warmUpRecording } from './warmUp';

export interface HookRecord {
  workspace: string;
  command: string;
  cwd: string;
  exitCode: number | null;
  output: string;
}

export async function recordHookResult(r: HookRecord): Promise<void> {
  // one record per process: nothing to keep the parsed memory for (longLived: false), and the run
  // goes into the journal rather than a rewrite of the whole memory.json (the next full write folds it)
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: () => undefined, team: options => new TeamLocal(options), journal: true, git: { sync: true } });
  await memory.record({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' });
}

/** Folds the journal into memory.json (a full write that changes nothing else). */
export async function foldJournal(workspace: string): Promise<void> {
  const { memory } = openWorkspaceMemory({ workspace, onWarning: () => undefined, team: false });
  await memory.store.update(() => undefined);
}

/** Run by dist/hook.js before it writes this bundle's code cache (see warmUp.ts). */
export const warmUp = warmUpRecording;

/** The store's full read: migrations, a damaged file moved aside (when the hook's quick read cannot use it). */
export function readMemoryFull(workspace: string): Promise<MemoryData> {
  return new MemoryStore(memoryDirFor(workspace), { onWarning: () => undefined, cache: false }).read();
}
