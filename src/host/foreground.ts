// Which process a terminal's Ctrl+C would reach: the foreground process group of the shell's
// terminal, read from /proc on Linux. The guard signals that group instead of typing Ctrl+C, so a
// run that ended meanwhile never gets a ^C into the next prompt (the shell is then in front itself).

import { readFileSync } from 'node:fs';

/** The tpgid field of /proc/<pid>/stat (the terminal's foreground process group), or undefined. */
export function parseForegroundGroup(stat: string): number | undefined {
  // the command name (field 2) may hold spaces and parentheses: count from the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tpgid = Number(fields[5]);
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

/** The foreground process group of the terminal `shellPid` runs in; undefined where /proc cannot tell. */
export function foregroundGroup(shellPid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return parseForegroundGroup(readFileSync(`/proc/${shellPid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Sends SIGINT to a process group, as Ctrl+C in its terminal would; false when it is gone. */
export function interruptGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 'SIGINT');
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is still there. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
