// dist/hook-main.js: the gate and the agents' context (`failure-memory hook <harness> <event>`
// through the launcher), without the MCP SDK, zod, the embeddings or the store's writer.
// dist/hook.js (src/hookLoader.ts) runs it with a V8 code cache, and runs dist/hook-post.js instead
// for a post call (src/hookPost.ts: the same hook, with the recording path).
import { join } from 'node:path';
import type { CheckResult } from './core/rules/check';
import type { HookEdits } from './agents/hooks/record';
import type { HookRecord } from './app/hookRecord';
import { startHookProcess } from './agents/hooks/runner';
import { VERSION } from './cli/version';
import { warmUpGate } from './agents/hooks/warmUp';

/** Run by dist/hook.js before it writes this bundle's code cache (see warmUp.ts). */
export const warmUp = warmUpGate;

// a path esbuild leaves alone: the store is its own bundle, loaded by a call that writes (a decision,
// an edit), that finds an old or damaged memory.json, or a post call run straight through this bundle
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a runtime path, on purpose not bundled
const store = () => require(join(__dirname, 'hook-record.js')) as typeof import('./agents/hooks/record');

startHookProcess({
  record: (r: HookRecord) => store().recordHookResult(r),
  readFull: workspace => store().readMemoryFull(workspace),
  recordEdits: (r: HookEdits) => store().recordHookEdits(r),
  recordDecision: (workspace: string, c: CheckResult, via: string) => store().recordHookDecision(workspace, c, via),
  gitState: workspace => store().gitStateOf(workspace),
  restoreGate: (workspace, via, by) => store().restoreGate(workspace, via, by),
  launcher: { dist: __dirname, node: process.execPath, version: VERSION, writer: '`failure-memory setup-agents` (and the extension, where installed)' },
});
