// The post hook's write: one command result into the workspace memory (redacted, locked, atomic),
// and into the team outbox when team memory is on. Its own small bundle (dist/hook-record.js),
// loaded only by post calls, so that the gate's bundle carries no store writer; the team link here
// is the local one (outbox and cached view): no database driver is loaded.
import { applyRecord, runRecord } from '../../core/journal';
import { extractLearnings } from '../../core/learnings';
import { prepareAttempt } from '../../core/memory';
import { createRedactor } from '../../core/redact';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../core/types';
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
  // one record per process: nothing to keep the parsed memory for (longLived: false), and the run
  // goes into the journal rather than a rewrite of the whole memory.json (the next full write folds it)
  const { memory } = openWorkspaceMemory({ workspace: r.workspace, onWarning: () => undefined, team: options => new TeamLocal(options), journal: true, git: { sync: true } });
  await memory.record({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' });
}

/**
 * Run by dist/hook.js before it writes this bundle's code cache (see warmUp.ts): a failure's output
 * prepared and journaled on a made-up memory, so the cache holds the recording path.
 */
export function warmUp(): void {
  try {
    const settings = DEFAULT_SETTINGS;
    const redactor = createRedactor();
    const outputs = [
      "FAIL src/sum.test.js\n  ● sum › adds\n    expect(received).toBe(expected)\nTests:       1 failed, 3 passed, 4 total\n",
      "Error: Cannot find module 'left-pad'\nRequire stack:\n- /w/index.js\n",
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n",
      'E   AssertionError: assert 1 == 2\nFAILED tests/test_a.py::test_b - assert 1 == 2\n1 failed, 2 passed in 0.1s\n',
    ];
    const data = emptyMemory();
    for (const [i, output] of outputs.entries()) {
      const attempt = prepareAttempt({ command: `npm test -- ${i}`, cwd: '.', exitCode: 1, output, source: 'agent' }, settings, redactor);
      applyRecord(data, runRecord(attempt, settings, extractLearnings(attempt.output)), { redact: t => redactor.redact(t).text });
    }
  } catch {
    // a cache without these functions is only slower
  }
}

/** The store's full read: migrations, a damaged file moved aside (when the hook's quick read cannot use it). */
export function readMemoryFull(workspace: string): Promise<MemoryData> {
  return new MemoryStore(memoryDirFor(workspace), { onWarning: () => undefined, cache: false }).read();
}
