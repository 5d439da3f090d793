// The team's part of a hook, read only when team memory is on for the workspace (with it off, a hook
// reads nothing more than before), and only from the cached team view (team-view.json): never the
// network, never the database driver. The post hook's store links to the team through the local
// link (outbox and cached view): the background sync process sends what it queues.

import { mergeTeamCheck, type TeamView } from '../core/rules/team';
import { memoryDirFor } from '../store/paths';
import { teamCheckOptions } from '../store/team/checkOptions';
import type { TeamSettings } from '../store/team/config';
import { teamProject } from '../store/team/identity';
import { readViewFileSync, type TeamViewFile } from '../store/team/viewFile';
import type { TeamMerge } from './gate';
import type { WorkspaceSettings } from './settings';

export { TeamLocal } from '../store/team/teamLink';

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

/** The team's view merged into a local check, as `check` merges it (the gate's team evidence: ./gate.ts). */
export function teamMerger(t: HookTeam): TeamMerge {
  return (c, local) => mergeTeamCheck(c, t.view?.approaches[c.key], local, teamCheckOptions({ threshold: () => c.threshold, settings: t.settings }, t.file, t.view, 0));
}
