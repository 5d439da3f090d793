// What an agent may not run because it would take a decision away from the user: unblocking,
// clearing or forging results through Failure Memory's own CLI, and writing, moving or deleting
// Failure Memory's files or settings. The line is read the way a POSIX shell reads it (quotes,
// escapes, `eval`, `sh -c`, wrappers, variables set on the same line, `cd` before a command), so
// `failure-memory "resolve"`, `res''olve`, `FM=failure-memory; $FM resolve` and
// `cd .vscode && rm -rf failure-memory` are all seen for what they do. Pure and linear: the words
// of a line are walked once per nesting level (at most MAX_DEPTH levels of eval / sh -c).

import { lex, type Token } from '../approach/lexer';
import { WRAPPERS } from '../approach/wrappers';
import { wildcard } from '../approach/glob';

export type RefusalCode = 'user-only' | 'forged-result' | 'hook-by-agent' | 'learning-as-user' | 'unknown-program' | 'memory-files' | 'settings' | 'gate-config';

export interface Refusal {
  code: RefusalCode;
  /** The deny reason for the model: what was refused, why, and what to do instead. */
  reason: string;
}

/** What a command line does to Failure Memory, as far as its words tell. */
export interface LineFacts {
  /** Calls of our CLI (or of an unknown program with one of its subcommands): the words after the program. */
  cli: Array<{ args: string[]; program: string; known: boolean }>;
  /** Files written, moved, deleted or re-permissioned: absolute, '/'-separated, globs kept. */
  writes: Array<{ path: string; op: WriteOp }>;
  /** The line names a failureMemory.* setting (anywhere, quoted or not). */
  namesOurSettings: boolean;
  /** A program that is no mere reader names the memory folder (`python -c "…rmtree('.vscode/failure-memory')"`). */
  namesMemory: boolean;
  /** … or names .vscode/settings.json. */
  namesSettings: boolean;
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
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'busybox']);
const NODES = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'electron', 'code', 'cursor', 'windsurf']);
/** Subcommands of ours that an unknown program (`$FM`) must not be seen running. */
const DANGEROUS_SUBS = new Set(['resolve', 'allow', 'clear', 'setup-agents', 'hook', 'record', 'learn']);
const GLOBAL_VALUE_OPTIONS = new Set(['--workspace', '--threshold']);
const INTERRUPT_CODES = new Set([129, 130, 131, 143, 148]);

