// dist/team-sync.js: the background team sync of one workspace folder, started detached by the
// hooks, the CLI and MCP (src/app/teamSync.ts) with the token of the sync lock they claimed.
// `node dist/team-sync.js --workspace DIR --token T`. Nothing on stdout or stderr (nobody reads them):
// the outcome is in the team view file (state, error), and warnings go to team-sync.log beside it,
// kept small.
import { appendFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openWorkspaceMemory } from './app/openMemory';
import { runBackgroundSync } from './app/teamSync';
import { teamRecallParts } from './embeddings';
import { memoryDirFor } from './store/paths';
import { SyncLock, TeamMemory } from './app/team';

const LOG_MAX_BYTES = 64 * 1024;
/** Rounds: a record queued just as a round ended (its hook saw the lock still held) gets one more. */
const MAX_ROUNDS = 3;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { workspace: { type: 'string' }, token: { type: 'string' } }, strict: true });
  if (!values.workspace) return;
  const dir = memoryDirFor(values.workspace);
  const logFile = join(dir, 'team-sync.log');
  const log = (m: string) => {
    try {
      if ((statSync(logFile, { throwIfNoEntry: false })?.size ?? 0) > LOG_MAX_BYTES) truncateSync(logFile, 0);
      appendFileSync(logFile, `${new Date().toISOString()} ${m.replace(/\s+/g, ' ').slice(0, 1000)}\n`);
    } catch {
      // a log that cannot be written loses nothing
    }
  };
  let token = values.token;
  const { memory, team } = openWorkspaceMemory<TeamMemory>({ workspace: values.workspace, onWarning: log, git: false, team: o => new TeamMemory({ ...o, onInfo: log, ...teamRecallParts() }) });
  if (!team) return;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const lock = SyncLock.take(dir, token);
      if (!lock) return;
      token = undefined;
      const { failed } = await runBackgroundSync(team, memory.store, lock);
      if (failed || !(await team.outbox.count().catch(() => 0))) return;
    }
  } finally {
    await team.close();
  }
}

main().catch(e => {
  try {
    appendFileSync(join(memoryDirFor(process.argv[process.argv.indexOf('--workspace') + 1] ?? '.'), 'team-sync.log'), `${new Date().toISOString()} ${String((e as Error)?.stack ?? e).slice(0, 2000)}\n`);
  } catch {
    // nowhere to tell
  }
  process.exitCode = 1;
});
