// The one way a WorkspaceMemory is built, for every caller: the extension (src/host/registry.ts),
// the CLI and MCP (src/cli/main.ts), the post hook (src/agents/hooks/record.ts) and the replay
// (src/replay/replay.ts). Each gets the same validated settings, its folder's team link when team
// memory is on (so that every write from any door reaches the outbox) and its recall scorer built on
// the first recall, never when the memory is opened. What differs between doors is said here, by
// the options they pass, not by copies of this code.

import type { Scorer } from '../core/recall';
import type { EngineSettings } from '../core/types';
import type { GitOptions } from '../store/gitContext';
import type { MemoryStorePort } from '../store/memoryStore';
import { memoryDirFor } from '../store/paths';
import type { TeamConnection } from '../store/team/config';
import { teamProject } from '../store/team/identity';
import type { TeamLink, TeamLinkOptions } from '../store/team/teamLink';
import { loadWorkspaceSettings, type WorkspaceSettings } from './settings';
import { syncTriggers } from './teamSync';
import { WorkspaceMemory } from './workspaceMemory';

/** The workspace's git state now (bounded; undefined without git): what a record made outside the store notes. */
export { readGitState } from '../store/gitContext';

/**
 * Builds a folder's team link from its settings: TeamLocal (outbox and cached view only, no
 * database driver: the hooks) or TeamMemory (with the sync: the CLI and MCP).
 */
export type TeamLinkMaker<T extends TeamLink> = (options: TeamLinkOptions & { connection: TeamConnection }) => T;

export interface OpenMemoryOptions<T extends TeamLink> {
  workspace: string;
  /** The validated settings; default: the workspace's .vscode/settings.json and the environment. */
  settings?: WorkspaceSettings;
  /** Values given on the command line (--threshold), over the settings. */
  overrides?: Partial<EngineSettings>;
  /** false: the workspace folder is not on this disk (a replay): no manifest or edited file is read. */
  workspaceFiles?: false;
  /** Where memory.json lives; default <workspace>/.vscode/failure-memory. */
  dir?: string;
  env?: Record<string, string | undefined>;
  /** Store warnings, team warnings and the settings' problems (each once per open). */
  onWarning?: (message: string) => void;
  /** A process that serves many requests (the extension, MCP) keeps the parsed memory between them. */
  longLived?: boolean;
  /** Git context of runs; default on. */
  git?: false | GitOptions;
  /** Recall's scorer for the memory folder, made on the first recall; default words only. */
  scorer?: (memoryDir: string) => Scorer;
  /** The team link: one already built (the extension's TeamHub), how to build it from the settings, or none. */
  team?: T | TeamLinkMaker<T> | false;
  /** The store to use instead of memory.json (InMemoryStore: the replay). */
  store?: MemoryStorePort;
  /** Record runs into the journal instead of rewriting memory.json (the post hook: one run per process). */
  journal?: boolean;
  /** The time of each write; default the wall clock (the replay moves its own). */
  clock?: () => Date;
  /** Who writes, for the gate's copy in the user's data folder (store/gateGuard.ts); false: no copy. */
  gate?: false | { via: string; by?: string; warnRestored?: boolean };
  /**
   * The background sync's script (dist/team-sync.js): a team link built here then starts a detached
   * push after it queues a record and a pull when the view it reads is old (./teamSync.ts). The CLI,
   * MCP and the post hook give it; the extension syncs itself; the sync process gives none.
   */
  backgroundSync?: string;
}

export interface OpenedMemory<T extends TeamLink> {
  memory: WorkspaceMemory;
  /** The team link, when team memory is on for this folder. */
  team?: T;
  /** Why there is (or is not) a team link, for `sync` and the log. */
  teamReason: string;
  settings: WorkspaceSettings;
}

/** A scorer that makes the real one on its first use (a model lookup, a word table: never at open). */
export function lazyScorer(make: () => Scorer): Scorer {
  let inner: Scorer | undefined;
  const get = () => (inner ??= make());
  return {
    get id() {
      return get().id;
    },
    score: (q, d) => get().score(q, d),
  };
}

/** Opens a workspace folder's memory as every door does. Never throws for a bad setting: it is a warning. */
export function openWorkspaceMemory<T extends TeamLink = TeamLink>(o: OpenMemoryOptions<T>): OpenedMemory<T> {
  const warn = o.onWarning ?? (() => undefined);
  const env = o.env ?? process.env;
  const settings = o.settings ?? loadWorkspaceSettings(o.workspace, env);
  if (!o.settings) for (const p of settings.problems) warn(p);
  const dir = o.dir ?? memoryDirFor(o.workspace);
  // the team counts to the memory's threshold, which a settings change may move later
  const built: { memory?: WorkspaceMemory } = {};
  const threshold = () => built.memory?.settings.threshold ?? settings.engine.threshold;
  const { team, reason } = teamLinkOf(o, settings, { memoryDir: dir, threshold, env, onWarning: warn });
  const memory = (built.memory = new WorkspaceMemory(o.workspace, {
    settings: { ...settings.engine, ...definedOnly(o.overrides ?? {}) },
    ...(o.dir !== undefined ? { dir: o.dir } : {}),
    ...(o.store ? { store: o.store } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    onWarning: warn,
    cache: o.longLived === true,
    git: o.git ?? {},
    ...(o.scorer ? { scorer: lazyScorer(() => o.scorer!(dir)) } : {}),
    ...(team ? { team } : {}),
    ...(o.journal ? { journal: true } : {}),
    ...(o.gate !== undefined ? { gate: o.gate } : {}),
    ...(o.workspaceFiles === false ? { workspaceFiles: false as const } : {}),
  }));
  return { memory, ...(team ? { team } : {}), teamReason: reason, settings };
}

function teamLinkOf<T extends TeamLink>(
  o: OpenMemoryOptions<T>,
  settings: WorkspaceSettings,
  base: Omit<TeamLinkOptions, 'project' | 'settings'>,
): { team?: T; reason: string } {
  if (o.team === false || o.team === undefined) return { reason: 'no team link for this caller' };
  if (typeof o.team !== 'function') return { team: o.team, reason: 'team link given by the caller' };
  const { project, reason } = teamProject(settings.team, o.workspace);
  if (!project || !settings.connection) return { reason };
  const triggers = o.backgroundSync ? syncTriggers({ workspace: o.workspace, memoryDir: base.memoryDir, pullIntervalSeconds: settings.team.pullIntervalSeconds, script: o.backgroundSync, ...(o.env ? { env: o.env } : {}) }) : {};
  return { team: o.team({ ...base, ...triggers, project, settings: settings.team, connection: settings.connection }), reason: `${reason} on ${settings.connection.describe}` };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
