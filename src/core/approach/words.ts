// The words of a command line: its list elements (split on && || ; & newlines, the first useful stage of
// each pipeline), what kind of element each is (a cd, noise, a look or tidy-up, real work), and the
// program a word names, canonicalized (./node_modules/.bin/jest → jest, python3.12 → python, a script
// run directly kept as its path). Pure and linear; ./parse.ts builds the approach from these.

import { FAMILIES, PLAIN } from './families';
import type { Token } from './lexer';
import { ABSOLUTE_RE, scriptPath } from './paths';
import { CD, FEEDERS, NOISE, PROGRAM_ALIASES, WRAPPERS } from './wrappers';
export const ASSIGNMENT_RE = /^[A-Za-z_][A-Za-z0-9_]*\+?=(?!=)/; // not numpy==1.26
const BIN_DIR_RE = /(^|\/)(\.bin|bin|sbin|Scripts)\/$/;
const SCRIPT_EXT_RE = /\.(sh|bash|zsh|ps1|py|js|mjs|cjs|ts|mts|cts|rb|pl|php)$/i;
const PROGRAM_EXT_RE = /\.(exe|cmd|bat|com)$/;

export function own<T>(table: Record<string, T> | undefined, key: string): T | undefined {
  return table !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}


// ---------------------------------------------------------------------------------------------
// Program names
// ---------------------------------------------------------------------------------------------

export interface ProgramName {
  /** Canonical name; may contain a space for aliases that add an argument ('docker compose'). */
  name: string;
  /** Directory peeled off ('./node_modules/.bin/', '/usr/bin/'), '' when none. */
  prefix: string;
  /** A script run directly (./deploy.sh): the name is its path, case kept. */
  script: boolean;
}

export function baseProgramName(base: string): string {
  const lower = base.toLowerCase().replace(PROGRAM_EXT_RE, '');
  const alias = own(PROGRAM_ALIASES, lower);
  if (alias !== undefined) return alias;
  if (/^python\d+(\.\d+)*$/.test(lower)) return 'python';
  if (/^pip\d+(\.\d+)*$/.test(lower)) return 'pip';
  return lower;
}

export function isKnownProgram(name: string): boolean {
  return own(FAMILIES, name) !== undefined || own(WRAPPERS, name) !== undefined || PLAIN.has(name) || name.includes(' ');
}

export function canonicalProgram(raw: string): ProgramName {
  const s = raw.replace(/\\/g, '/');
  if (!s.startsWith('@')) {
    const slash = s.lastIndexOf('/');
    if (slash >= 0) {
      const prefix = s.slice(0, slash + 1);
      const base = s.slice(slash + 1);
      const name = baseProgramName(base);
      if (base && (ABSOLUTE_RE.test(prefix) || BIN_DIR_RE.test(prefix) || isKnownProgram(name))) {
        return { name, prefix, script: false };
      }
      return { name: scriptPath(s), prefix: '', script: true };
    }
  }
  const name = baseProgramName(s);
  if (!isKnownProgram(name) && SCRIPT_EXT_RE.test(name)) return { name: s, prefix: '', script: true };
  return { name, prefix: '', script: false };
}

/** prisma@5.1 -> prisma, @scope/cli@2 -> @scope/cli. */
export function stripVersion(raw: string): string {
  const at = raw.indexOf('@', raw.startsWith('@') ? 1 : 0);
  return at > 0 ? raw.slice(0, at) : raw;
}

export function isFlag(w: string): boolean {
  return w.length > 1 && (w[0] === '-' || w[0] === '+') && w !== '--';
}

// ---------------------------------------------------------------------------------------------
// A whole line: lists, pipelines, cd folding
// ---------------------------------------------------------------------------------------------

