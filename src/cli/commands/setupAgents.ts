import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { recordSetup } from '../../store/gateGuard';
import { memoryDirFor } from '../../store/paths';
import { cliLauncherTarget } from '../../agents/cliLauncher';
import { diagnose, describeDiagnosis } from '../../agents/doctor';
import { ensureLauncher, launcherDir } from '../../agents/launcher';
import { detectHarnesses, parseHarnessList } from '../../agents/setup';
import { applySetup, describeChanges, planSetup, SetupWriteError } from '../../agents/setupFiles';
import { agentSummary } from '../../core/prompts/agentContext';
import { HARNESS_IDS, type HarnessId } from '../../agents/hooks/types';
import { VERSION } from '../version';
import { UsageError, type Command, type Context } from '../types';

/**
 * A hook finds its workspace by a .vscode/failure-memory folder (or a git top level) above the
 * command's folder: a folder that has neither gets the (empty) memory folder now, or every hook
 * there would say it is outside any workspace.
 */
function markWorkspace(ws: string): void {
  if (!existsSync(join(ws, '.git')) && !existsSync(memoryDirFor(ws))) mkdirSync(memoryDirFor(ws), { recursive: true });
}

/** The launcher that hook commands call: written here when missing or broken (a CLI-only machine). */
function launcherLine(): { line: string; value: unknown } {
  const target = cliLauncherTarget(VERSION);
  if (!target) return { line: `launcher ${launcherDir()}/failure-memory: not written (this is not the built CLI; run dist/cli.js)`, value: { action: 'none' } };
  try {
    const { action, state } = ensureLauncher(target);
    const what = action === 'kept' ? `kept (points at ${state.dist})` : `${action} (points at ${target.dist})`;
    return { line: `launcher ${state.file}: ${what}`, value: { action, file: state.file, dist: state.dist } };
  } catch (e) {
    return { line: `launcher ${launcherDir()}: could not be written (${(e as Error).message}): the hooks will say the gate is off`, value: { action: 'error', error: (e as Error).message } };
  }
}

async function summaryFor(ctx: Context): Promise<string> {
  try {
    const memory = ctx.memory();
    return agentSummary(await memory.read(), memory.settings.threshold);
  } catch {
    return '';
  }
}

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
    let harnesses: HarnessId[];
    try {
      harnesses = ctx.str('harness') !== undefined ? parseHarnessList(ctx.str('harness')!) : detectHarnesses(ctx.workspace);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (!harnesses.length) {
      ctx.print(`No coding agent found in ${ctx.workspace} (.claude, .github, .cursor, .gemini, .codex, .clinerules, .windsurf). Name one: --harness ${HARNESS_IDS.join(',')}`, { workspace: ctx.workspace, harnesses: [], changes: [] });
      return 0;
    }
    const remove = ctx.flag('remove');
    const dry = ctx.flag('dry-run');
    const changes = planSetup(ctx.workspace, { harnesses, remove, rulesSummary: harnesses.includes('cline') && !remove ? await summaryFor(ctx) : '' });
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
    if (!dry && !remove) markWorkspace(ctx.workspace);
    // which gates the user set up here (or took out): doctor tells a later removal from a never
    if (!dry) recordSetup(ctx.workspace, harnesses.filter(h => changes.some(c => c.harnesses.includes(h) && c.action !== 'skip')), remove);
    const lines = describeChanges(changes, remove).map(l => `  ${l}`);
    const launcher = dry || remove ? undefined : launcherLine();
    if (launcher) lines.push(`  ${launcher.line}`);
    const diagnosis = dry || remove ? [] : diagnose(ctx.workspace, { harnesses, launcher: cliLauncherTarget(VERSION) });
    const steps = describeDiagnosis(diagnosis).filter(l => !l.startsWith('✓'));
    ctx.print(
      [`${dry ? 'Would' : remove ? 'Removed from' : 'Set up in'} ${ctx.workspace}:`, ...lines, ...(steps.length ? ['Still to do (failure-memory doctor checks again):', ...steps.map(l => `  ${l}`)] : [])].join('\n'),
      { workspace: ctx.workspace, harnesses, dryRun: dry, remove, changes: changes.map(({ content: _c, ...c }) => c), launcher: launcher?.value, doctor: diagnosis },
    );
    return changes.some(c => c.action === 'skip') ? 1 : 0;
  },
};