const base = (w: string): string => w.replace(/\\/g, '/').replace(/^.*\//, '').toLowerCase();
const isVariable = (w: string): boolean => /^(?:\$|`)/.test(w);
const OUR_PROGRAM = /^failure-memory(?:\.(?:cmd|exe|js|ps1))?$/;
const OUR_SCRIPT = /^(?:cli|hook)\.[cm]?js$/;
const MEMORY_NAME = /\.vscode[\\/]+failure-memory(?![\w-])/i;
const SETTINGS_NAME = /\.vscode[\\/]+settings\.json/i;
/** Programs that only read the files they name (a mention of the memory folder by one of them is harmless). */
const READERS = new Set([
  'cat', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'ls', 'tree', 'wc', 'stat', 'file', 'du',
  'diff', 'cmp', 'jq', 'bat', 'od', 'xxd', 'hexdump', 'strings', 'sha1sum', 'sha256sum', 'md5sum', 'cksum', 'test', '[',
  'realpath', 'readlink', 'dirname', 'basename', 'echo', 'printf', 'cd', 'pushd', 'type', 'which', 'cp', 'find',
]);

/** Splits a line's tokens into simple commands: words and redirections, split at ; && || | & ( ) and newlines. */
function simpleCommands(tokens: Token[]): Array<{ words: string[]; redirs: Array<{ op: string; target: string }> }> {
  const out: Array<{ words: string[]; redirs: Array<{ op: string; target: string }> }> = [];
  let cur: { words: string[]; redirs: Array<{ op: string; target: string }> } = { words: [], redirs: [] };
  let pendingRedir: string | undefined;
  for (const t of tokens) {
    if (t.kind === 'op') {
      pendingRedir = undefined;
      if (cur.words.length || cur.redirs.length) out.push(cur);
      cur = { words: [], redirs: [] };
    } else if (t.kind === 'redir') {
      pendingRedir = t.complete ? undefined : t.text;
    } else if (pendingRedir !== undefined) {
      cur.redirs.push({ op: pendingRedir, target: t.text });
      pendingRedir = undefined;
    } else if (cur.words.length < MAX_WORDS) {
      cur.words.push(t.text);
    }
  }
  if (cur.words.length || cur.redirs.length) out.push(cur);
  return out;
}

/** Where the program starts after VAR=x words and wrappers (sudo, env, nohup, timeout 5, npx -y, xargs…). */
function peel(words: string[], vars: Map<string, string>): number {
  let i = 0;
  for (let guard = 0; guard < 16 && i < words.length; guard++) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[i])) {
      const eq = words[i].indexOf('=');
      vars.set(words[i].slice(0, eq).replace(/\+$/, ''), words[i].slice(eq + 1));
      i++;
    }
    const name = base(words[i] ?? '').replace(/\.(?:exe|cmd)$/, '');
    const rule = Object.prototype.hasOwnProperty.call(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!rule) return i;
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
    i = j;
  }
  return i;
}

/** $NAME / ${NAME} replaced from the line's own assignments, $HOME and $PWD from `where`. */
function expand(word: string, vars: Map<string, string>): string {
  if (!word.includes('$')) return word;
  return word.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]{0,64})\}?/g, (m, name: string) => vars.get(name) ?? m);
}

/** The folder changes of `cd X`: an absolute or relative target (undefined: unknowable, `cd -`). */
function cdTarget(args: string[]): string | undefined {
  const target = args.find(a => !a.startsWith('-'));
  if (target === undefined) return '~';
  return target;
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
const MAX_DEPTH_SEGMENTS = 2048;

function analyse(line: string, w: Walk, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const cmd of simpleCommands(lex(line, { posix: true }))) {
    for (const r of cmd.redirs) {
      if (r.op.includes('>')) w.facts.writes.push({ path: resolvePath(expand(r.target, w.vars), w), op: r.op.includes('>>') ? 'append' : 'write' });
    }
    command(cmd.words, w, depth);
  }
}

/** One simple command: a nested line (eval, sh -c), a cd, our CLI, or a program that writes files. */
function command(rawWords: string[], w: Walk, depth: number): void {
  const start = peel(rawWords, w.vars);
  let words = rawWords.slice(start).map(x => expand(x, w.vars));
  if (!words.length) return;
  const alias = w.aliases.get(words[0]);
  if (alias) words = [...alias, ...words.slice(1)];
  const prog = base(words[0]).replace(/\.(?:exe|cmd)$/, '');
  const args = words.slice(1);
  if (prog === 'eval') return analyse(args.join(' '), w, depth + 1);
  if (SHELLS.has(prog)) {
    const c = args.findIndex(a => /^-[A-Za-z]+$/.test(a) && a.includes('c'));
    // the words after -c joined: an argv a harness joined with spaces (`bash -lc rm -rf x`) is read as it was meant
    if (c >= 0 && args[c + 1] !== undefined) analyse(args.slice(c + 1).join(' '), w, depth + 1);
    return;
  }
  if (prog === 'cd' || prog === 'pushd') {
    const t = cdTarget(args);
    if (t !== undefined) moveTo(w, expand(t, w.vars));
    return;
  }
  if (prog === 'alias') {
    for (const a of args) {
      const eq = a.indexOf('=');
      if (eq > 0) w.aliases.set(a.slice(0, eq), lex(a.slice(eq + 1), { posix: true }).filter(t => t.kind === 'word').map(t => t.text));
    }
    return;
  }
  if (prog === 'export' || prog === 'declare' || prog === 'local' || prog === 'typeset' || prog === 'readonly') {
    peel(args.filter(a => !a.startsWith('-')), w.vars);
    return;
  }
  const ours = ourCli(words);
  if (!ours && !READERS.has(prog) && !(prog === 'git' && /^(?:status|diff|log|show|blame|ls-files|grep)$/.test(args.find(a => !a.startsWith('-')) ?? ''))) {
    if (args.some(a => MEMORY_NAME.test(a))) w.facts.namesMemory = true;
    if (args.some(a => SETTINGS_NAME.test(a))) w.facts.namesSettings = true;
  }
  if (ours) w.facts.cli.push(ours);
  else if (isVariable(words[0]) && args.some(a => DANGEROUS_SUBS.has(a))) w.facts.cli.push({ args, program: words[0], known: false });
  if (prog === 'find') {
    const exec = args.findIndex(a => /^-(?:exec|execdir|ok|okdir)$/.test(a));
    if (exec >= 0) {
      const end = args.findIndex((a, k) => k > exec && (a === ';' || a === '+'));
      command(args.slice(exec + 1, end < 0 ? undefined : end).map(a => a.replace(/\{\}/g, '*')), w, depth + 1);
    }
  }
  for (const write of fileWrites(prog, args)) w.facts.writes.push({ path: resolvePath(expand(write.path, w.vars), w), op: write.op });
}

/** Our CLI as a program: `failure-memory`, the launcher, `node …/dist/cli.js`, `npx failure-memory@1`. */
function ourCli(words: string[]): LineFacts['cli'][number] | undefined {
  const name = base(words[0]);
  const prog = name.lastIndexOf('@') > 0 ? name.slice(0, name.lastIndexOf('@')) : name;
  if (OUR_PROGRAM.test(prog)) return { args: words.slice(1), program: words[0], known: true };
  if (NODES.has(prog.replace(/\.(?:exe|cmd)$/, ''))) {
    const script = words.findIndex((x, k) => k > 0 && !x.startsWith('-'));
    if (script > 0 && (OUR_SCRIPT.test(base(words[script])) || /failure-memory/i.test(words[script]))) {
      return { args: words.slice(script + 1), program: words[script], known: true };
    }
  }
  return undefined;
}

/** The paths a well-known program writes, moves, deletes or re-permissions, from its arguments. */
function fileWrites(prog: string, args: string[]): Array<{ path: string; op: WriteOp }> {
  const positional = args.filter(a => !a.startsWith('-') || a === '-');
  const all = (op: WriteOp) => positional.map(path => ({ path, op }));
  switch (prog) {
    case 'rm': case 'rmdir': case 'unlink': case 'shred': case 'srm': case 'trash': case 'trash-put':
      return all('delete');
    case 'mv':
      return all('move');
    case 'cp': case 'install': case 'ln': case 'rsync': case 'scp': {
      const target = args.find((a, k) => a.startsWith('--target-directory=') || (k > 0 && args[k - 1] === '-t'));
      const dest = target ? target.replace(/^--target-directory=/, '') : positional[positional.length - 1];
      const deletes = prog === 'rsync' && args.some(a => a.startsWith('--delete') || a === '--remove-source-files');
      return dest === undefined ? [] : [{ path: dest, op: 'write' }, ...(deletes ? positional.slice(0, -1).map(path => ({ path, op: 'delete' as const })) : [])];
    }
    case 'tee': case 'truncate': case 'touch':
      return all(args.includes('-a') || args.includes('--append') ? 'append' : 'write');
    case 'dd':
      return args.filter(a => a.startsWith('of=')).map(a => ({ path: a.slice(3), op: 'write' as const }));
    case 'sed': case 'perl': case 'ruby':
      return args.some(a => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place')) ? all('write') : [];
    case 'chmod': case 'chown': case 'chgrp': case 'chattr': case 'setfacl':
      return all('mode');
    case 'find':
      return args.some(a => /^-(?:delete|exec|execdir|ok|okdir|fprint\w*)$/.test(a)) ? findRoots(args).map(path => ({ path, op: 'delete' as const })) : [];
    case 'git':
      return gitWrites(args);
    default:
      return [];
  }
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

/** git subcommands that delete or overwrite files in the work tree. */
function gitWrites(args: string[]): Array<{ path: string; op: WriteOp }> {
  const at = args.findIndex(a => !a.startsWith('-'));
  const sub = at < 0 ? undefined : args[at];
  const rest = args.slice(at + 1).filter(a => !a.startsWith('-'));
  const paths = (op: WriteOp, list: string[] = rest) => list.map(path => ({ path, op }));
  switch (sub) {
    case 'rm': return paths('delete');
    case 'mv': return paths('move');
    case 'clean': return paths('delete', rest.length ? rest : ['.']);
    case 'restore': return paths('write');
    case 'checkout': return args.includes('--') ? paths('write', args.slice(args.indexOf('--') + 1)) : [];
    case 'stash': return args.some(a => a === '-u' || a === '-a' || a === '--include-untracked' || a === '--all') ? [{ path: '.', op: 'delete' }] : [];
    default: return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

function segments(p: string): string[] {
  return walkSegments([], p.replace(/\\/g, '/'));
}

/** Applies a relative path's segments to `segs` in place ('..' pops, '.' stays). */
function walkSegments(segs: string[], rel: string): string[] {
  for (const s of rel.split('/')) {
    if (!s || s === '.') continue;
    if (s === '..') segs.pop();
    else if (segs.length < MAX_DEPTH_SEGMENTS) segs.push(s);
  }
  return segs;
}

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
  if (/^\$\{?PWD\}?(?=\/|$)/.test(t)) t = t.replace(/^\$\{?PWD\}?/, `${w.dir.drive}/${w.dir.segs.join('/')}`);
  return t;
}

/** A target as an absolute, normalized path ('/'-separated; globs and unknown $VARs kept as written). */
function resolvePath(target: string, w: Walk): string {
  const t = homeAndPwd(target, w);
  const { drive, segs } = isAbs(t) ? absolute(t) : { drive: w.dir.drive, segs: walkSegments(w.dir.segs.slice(), t) };
  return `${drive}/${segs.join('/')}`;
}

/** cd: the walk's folder moves (in place: a chain of 10,000 cds stays linear). */
function moveTo(w: Walk, target: string): void {
  const t = homeAndPwd(target, w);
  if (isAbs(t)) w.dir = absolute(t);
  else walkSegments(w.dir.segs, t);
}

/** One path segment against one glob segment (`*`, `?`, `[…]`, an unknown `$VAR`); a leading dot is never matched by a wildcard. */
export function segmentMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (!/[*?[$`]/.test(pattern)) return false;
  if (name.startsWith('.') && !pattern.startsWith('.')) return false;
  // a bracket expression or an unknown variable stands for any run of characters here
  const glob = pattern.replace(/\[[^\]]{0,64}\]/g, '?').replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(.*\)|`.*`/g, '*').slice(0, 256);
  return wildcard(name.slice(0, 256), glob);
}

