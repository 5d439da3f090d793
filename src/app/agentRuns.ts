// VS Code's agent terminal runs, handed between the agent hooks and the extension (store/agentRuns.ts):
// the extension's terminal watcher claims each run, records it with the terminal's exit code, takes
// the output the post hook handed over and finishes the call; the pre hook says which call it let run
// and waits while the run before is still being recorded; the post hook hands the output it was given
// (shell integration often misses the output of a command that ends at once). The hooks' side is
// housekeeping only: nothing there may stop a call or lose a result, so every failure is swallowed.
// The hooks name their own call files the same way (shortName, in a folder reached through no link).

import { expectAgentRun, handAgentRunOutput, runsBeingRecorded } from '../store/agentRuns';
import { memoryDirFor } from '../store/paths';

export { claimAgentRun, finishAgentRun, handedOutput, shortName, writableDir } from '../store/agentRuns';

/**
 * The longest a pre hook waits for the terminal watcher to record the run before: usually milliseconds;
 * the watcher itself waits at most 3 s for the output stream and 5 s for the post hook's output.
 */
const RECORD_WAIT_MS = 10_000;
const POLL_MS = 25;

/** Waits (bounded) while the terminal watcher records a run of this workspace. */
export async function waitForTerminalRecords(workspace: string, maxMs = RECORD_WAIT_MS): Promise<void> {
  const dir = memoryDirFor(workspace);
  for (const end = Date.now() + maxMs; Date.now() < end; ) {
    if (!safe(() => runsBeingRecorded(dir), 0)) return;
    await new Promise(r => setTimeout(r, POLL_MS));
  }
}

/** The pre hook let `command` run in the agent's terminal: the watcher will match the run to this call. */
export function expectTerminalRun(workspace: string, callId: string | undefined, command: string): void {
  if (callId) safe(() => expectAgentRun(memoryDirFor(workspace), callId, command), undefined);
}

/**
 * The post hook's output of a terminal call (redacted by the caller), for the watcher's record; an
 * empty one too, so the watcher stops waiting for it.
 */
export function handTerminalOutput(workspace: string, callId: string | undefined, redactedOutput: string): void {
  if (callId) safe(() => handAgentRunOutput(memoryDirFor(workspace), callId, redactedOutput), false);
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
