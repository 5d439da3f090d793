// Team memory's entry points for the two front doors (the CLI here; the extension in src/host/team.ts).

import { cliTeamConfig } from './config';
import { projectFor } from './identity';
import { TeamMemory, type TeamMemoryOptions } from './teamMemory';

export { TeamMemory, applyTeamClearings, type SyncResult, type TeamLink, type TeamRecall, type TeamRecallHit } from './teamMemory';
export { TeamDatabase, TeamDatabaseError, classifyDatabaseError, type VectorMode } from './database';

/** What a front door knows of a folder's team memory: the options of TeamMemory but its project, which is found here. */
export interface TeamSetup extends Pick<TeamMemoryOptions, 'settings' | 'connection' | 'memoryDir' | 'threshold' | 'env' | 'onInfo' | 'embedder' | 'recallScorer'> {
  folder: string;
  onWarning: (message: string) => void;
}

/** The team memory of a folder, or undefined (with why) when it is off or has no project id. */
export function createTeamMemory(s: TeamSetup): { team?: TeamMemory; reason: string } {
  if (!s.settings.enabled) return { reason: 'team memory is off (failureMemory.team.enabled, or FAILURE_MEMORY_DATABASE_URL for the CLI)' };
  const { project, reason } = projectFor(s.folder, s.settings.project);
  if (!project) return { reason: `team memory is on but has no project: ${reason}` };
  return {
    team: new TeamMemory({
      memoryDir: s.memoryDir,
      project,
      settings: s.settings,
      connection: s.connection,
      threshold: s.threshold,
      env: s.env,
      onWarning: s.onWarning,
      onInfo: s.onInfo,
      embedder: s.embedder,
      recallScorer: s.recallScorer,
    }),
    reason: `team project ${project} on ${s.connection.describe}`,
  };
}

/** The CLI's team memory: settings.json + FAILURE_MEMORY_DATABASE_URL / PG* variables; `recall` is team recall's embedder and scorer. */
export function cliTeamMemory(
  workspace: string,
  memoryDir: string,
  threshold: () => number,
  onWarning: (m: string) => void,
  env: Record<string, string | undefined> = process.env,
  recall: Pick<TeamSetup, 'embedder' | 'recallScorer'> = {},
): { team?: TeamMemory; reason: string } {
  const { settings, connection, problems } = cliTeamConfig(workspace, env);
  for (const p of problems) onWarning(p);
  return createTeamMemory({ settings, connection, folder: workspace, memoryDir, threshold, env, onWarning, ...recall });
}
