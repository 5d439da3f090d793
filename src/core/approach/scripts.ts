// A project's scripts are the commands they run: `npm test` whose script is `jest` is the approach
// `jest`, whatever spells it (`npm t`, `npm run test`, `yarn test`, `pnpm test`, `bun run test`,
// `npx jest`), so their failures count together and a pass of any clears it. A script that runs
// several commands (`tsc && jest`) is an approach of its own, named the npm way (`npm test`, whichever
// manager ran it), and runs its commands as steps (the gate judges each). The same for a Makefile's
// targets (`make test` whose recipe is `pytest -x` is `pytest`), pdm's scripts and composer's. The
// tables come from the app (./manifests.ts, read by the store): without them a line is what it says.

import { argvLine, shellWord } from './lexer';
import { chosenWords, workingElements } from './chain';
import type { ScriptKind, ScriptTable } from './manifests';
import { approachKey, approachLabel } from './parse';
import { joinCwd } from './paths';

/** A manifest the identity of a line needs: the nearest one of `kind` for `folder`. */
export interface ScriptNeed {
  kind: ScriptKind;
  /** The folder the script is run from (relative to the workspace, normalized). */
  folder: string;
}

/** The tables read, by need (needKey): null when there is no such manifest for that folder. */
export type ScriptTables = ReadonlyMap<string, ScriptTable | null>;

export const needKey = (n: ScriptNeed): string => `${n.kind}\u0000${n.folder}`;

/** A script a line runs: its runner, its name (make: none for the default target), its extra arguments, where it is run from. */
export interface ScriptCall {
  kind: ScriptKind;
  name: string | undefined;
  args: string[];
  folder: string;
}

const base = (w: string) => w.replace(/\\/g, '/').replace(/^.*\//, '').toLowerCase().replace(/\.(?:cmd|exe|bat|ps1)$/, '');
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const WRAPS = new Set(['env', 'sudo', 'time', 'nohup', 'nice', 'command', 'exec', 'cross-env', 'corepack', 'dotenv', 'chronic', 'unbuffer']);

/** The words after VAR=value prefixes and wrappers that change nothing of what runs. */
function unwrap(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const b = base(words[i]);
    if (ASSIGN.test(words[i]) || (words[i] === '--' && i > 0)) i++;
    else if (WRAPS.has(b)) {
      i++;
      while (i < words.length && words[i].startsWith('-') && words[i] !== '--') i++;
    } else if (b === 'timeout') {
      i++;
      while (i < words.length && words[i].startsWith('-')) i++;
      i++;
    } else break;
  }
  return words.slice(i);
}

const NPM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);
const NPM_LIFECYCLE: Readonly<Record<string, string>> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' };
/** Flags that make a package manager run another package's script: not this folder's table. */
const ELSEWHERE = /^(?:-w|--workspace|--workspaces|-ws|--prefix|-C|--dir|--cwd|-F|--filter|-r|--recursive)(?:=|$)/;
const YARN_BUILTINS = new Set(['add', 'audit', 'autoclean', 'bin', 'cache', 'check', 'config', 'constraints', 'create', 'dedupe', 'dlx', 'exec', 'explain', 'generate-lock-entry', 'global', 'help', 'import', 'info', 'init', 'install', 'licenses', 'link', 'list', 'login', 'logout', 'node', 'npm', 'outdated', 'owner', 'pack', 'patch', 'plugin', 'policies', 'publish', 'rebuild', 'remove', 'set', 'stage', 'tag', 'team', 'unlink', 'unplug', 'up', 'upgrade', 'upgrade-interactive', 'version', 'versions', 'why', 'workspace', 'workspaces']);
const PNPM_BUILTINS = new Set(['add', 'audit', 'bin', 'c', 'cache', 'config', 'create', 'dedupe', 'deploy', 'dlx', 'doctor', 'env', 'exec', 'fetch', 'help', 'i', 'import', 'info', 'init', 'install', 'install-test', 'it', 'licenses', 'link', 'list', 'ln', 'login', 'logout', 'ls', 'outdated', 'pack', 'patch', 'prune', 'publish', 'rb', 'rebuild', 'recursive', 'remove', 'rm', 'root', 'server', 'setup', 'store', 'un', 'uninstall', 'unlink', 'up', 'update', 'upgrade', 'version', 'view', 'why']);
const COMPOSER_RUN = new Set(['run-script', 'run']);

/** The script of an npm-style runner: `npm run X`, `npm test`, `yarn X`, `pnpm X`, `bun run X`, `node --run X`. */
function packageCall(program: string, args: readonly string[]): { name: string; args: string[] } | undefined {
  if (args.some(a => ELSEWHERE.test(a))) return undefined;
  const dd = args.indexOf('--');
  const pos = (dd < 0 ? args : args.slice(0, dd)).filter(a => !a.startsWith('-'));
  const after = (name: string, skip: number): string[] => {
    // npm passes only what follows `--`; yarn, pnpm and bun pass what follows the name
    if (program === 'npm') return dd < 0 ? [] : args.slice(dd + 1);
    const at = args.indexOf(name, skip);
    return args.slice(at + 1).filter((a, k) => !(k === 0 && a === '--'));
  };
  if (program === 'node') {
    const r = args.findIndex(a => a === '--run');
    return r >= 0 && args[r + 1] ? { name: args[r + 1], args: [] } : undefined;
  }
  const first = pos[0];
  if (first === undefined) return undefined;
  if (program === 'bun') {
    if (first !== 'run' || !pos[1] || /[./\\]/.test(pos[1])) return undefined;
    return { name: pos[1], args: after(pos[1], args.indexOf('run') + 1) };
  }
  const lower = first.toLowerCase();
  if (NPM_RUN.has(lower)) return pos[1] ? { name: pos[1], args: after(pos[1], args.indexOf(first) + 1) } : undefined;
  const lifecycle = Object.prototype.hasOwnProperty.call(NPM_LIFECYCLE, lower) ? NPM_LIFECYCLE[lower] : undefined;
  if (lifecycle) return { name: lifecycle, args: after(first, 0) };
  const builtins = program === 'yarn' ? YARN_BUILTINS : program === 'pnpm' ? PNPM_BUILTINS : undefined;
  if (builtins && !builtins.has(lower)) return { name: first, args: after(first, 0) };
  return undefined;
}

