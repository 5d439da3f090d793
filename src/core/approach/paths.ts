// Folders and script paths of approaches.

const MAX_TOKEN_CHARS = 100;
export const ABSOLUTE_RE = /^(\/|~|[A-Za-z]:|\$)/;

/**
 * The folder of an approach: relative to the workspace folder, '.' for the root ('', '.', './', undefined),
 * forward slashes, no trailing slash, `.` and `..` resolved ('./a/../b' -> 'b'). Absolute paths stay absolute
 * (a lowercase drive letter on Windows); leading '..' that leave the workspace are kept.
 */
export function normalizeCwd(cwd: string | undefined): string {
  if (typeof cwd !== 'string') return '.';
  let s = cwd.trim().replace(/\\/g, '/');
  if (!s) return '.';
  let prefix = '';
  const drive = /^([A-Za-z]):(\/|$)/.exec(s);
  if (drive) {
    prefix = drive[1].toLowerCase() + ':/';
    s = s.slice(2);
  } else if (s.startsWith('//')) {
    prefix = '//';
  } else if (s.startsWith('/')) {
    prefix = '/';
  } else if (s === '~' || s.startsWith('~/')) {
    prefix = '~/';
    s = s.slice(1);
  }
  const parts: string[] = [];
  for (const part of s.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (parts.length && parts[parts.length - 1] !== '..') parts.pop();
      else if (!prefix) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  const body = parts.join('/');
  if (prefix === '~/') return body ? '~/' + body : '~';
  if (prefix) return prefix + body;
  return body || '.';
}

/** `s` without the trailing `ch` characters (a scan from the end: linear where /x+$/ is quadratic). */
export function trimTrailing(s: string, ch = '/'): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === ch) end--;
  return end === s.length ? s : s.slice(0, end);
}

export function isAbsolutePath(p: string): boolean {
  return ABSOLUTE_RE.test(p) || p.startsWith('\\');
}

export function joinCwd(base: string | undefined, change: string): string {
  return normalizeCwd(isAbsolutePath(change) ? change : `${base ?? '.'}/${change}`);
}

/** A script path as written, with Windows separators and leading './' dropped (./scripts/x.sh -> scripts/x.sh). */
export function scriptPath(raw: string): string {
  const s = raw.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  return s || '.';
}

export function clip(s: string): string {
  return s.length > MAX_TOKEN_CHARS ? s.slice(0, MAX_TOKEN_CHARS) : s;
}
