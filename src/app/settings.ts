// The settings of a workspace as every door outside VS Code sees them (CLI, hooks, MCP): its
// .vscode/settings.json read once, validated by core/config.ts against the declarations (the extension validates
// VS Code's configuration the same way). Light on purpose: the pre hook reads this on every
// tool call, so it loads no store, no team database and no embeddings.

import { mergeSettings, readConfig, type Settings, type SettingGetter } from '../core/config';
import type { EngineSettings } from '../core/types';
import { sanitizeTeamSettings, teamConfigFrom, type TeamConnection, type TeamSettings } from '../store/team/config';
import { readSettingsFile } from '../store/workspaceSettings';

/** settings.json parsed, and without Failure Memory's own keys (a change of only those is no change of the workspace). */
export { parseSettingsText, SETTINGS_FILE, settingsWithoutOwnKeys } from '../store/workspaceSettings';

export interface WorkspaceSettings {
  /** Every non-team setting, validated. */
  config: Settings;
  /** What the engine uses: the configuration over the defaults. */
  engine: EngineSettings;
  /** failureMemory.team.*, with the environment's overrides where the door reads them. */
  team: TeamSettings;
  /** The team database to connect to (no password unless the environment gave one). */
  connection?: TeamConnection;
  /** What was wrong, each once, in plain words: the value's default is used instead. */
  problems: string[];
}

/** Validates raw values (any source) into the settings every door uses. */
export function settingsFrom(get: SettingGetter, env?: Record<string, string | undefined>): WorkspaceSettings {
  const { config, problems } = readConfig(get);
  const team = env ? teamConfigFrom(get, env) : { ...sanitizeTeamSettings(get), connection: undefined };
  return { config, engine: mergeSettings(config), team: team.settings, connection: team.connection, problems: [...problems, ...team.problems] };
}

/**
 * A workspace's settings from its .vscode/settings.json (and, for the team, the environment:
 * FAILURE_MEMORY_DATABASE_URL, FAILURE_MEMORY_TEAM, PG*). Never throws: a bad file or value is a
 * problem, and the defaults are used.
 */
export function loadWorkspaceSettings(workspace: string, env: Record<string, string | undefined> = process.env): WorkspaceSettings {
  const file = readSettingsFile(workspace);
  const s = settingsFrom(file.get, env);
  return { ...s, problems: [...file.problems, ...s.problems] };
}

/** The settings of the extension, whose configuration VS Code gives (validated with the same schema). */
export function configSettings(config: Settings, team: TeamSettings = sanitizeTeamSettings(() => undefined).settings): WorkspaceSettings {
  return { config, engine: mergeSettings(config), team, problems: [] };
}
