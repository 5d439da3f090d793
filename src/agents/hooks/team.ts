// The team's part of a hook: read only when team memory is on for the workspace (with it off, a hook
// reads nothing more than before), and only from the cached team view (team-view.json): never the
// network. The pre hook warns before an approach the team has exhausted, or refuses it with
// failureMemory.team.blockOnTeamFailures; session start and prompts add the team's failures and
// lessons. When the view is older than the pull interval, a background pull is started (detached:
// the hook does not wait for it), so that the next call knows more.

import { join } from 'node:path';
import { agentTeamDenyReason, agentTeamSummary, agentTeamWarning, teamLessons } from '../../core/prompts/teamContext';
import type { MemoryData } from '../../core/types';
import type { GateStep } from '../../app/gate';
import type { HookTeam } from '../../app/hookTeam';
import { startTeamSync } from '../../app/teamSync';

export { hookTeam, teamMerger } from '../../app/hookTeam';

/** Starts a background pull when the view is older than the pull interval (detached; never waited for). */
export function refreshTeamView(t: HookTeam, env: Record<string, string | undefined>, script = join(__dirname, 'team-sync.js')): void {
  startTeamSync({ workspace: t.workspace, memoryDir: t.memoryDir, pullIntervalSeconds: t.settings.pullIntervalSeconds, script, env }, 'pull', t.file);
}

/**
 * What the team alone says of a step the local memory lets run: the team's exhausted approach is
 * refused (with blockOnTeamFailures: `deny`, the reason) or told (`warn`, the context for the agent).
 */
export function teamWords(t: HookTeam, step: GateStep): { deny?: string; warn?: string } {
  const merged = step.check;
  if (!merged.team || merged.team.status !== 'exhausted' || step.local.verdict === 'block') return {};
  const lessons = teamLessons(t.view, merged.key, 2);
  const c = { ...merged, team: merged.team };
  if (merged.verdict === 'block') return { deny: agentTeamDenyReason(c, lessons) };
  if (merged.verdict === 'warn') return { warn: agentTeamWarning(c, lessons) };
  return {};
}

/** The team section of the context an agent gets at session start and with each prompt. */
export function teamContext(t: HookTeam, data: MemoryData, threshold: number): string {
  return agentTeamSummary(t.view, data, threshold);
}
