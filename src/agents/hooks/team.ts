// The team's part of a hook: read only when team memory is on for the workspace (with it off, a hook
// reads nothing more than before), and only from the cached team view (team-view.json): never the
// network. The pre hook warns before an approach the team has exhausted, or refuses it with
// failureMemory.team.blockOnTeamFailures; session start and prompts add the team's failures and
// lessons. When the view is older than the pull interval, a background pull is started (detached:
// the hook does not wait for it), so that the next call knows more.

import { join } from 'node:path';
import { mergeTeamCheck, type TeamView } from '../../core/rules/team';
import { agentTeamDenyReason, agentTeamSummary, agentTeamWarning, teamLessons } from '../../core/prompts/teamContext';
import type { MemoryData } from '../../core/types';
import type { GateStep, TeamMerge } from '../../app/gate';
import type { WorkspaceSettings } from '../../app/settings';
import { startTeamSync } from '../../app/teamSync';
import { memoryDirFor } from '../../store/paths';
import type { TeamSettings } from '../../store/team/config';
import { teamProject } from '../../store/team/identity';
import { teamCheckOptions } from '../../store/team/checkOptions';
import { readViewFileSync, type TeamViewFile } from '../../store/team/viewFile';

export interface HookTeam {
  workspace: string;
  memoryDir: string;
  settings: TeamSettings;
  file: TeamViewFile;
  /** The view when it is this project's. */
  view?: TeamView;
}

/** The workspace's team view, when team memory is on and the folder has a project; else undefined (nothing read). */
export function hookTeam(workspace: string, s: WorkspaceSettings): HookTeam | undefined {
  if (!s.team.enabled || !s.connection) return undefined;
  const { project } = teamProject(s.team, workspace);
  if (!project) return undefined;
  const memoryDir = memoryDirFor(workspace);
  const file = readViewFileSync(memoryDir);
  return { workspace, memoryDir, settings: s.team, file, ...(file.view?.project === project ? { view: file.view } : {}) };
}

/** Starts a background pull when the view is older than the pull interval (detached; never waited for). */
export function refreshTeamView(t: HookTeam, env: Record<string, string | undefined>, script = join(__dirname, 'team-sync.js')): void {
  startTeamSync({ workspace: t.workspace, memoryDir: t.memoryDir, pullIntervalSeconds: t.settings.pullIntervalSeconds, script, env }, 'pull', t.file);
}

/** The team's view merged into a local check, as `check` merges it (the gate's team evidence: src/app/gate.ts). */
export function teamMerger(t: HookTeam): TeamMerge {
  return (c, local) => mergeTeamCheck(c, t.view?.approaches[c.key], local, teamCheckOptions({ threshold: () => c.threshold, settings: t.settings }, t.file, t.view, 0));
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
