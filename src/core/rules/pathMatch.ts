// Paths against protected paths: a written path (with its globs, unknown variables and unevaluated
// substitutions standing for any name) and how it relates to a protected one (the same, a folder
// holding it, inside it). Pure and linear: paths are cut to MAX_DEPTH_SEGMENTS segments.

import { wildcard } from '../approach/glob';

const MAX_DEPTH_SEGMENTS = 2048;

/** A '/'- or '\\'-separated path as its segments ('..' pops, '.' stays). */
export function segments(p: string): string[] {
  return walkSegments([], p.replace(/\\/g, '/'));
}

/** Applies a relative path's segments to `segs` in place ('..' pops, '.' stays). */
export function walkSegments(segs: string[], rel: string): string[] {
  for (const s of rel.split('/')) {
    if (!s || s === '.') continue;
    if (s === '..') segs.pop();
    else if (segs.length < MAX_DEPTH_SEGMENTS) segs.push(s);
  }
  return segs;
}

/** One path segment against one glob segment (`*`, `?`, `[…]`, an unknown `$VAR` or substitution); a leading dot is never matched by a glob. */
function segmentMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (!/[*?[$`]/.test(pattern)) return false;
  // an unevaluated substitution may stand for a dot name; a glob's wildcard or a variable may not
  if (name.startsWith('.') && !pattern.startsWith('.') && !/\$\(|`/.test(pattern)) return false;
  // a bracket expression or an unknown variable stands for any run of characters here
  const glob = pattern.replace(/\[[^\]]{0,64}\]/g, '?').replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^)]{0,1024}\)|`[^`]{0,1024}`/g, '*').slice(0, 256);
  return wildcard(name.slice(0, 256), glob);
}

/** How a written path relates to a protected one: the same, an ancestor of it (a folder holding it), inside it, or neither. */
export function relation(target: string, protectedPath: string): 'same' | 'ancestor' | 'inside' | undefined {
  const driveOf = (p: string) => /^([a-z]):/i.exec(p)?.[1].toLowerCase() ?? '';
  if (driveOf(target) !== driveOf(protectedPath)) return undefined;
  const t = segments(target.replace(/^[A-Za-z]:/, ''));
  const p = segments(protectedPath.replace(/^[A-Za-z]:/, ''));
  const deep = t.indexOf('**');
  if (deep >= 0) return deepRelation(t.slice(0, deep), t.slice(deep + 1), p);
  const n = Math.min(t.length, p.length);
  for (let k = 0; k < n; k++) if (!segmentMatches(t[k], p[k])) return undefined;
  return t.length === p.length ? 'same' : t.length < p.length ? 'ancestor' : 'inside';
}

/** Names Failure Memory keeps in its folder (what a `find -name` inside it would reach). */
const INSIDE_NAMES = ['memory.json', 'memory.index.json', 'journal.jsonl', 'team-view.json', 'team-outbox.jsonl', 'team-sync.lock', '.gitignore', 'hook-calls'];

/** `root/**\/NAME` (a find's reach) against a protected path: NAME at or above it under root, or a name its folder holds. */
function deepRelation(root: string[], tail: string[], p: string[]): 'same' | 'ancestor' | 'inside' | undefined {
  for (let k = 0; k < root.length; k++) {
    if (k >= p.length) return 'inside';
    if (!segmentMatches(root[k], p[k])) return undefined;
  }
  const name = tail[tail.length - 1];
  if (name === undefined) return 'ancestor';
  for (let k = root.length; k < p.length; k++) if (segmentMatches(name, p[k])) return k === p.length - 1 ? 'same' : 'ancestor';
  return INSIDE_NAMES.some(n => segmentMatches(name, n)) ? 'inside' : undefined;
}
