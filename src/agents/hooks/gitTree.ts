// Would a git command that rewrites the work tree (stash, checkout ., reset --hard, clean, restore)
// change one of Failure Memory's files or the gate's configuration? Asked of git itself (`git status`
// on those paths only), and only for such a command: a harness configuration committed before
// setup-agents changed it is put back by `git checkout .`; an untracked one is deleted by `git clean`.

import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';

interface GitOp {
  sub: string;
  args: string[];
  dir: string;
}

/** One `git status --porcelain -z` entry: its two status letters and its path (relative to the repository top). */
interface Entry {
  xy: string;
  path: string;
}

function status(dir: string, files: readonly string[]): { top: string; entries: Entry[] } | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a git command that rewrites the work tree (a few ms on every hook call otherwise)
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  try {
    const top = execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const inside = files.filter(f => !relative(top, f).startsWith('..'));
    if (!inside.length) return { top, entries: [] };
    const out = execFileSync('git', ['-C', top, 'status', '--porcelain=v1', '-z', '--ignored=matching', '--untracked-files=all', '--', ...inside], {
      encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 8 * 1024 * 1024,
    });
    const entries: Entry[] = [];
    const parts = out.split('\0');
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k];
      if (p.length < 4) continue;
      entries.push({ xy: p.slice(0, 2), path: p.slice(3) });
      if (p[0] === 'R' || p[0] === 'C') k++; // a rename names its source next
    }
    return { top, entries };
  } catch {
    return undefined;
  }
}

const has = (args: readonly string[], ...flags: string[]) => args.some(a => flags.includes(a) || flags.some(f => /^-[a-z]$/.test(f) && /^-[a-zA-Z]+$/.test(a) && a.includes(f[1])));
/** Changed in the work tree or the index (not untracked, not ignored). */
const modified = (e: Entry) => e.xy !== '??' && e.xy !== '!!';

/** Which entries the command would change, by its kind; undefined when it changes none of them. */
function changed(op: GitOp, entries: readonly Entry[]): Entry | undefined {
  const a = op.args;
  switch (op.sub) {
    case 'stash': {
      const verb = a.find(x => !x.startsWith('-')) ?? 'push';
      if (!['push', 'save'].includes(verb)) return undefined;
      const all = has(a, '-a', '--all');
      const untracked = all || has(a, '-u', '--include-untracked');
      return entries.find(e => modified(e) || (untracked && e.xy === '??') || (all && e.xy === '!!'));
    }
    case 'checkout':
      // `git checkout BRANCH` keeps local changes; `.`, `-- paths`, `-f` and `HEAD -- x` put the committed ones back
      return a.some(x => x === '--' || x === '.' || x === '-f' || x === '--force' || x.includes('/') || x === '-p') ? entries.find(modified) : undefined;
    case 'restore':
      return has(a, '--staged', '-S') && !has(a, '--worktree', '-W') ? undefined : entries.find(modified);
    case 'reset':
      return has(a, '--hard', '--merge', '--keep') ? entries.find(modified) : undefined;
    case 'switch':
      return has(a, '-f', '--force', '--discard-changes') ? entries.find(modified) : undefined;
    case 'clean': {
      if (has(a, '-n', '--dry-run') || !has(a, '-f', '--force')) return undefined;
      const onlyIgnored = a.some(x => /^-[a-zA-Z]*X/.test(x));
      const ignoredToo = a.some(x => /^-[a-zA-Z]*x/.test(x));
      return entries.find(e => (e.xy === '??' && !onlyIgnored) || (e.xy === '!!' && (ignoredToo || onlyIgnored)));
    }
    default:
      return undefined;
  }
}

/** The paths a command limits itself to (after `--`; restore's and clean's plain words); none: the whole tree. */
function pathspecs(op: GitOp): string[] {
  const dd = op.args.indexOf('--');
  if (dd >= 0) return op.args.slice(dd + 1);
  if (op.sub === 'restore' || op.sub === 'clean' || (op.sub === 'checkout' && op.args.includes('.'))) {
    return op.args.filter((x, k) => !x.startsWith('-') && !/^(?:-s|--source|-e|--exclude)$/.test(op.args[k - 1] ?? ''));
  }
  return [];
}

/** The protected file (absolute) this git command would change, else undefined; git that cannot answer changes nothing here. */
export function gitWouldChange(op: GitOp, files: readonly string[]): string | undefined {
  if (!['stash', 'checkout', 'restore', 'reset', 'switch', 'clean'].includes(op.sub)) return undefined;
  const present = files.filter(f => existsSync(f));
  if (!present.length) return undefined;
  const s = status(op.dir, present);
  if (!s) return undefined;
  const specs = pathspecs(op).map(p => resolve(op.dir, p).replace(/\\/g, '/'));
  const top = s.top.replace(/\\/g, '/');
  const within = (e: Entry) => !specs.length || specs.some(sp => { const abs = `${top}/${e.path.replace(/\/$/, '')}`; return abs === sp || abs.startsWith(`${sp}/`) || sp.startsWith(`${abs}/`); });
  const hit = changed(op, s.entries.filter(within));
  if (!hit) return undefined;
  const abs = `${top}/${hit.path.replace(/\/$/, '')}`;
  return present.find(f => abs === f || abs.startsWith(`${f}/`) || f.startsWith(`${abs}/`)) ?? abs;
}
