// Team memory's entry point: a folder's TeamMemory (local link + sync) from its settings.

import { teamProject } from './identity';
import { TeamMemory, type TeamMemoryOptions } from './teamMemory';

export { TeamMemory, type SyncResult } from './teamMemory';

/** What a front door knows of a folder's team memory: the options of TeamMemory but its project, which is found here. */
export interface TeamSetup extends Pick<TeamMemoryOptions, 'settings' | 'connection' | 'memoryDir' | 'threshold' | 'env' | 'onInfo' | 'embedder' | 'recallScorer'> {
  folder: string;
  onWarning: (message: string) => void;
}

/** The team memory of a folder, or undefined (with why) when it is off or has no project id. */
export function createTeamMemory(s: TeamSetup): { team?: TeamMemory; reason: string } {
  const { project, reason } = teamProject(s.settings, s.folder);
  if (!project) return { reason };
  const { folder: _folder, ...options } = s;
  return { team: new TeamMemory({ ...options, project }), reason: `${reason} on ${s.connection.describe}` };
}
