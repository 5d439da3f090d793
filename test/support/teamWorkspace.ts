// A workspace folder that is a clone of a repository (a .git/config with an origin), and its team-enabled memory.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryDirFor } from '../../src/store/memoryStore';
import { teamRecallParts } from '../../src/embeddings';
import { DEFAULT_TEAM_SETTINGS, describeDatabase, type TeamSettings } from '../../src/store/team/config';
import { projectFor } from '../../src/store/team/identity';
import { TeamMemory, type TeamMemoryOptions } from '../../src/store/team/teamMemory';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';

export function cloneWorkspace(origin: string, prefix = 'fm-team-'): string {
  const ws = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(ws, '.git'));
  writeFileSync(join(ws, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  return ws;
}

export interface Machine {
  ws: string;
  memory: WorkspaceMemory;
  team: TeamMemory;
  warnings: string[];
}

/** A "machine": a workspace clone with its local memory and team memory (never connects until a sync). */
export function machine(
  ws: string,
  url: string,
  name: string,
  settings: Partial<TeamSettings> = {},
  password?: string,
  extra: Pick<TeamMemoryOptions, 'embedder' | 'onInfo'> = {},
): Machine {
  const warnings: string[] = [];
  const onWarning = (m: string) => warnings.push(m);
  const s: TeamSettings = { ...DEFAULT_TEAM_SETTINGS, enabled: true, databaseUrl: url, machineName: name, ...settings };
  const { project } = projectFor(ws, s.project);
  if (!project) throw new Error(`no project for ${ws}`);
  const ref: { memory?: WorkspaceMemory } = {};
  const team = new TeamMemory({
    memoryDir: memoryDirFor(ws),
    project,
    settings: s,
    connection: { url, describe: describeDatabase(url), ...(password !== undefined ? { password: async () => password } : {}) },
    threshold: () => ref.memory?.settings.threshold ?? 5,
    env: {},
    onWarning,
    database: { connectTimeoutMs: 3000 },
    // vectors and recall as the front doors give them
    ...teamRecallParts(),
    ...extra,
  });
  const memory = new WorkspaceMemory(ws, { team, onWarning });
  ref.memory = memory;
  return { ws, memory, team, warnings };
}
