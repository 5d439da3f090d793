import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { recordSetup } from '../../app/gateTamper';
import { memoryDirFor } from '../../store/paths';
import { cliLauncherTarget } from '../../agents/cliLauncher';
import { diagnose, describeDiagnosis } from '../../agents/doctor';
import { ensureLauncher, launcherDir } from '../../agents/launcher';
import { configuredHarnesses } from '../../agents/doctor';
import { detectHarnesses, harnessPrograms, harnessSignNames, installedHarnesses, parseHarnessList } from '../../agents/setup';
import { pathAdvice, runningCli, userCommand } from '../../agents/userCommand';
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
    const remove = ctx.flag('remove');
    const dry = ctx.flag('dry-run');
    const chosen = chooseHarnesses(ctx, remove);
    if (!chosen.harnesses.length) {
      // nothing to do is not success: say what to pass
      ctx.io.err(`failure-memory: ${chosen.why}\n`);
      return 2;
    }
    const harnesses = chosen.harnesses;
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
    // the command as the user can run it now (the launcher's path when its folder is not on PATH)
    const cli = userCommand(process.env, undefined, undefined, runningCli() ?? 'failure-memory');
    const onPathNote = launcher ? pathAdvice() : undefined;
    const diagnosis = dry || remove ? [] : diagnose(ctx.workspace, { harnesses, cli, launcher: cliLauncherTarget(VERSION) });
    const steps = describeDiagnosis(diagnosis).filter(l => !l.startsWith('✓'));
    ctx.print(
      [
        ...(chosen.note ? [chosen.note] : []),
        `${dry ? 'Would' : remove ? 'Removed from' : 'Set up in'} ${ctx.workspace}:`,
        ...lines,
        ...(steps.length ? [`Still to do (\`${cli} doctor\` checks again):`, ...steps.map(l => `  ${l}`)] : []),
        ...(onPathNote ? [onPathNote] : []),
      ].join('\n'),
      { workspace: ctx.workspace, harnesses, dryRun: dry, remove, changes: changes.map(({ content: _c, ...c }) => c), launcher: launcher?.value, doctor: diagnosis, command: cli, ...(chosen.note ? { found: chosen.found } : {}) },
    );
    return changes.some(c => c.action === 'skip') ? 1 : 0;
  },
};

/**
 * Which harnesses to set up: --harness; else those whose files are in the workspace (to remove: those
 * with our entries); else, in a project with none yet, those installed on this machine. None: why, and
 * what to pass.
 */
function chooseHarnesses(ctx: Context, remove: boolean): { harnesses: HarnessId[]; note?: string; found?: Array<{ id: HarnessId; found: string }>; why: string } {
  const named = ctx.str('harness');
  if (named !== undefined) {
    try {
      return { harnesses: parseHarnessList(named), why: 'no harness named' };
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const pass = `name them: --harness ${HARNESS_IDS.join(',')}`;
  if (remove) {
    const configured = configuredHarnesses(ctx.workspace);
    return { harnesses: configured, why: `no agent gate of Failure Memory is set up in ${ctx.workspace}; nothing removed (${pass})` };
  }
  const here = detectHarnesses(ctx.workspace);
  if (here.length) return { harnesses: here, why: '' };
  const installed = installedHarnesses(process.env, homedir());
  if (installed.length) {
    return { harnesses: installed.map(x => x.id), found: installed, why: '', note: `No coding agent's files in ${ctx.workspace} yet: setting up the ones installed on this machine (${installed.map(x => `${x.id}: ${x.found}`).join('; ')}). Others: ${pass}.` };
  }
  return { harnesses: [], why: `no coding agent found in ${ctx.workspace} (none of ${harnessSignNames().join(', ')}) nor on this machine (${harnessPrograms().join(', ')} on PATH); nothing set up: ${pass}` };
}
