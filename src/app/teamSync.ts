// Team memory outside VS Code: the CLI, the hooks and MCP push and pull on their own. A caller never
// waits for the network: after a record queued for the team it asks for a push, and when the cached
// team view is older than failureMemory.team.pullIntervalSeconds it asks for a pull; either way
// startTeamSync only decides and, when due and no sync runs, starts a detached process
// (dist/team-sync.js) that holds the workspace's sync lock. That process syncs, then stays a few
// seconds to send what a burst of tool calls queues meanwhile, and ends. While the database is
// unreachable it is tried again once per pull interval, not at every call.

import { existsSync } from 'node:fs';
import type { MemoryStorePort } from '../store/memoryStore';
import { claimSyncLock, dropSyncLock, syncRunning, type SyncLock } from '../store/team/syncLock';
import type { TeamMemory } from '../store/team/teamMemory';
import { readViewFileSync, type TeamViewFile } from '../store/team/viewFile';

/** FAILURE_MEMORY_BACKGROUND_SYNC=off: only `failure-memory sync` talks to the database (CI that syncs itself, tests). */
export const BACKGROUND_SYNC_ENV = 'FAILURE_MEMORY_BACKGROUND_SYNC';

export type SyncWant = 'push' | 'pull';

export interface SyncTrigger {
  workspace: string;
  memoryDir: string;
  pullIntervalSeconds: number;
  /** The sync process's script (dist/team-sync.js beside the caller's bundle). */
  script: string;
  env?: Record<string, string | undefined>;
}

export type SyncStart = 'off' | 'not-due' | 'running' | 'started' | 'unavailable';

/**
 * Whether a background sync is due: a push whenever records wait (unless the last try found the
 * database away less than a pull interval ago), a pull when the view is older than the interval.
 */
export function syncDue(want: SyncWant, file: TeamViewFile | undefined, pullIntervalSeconds: number, now = Date.now()): boolean {
  const interval = pullIntervalSeconds * 1000;
  const lastTry = file?.checkedAt ? Date.parse(file.checkedAt) : NaN;
  if (file?.state === 'offline' && now - lastTry < interval) return false;
  if (want === 'push') return true;
  const pulled = file?.view?.pulledAt ? Date.parse(file.view.pulledAt) : NaN;
  return !(now - pulled < interval);
}

export function backgroundSyncOff(env: Record<string, string | undefined>): boolean {
  return /^(off|0|false|no)$/i.test(env[BACKGROUND_SYNC_ENV]?.trim() ?? '');
}

/**
 * Starts the background sync when it is due and none runs. Never waits, never throws. `file`: the
 * view file as the caller read it; not given, it is read here, and only when no sync runs (in a
 * burst of hooks the lock answers first).
 */
export function startTeamSync(t: SyncTrigger, want: SyncWant, file?: TeamViewFile, now = Date.now()): SyncStart {
  const env = t.env ?? process.env;
  if (backgroundSyncOff(env)) return 'off';
  if (syncRunning(t.memoryDir, now)) return 'running';
  if (!syncDue(want, file ?? readViewFileSync(t.memoryDir), t.pullIntervalSeconds, now)) return 'not-due';
  if (!existsSync(t.script)) return 'unavailable';
  const token = claimSyncLock(t.memoryDir, now);
  if (!token) return 'running';
  try {
    // node:child_process loaded only here, when a sync starts: a hook pays nothing for it otherwise
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [t.script, '--workspace', t.workspace, '--token', token], { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv, cwd: t.workspace });
    child.on('error', () => dropSyncLock(t.memoryDir, token));
    child.unref();
    return 'started';
  } catch {
    dropSyncLock(t.memoryDir, token);
    return 'unavailable';
  }
}

/** The callbacks a team link calls when it queues a record or reads the view; at most one start per `everyMs`. */
export function syncTriggers(t: SyncTrigger, everyMs = 2000): { onQueued: () => void; onViewRead: (file: TeamViewFile) => void } {
  let last = -Infinity;
  const ask = (want: SyncWant, file: TeamViewFile | undefined) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    const r = startTeamSync(t, want, file, now);
    if (r === 'started' || r === 'running') last = now;
  };
  let seen: TeamViewFile | undefined;
  return {
    onQueued: () => ask('push', seen),
    onViewRead: file => {
      seen = file;
      ask('pull', file);
    },
  };
}

export interface BackgroundSyncOptions {
  /** Stay this long after the last record sent, for the next ones of a burst. */
  lingerMs?: number;
  /** Look at the outbox this often meanwhile. */
  pollMs?: number;
  /** End after this long whatever comes. */
  maxMs?: number;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/**
 * What the sync process does while it holds the lock: push, retention when due and pull; then, for
 * lingerMs after the last record it sent, push what comes and pull when the view gets old. Ends at
 * once when the database cannot be reached (the view file says so, and when to try again).
 * Returns whether it ended because the database failed.
 */
export async function runBackgroundSync(team: TeamMemory, store: MemoryStorePort, lock: SyncLock, o: BackgroundSyncOptions = {}): Promise<{ failed: boolean }> {
  const linger = o.lingerMs ?? 10_000;
  const poll = o.pollMs ?? 1000;
  const started = Date.now();
  let idleSince = Date.now();
  try {
    let r = await team.sync(store);
    while (!r.error && lock.held() && Date.now() - idleSince < linger && Date.now() - started < (o.maxMs ?? 120_000)) {
      await sleep(poll);
      lock.refresh();
      if (await team.outbox.count().catch(() => 0)) {
        r = await team.push();
        idleSince = Date.now();
      } else if (syncDue('pull', await team.views.read(), team.options.settings.pullIntervalSeconds)) {
        r = await team.pull(store);
      }
    }
    return { failed: !!r.error };
  } finally {
    lock.release();
  }
}