/** How a written path relates to a protected one: the same, an ancestor of it (a folder holding it), inside it, or neither. */
export function relation(target: string, protectedPath: string): 'same' | 'ancestor' | 'inside' | undefined {
  const driveOf = (p: string) => /^([a-z]):/i.exec(p)?.[1].toLowerCase() ?? '';
  if (driveOf(target) !== driveOf(protectedPath)) return undefined;
  const t = segments(target.replace(/^[A-Za-z]:/, ''));
  const p = segments(protectedPath.replace(/^[A-Za-z]:/, ''));
  const n = Math.min(t.length, p.length);
  for (let k = 0; k < n; k++) if (!segmentMatches(t[k], p[k])) return undefined;
  return t.length === p.length ? 'same' : t.length < p.length ? 'ancestor' : 'inside';
}

/** What the words of a line do to Failure Memory (see LineFacts). */
export function lineFacts(line: string, where: Where): LineFacts {
  const facts: LineFacts = { cli: [], writes: [], namesOurSettings: /failureMemory/i.test(line), namesMemory: false, namesSettings: false };
  try {
    const dir = absolute(`${where.workspace}/${where.cwd || '.'}`);
    analyse(typeof line === 'string' ? line : '', { facts, vars: new Map(), aliases: new Map(), dir, where }, 0);
  } catch {
    // a line we cannot read is judged on what was read of it
  }
  return facts;
}

