import { cliLauncherTarget } from '../../agents/cliLauncher';
import { describeDiagnosis, diagnose } from '../../agents/doctor';
import { VERSION } from '../version';
import { parseHarnessList } from '../../agents/setup';
import { pathAdvice, runningCli, userCommand } from '../../agents/userCommand';
import { HARNESS_IDS, type HarnessId } from '../../agents/hooks/types';
import { UsageError, type Command } from '../types';

export const doctor: Command = {
  name: 'doctor',
  usage: 'doctor [--harness LIST]',
  summary: "whether each agent harness's gate is active here, and the step that turns it on",
  options: {
    harness: { type: 'string', help: `comma-separated: ${HARNESS_IDS.join(', ')} (default: those set up in the workspace)` },
  },
  async run(ctx) {
    let harnesses: HarnessId[] | undefined;
    try {
      harnesses = ctx.str('harness') !== undefined ? parseHarnessList(ctx.str('harness')!) : undefined;
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const cli = userCommand(process.env, undefined, undefined, runningCli() ?? 'failure-memory');
    const lines = diagnose(ctx.workspace, { harnesses, cli, launcher: cliLauncherTarget(VERSION) });
    const none = !lines.some(l => (HARNESS_IDS as readonly string[]).includes(l.id)) ? [`No agent gates are set up in ${ctx.workspace}: run \`${cli} setup-agents\`.`] : [];
    const path = pathAdvice();
    ctx.print([`Agent gates in ${ctx.workspace}:`, ...describeDiagnosis(lines).map(l => `  ${l}`), ...none, ...(path ? [path] : [])].join('\n'), { workspace: ctx.workspace, gates: lines, command: cli });
    return lines.some(l => l.status === 'off') || none.length ? 1 : 0;
  },
};
