// The `failure-memory` command as the user can run it here: by name when it is on PATH (VS Code's
// terminals, a PATH the user set), else the launcher's full path: a machine set up from the CLI alone
// has the launcher in ~/.failure-memory/bin and nothing put that folder on PATH, so a message naming
// a bare `failure-memory` would send the user to "command not found".

import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The folder of the launcher (what hook entries and terminals run). */
export function launcherDir(home: string = homedir()): string {
  return join(home, '.failure-memory', 'bin');
}

export const launcherName = (platform: NodeJS.Platform = process.platform): string => (platform === 'win32' ? 'failure-memory.cmd' : 'failure-memory');

/** An executable file named `name` in a folder of PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter).filter(Boolean);
  const names = platform === 'win32' ? [`${name}.cmd`, `${name}.exe`, `${name}.bat`] : [name];
  for (const d of dirs) {
    for (const n of names) {
      const f = join(d, n);
      try {
        if (!statSync(f).isFile()) continue;
        if (platform !== 'win32') accessSync(f, constants.X_OK);
        return true;
      } catch {
        // not there, or not executable
      }
    }
  }
  return false;
}

const quoted = (p: string, platform: NodeJS.Platform) => (/^[\w@%+=:,./\\~-]+$/.test(p) ? p : platform === 'win32' ? `"${p}"` : `'${p.replace(/'/g, `'\\''`)}'`);

/**
 * What to type to run `failure-memory` here: its name, or the launcher's path when the name is not on
 * PATH; without a launcher, `fallback` (the CLI that is running, where the caller knows it).
 */
export function userCommand(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME || env.USERPROFILE || homedir(), platform: NodeJS.Platform = process.platform, fallback = 'failure-memory'): string {
  if (onPath('failure-memory', env, platform)) return 'failure-memory';
  const file = join(launcherDir(home), launcherName(platform));
  return existsSync(file) ? quoted(file, platform) : fallback;
}

/** The running CLI as a command line (`node /…/dist/cli.js`), when this process is it. */
export function runningCli(argv: readonly string[] = process.argv, node: string = process.execPath, platform: NodeJS.Platform = process.platform): string | undefined {
  const script = argv[1];
  return script && /[/\\]cli\.js$/.test(script) ? `${quoted(node, platform)} ${quoted(script, platform)}` : undefined;
}

/** How to put the launcher's folder on PATH (undefined when `failure-memory` is on PATH already). */
export function pathAdvice(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME || env.USERPROFILE || homedir(), platform: NodeJS.Platform = process.platform): string | undefined {
  if (onPath('failure-memory', env, platform)) return undefined;
  if (platform === 'win32') return `failure-memory is not on your PATH: add ${launcherDir(home)} to it (Settings → Environment Variables), or run it as ${userCommand(env, home, platform)}.`;
  const shell = (env.SHELL ?? '').split('/').pop() ?? '';
  const rc = shell === 'zsh' ? '~/.zshrc' : shell === 'fish' ? '~/.config/fish/config.fish' : '~/.bashrc';
  const line = shell === 'fish' ? 'fish_add_path $HOME/.failure-memory/bin' : 'export PATH="$HOME/.failure-memory/bin:$PATH"';
  return `failure-memory is not on your PATH: add it with \`${line}\` in ${rc} (then open a new terminal); until then run it as ${userCommand(env, home, platform)}.`;
}
