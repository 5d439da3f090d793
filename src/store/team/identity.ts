// Finds a workspace folder's repository and its origin remote by reading .git directly (no `git`
// process: this runs when team memory starts, and must be quick and work where git is absent).

import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { originFromGitConfig, teamProjectId } from '../../core/rules/team';
import type { TeamSettings } from './config';
import { readRegularSync } from '../regularFile';

export interface RepoInfo {
  root: string;
  /** The origin remote's URL as configured ('' when there is no origin). */
  origin: string;
  /** The folder's path inside the repository, '/'-separated ('' for the root). */
  pathInRepo: string;
}

/** The repository holding `folder` (walking up), or undefined. Handles worktrees and submodules (.git files). */
export function findRepo(folder: string): RepoInfo | undefined {
  let dir = resolve(folder);
  for (;;) {
    const dotGit = join(dir, '.git');
    const gitDir = resolveGitDir(dotGit);
    if (gitDir) {
      let origin = '';
      for (const config of configCandidates(gitDir)) {
        try {
          origin = originFromGitConfig(readRegularSync(config, 'utf8'));
          if (origin) break;
        } catch {
          // try the next candidate
        }
      }
      const rel = relative(dir, resolve(folder)).split(sep).join('/');
      return { root: dir, origin, pathInRepo: rel };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function resolveGitDir(dotGit: string): string | undefined {
  try {
    const s = statSync(dotGit);
    if (s.isDirectory()) return dotGit;
    if (s.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readRegularSync(dotGit, 'utf8'));
      if (m) return isAbsolute(m[1].trim()) ? m[1].trim() : resolve(dirname(dotGit), m[1].trim());
    }
  } catch {
    // not here
  }
  return undefined;
}

/** A worktree's config lives in the common dir (commondir file); its own config may exist too. */
function configCandidates(gitDir: string): string[] {
  const out = [join(gitDir, 'config')];
  try {
    const common = readRegularSync(join(gitDir, 'commondir'), 'utf8').trim();
    out.push(join(isAbsolute(common) ? common : resolve(gitDir, common), 'config'));
  } catch {
    // not a worktree
  }
  return out;
}

/** The team project id of a workspace folder, or undefined with the reason. */
export function projectFor(folder: string, override: string): { project?: string; reason: string } {
  if (override.trim()) return { project: teamProjectId({ override }), reason: 'failureMemory.team.project' };
  const repo = findRepo(folder);
  if (!repo) return { reason: 'the folder is not in a git repository; set failureMemory.team.project' };
  if (!repo.origin) return { reason: 'the repository has no origin remote; set failureMemory.team.project' };
  return { project: teamProjectId({ remote: repo.origin, pathInRepo: repo.pathInRepo }), reason: 'origin remote' };
}

/** The team project of a folder, or why it has none (team memory off, no repository, no origin). */
export function teamProject(settings: Pick<TeamSettings, 'enabled' | 'project'>, folder: string): { project?: string; reason: string } {
  if (!settings.enabled) return { reason: 'team memory is off (failureMemory.team.enabled, or FAILURE_MEMORY_DATABASE_URL outside VS Code)' };
  const { project, reason } = projectFor(folder, settings.project);
  if (!project) return { reason: `team memory is on but has no project: ${reason}` };
  return { project, reason: `team project ${project}` };
}
