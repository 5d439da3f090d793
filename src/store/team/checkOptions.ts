// How a check reads the cached team view: the threshold, whether team failures block, how fresh the
// view is. Shared by the team link (check, the guard) and the hooks, which read the view file themselves.

import { isStaleView, type TeamCheckOptions, type TeamView } from '../../core/rules/team';
import type { TeamSettings } from './config';
import type { TeamViewFile } from './viewFile';

/** How a check reads the team view: the threshold, whether team failures block, and how fresh the view is. */
export function teamCheckOptions(o: { threshold: () => number; settings: Pick<TeamSettings, 'blockOnTeamFailures' | 'pullIntervalSeconds'> }, file: TeamViewFile, view: TeamView | undefined, waiting: number, now = Date.now()): TeamCheckOptions {
  return {
    threshold: o.threshold(),
    canBlock: o.settings.blockOnTeamFailures,
    ...(view?.windowDays ? { windowDays: view.windowDays } : {}),
    ...(view?.patterns?.length ? { patterns: view.patterns } : {}),
    sync: {
      state: file.state,
      waiting,
      ...(view ? { pulledAt: view.pulledAt } : {}),
      ...(isStaleView(view?.pulledAt, o.settings.pullIntervalSeconds, now) ? { stale: true } : {}),
      ...(file.state === 'offline' && file.error ? { error: file.error } : {}),
    },
  };
}
