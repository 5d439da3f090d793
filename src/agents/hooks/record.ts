// The post hook's store: its own bundle (dist/hook-record.js), loaded only when the hooks' own quick
// write (app/hookRecord.ts) cannot do: with team memory on (every write reaches the outbox: the team
// link here is the local one, outbox and cached view, no database driver), to fold a long journal
// into memory.json, for a memory.json the store must migrate or repair, and for an edit tool's
// changes or a gate decision. The gate's bundle carries no store writer.
import { join } from 'node:path';
import type { CheckResult } from '../../core/rules/check';
import type { GitState, MemoryData } from '../../core/types';
import { TeamLocal } from '../../app/hookTeam';
import type { HookRecord } from '../../app/hookRecord';
import { openWorkspaceMemory, readGitState } from '../../app/openMemory';
import { openMemoryStore } from '../../app/stores';
import { loadWorkspaceSettings } from '../../app/settings';
import { createRedactor } from '../../core/text/redact';
import { warmUpRecording } from './warmUp';

/** A warning of the hook (a redaction pattern over its time budget): on stderr, where the harness logs it. */
export const hookWarning = (m: string): void => void process.stderr.write(`Failure Memory hook: ${m}\n`);

export async function recordHookResult(r: HookRecord): Promise<void> {
  // one record per process: nothing to keep the parsed memory for (longLived: false), and the run
  // goes into the journal rather than a rewrite of the whole memory.json (the next full write folds it)
  // team memory on: the record is queued, and a detached process (dist/team-sync.js) sends it
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: hookWarning, team: options => new TeamLocal(options), backgroundSync: join(__dirname, 'team-sync.js'), journal: true, git: { sync: true }, gate: { via: r.via ?? 'hook', by: r.command } });
  await memory.record({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' });
}

/** Folds the journal into memory.json (a full write that changes nothing else), unless another hook just did. */
export async function foldJournal(workspace: string, via = 'hook'): Promise<void> {
  const redactor = createRedactor(loadWorkspaceSettings(workspace).engine['redaction.extraPatterns']);
  await openMemoryStore(workspace, { onWarning: () => undefined, gate: { via }, redact: t => redactor.redact(t).text }).foldJournal();
}

/**
 * Writes back what the workspace memory lost behind Failure Memory's back (the store puts it back on
 * any write: this is one that changes nothing else), with the event naming `via` and `by`.
 */
export async function restoreGate(workspace: string, via: string, by?: string): Promise<void> {
  const { memory } = openWorkspaceMemory({ workspace, onWarning: () => undefined, team: false, git: false, gate: { via, ...(by ? { by } : {}) } });
  await memory.store.update(() => undefined);
}

/** Run by dist/hook.js before it writes this bundle's code cache (see warmUp.ts). */
export const warmUp = warmUpRecording;

export interface HookEdits {
  workspace: string;
  /** Absolute paths (made relative to the workspace when recorded). */
  edits: Array<{ path: string; ok: boolean; tool: string }>;
  /** The harness that reported them. */
  via: string;
  /** Reported before they are applied (a shell-given patch, in its pre hook): the files do not hold them yet. */
  pending?: boolean;
}

/** An edit tool's changes into the workspace memory: edit events (redacted, bounded, each file's content hashed once applied). */
export async function recordHookEdits(r: HookEdits): Promise<void> {
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: () => undefined, git: false });
  await memory.recordEdits(r.edits.map(e => ({ path: e.path, ok: e.ok, source: 'agent' as const, tool: e.tool, ...(r.pending ? { hash: false as const } : {}) })));
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

/**
 * The store's full read: migrations, a damaged file moved aside (when the hook's quick read cannot use it).
 * Memory as its files hold it, as the quick read gives it: every hook compares it with the gate's copy
 * itself (hooks/restore.ts), so that what was lost is put back and said, not put back in silence.
 */
export function readMemoryFull(workspace: string): Promise<MemoryData> {
  return openMemoryStore(workspace, { onWarning: () => undefined }).readAsIs();
}
