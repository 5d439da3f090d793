// What a command line does to Failure Memory, read the way a POSIX shell reads it (quotes, escapes,
// `eval`, `sh -c`, wrappers, variables set on the same line, `cd` before a command, command
// substitutions it can evaluate, globs), so that `failure-memory "resolve"`, `res''olve`,
// `FM=failure-memory; $FM resolve`, `cd .vscode && rm -rf failure-memory` and
// `rm -rf $(echo .vscode)/failure-memory` are all seen for what they do; and what it cannot follow:
// an interpreter's code (read by ./reach.ts), a script file or an archive it runs or unpacks (read by
// the caller), a git command that rewrites the work tree, a line past the reading limits. Pure and
// linear: the words of a line are walked once per nesting level (at most MAX_DEPTH levels).

import { lex, type Token } from '../approach/lexer';
import { WRAPPERS } from '../approach/wrappers';
import { segments, walkSegments } from './pathMatch';
import { baseName, inlineCode, interpreterOf, scriptArg, substitutionValue } from './reach';

/** What a command line does to Failure Memory, as far as its words tell. */
export interface LineFacts {
  /** Calls of our CLI (or of an unknown program with one of its subcommands): the words after the program. */
  cli: Array<{ args: string[]; program: string; known: boolean; stdinArgs?: boolean }>;
  /** Files written, moved, deleted or re-permissioned: absolute, '/'-separated, globs kept. */
  writes: Array<{ path: string; op: WriteOp }>;
  /** The line names a failureMemory.* setting (anywhere, quoted or not). */
  namesOurSettings: boolean;
  /** A program that is no mere reader names the memory folder (`python -c "…rmtree('.vscode/failure-memory')"`). */
  namesMemory: boolean;
  /** … or names .vscode/settings.json. */
  namesSettings: boolean;
  /** The line was not read to its end (longer than the limits, nested deeper, unreadable): what it names decides. */
  partial: boolean;
  /** Code the line hands to an interpreter (python -c, node -e, a heredoc fed to `python -`), with the folder it runs in. */
  code: Array<{ text: string; dir: string }>;
  /** Files the line runs (a script, `./x`, `sh x`, `. x`) with their arguments: absolute. */
  runs: Array<{ path: string; args: string[]; dir: string; shell: boolean }>;
  /** Files the line reads into a copy (cp, ln, install, cat > …): absolute; a copy of our launcher is our CLI by another name. */
  copies: string[];
  /** Archives unpacked over a folder (tar -x, unzip, …): absolute. */
  extracts: Array<{ archive: string; dest: string }>;
  /** git commands that rewrite the work tree (stash, checkout, reset --hard, clean, restore, switch…). */
  git: Array<{ sub: string; args: string[]; dir: string }>;
}

export type WriteOp = 'write' | 'append' | 'delete' | 'move' | 'mode';

export interface Where {
  /** The workspace folder, absolute ('/'-separated; a Windows drive as c:/…). */
  workspace: string;
  /** The folder the command runs in, relative to the workspace ('.' for its root). */
  cwd: string;
  /** The user's home, for `~` and $HOME. */
  home?: string;
}

const MAX_DEPTH = 4;
const MAX_WORDS = 4096;
/** Lines longer than this are read, but what they name decides as well (a limit an attack can aim at). */
const MAX_LINE = 64 * 1024;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'busybox', 'mksh', 'yash', 'tcsh', 'csh']);
const NODES = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'ts-node', 'electron', 'code', 'cursor', 'windsurf']);
/** Subcommands of ours that an unknown program (`$FM`) must not be seen running. */
export const DANGEROUS_SUBS = new Set(['resolve', 'allow', 'clear', 'setup-agents', 'hook', 'record', 'learn']);
const SHELL_VALUE_FLAGS: ReadonlySet<string> = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);
const INTERP_VALUE_FLAGS: ReadonlySet<string> = new Set(['-W', '-X', '-m', '-r', '--require', '--import', '--loader', '-I', '--experimental-loader', '--env-file']);

