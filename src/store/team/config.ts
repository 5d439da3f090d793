// Team memory settings and the database connection: from VS Code settings (the extension) or from
// settings.json plus the environment (the CLI, CI). A password never comes from settings: it comes
// from VS Code's SecretStorage, FAILURE_MEMORY_DATABASE_URL (CI secrets), PGPASSWORD or ~/.pgpass.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSetting, type SettingGetter, type SettingKey } from '../../core/config';
import { readRegularSync } from '../regularFile';

export interface TeamSettings {
  enabled: boolean;
  /** postgres://user@host:5432/db?sslmode=require — no password (one found is dropped, with a problem). */
  databaseUrl: string;
  /** Team project id; empty: the normalized origin remote + the folder's path in the repository. */
  project: string;
  /** Share (redacted, bounded) output; off: signatures, exit codes, test counts and command lines only. */
  shareOutput: boolean;
  /** Team failures alone block a command (default: they warn). */
  blockOnTeamFailures: boolean;
  /** Name of this machine in the team; empty: the host name (CI: ci:<provider>/<runner>). */
  machineName: string;
  pullIntervalSeconds: number;
  /** Team rows older than this many days are deleted by the sync (0: kept). */
  retentionDays: number;
  /** At most this many attempts per project are kept by the sync, the oldest go first (0: no limit). */
  maxRowsPerProject: number;
  /** Most records waiting for the database; the oldest go first when full. */
  maxOutbox: number;
}

/** Most records waiting in the outbox. */
const MAX_OUTBOX = 5000;

/**
 * Validates raw setting values (from VS Code or settings.json) with the one schema. A password inside
 * the URL is removed (and reported), never kept in memory from settings; a URL that cannot be used
 * (not postgres, a broken %-escape) is reported and team memory stays off, nothing else stops.
 */
export function sanitizeTeamSettings(get: SettingGetter): { settings: TeamSettings; problems: string[] } {
  const problems: string[] = [];
  const read = <K extends SettingKey>(k: K) => readSetting(get, k, problems);
  let url = read('team.databaseUrl');
  if (url) {
    const parsed = parseUrl(url);
    if (!parsed) {
      problems.push(`failureMemory.team.databaseUrl is not a postgres:// or postgresql:// URL${/%(?![0-9a-f]{2})/i.test(url) ? ' (a % not followed by two hex digits)' : ''}; team memory stays off.`);
      url = '';
    } else if (parsed.password) {
      problems.push('failureMemory.team.databaseUrl contains a password: it was ignored. Remove it from settings and use "Failure Memory: Set Team Database Password" (or PGPASSWORD / ~/.pgpass).');
      parsed.password = '';
      url = parsed.toString();
    }
  }
  return {
    settings: {
      enabled: read('team.enabled'),
      databaseUrl: url,
      project: read('team.project').slice(0, 300),
      shareOutput: read('team.shareOutput'),
      blockOnTeamFailures: read('team.blockOnTeamFailures'),
      machineName: read('team.machineName').slice(0, 100),
      pullIntervalSeconds: read('team.pullIntervalSeconds'),
      retentionDays: read('team.retentionDays'),
      maxRowsPerProject: read('team.maxRowsPerProject'),
      maxOutbox: MAX_OUTBOX,
    },
    problems,
  };
}

/** The defaults (core/config.ts's schema). */
export const DEFAULT_TEAM_SETTINGS: TeamSettings = sanitizeTeamSettings(() => undefined).settings;

/** A postgres URL whose parts all decode (pg and libpq decode them: a broken %-escape would throw there). */
function parseUrl(url: string): URL | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return undefined;
    for (const part of [u.username, u.password, u.pathname, u.hostname]) decodeURIComponent(part);
    return u;
  } catch {
    return undefined;
  }
}

/** decodeURIComponent that never throws (the raw text when it cannot be decoded). */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The URL with any password replaced: safe for logs and messages. */
export function describeDatabase(url: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const u = url ? parseUrl(url) : undefined;
  if (u) {
    if (u.password) u.password = '***';
    // TLS file paths and options are not secret, but keep the message short
    return `${u.protocol}//${u.username ? `${decode(u.username)}@` : ''}${u.host}${u.pathname}`;
  }
  const host = env.PGHOST ?? 'localhost';
  return `postgres://${env.PGUSER ? `${env.PGUSER}@` : ''}${host}:${env.PGPORT ?? 5432}/${env.PGDATABASE ?? env.PGUSER ?? ''} (from PG* variables)`;
}

