// Runs fed to the engine as the extension feeds them (prepareAttempt, then applyAttempt), each a
// minute after the one before on a clock of the test's own: no real time, the same times every run.
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, type Attempt, type RunInput, type EngineSettings, type MemoryData } from '../../src/core/types';
import type { ScriptTables } from '../../src/core/approach/scripts';

export interface Recorder {
  /** The attempt of one finished run, at the clock's next minute (`scripts`: the project's script tables). */
  attempt(command: string, exitCode: number | null, output?: string, extra?: Partial<RunInput>, settings?: EngineSettings, scripts?: ScriptTables): Attempt;
  /** The attempt applied to `data` (what record does). */
  run(data: MemoryData, command: string, exitCode: number | null, output?: string, extra?: Partial<RunInput>, settings?: EngineSettings): ReturnType<typeof applyAttempt>;
  /** The time of the last run, in ms. */
  now(): number;
}

/** A recorder whose first run is a minute after `start`; runs come from `source` unless `extra` says otherwise. */
export function recorder(start = '2026-11-20T10:00:00Z', source: RunInput['source'] = 'terminal'): Recorder {
  const redactor = createRedactor();
  let clock = Date.parse(start);
  const attempt: Recorder['attempt'] = (command, exitCode, output = '', extra = {}, settings = DEFAULT_SETTINGS, scripts) =>
    prepareAttempt({ command, exitCode, output, source, ...extra }, settings, redactor, new Date((clock += 60_000)), scripts);
  return {
    attempt,
    run: (data, command, exitCode, output = '', extra = {}, settings = DEFAULT_SETTINGS) => applyAttempt(data, attempt(command, exitCode, output, extra, settings), settings),
    now: () => clock,
  };
}