/** make's flags that take a value (those that move elsewhere or name another makefile end the reading). */
const MAKE_VALUES = new Set(['-j', '--jobs', '-l', '--load-average', '-o', '--old-file', '-W', '--what-if', '-I', '--include-dir']);

function makeCall(args: readonly string[], folder: string): { name: string | undefined; folder: string } | undefined {
  let dir = folder;
  const targets: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-f' || a === '--file' || a === '--makefile' || /^-f./.test(a) || /^--(?:file|makefile)=/.test(a)) return undefined;
    if (a === '-C' || a === '--directory') {
      if (args[k + 1] === undefined) return undefined;
      dir = joinCwd(dir, args[++k]);
    } else if (/^-C./.test(a)) dir = joinCwd(dir, a.slice(2));
    else if (MAKE_VALUES.has(a) && /^\d*$/.test(args[k + 1] ?? 'x')) k++;
    else if (!a.startsWith('-') && !ASSIGN.test(a)) targets.push(a);
  }
  if (targets.length > 1) return undefined;
  return { name: targets[0], folder: dir };
}

/** The script the element that is a line's approach runs, when it runs one. */
export function scriptCall(line: string, cwd: string, charge?: string): ScriptCall | undefined {
  const words = chosenWords(line, charge);
  if (!words) return undefined;
  const key = approachKey(line, cwd, charge);
  const folder = key.slice(0, key.indexOf('::'));
  const w = unwrap(words);
  const program = base(w[0] ?? '');
  const args = w.slice(1);
  if (program === 'npm' || program === 'yarn' || program === 'pnpm' || program === 'bun' || program === 'node') {
    const call = packageCall(program, args);
    return call && { kind: 'npm', name: call.name, args: call.args, folder };
  }
  if (program === 'make' || program === 'gmake') {
    const call = makeCall(args, folder);
    return call && { kind: 'make', name: call.name, args: [], folder: call.folder };
  }
  if (program === 'composer') {
    const pos = args.filter(a => !a.startsWith('-'));
    if (args.some(a => /^(?:-d|--working-dir)(?:=|$)/.test(a)) || !pos[0]) return undefined;
    const name = COMPOSER_RUN.has(pos[0]) ? pos[1] : pos[0];
    const dd = args.indexOf('--');
    return name ? { kind: 'composer', name, args: dd < 0 ? [] : args.slice(dd + 1), folder } : undefined;
  }
  if (program === 'pdm' && (args[0] ?? '') === 'run' && args[1] && !args[1].startsWith('-')) {
    return { kind: 'pdm', name: args[1], args: args.slice(2), folder };
  }
  return undefined;
}

/** How a line's approach is named once its scripts are resolved. */
export interface ResolvedLine {
  /** The approach key. */
  key: string;
  /** The command line that does the work: the script's own command (with its extra arguments) when it runs one, else the line. */
  line: string;
  /** The folder `line` runs in. */
  cwd: string;
  /** A script that runs several commands: its command lines, run in `cwd` (the gate judges each). */
  body?: string[];
  /** Tables the resolution needed and was not given: read them and resolve again. */
  missing: ScriptNeed[];
}

const MAX_DEPTH = 4;

/** The label a script that runs several commands is known by: the npm spelling for package scripts, whichever manager ran it. */
function scriptLabel(kind: ScriptKind, name: string): string {
  const runner = kind === 'npm' ? 'npm run' : kind === 'make' ? 'make' : kind === 'pdm' ? 'pdm run' : 'composer run-script';
  return approachLabel(`${runner} ${shellWord(name)}`) || `${runner} ${name}`;
}

/**
 * The approach of `line` run in `cwd` (normalized), its scripts resolved through `tables` (see the file's
 * comment). `charge`: the program a failure is charged to (approachKey's). Never throws.
 */
export function resolveLine(line: string, cwd: string, tables: ScriptTables | undefined, charge?: string, depth = 0): ResolvedLine {
  const literal: ResolvedLine = { key: approachKey(line, cwd, charge), line, cwd, missing: [] };
  if (!tables || depth > MAX_DEPTH) return literal;
  let call: ScriptCall | undefined;
  try {
    call = scriptCall(line, cwd, charge);
  } catch {
    return literal;
  }
  if (!call) return literal;
  const need = { kind: call.kind, folder: call.folder };
  const table = tables.get(needKey(need));
  if (table === undefined) return { ...literal, missing: [need] };
  const name = call.name ?? table?.first;
  if (!table || name === undefined || !Object.prototype.hasOwnProperty.call(table.scripts, name)) return literal;
  const body = table.scripts[name];
  const extra = call.args.length ? ` ${argvLine(call.args)}` : '';
  if (body.length === 1 && workingElements(body[0]) <= 1) {
    const own = `${body[0]}${extra}`;
    // a script that runs nothing of its own (`"noop": "echo ok"`) is still that script
    if (workingElements(own) === 0) return literal;
    return resolveLine(own, table.folder, tables, undefined, depth + 1);
  }
  const lines = call.kind === 'npm' ? [`${body[0]}${extra}`] : body;
  return { key: `${table.folder}::${scriptLabel(call.kind, name)}`, line, cwd, body: lines, missing: [] };
}
