// Replay: each trajectory of a corpus runs through its own fresh, isolated memory, in-process.
// Before each command we ask WorkspaceMemory.check (what `failure-memory check` answers), then we
// record the command with its real exit code and output through WorkspaceMemory.record (what
// `failure-memory record` does); the edit events between commands go through WorkspaceMemory.recordEdits
// (what `failure-memory edit` and the edit-tool hooks do). Same service, same engine: only the store
// lives in memory, and the clock is the replay's own: the corpora carry no times, so each event is
// REPLAY_STEP_MS after the one before.

import type { CheckResult, CheckStatus, Verdict } from '../core/rules/check';
import type { Evidence, ReasonCode } from '../core/rules/policy';
import type { Decision, MemoryData } from '../core/types';
import type { RecordOutcome } from '../app/workspaceMemory';
import { InMemoryStore } from '../store/inMemoryStore';
import { openWorkspaceMemory } from '../app/openMemory';
import { settingsFrom } from '../app/settings';
import type { Trajectory } from './corpus';

/** What `failure-memory replay --json` prints per command. */
export interface ReplayLine {
  source: string;
  index: number;
  status: CheckStatus;
  /** The graded answer: allow, warn, ask or deny. */
  decision: Decision;
  /** The gate would stop this run until someone decides (ask or deny; `check` exits 2). */
  blocked: boolean;
}

/** A replay line with what the benchmark needs to explain it. */
export interface ReplayStep extends ReplayLine {
  command: string;
  exitCode: number | null;
  verdict: Verdict;
  key: string;
  reason: string;
  /** The rule that decided. */
  code: ReasonCode;
  evidence?: Evidence;
  /** Failures the approach had before this run. */
  attempts: number;
}

/** The replay's time between two events (a shell command or an edit): a typical agent step. */
export const REPLAY_STEP_MS = 10_000;

export interface ReplayOptions {
  threshold?: number;
  /** failureMemory.gate.changeBudget to replay with (the judgement benchmark measures others than the default). */
  changeBudget?: number;
  /** Told each command with the memory its check read, its time, the check and what recording it did (the benchmark's cross-approach view). */
  inspect?: (step: { index: number; before: MemoryData; now: Date; check: CheckResult; recorded: RecordOutcome }) => void;
  /** Told the memory as the trajectory left it. */
  onEnd?: (data: MemoryData) => void;
}

/**
 * The trajectory's workspace is the folder its commands ran in (/testbed, /app); a command that ran
 * elsewhere gets its folder relative to it, as the CLI's --cwd would. Each command is its own
 * subshell, so nothing (a `cd`) carries over from one command to the next.
 */
export async function replayTrajectory(t: Trajectory, options: ReplayOptions = {}): Promise<ReplayStep[]> {
  const workspace = t.commands[0]?.cwd ?? '.';
  let time = Date.parse('2026-01-01T00:00:00.000Z');
  // a recorded trajectory: the defaults (not the settings of whatever folder is at that path), no
  // git, no team and no files read (there is no real repository behind it); the replay's own clock
  const { memory } = openWorkspaceMemory({
    workspace,
    store: new InMemoryStore(t.source),
    settings: settingsFrom(() => undefined),
    overrides: { threshold: options.threshold, 'gate.changeBudget': options.changeBudget },
    git: false,
    team: false,
    workspaceFiles: false,
    clock: () => new Date(time),
  });
  const steps: ReplayStep[] = [];
  for (let index = 0; index < t.commands.length; index++) {
    const c = t.commands[index];
    for (const e of c.editsBefore ?? []) {
      time += REPLAY_STEP_MS;
      await memory.recordEdits([{ path: e.path, ok: e.ok, source: 'agent', tool: e.tool }]);
    }
    time += REPLAY_STEP_MS;
    const cwd = relativeCwd(workspace, c.cwd);
    const before = options.inspect ? await memory.read() : undefined;
    const now = new Date(time);
    const check = await memory.check(c.command, cwd);
    steps.push({
      source: t.source,
      index,
      status: check.status,
      decision: check.decision,
      blocked: check.verdict === 'block',
      command: c.command,
      exitCode: c.exitCode,
      verdict: check.verdict,
      key: check.key,
      reason: check.reason,
      code: check.code,
      ...(check.evidence ? { evidence: check.evidence } : {}),
      attempts: check.attempts,
    });
    time += 1;
    const recorded = await memory.record({ command: c.command, cwd, exitCode: c.exitCode, output: c.output, source: 'agent' });
    if (before) options.inspect?.({ index, before, now, check, recorded });
  }
  if (options.onEnd) options.onEnd(await memory.read());
  return steps;
}

/** `cwd` relative to `workspace` (undefined for the workspace itself); an absolute path elsewhere stays absolute. */
export function relativeCwd(workspace: string, cwd: string): string | undefined {
  const w = workspace.replace(/\/+$/, '');
  if (cwd === w || cwd === `${w}/` || cwd === '.' || cwd === '') return undefined;
  if (w && cwd.startsWith(`${w}/`)) return cwd.slice(w.length + 1);
  return cwd;
}

export function replayLine(s: ReplayStep): ReplayLine {
  return { source: s.source, index: s.index, status: s.status, decision: s.decision, blocked: s.blocked };
}