export const base = (w: string): string => w.replace(/\\/g, '/').replace(/^.*\//, '').toLowerCase();
export const isVariable = (w: string): boolean => /^(?:\$|`)/.test(w);
const OUR_PROGRAM = /^failure-memory(?:\.(?:cmd|exe|js|ps1))?$/;
const OUR_SCRIPT = /^(?:cli|hook|hook-main|hook-post|hook-record)\.[cm]?js$/;
const MEMORY_NAME = /\.vscode[\\/]+failure-memory(?![\w-])/i;
const SETTINGS_NAME = /\.vscode[\\/]+settings\.json/i;
/** Programs that only read the files they name (a mention of the memory folder by one of them is harmless). */
const READERS = new Set([
  'cat', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'ls', 'tree', 'wc', 'stat', 'file', 'du',
  'diff', 'cmp', 'jq', 'bat', 'od', 'xxd', 'hexdump', 'strings', 'sha1sum', 'sha256sum', 'md5sum', 'cksum', 'test', '[',
  'realpath', 'readlink', 'dirname', 'basename', 'echo', 'printf', 'cd', 'pushd', 'type', 'which', 'cp', 'find',
]);
/** Programs that unpack an archive over a folder. */
const UNPACKERS = new Set(['tar', 'bsdtar', 'gtar', 'unzip', 'cpio', '7z', '7za', 'unrar', 'ditto', 'pax', 'ar']);
const GIT_TREE = /^(?:stash|checkout|reset|clean|restore|switch|rm|mv|apply|am|merge|pull|rebase|cherry-pick|revert|read-tree|checkout-index|worktree)$/;

interface Simple {
  words: string[];
  redirs: Array<{ op: string; target: string }>;
  /** A later stage of a pipeline (its stdin is the earlier stage's output). */
  piped: boolean;
}

/** Splits a line's tokens into simple commands: words and redirections, split at ; && || | & ( ) and newlines. */
function simpleCommands(tokens: Token[], facts: LineFacts): Simple[] {
  const out: Simple[] = [];
  let cur: Simple = { words: [], redirs: [], piped: false };
  let pendingRedir: string | undefined;
  for (const t of tokens) {
    if (t.kind === 'op') {
      pendingRedir = undefined;
      if (cur.words.length || cur.redirs.length) out.push(cur);
      cur = { words: [], redirs: [], piped: t.text === '|' || t.text === '|&' };
    } else if (t.kind === 'redir') {
      pendingRedir = t.complete ? undefined : t.text;
    } else if (pendingRedir !== undefined) {
      cur.redirs.push({ op: pendingRedir, target: t.text });
      pendingRedir = undefined;
    } else if (cur.words.length < MAX_WORDS) {
      cur.words.push(t.text);
    } else {
      facts.partial = true;
    }
  }
  if (cur.words.length || cur.redirs.length) out.push(cur);
  return out;
}

/** Where the program starts after VAR=x words and wrappers (sudo, env, nohup, timeout 5, npx -y, xargs…). */
function peel(words: string[], vars: Map<string, string>, seen?: Set<string>): number {
  let i = 0;
  for (let guard = 0; guard < 16 && i < words.length; guard++) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[i])) {
      const eq = words[i].indexOf('=');
      vars.set(words[i].slice(0, eq).replace(/\+$/, ''), words[i].slice(eq + 1));
      i++;
    }
    const name = base(words[i] ?? '').replace(/\.(?:exe|cmd)$/, '');
    const rule = Object.prototype.hasOwnProperty.call(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!rule || name === 'python') return i;
    let j = i + 1;
    let sub = !rule.sub;
    let skip = rule.skip ?? 0;
    for (; j < words.length; j++) {
      const w = words[j];
      if (w === '--') {
        j++;
        break;
      }
      if (rule.programFlag && w === rule.programFlag) {
        j++;
        break;
      }
      if (w.length > 1 && w.startsWith('-')) {
        if (!w.includes('=') && (rule.valueFlags ?? []).includes(w)) j++;
        continue;
      }
      if (!sub && (rule.sub ?? []).some(s => s.split(' ')[0] === w.toLowerCase())) {
        sub = true;
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      break;
    }
    if (j >= words.length) return i; // a wrapper with nothing after it is the program itself
    seen?.add(name);
    i = j;
  }
  return i;
}

/** $NAME / ${NAME} replaced from the line's own assignments, $HOME and $PWD from `where`. */
function expand(word: string, vars: Map<string, string>): string {
  if (!word.includes('$')) return word;
  return word.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]{0,64})\}?/g, (m, name: string) => vars.get(name) ?? m);
}

interface Walk {
  facts: LineFacts;
  vars: Map<string, string>;
  aliases: Map<string, string[]>;
  /** The folder the next command runs in: a drive ('' or 'c:') and absolute segments, moved in place by cd. */
  dir: { drive: string; segs: string[] };
  where: Where;
}

/** Deeper than any path a file system takes (PATH_MAX is 4,096 bytes): a cd beyond it fails in the shell too. */

const here = (w: Walk) => `${w.dir.drive}/${w.dir.segs.join('/')}`;

function analyse(line: string, w: Walk, depth: number): void {
  if (depth > MAX_DEPTH) {
    w.facts.partial = true;
    return;
  }
  // past the limit, or in ANSI-C quotes ($'\x2e…') whose escapes the lexer does not decode: what it names decides too
  if (line.length > MAX_LINE || line.includes("$'")) w.facts.partial = true;
  let prev: Simple | undefined;
  for (const cmd of simpleCommands(lex(line, { posix: true }), w.facts)) {
    for (const r of cmd.redirs) {
      if (r.op.includes('>')) w.facts.writes.push({ path: resolvePath(wordValue(r.target, w), w), op: r.op.includes('>>') ? 'append' : 'write' });
    }
    command(cmd, w, depth, line, cmd.piped ? prev : undefined);
    prev = cmd;
  }
}

/** What a pipe's producer prints when the line shows it (echo, printf), else '' (unknown). */
function printed(producer: Simple | undefined): string {
  const prog = producer ? base(producer.words[0] ?? '') : '';
  return prog === 'echo' || prog === 'printf' ? producer!.words.slice(1).join(' ') : '';
}

/** The text after a line's first newline when it has a heredoc (its body, which the lexer skips). */
function heredocBody(line: string): string | undefined {
  const nl = line.indexOf('\n');
  return nl >= 0 && line.includes('<<') ? line.slice(nl + 1) : undefined;
}

/** A word as the shell would give it: the line's variables expanded, substitutions it can evaluate replaced by their value. */
function wordValue(word: string, w: Walk): string {
  const x = expand(word, w.vars);
  if (!x.includes('$(') && !x.includes('`')) return x;
  return x.replace(/\$\(([^()]{0,1024})\)|`([^`]{0,1024})`/g, (m, a?: string, b?: string) => {
    const inner = lex(a ?? b ?? '', { posix: true });
    if (inner.some(t => t.kind !== 'word')) return m;
    return substitutionValue(inner.map(t => expand(t.text, w.vars)), here(w)) ?? m;
  });
}

/** One simple command: a nested line (eval, sh -c), a cd, our CLI, code, a script, or a program that writes files. */
function command(cmd: Simple, w: Walk, depth: number, line: string, producer?: Simple): void {
  const wrappers = new Set<string>();
  const start = peel(cmd.words, w.vars, wrappers);
  let words = cmd.words.slice(start).map(x => wordValue(x, w));
  if (!words.length) return;
  const alias = w.aliases.get(words[0]);
  if (alias) words = [...alias, ...words.slice(1)];
  const prog = base(words[0]).replace(/\.(?:exe|cmd)$/, '');
  const args = words.slice(1);
  // a program or a line computed at run time (`$(…)` not evaluated, `eval "$X"`): unknowable here
  if (/^(?:\$\(|`)/.test(words[0]) || (prog === 'eval' && args.some(a => /\$\(|`|\$\{?[A-Za-z_]/.test(a)))) w.facts.partial = true;
  if (prog === 'eval') return analyse(args.join(' '), w, depth + 1);
  // what a program reading its stdin is given: a heredoc's body, a here-string, what echo or printf
  // before it in the pipe prints; '' when it reads stdin the line does not show (`curl … | sh`)
  const heredoc = cmd.redirs.some(r => r.op === '<<' || r.op === '<<-') ? heredocBody(line) : undefined;
  const stdin = heredoc ?? cmd.redirs.find(r => r.op === '<<<')?.target ?? (cmd.piped ? printed(producer) : undefined);
  if (SHELLS.has(prog)) return shell(args, w, depth, heredoc, stdin);
  if (bookkeeping(prog, args, w)) return;
  const interp = interpreterOf(prog);
  if (interp && !ourCli(words)) {
    interpreter(interp, args, w, stdin);
    for (const write of fileWrites(prog, args)) w.facts.writes.push({ path: resolvePath(write.path, w), op: write.op });
    return;
  }
  if ((prog === 'source' || prog === '.') && args[0] !== undefined) {
    w.facts.runs.push({ path: resolvePath(args[0], w), args: args.slice(1), dir: here(w), shell: true });
    return;
  }
  const ours = ourCli(words);
  if (!ours && !READERS.has(prog) && !(prog === 'git' && /^(?:status|diff|log|show|blame|ls-files|grep)$/.test(args.find(a => !a.startsWith('-')) ?? ''))) {
    if (args.some(a => MEMORY_NAME.test(a))) w.facts.namesMemory = true;
    if (args.some(a => SETTINGS_NAME.test(a))) w.facts.namesSettings = true;
  }
  if (ours) w.facts.cli.push(wrappers.has('xargs') ? { ...ours, stdinArgs: true } : ours);
  else if (isVariable(words[0]) && args.some(a => DANGEROUS_SUBS.has(a))) w.facts.cli.push({ args, program: words[0], known: false });
  else if (words[0].includes('/') && !isVariable(words[0])) w.facts.runs.push({ path: resolvePath(words[0], w), args, dir: here(w), shell: false });
  if (prog === 'find') findExec(args, w, depth, line);
  if (UNPACKERS.has(prog)) unpack(prog, args, w);
  if (prog === 'git') gitTree(args, w);
  for (const write of fileWrites(prog, args)) w.facts.writes.push({ path: resolvePath(write.path, w), op: write.op });
  copySources(prog, args, cmd, w);
}

/** cd, alias, export and their kin: the walk's own state changes, nothing runs. True when handled. */
function bookkeeping(prog: string, args: string[], w: Walk): boolean {
  if (prog === 'cd' || prog === 'pushd') {
    const target = args.find(a => !a.startsWith('-')) ?? '~';
    moveTo(w, target);
    return true;
  }
  if (prog === 'alias') {
    for (const a of args) {
      const eq = a.indexOf('=');
      if (eq > 0) w.aliases.set(a.slice(0, eq), lex(a.slice(eq + 1), { posix: true }).filter(t => t.kind === 'word').map(t => t.text));
    }
    return true;
  }
  if (prog === 'export' || prog === 'declare' || prog === 'local' || prog === 'typeset' || prog === 'readonly') {
    peel(args.filter(a => !a.startsWith('-')), w.vars);
    return true;
  }
  return false;
}

/** `sh -c LINE` (read as a line), `sh FILE` (a script run), `sh` fed a heredoc (read as a line too) or a pipe (its text named). */
function shell(args: string[], w: Walk, depth: number, heredoc: string | undefined, stdinText: string | undefined): void {
  const c = args.findIndex(a => /^-[A-Za-z]+$/.test(a) && a.includes('c'));
  if (c >= 0 && /\$\(|`|\$\{?[A-Za-z_]/.test(args[c + 1] ?? '')) w.facts.partial = true;
  // the words after -c joined: an argv a harness joined with spaces (`bash -lc rm -rf x`) is read as it was meant
  if (c >= 0) {
    if (args[c + 1] !== undefined) analyse(args.slice(c + 1).join(' '), w, depth + 1);
    return;
  }
  const file = scriptArg(args, SHELL_VALUE_FLAGS);
  if (file !== undefined && !args.includes('-s')) {
    const at = args.indexOf(file);
    w.facts.runs.push({ path: resolvePath(file, w), args: args.slice(at + 1), dir: here(w), shell: true });
  } else if (heredoc ?? stdinText) {
    analyse((heredoc ?? stdinText)!, w, depth + 1);
  } else {
    // a shell reading what the line does not show (a pipe from curl, a file): judged on what it names as well
    w.facts.partial = true;
  }
}

/** python -c CODE, node -e CODE, a heredoc fed to `python -`, or a script file the interpreter runs. */
function interpreter(interp: string, args: string[], w: Walk, stdinText: string | undefined): void {
  const code = inlineCode(interp, args);
  if (code !== undefined) {
    w.facts.code.push({ text: code, dir: here(w) });
    return;
  }
  if (args.includes('-m')) return; // a module run (python -m pytest): a program like any other
  const file = scriptArg(args, INTERP_VALUE_FLAGS);
  if (file !== undefined) {
    const at = args.indexOf(file);
    w.facts.runs.push({ path: resolvePath(file, w), args: args.slice(at + 1), dir: here(w), shell: false });
  } else if (stdinText) {
    w.facts.code.push({ text: stdinText, dir: here(w) });
  } else if (stdinText === '') {
    w.facts.partial = true;
  }
}

/** find … -exec CMD {} ;: CMD on every file found (`{}` standing for what its tests reach under its start folders). */
function findExec(args: string[], w: Walk, depth: number, line: string): void {
  const exec = args.findIndex(a => /^-(?:exec|execdir|ok|okdir)$/.test(a));
  if (exec < 0) return;
  const end = args.findIndex((a, k) => k > exec && (a === ';' || a === '+'));
  const words = args.slice(exec + 1, end < 0 ? undefined : end);
  for (const t of findTargets(args.slice(0, exec)).slice(0, 8)) {
    command({ words: words.map(a => a.replace(/\{\}/g, resolvePath(t.path, w))), redirs: [], piped: false }, w, depth + 1, line);
  }
}

/** tar -x / unzip / cpio -i …: the archive and the folder it is unpacked over. */
function unpack(prog: string, args: string[], w: Walk): void {
  const value = (flags: string[]) => {
    const k = args.findIndex(a => flags.includes(a));
    const eq = args.find(a => flags.some(f => f.startsWith('--') && a.startsWith(`${f}=`)));
    return k >= 0 ? args[k + 1] : eq?.slice(eq.indexOf('=') + 1);
  };
  let archive: string | undefined;
  let dest: string | undefined;
  if (prog === 'unzip' || prog === '7z' || prog === '7za' || prog === 'unrar') {
    if ((prog === '7z' || prog === '7za' || prog === 'unrar') && !['x', 'e'].includes(args[0] ?? '')) return;
    archive = args.find((a, k) => !a.startsWith('-') && !(k > 0 && args[k - 1] === '-d') && !(k === 0 && prog !== 'unzip'));
    dest = value(['-d']) ?? args.find(a => a.startsWith('-o') && a.length > 2)?.slice(2);
  } else if (prog === 'tar' || prog === 'bsdtar' || prog === 'gtar') {
    // a cluster of short options, with its dash or (the first word) without: -xzf, xvf
    const cluster = (a: string, k: number) => !a.startsWith('--') && (a.startsWith('-') || k === 0) && /^-?[A-Za-z]+$/.test(a);
    if (!args.some((a, k) => (cluster(a, k) && a.includes('x')) || a === '--extract' || a === '--get')) return;
    const f = args.findIndex((a, k) => cluster(a, k) && a.includes('f'));
    archive = value(['--file']) ?? (f >= 0 ? args[f + 1] : undefined);
    dest = value(['-C', '--directory']);
  } else {
    dest = '.';
  }
  w.facts.extracts.push({ archive: archive ? resolvePath(archive, w) : '', dest: resolvePath(dest ?? '.', w) });
}

/** A git command that rewrites the work tree: kept with the folder it runs in (-C moves it). */
function gitTree(args: string[], w: Walk): void {
  let dir = here(w);
  const rest: string[] = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '-C' && args[k + 1] !== undefined) dir = resolvePath(args[++k], w);
    else if ((args[k] === '-c' || args[k] === '--git-dir' || args[k] === '--work-tree') && rest.length === 0) k++;
    else rest.push(args[k]);
  }
  const at = rest.findIndex(a => !a.startsWith('-'));
  if (at >= 0 && GIT_TREE.test(rest[at])) w.facts.git.push({ sub: rest[at], args: rest.slice(at + 1), dir });
}

