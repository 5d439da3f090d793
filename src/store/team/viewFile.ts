// The cached team view's file (team-view.json beside memory.json): its shape and a synchronous read,
// light enough for a hook (fs and path only); ./viewCache.ts reads and writes it for everyone else.

import * as path from 'node:path';
import type { TeamSyncState, TeamView } from '../../core/rules/team';
import { readRegularSync } from '../regularFile';

export const VIEW_FILE_NAME = 'team-view.json';

export interface TeamViewFile {
  version: 1;
  /** The last successful pull (undefined until one succeeded). */
  view?: TeamView;
  state: TeamSyncState;
  /** Last connection problem, for people (no secrets). */
  error?: string;
  checkedAt?: string;
  /** When this machine last applied retention to the project. */
  retainedAt?: string;
}

/** The view file read synchronously, without a cache (a hook reads it once). Missing or unreadable: state 'never'. */
export function readViewFileSync(dir: string): TeamViewFile {
  try {
    const data = JSON.parse(readRegularSync(path.join(dir, VIEW_FILE_NAME), 'utf8')) as TeamViewFile;
    return data && data.version === 1 ? data : { version: 1, state: 'never' };
  } catch {
    return { version: 1, state: 'never' };
  }
}