// ---------------------------------------------------------------------------------------------
// The verdict
// ---------------------------------------------------------------------------------------------

/** The user's protected files, as the caller finds them on disk (asked only when a write touches them). */
export interface Protected {
  /** Absolute memory folder (<workspace>/.vscode/failure-memory). */
  memoryDir: string;
  /** Absolute .vscode/settings.json. */
  settings: string;
  /** Does settings.json set any failureMemory.* value now? */
  settingsHaveOurs: () => boolean;
  /**
   * Absolute paths of the harness configurations that hold Failure Memory's hook entries; with
   * `near`, only of those it accepts (the others are not read).
   */
  gateConfigs: (near?: (config: string) => boolean) => string[];
}

const NOT_RUN = 'Failure Memory: NOT RUN —';
const INSTEAD = 'Instead: fix the cause of the failure and try a different approach, or ask the user.';

/** Why an agent may not run `failure-memory <sub>` (resolve, allow, clear). */
export function userOnlyReason(sub: string): string {
  return [
    `${NOT_RUN} \`failure-memory ${sub}\` is for the user, not for an agent.`,
    "Unblocking an exhausted approach or clearing the memory is the user's decision (the Failure Memory dialog, panel or command palette, or their own terminal).",
    INSTEAD,
  ].join('\n');
}