function firstProgramWord(words: string[]): string | undefined {
  for (const w of words) {
    if (!ASSIGNMENT_RE.test(w) && w !== '') return baseProgramName(w.replace(/\\/g, '/').replace(/^.*\//, ''));
  }
  return undefined;
}

/** Shell keywords that open or close a compound command: `if npm test; then ...; fi`, `{ make; }`. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'esac']);

export function stripReserved(words: string[]): string[] {
  let k = 0;
  while (k < words.length && RESERVED.has(words[k])) k++;
  return k ? words.slice(k) : words;
}

/** The words of each list element (split on && || ; & newlines and parentheses), redirections dropped. */
export function listElements(tokens: Token[], ops?: string[]): string[][] {
  const lists: string[][] = [];
  let stages: string[][] = [[]];
  let skipTarget = false;
  const endList = (op: string): void => {
    const useful = stages.map(stripReserved).filter((s) => s.length > 0);
    if (useful.length) {
      const real = useful.find((s) => !FEEDERS.has(firstProgramWord(s) ?? ''));
      lists.push(real ?? useful[0]);
      ops?.push(op);
    } else if (ops?.length && op !== '') {
      // `{ a; }` or `(a)`: the operator after the group is the one that follows its last element
      ops[ops.length - 1] = op === ')' || op === '(' ? ops[ops.length - 1] : op;
    }
    stages = [[]];
  };
  for (const tok of tokens) {
    if (tok.kind === 'redir') {
      skipTarget = !tok.complete;
      continue;
    }
    if (tok.kind === 'op') {
      skipTarget = false;
      if (tok.text === '|') stages.push([]);
      else endList(tok.text);
      continue;
    }
    if (skipTarget) {
      skipTarget = false;
      continue;
    }
    stages[stages.length - 1].push(tok.text);
  }
  endList('');
  return lists;
}

export type ElementKind = 'cd' | 'noise' | 'tidy' | 'real';

/**
 * Looking at or tidying up files after the work (`… && cat log && rm -rf .venv`): the work before it is
 * the approach; alone on a line it is its own approach.
 */
const TIDY = new Set(['rm', 'rmdir', 'cp', 'mv', 'mkdir', 'touch', 'chmod', 'chown', 'ln', 'cat', 'ls', 'head', 'tail', 'wc', 'du', 'stat', 'tree', 'date', 'kill', 'pkill']);
/** git's read-only looks (`… && git status`, `…; git diff`): a look at the work, not the work. */
const GIT_LOOKS = new Set(['status', 'diff', 'log', 'show']);

export function classify(words: string[]): ElementKind {
  const first = firstProgramWord(words);
  if (first === undefined) return 'noise';
  if (CD.has(first)) return 'cd';
  if (NOISE.has(first)) return 'noise';
  if (TIDY.has(first)) return 'tidy';
  if (first === 'git' && GIT_LOOKS.has(words.find((w, k) => k > words.indexOf('git') && !w.startsWith('-')) ?? '')) return 'tidy';
  return 'real';
}

/** Names set by `X=value`, `export X=value` elements before element `upTo` (for `$X` programs). */
export function assignmentsBefore(elements: string[][], upTo: number): Map<string, string> {
  const vars = new Map<string, string>();
  for (let k = 0; k < upTo; k++) {
    const words = elements[k][0] === 'export' ? elements[k].slice(1) : elements[k];
    if (!words.length || !words.every(w => ASSIGNMENT_RE.test(w))) continue;
    for (const w of words) {
      const eq = w.indexOf('=');
      vars.set(w.slice(0, eq).replace(/\+$/, ''), w.slice(eq + 1));
    }
  }
  return vars;
}

/** The folder of `cd X` (X, '~' for a bare cd), undefined when it cannot be known (cd -). */
export function cdTarget(words: string[]): string | undefined {
  let k = 0;
  while (k < words.length && ASSIGNMENT_RE.test(words[k])) k++;
  for (let j = k + 1; j < words.length; j++) {
    const w = words[j];
    const lower = w.toLowerCase();
    if (lower === '-path' || lower === '-literalpath') return words[j + 1];
    if (lower === '/d') continue;
    if (w === '-') return undefined;
    if (isFlag(w)) continue;
    return w;
  }
  return '~';
}
