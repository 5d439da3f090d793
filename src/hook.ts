// dist/hook-main.js: the hook path alone (`failure-memory hook <harness> <event>` through the
// launcher), without the MCP SDK, zod, the embeddings or the store's writer: a post call records
// into the journal itself, and loads dist/hook-record.js (the store) only to fold the journal, for
// team memory, or for a memory.json the store must migrate. dist/hook.js (src/hookLoader.ts) runs
// this with a V8 code cache, one per kind of call (see warmUp).
import { join } from 'node:path';
import type { HookRecord } from './agents/hooks/record';
import { quickRecord } from './agents/hooks/quickRecord';
import { hookMain } from './agents/hooks/runner';
import { warmUpGate, warmUpRecording } from './agents/hooks/warmUp';

/** Run by dist/hook.js before it writes this bundle's code cache for `profile` (see warmUp.ts). */
export function warmUp(profile: string): void {
  warmUpGate();
  if (profile === 'post') warmUpRecording();
}

// a path esbuild leaves alone: the store is its own bundle (and a pre call that finds an old or
// damaged memory.json loads it too)
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a runtime path, on purpose not bundled
const store = () => require(join(__dirname, 'hook-record.js')) as typeof import('./agents/hooks/record');
const record = (r: HookRecord): Promise<void> => quickRecord(r, { full: x => store().recordHookResult(x), fold: ws => store().foldJournal(ws) });
const readFull = (workspace: string) => store().readMemoryFull(workspace);

const argv = process.argv.slice(2);
hookMain(argv[0] === 'hook' ? argv.slice(1) : argv, { record, readFull }).then(
  code => {
    process.exitCode = code;
  },
  e => {
    process.stderr.write(`Failure Memory hook: ${e}; not checked, the agent goes on.\n`);
    process.exitCode = 1;
  },
);