/** The refusal for one call of our CLI by an agent, if any. */
function cliRefusal(call: LineFacts['cli'][number]): Refusal | undefined {
  const args = call.args;
  let sub: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (GLOBAL_VALUE_OPTIONS.has(a)) k++;
    else if (!a.startsWith('-')) {
      sub = a;
      break;
    }
  }
  if (sub === undefined) return undefined;
  if (call.known && isVariable(sub)) {
    return { code: 'unknown-program', reason: `${NOT_RUN} Failure Memory cannot tell which of its subcommands \`${sub.slice(0, 80)}\` stands for; some are only the user's.\nName the subcommand plainly (check, recall, list…). ${INSTEAD}` };
  }
  if (!call.known && !DANGEROUS_SUBS.has(sub)) return undefined;
  if (!call.known) {
    return {
      code: 'unknown-program',
      reason: `${NOT_RUN} Failure Memory cannot tell what \`${call.program.slice(0, 80)}\` runs, and \`${sub}\` is one of its own subcommands that only the user (or the harness) may run.\nRun the command with the program named plainly, or ask the user. ${INSTEAD}`,
    };
  }
  const value = (name: string) => {
    for (let k = 0; k < args.length; k++) {
      if (args[k] === name) return args[k + 1];
      if (args[k].startsWith(`${name}=`)) return args[k].slice(name.length + 1);
    }
    return undefined;
  };
  switch (sub) {
    case 'resolve': case 'allow': case 'clear':
      return { code: 'user-only', reason: userOnlyReason(sub) };
    case 'setup-agents':
      return args.includes('--remove') ? { code: 'user-only', reason: userOnlyReason('setup-agents --remove') } : undefined;
    case 'hook':
      return { code: 'hook-by-agent', reason: `${NOT_RUN} \`failure-memory hook\` is what the agent's harness runs around each tool call; an agent calling it itself would report results nobody saw.\n${INSTEAD}` };
    case 'record': {
      const code = value('--exit-code');
      const n = code !== undefined && /^-?\d{1,10}$/.test(code.trim()) ? Number(code) : undefined;
      if (n !== undefined && n !== 0 && !INTERRUPT_CODES.has(n)) return undefined;
      return {
        code: 'forged-result',
        reason: `${NOT_RUN} an agent may report a failure with \`failure-memory record\`, never a success or an unknown result: the harness's own hook records what really ran (exit ${code ?? 'not given'} is not accepted here).\n${INSTEAD}`,
      };
    }
    case 'learn':
      return value('--source') === 'agent'
        ? undefined
        : { code: 'learning-as-user', reason: `${NOT_RUN} a learning added by an agent must say so: add \`--source agent\` to \`failure-memory learn\` (without it the learning would read as written by the user).` };
    default:
      return undefined;
  }
}

/**
 * Why the pre hook refuses this line, or undefined. `where` places relative paths; `prot` is asked
 * about the user's files only when a write touches them.
 */
export function selfProtectionRefusal(line: string, where: Where, prot?: Protected): Refusal | undefined {
  const facts = lineFacts(line, where);
  for (const call of facts.cli) {
    const r = cliRefusal(call);
    if (r) return r;
  }
  if (!prot) return undefined;
  const write = writeRefusal(facts.writes, facts.namesOurSettings, prot);
  if (write) return write;
  if (facts.namesMemory) return memoryRefusal('edit');
  if (facts.namesSettings && (facts.namesOurSettings || prot.settingsHaveOurs())) return settingsRefusal();
  return undefined;
}

/** The refusal for writes that touch the memory folder, Failure Memory's settings or its hook entries. */
export function writeRefusal(writes: LineFacts['writes'], namesOurSettings: boolean, prot: Protected): Refusal | undefined {
  for (const w of writes) {
    if (relation(w.path, prot.memoryDir)) return memoryRefusal(w.op);
    const s = relation(w.path, prot.settings);
    if (s && (namesOurSettings || (w.op !== 'append' && prot.settingsHaveOurs()))) return settingsRefusal();
  }
  if (!writes.length) return undefined;
  const [config] = prot.gateConfigs(c => writes.some(w => relation(w.path, c) && w.op !== 'append'));
  return config === undefined ? undefined : gateConfigRefusal(config);
}

export function memoryRefusal(op: WriteOp | 'edit'): Refusal {
  const verb = { write: 'write to', append: 'write to', delete: 'delete', move: 'move', mode: 'change the permissions of', edit: 'change' }[op];
  return {
    code: 'memory-files',
    reason: `${NOT_RUN} this would ${verb} Failure Memory's own files (.vscode/failure-memory): they hold the user's record of what failed and what is blocked, and only the user changes them (the Failure Memory panel or commands).\n${INSTEAD}`,
  };
}

export function settingsRefusal(): Refusal {
  return {
    code: 'settings',
    reason: `${NOT_RUN} this would change Failure Memory's settings (failureMemory.* in .vscode/settings.json): the threshold, the block mode and the redaction patterns are the user's to set.\n${INSTEAD}`,
  };
}

export function gateConfigRefusal(file: string): Refusal {
  return {
    code: 'gate-config',
    reason: `${NOT_RUN} this would change or remove the agent gate's hook entries (${base(file)}): setting up or removing the gates is the user's decision (failure-memory setup-agents).\n${INSTEAD}`,
  };
}
