import { HARNESS_IDS, HOOK_EVENTS } from '../../agents/hooks/types';
import type { Command } from '../types';

export const hook: Command = {
  name: 'hook',
  raw: true,
  usage: 'hook HARNESS EVENT',
  summary: `an agent harness's hook, its JSON on stdin (${HARNESS_IDS.join(', ')}; ${HOOK_EVENTS.join(', ')})`,
  args: 2,
  async run(ctx) {
    // the same runner as dist/hook.js (the launcher sends hooks there: it starts faster)
    const { hookMain } = await import('../../agents/hooks/runner.js');
    const { recordHookResult, readMemoryFull, restoreGate } = await import('../../agents/hooks/record.js');
    return hookMain(ctx.args, { record: recordHookResult, readFull: readMemoryFull, restoreGate, stdin: ctx.io.stdin, out: ctx.io.out, err: ctx.io.err });
  },
};
