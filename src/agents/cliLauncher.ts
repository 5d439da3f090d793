// The launcher target of the CLI that is running now: the dist/ folder holding this cli.js and its
// hook.js, run with this very Node.js (an absolute path: a harness may start hooks with a PATH
// that has no node). Undefined when this is not the built CLI (tests running the sources).

import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LauncherTarget } from './launcher';

export function cliLauncherTarget(version: string, argv1: string | undefined = process.argv[1]): LauncherTarget | undefined {
  const candidates: string[] = [];
  if (argv1) {
    try {
      const script = realpathSync(argv1);
      if (basename(script) === 'cli.js') candidates.push(dirname(script));
    } catch {
      // not a file: try the bundle's own folder
    }
  }
  candidates.push(__dirname);
  const dist = candidates.find(d => existsSync(join(d, 'cli.js')) && existsSync(join(d, 'hook.js')));
  return dist ? { dist, node: process.execPath, version, writer: '`failure-memory setup-agents` (and the extension, where installed)' } : undefined;
}
