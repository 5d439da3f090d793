// The ignoreCommands setting: globs matched against a command line or its approach label.

import { approachLabel } from './parse';

/** Wildcard match: `*` any run of characters, `?` one (case as given). Greedy with one backtrack point: O(n·m) worst case, no regex. */
export function wildcard(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** For the ignoreCommands setting: does any glob match the trimmed command line or its approach label? */
export function matchesGlob(commandLine: string, globs: string[]): boolean {
  try {
    if (typeof commandLine !== 'string' || !Array.isArray(globs) || !globs.length) return false;
    const line = commandLine.trim().toLowerCase();
    let label: string | undefined;
    for (const glob of globs) {
      if (typeof glob !== 'string') continue;
      const pattern = glob.trim().toLowerCase();
      if (!pattern) continue;
      if (wildcard(line, pattern)) return true;
      label ??= approachLabel(commandLine).toLowerCase();
      if (wildcard(label, pattern)) return true;
    }
    return false;
  } catch {
    return false;
  }
}
