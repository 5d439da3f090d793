// Team memory for the doors that talk to the team database (the CLI, VS Code, the background sync
// process): a folder's TeamMemory from its settings, its database's errors in plain words, the
// schema this version needs, and the sync lock one process holds while it syncs. The hooks read
// only the cached team view (./hookTeam.ts): nothing here is loaded into a hook.

export { createTeamMemory, TeamMemory, type SyncResult } from '../store/team';
export { describeDatabase, pgpassPassword, sanitizeTeamSettings, type TeamSettings } from '../store/team/config';
export { classifyDatabaseError, type TeamDatabaseError } from '../store/team/database';
export { LATEST_SCHEMA } from '../store/team/migrations';
export { SyncLock } from '../store/team/syncLock';
