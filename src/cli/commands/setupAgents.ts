import { detectHarnesses, parseHarnessList } from '../../agents/setup';
import { applySetup, describeChanges, planSetup, SetupWriteError } from '../../agents/setupFiles';
import { HARNESS_IDS } from '../../agents/hooks/types';
import { UsageError, type Command } from '../types';

export const setupAgents: Command = {
  name: 'setup-agents',
  usage: 'setup-agents [--harness LIST] [--dry-run] [--remove]',
  summary: 'write (or --remove) the hook entries of the coding agents used here',
  options: {
    harness: { type: 'string', help: `comma-separated: ${HARNESS_IDS.join(', ')} (default: those found in the workspace)` },
    'dry-run': { type: 'boolean', help: 'show what would change, write nothing' },
    remove: { type: 'boolean', help: "take Failure Memory's entries out again" },
  },
  async run(ctx) {
    let harnesses;
    try {
      harnesses = ctx.str('harness') !== undefined ? parseHarnessList(ctx.str('harness')!) : detectHarnesses(ctx.workspace);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (!harnesses.length) {
      ctx.print(`No coding agent found in ${ctx.workspace} (.claude, .github, .cursor, .gemini, .codex, .clinerules, .windsurf). Name one: --harness ${HARNESS_IDS.join(',')}`, { workspace: ctx.workspace, harnesses: [], changes: [] });
      return 0;
    }
    const changes = planSetup(ctx.workspace, { harnesses, remove: ctx.flag('remove') });
    const dry = ctx.flag('dry-run');
    if (!dry) {
      try {
        applySetup(ctx.workspace, changes);
      } catch (e) {
        if (!(e instanceof SetupWriteError)) throw e;
        // one line per file that cannot be written; nothing was written
        for (const p of e.problems) ctx.io.err(`failure-memory: ${p}\n`);
        return 1;
      }
    }
    const lines = describeChanges(changes, ctx.flag('remove'));
    ctx.print(
      [`${dry ? 'Would' : ctx.flag('remove') ? 'Removed from' : 'Set up in'} ${ctx.workspace}:`, ...lines.map(l => `  ${l}`)].join('\n'),
      { workspace: ctx.workspace, harnesses, dryRun: dry, remove: ctx.flag('remove'), changes: changes.map(({ content: _c, ...c }) => c) },
    );
    return changes.some(c => c.action === 'skip') ? 1 : 0;
  },
};