/** The files a copy reads (cp SRC DST, ln, install, rsync, cat SRC > DST, dd if=): absolute. */
function copySources(prog: string, args: string[], cmd: Simple, w: Walk): void {
  const positional = args.filter(a => !a.startsWith('-'));
  let sources: string[] = [];
  if (['cp', 'ln', 'install', 'rsync', 'scp', 'ditto'].includes(prog)) sources = positional.slice(0, -1);
  else if (prog === 'dd') sources = args.filter(a => a.startsWith('if=')).map(a => a.slice(3));
  else if (cmd.redirs.some(r => r.op.includes('>')) && ['cat', 'head', 'tail', 'sed', 'awk', 'tr', 'base64', 'xxd', 'gzip', 'zcat', 'openssl'].includes(prog)) sources = positional;
  for (const s of sources) w.facts.copies.push(resolvePath(s, w));
  for (const r of cmd.redirs) if (r.op === '<' && r.target) w.facts.copies.push(resolvePath(wordValue(r.target, w), w));
}

/** Our CLI as a program: `failure-memory`, the launcher, `node …/dist/cli.js`, `npx failure-memory@1`. */
function ourCli(words: string[]): LineFacts['cli'][number] | undefined {
  const name = base(words[0]);
  const prog = name.lastIndexOf('@') > 0 ? name.slice(0, name.lastIndexOf('@')) : name;
  if (OUR_PROGRAM.test(prog)) return { args: words.slice(1), program: words[0], known: true };
  const node = prog.replace(/\.(?:exe|cmd)$/, '');
  if (NODES.has(node) && inlineCode(interpreterOf(node) ?? 'node', words.slice(1)) === undefined) {
    const script = words.findIndex((x, k) => k > 0 && !x.startsWith('-') && /^[^\s()'"]+$/.test(x));
    if (script > 0 && (OUR_SCRIPT.test(base(words[script])) || /failure-memory/i.test(words[script]))) {
      // the hook bundles take `<harness> <event>`: the launcher's `hook` is already gone
      const hook = /^hook/.test(base(words[script])) && words[script + 1] !== 'hook';
      return { args: [...(hook ? ['hook'] : []), ...words.slice(script + 1)], program: words[script], known: true };
    }
  }
  return undefined;
}

/** The paths a well-known program writes, moves, deletes or re-permissions, from its arguments. */
function fileWrites(prog: string, args: string[]): Array<{ path: string; op: WriteOp }> {
  const positional = args.filter(a => !a.startsWith('-') || a === '-');
  const all = (op: WriteOp) => positional.map(path => ({ path, op }));
  switch (prog) {
    case 'rm': case 'rmdir': case 'unlink': case 'shred': case 'srm': case 'trash': case 'trash-put': case 'wipe':
      return all('delete');
    case 'mv': case 'cp': case 'install': case 'ln': case 'rsync': case 'scp': case 'ditto':
      return copyWrites(prog, args, positional);
    case 'tee': case 'truncate': case 'touch': case 'mkfifo': case 'mknod':
      return all(args.includes('-a') || args.includes('--append') ? 'append' : 'write');
    case 'dd':
      return args.filter(a => a.startsWith('of=')).map(a => ({ path: a.slice(3), op: 'write' as const }));
    case 'sed': case 'perl': case 'ruby': {
      if (!args.some(a => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'))) return [];
      // the script is the first plain word unless -e gives it
      const scripted = args.some(a => /^-[A-Za-z]*[eE]$/.test(a) || a === '--expression');
      const files = args.filter((a, k) => (!a.startsWith('-') || a === '-') && !/^-[A-Za-z]*[eEf]$|^--expression$/.test(args[k - 1] ?? ''));
      return (scripted ? files : files.slice(1)).map(path => ({ path, op: 'write' as const }));
    }
    case 'chmod': case 'chown': case 'chgrp': case 'chattr': case 'setfacl': case 'setfattr': case 'xattr':
      return all('mode');
    case 'find':
      return args.some(a => /^-(?:delete|fprint\w*)$/.test(a)) ? findTargets(args) : [];
    case 'git':
      return gitWrites(args);
    default:
      return [];
  }
}

/**
 * What a copy or a move writes: into a folder (several sources, `-t DIR`, a DEST ending in / or a
 * dot folder) each source's name there, else DEST itself; a move (and rsync --delete) also removes
 * its sources.
 */
function copyWrites(prog: string, args: string[], positional: string[]): Array<{ path: string; op: WriteOp }> {
  const target = args.find((a, k) => a.startsWith('--target-directory=') || (k > 0 && args[k - 1] === '-t'));
  const dest = target ? target.replace(/^--target-directory=/, '') : positional[positional.length - 1];
  if (dest === undefined) return [];
  const sources = positional.filter(p => p !== dest);
  const intoFolder = target !== undefined || sources.length > 1 || /(?:^|\/)\.{0,2}$/.test(dest);
  const name = baseName;
  // `src/.` (and rsync's `src/`) copies what the folder holds, not the folder
  const contents = (src: string) => src.endsWith('/.') || src === '.' || (prog === 'rsync' && src.endsWith('/'));
  const written = intoFolder && sources.length ? sources.map(src => ({ path: name(src) && !contents(src) ? `${dest}/${name(src)}` : dest, op: 'write' as const })) : [{ path: dest, op: 'write' as const }];
  const removes = prog === 'mv' || (prog === 'rsync' && args.some(a => a.startsWith('--delete') || a === '--remove-source-files'));
  // a hard link is a second name for the same file: writing to it later writes the source
  const hardLink = (prog === 'ln' && !args.some(a => /^-[A-Za-z]*s/.test(a) || a === '--symbolic')) || (prog === 'cp' && args.some(a => /^-[A-Za-z]*l/.test(a) || a === '--link'));
  const sourceOp: WriteOp | undefined = prog === 'mv' ? 'move' : removes ? 'delete' : hardLink ? 'write' : undefined;
  return [...written, ...(sourceOp ? sources.map(path => ({ path, op: sourceOp })) : [])];
}

/**
 * What find -delete / -exec removes: under each start folder, the names its -name / -path tests
 * allow (`root/**\/NAME`), or everything under it when it has none (a negated test narrows nothing).
 */
function findTargets(args: string[]): Array<{ path: string; op: WriteOp }> {
  const names: string[] = [];
  for (let k = 0; k < args.length - 1; k++) {
    if (!/^-i?(?:name|path|wholename)$/.test(args[k]) || args[k - 1] === '-not' || args[k - 1] === '!') continue;
    const last = baseName(args[k + 1]);
    if (!/^\**$/.test(last)) names.push(last);
  }
  const roots = findRoots(args);
  if (!names.length) return roots.map(path => ({ path, op: 'delete' }));
  return roots.flatMap(r => names.map(n => ({ path: `${r}/**/${n}`, op: 'delete' as const })));
}

/** find's start folders: the words before its first expression (`.` when none). */
function findRoots(args: string[]): string[] {
  const roots: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || a === '(' || a === '!') break;
    roots.push(a);
  }
  return roots.length ? roots : ['.'];
}

/** git subcommands that delete or overwrite the files they name (the whole-tree ones are judged with git's own answer). */
function gitWrites(args: string[]): Array<{ path: string; op: WriteOp }> {
  const at = args.findIndex(a => !a.startsWith('-'));
  const sub = at < 0 ? undefined : args[at];
  const rest = args.slice(at + 1).filter(a => !a.startsWith('-'));
  const paths = (op: WriteOp, list: string[] = rest) => list.map(path => ({ path, op }));
  switch (sub) {
    case 'rm': return paths('delete');
    case 'mv': return paths('move');
    default: return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

const isAbs = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

/** A path as a drive and absolute segments. */
function absolute(p: string): { drive: string; segs: string[] } {
  const d = /^([A-Za-z]):/.exec(p);
  return { drive: d ? `${d[1].toLowerCase()}:` : '', segs: segments(d ? p.slice(2) : p) };
}

/** ~, $HOME and $PWD at the start of a target. */
function homeAndPwd(target: string, w: Walk): string {
  let t = target.replace(/\\/g, '/');
  if (w.where.home && (t === '~' || t.startsWith('~/'))) t = w.where.home + t.slice(1);
  if (/^\$\{?HOME\}?(?=\/|$)/.test(t)) t = t.replace(/^\$\{?HOME\}?/, w.where.home ?? '$HOME');
  if (/^\$\{?PWD\}?(?=\/|$)/.test(t)) t = t.replace(/^\$\{?PWD\}?/, here(w));
  return t;
}

/** A target as an absolute, normalized path ('/'-separated; globs and unknown $VARs kept as written). */
function resolvePath(target: string, w: Walk): string {
  const t = homeAndPwd(target, w);
  const { drive, segs } = isAbs(t) ? absolute(t) : { drive: w.dir.drive, segs: walkSegments(w.dir.segs.slice(), t) };
  return `${drive}/${segs.join('/')}`;
}

/** A path as the line's folder would place it (for a caller resolving what code or a script names). */
export function placePath(target: string, dir: string, where: Where): string {
  const w = { dir: absolute(dir), where, vars: new Map(), aliases: new Map() } as unknown as Walk;
  return resolvePath(target, w);
}

/** cd: the walk's folder moves (in place: a chain of 10,000 cds stays linear). */
function moveTo(w: Walk, target: string): void {
  const t = homeAndPwd(wordValue(target, w), w);
  if (isAbs(t)) w.dir = absolute(t);
  else walkSegments(w.dir.segs, t);
}

/** What the words of a line do to Failure Memory (see LineFacts). */
export function lineFacts(line: string, where: Where): LineFacts {
  const facts: LineFacts = {
    cli: [], writes: [], namesOurSettings: /failureMemory/i.test(line), namesMemory: false, namesSettings: false,
    partial: false, code: [], runs: [], copies: [], extracts: [], git: [],
  };
  try {
    const dir = absolute(`${where.workspace}/${where.cwd || '.'}`);
    analyse(typeof line === 'string' ? line : '', { facts, vars: new Map(), aliases: new Map(), dir, where }, 0);
  } catch {
    // a line we cannot read is judged on what was read of it, and on what it names
    facts.partial = true;
  }
  return facts;
}
