// dist/hook-post.js: the hook for a post call (dist/hook.js runs it instead of dist/hook-main.js):
// the result prepared and appended to the journal by this bundle itself (app/hookRecord.ts);
// the store's bundle, dist/hook-record.js, is loaded only to fold a long journal, for team memory, for
// an edit tool's edit events, or for a memory.json the store must migrate. Apart (not a part of
// hook-main.js) so that the gate does not load the output parsers, and a post does not load two bundles.
import { join } from 'node:path';
import type { CheckResult } from './core/rules/check';
import type { HookEdits } from './agents/hooks/record';
import { journalHookRun, type HookRecord } from './app/hookRecord';
import { startHookProcess } from './agents/hooks/runner';
import { VERSION } from './cli/version';
import { warmUpGate, warmUpRecording } from './agents/hooks/warmUp';

/** Run by dist/hook.js before it writes this bundle's code cache (see warmUp.ts). */
export function warmUp(): void {
  warmUpGate();
  warmUpRecording();
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a runtime path, on purpose not bundled
const store = () => require(join(__dirname, 'hook-record.js')) as typeof import('./agents/hooks/record');

startHookProcess({
  record: (r: HookRecord) => journalHookRun(r, { full: x => store().recordHookResult(x), fold: (ws, via) => store().foldJournal(ws, via) }),
  readFull: workspace => store().readMemoryFull(workspace),
  recordEdits: (r: HookEdits) => store().recordHookEdits(r),
  recordDecision: (workspace: string, c: CheckResult, via: string) => store().recordHookDecision(workspace, c, via),
  gitState: workspace => store().gitStateOf(workspace),
  restoreGate: (workspace, via, by) => store().restoreGate(workspace, via, by),
  launcher: { dist: __dirname, node: process.execPath, version: VERSION, writer: '`failure-memory setup-agents` (and the extension, where installed)' },
});