/** What the team store needs to connect. `password` is resolved only when the server asks for it. */
export interface TeamConnection {
  /** Empty: the PG* environment variables (libpq's, which pg reads too). */
  url: string;
  /** From SecretStorage; undefined: PGPASSWORD, then ~/.pgpass. */
  password?: () => Promise<string | undefined>;
  /** Where to log the target without secrets. */
  describe: string;
}

/**
 * The team settings and connection outside VS Code (CLI, hooks, MCP, CI): the workspace's
 * failureMemory.team.* (`get`, from .vscode/settings.json), with FAILURE_MEMORY_DATABASE_URL (which
 * may hold a password: it comes from a CI secret, not a file) taking precedence and turning team
 * memory on. FAILURE_MEMORY_TEAM=off turns it off.
 */
export function teamConfigFrom(get: SettingGetter, env: Record<string, string | undefined> = process.env): { settings: TeamSettings; connection: TeamConnection; problems: string[] } {
  const { settings, problems } = sanitizeTeamSettings(get);
  const envUrl = env.FAILURE_MEMORY_DATABASE_URL?.trim();
  if (envUrl) {
    if (!parseUrl(envUrl)) problems.push('FAILURE_MEMORY_DATABASE_URL is not a postgres:// or postgresql:// URL (or has a % not followed by two hex digits); ignored.');
    else {
      settings.databaseUrl = envUrl;
      settings.enabled = true;
    }
  }
  if (env.FAILURE_MEMORY_TEAM_PROJECT?.trim()) settings.project = env.FAILURE_MEMORY_TEAM_PROJECT.trim().slice(0, 300);
  if (env.FAILURE_MEMORY_TEAM === 'off' || env.FAILURE_MEMORY_TEAM === '0') settings.enabled = false;
  else if (env.FAILURE_MEMORY_TEAM === 'on' || env.FAILURE_MEMORY_TEAM === '1') settings.enabled = true;
  return {
    settings,
    connection: { url: settings.databaseUrl, password: pgpassPassword(settings.databaseUrl, env), describe: describeDatabase(settings.databaseUrl, env) },
    problems,
  };
}

/**
 * The password libpq would use when none is given: PGPASSWORD, else the matching ~/.pgpass line
 * (or PGPASSFILE). Read here rather than by pg's deprecated built-in pgpass support.
 */
export function pgpassPassword(url: string, env: Record<string, string | undefined> = process.env): () => Promise<string | undefined> {
  return async () => {
    const u = url ? parseUrl(url) : undefined;
    if (u?.password) return decode(u.password);
    if (env.PGPASSWORD) return env.PGPASSWORD;
    const target = {
      host: (u?.hostname || env.PGHOST || 'localhost').replace(/^\[|\]$/g, ''),
      port: u?.port || env.PGPORT || '5432',
      database: (u?.pathname.slice(1) ? decode(u.pathname.slice(1)) : '') || env.PGDATABASE || (u?.username ? decode(u.username) : '') || env.PGUSER || '',
      user: (u?.username ? decode(u.username) : '') || env.PGUSER || '',
    };
    try {
      return lookupPgpass(readRegularSync(env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass'), 'utf8'), target);
    } catch {
      return undefined;
    }
  };
}

/** The password of the first ~/.pgpass line matching host:port:database:user (`*` matches anything, `\:` is a colon). */
export function lookupPgpass(text: string, target: { host: string; port: string; database: string; user: string }): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const fields: string[] = [];
    let cur = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '\\' && i + 1 < line.length) cur += line[++i];
      else if (c === ':' && fields.length < 4) {
        fields.push(cur);
        cur = '';
      } else cur += c;
    }
    fields.push(cur);
    if (fields.length !== 5) continue;
    const [host, port, database, user, password] = fields;
    const match = (pattern: string, value: string) => pattern === '*' || pattern === value;
    const hostOk = match(host, target.host) || (host === 'localhost' && (target.host === '127.0.0.1' || target.host.startsWith('/')));
    if (hostOk && match(port, target.port) && match(database, target.database) && match(user, target.user)) return password;
  }
  return undefined;
}
