// The post hook's write: one command result (or an edit tool's changes, or a gate decision) into the
// workspace memory (redacted, locked, atomic), and into the team outbox when team memory is on. Its
// own small bundle (dist/hook-record.js), loaded only by post calls and denies, so that the gate's
// bundle carries no store writer; the team link here is the local one (outbox and cached view): no
// database driver is loaded.
import { join } from 'node:path';
import type { CheckResult } from '../../core/rules/check';
import type { GitState, MemoryData } from '../../core/types';
import { readGitState } from '../../store/gitContext';
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
  // a warning (a redaction pattern over its time budget) goes to the hook's stderr, where the harness logs it
  const onWarning = (m: string) => void process.stderr.write(`Failure Memory hook: ${m}\n`);
  // team memory on: the record is queued, and a detached process (dist/team-sync.js) sends it
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning, team: options => new TeamLocal(options), backgroundSync: join(__dirname, 'team-sync.js') });
  await memory.record({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' });
}

export interface HookEdits {
  workspace: string;
  /** Absolute paths (made relative to the workspace when recorded). */
  edits: Array<{ path: string; ok: boolean; tool: string }>;
  /** The harness that reported them. */
  via: string;
}

/** An edit tool's changes into the workspace memory: edit events (redacted, bounded). */
export async function recordHookEdits(r: HookEdits): Promise<void> {
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: () => undefined, git: false });
  await memory.recordEdits(r.edits.map(e => ({ path: e.path, ok: e.ok, source: 'agent' as const, tool: e.tool })));
}

/** An ask or deny of the gate into the decision log (shadow mode reads it back). */
export async function recordHookDecision(workspace: string, c: CheckResult, via: string): Promise<void> {
  const { memory } = openWorkspaceMemory({ workspace, onWarning: () => undefined, git: false });
  await memory.recordDecision(c, via);
}

/** The workspace's git state now (bounded; undefined without git). */
export function gitStateOf(workspace: string): Promise<GitState | undefined> {
  return readGitState(workspace);
}

/** The store's full read: migrations, a damaged file moved aside (when the hook's quick read cannot use it). */
export function readMemoryFull(workspace: string): Promise<MemoryData> {
  return new MemoryStore(memoryDirFor(workspace), { onWarning: () => undefined, cache: false }).read();
}
