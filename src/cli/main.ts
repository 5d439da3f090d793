// failure-memory: the command-line front door to a workspace's failure memory.
// Used by people, by shell hooks and by AI agents. Same engine and store as the extension.
// Parsing is strict (node:util parseArgs): an unknown or misspelt option is an error, never ignored.

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs as nodeParseArgs } from 'node:util';
import { removeHidden } from '../core/text/hidden';
import { RedactionPatternError } from '../core/text/redact';
import { createOfflineScorer, teamRecallParts } from '../embeddings';
import { StoreError } from '../store/storeError';
import { TeamMemory } from '../app/team';
import { openWorkspaceMemory, type OpenedMemory } from '../app/openMemory';
import { COMMANDS } from './commands';
import { agentCliRefusal } from '../agents/hooks/witness';
import { agentGatesSetUp } from '../agents/hooks/protect';
import { memoryDirFor } from '../store/paths';
import { UsageError, type Command, type Context, type Io, type OptionSpec } from './types';

import { VERSION } from './version';

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  workspace: { type: 'string', help: 'workspace folder (default: current folder)' },
  json: { type: 'boolean', help: 'machine output on stdout: one JSON value' },
  threshold: { type: 'string', help: 'failures before an approach is exhausted (default: workspace setting or 5)' },
  help: { type: 'boolean', short: 'h', help: 'this help' },
  version: { type: 'boolean', help: 'print the version' },
};

export function usage(): string {
  const width = Math.max(...COMMANDS.map(c => c.usage.length));
  const lines = COMMANDS.map(c => `  ${c.usage.padEnd(width)}  ${c.summary}`);
  const opts = Object.entries(GLOBAL_OPTIONS).map(([k, o]) => `  ${`${o.short ? `-${o.short}, ` : '    '}--${k}${o.type === 'string' ? ' VALUE' : ''}`.padEnd(24)}${o.help}`);
  return `failure-memory ${VERSION} — remembers failing commands so you (or your agent) stop repeating them

Usage: failure-memory <command> [options]

Commands:
${lines.join('\n')}

Options (all commands):
${opts.join('\n')}
`;
}

export interface Parsed {
  command: Command | undefined;
  name: string;
  values: Record<string, string | boolean | undefined>;
  /** Plain arguments after the subcommand's name, for commands that declare them. */
  args: string[];
}

/** Splits argv into the subcommand and its options; throws UsageError for anything unknown. */
export function parseArgs(argv: string[]): Parsed {
  const name = argv.find(a => !a.startsWith('-')) ?? '';
  const command = COMMANDS.find(c => c.name === name);
  if (name && !command && name !== 'help' && name !== 'version') {
    throw new UsageError(`unknown command: ${name}${suggest(name, COMMANDS.map(c => c.name))}`);
  }
  const options = { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) };
  try {
    const { values, positionals } = nodeParseArgs({ args: argv, options: strip(options), strict: true, allowPositionals: true });
    const extra = positionals.filter((_, i) => i !== positionals.indexOf(name));
    const args = command?.args ? extra.splice(0, command.args) : [];
    if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}${command ? ` (${command.name} takes options only; quote a command line: --command "…")` : ''}`);
    return { command, name, values: values as Parsed['values'], args };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(explainParseError(e as Error & { code?: string }, Object.keys(options), name));
  }
}

function strip(options: Record<string, OptionSpec>) {
  const out: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [k, o] of Object.entries(options)) out[k] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  return out;
}

function explainParseError(e: Error & { code?: string }, known: string[], command: string): string {
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(e.message);
  if (unknown) {
    const bare = unknown[1].replace(/^-+/, '');
    return `unknown option ${unknown[1]}${command ? ` for ${command}` : ''}${suggest(bare, known, '--')}`;
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(e.message);
  if (missing) return `${missing[1]} needs a value`;
  const ambiguous = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(e.message);
  if (ambiguous) return `${ambiguous[1]} needs a value; for a value that starts with "-", write ${ambiguous[1]}=VALUE`;
  const boolWithValue = /Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(e.message);
  if (boolWithValue) return `${boolWithValue[1]} takes no value`;
  return e.message;
}

/** " (did you mean --threshold?)" for a name within two edits of a known one. */
function suggest(name: string, known: string[], prefix = ''): string {
  let best = '';
  let bestD = 3;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best ? ` (did you mean ${prefix}${best}?)` : '';
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const defaultIo: Io = { out: s => process.stdout.write(s), err: s => process.stderr.write(s) };

export async function main(argv: string[], given: Io = defaultIo): Promise<number> {
  // what a person or an agent reads: no invisible characters (a command's own data stream aside)
  const shown = (s: string) => removeHidden(s);
  let io: Io = { ...given, out: s => given.out(shown(s)), err: s => given.err(shown(s)) };
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    io.err(`failure-memory: ${(e as Error).message}\nRun \`failure-memory --help\` for usage.\n`);
    return 1;
  }
  const { command, name, values, args } = parsed;
  if (name === 'version' || (values.version && !values.help)) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (values.help && command) {
    io.out(commandHelp(command));
    return 0;
  }
  if (values.help || name === 'help') {
    io.out(usage());
    return 0;
  }
  if (!command) {
    io.err(usage());
    return 1;
  }
  if (command.raw) io = { ...io, out: given.out };
  try {
    const ctx = createContext(command, values, io, args);
    const byAgent = agentCliRefusal(command.name, values.remove === true, memoryDirFor(ctx.workspace), () => agentGatesSetUp(ctx.workspace));
    if (byAgent) {
      io.err(`${byAgent}\n`);
      return 1;
    }
    return await command.run(ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`failure-memory: ${e.message}\nRun \`failure-memory ${command.name} --help\` for usage.\n`);
      return 1;
    }
    if (e instanceof StoreError || e instanceof RedactionPatternError) {
      io.err(`failure-memory: ${e.message}\n`);
      return 1;
    }
    io.err(`failure-memory: unexpected error: ${(e as Error)?.stack ?? e}\n`);
    return 1;
  }
}

function commandHelp(c: Command): string {
  const opts = Object.entries({ ...(c.options ?? {}), ...GLOBAL_OPTIONS })
    .map(([k, o]) => `  ${`${o.short ? `-${o.short}, ` : ''}--${k}${o.type === 'string' ? ' VALUE' : ''}`.padEnd(22)}${o.help ?? ''}`);
  return `failure-memory ${c.usage}\n\n${c.summary}\n\nOptions:\n${opts.join('\n')}\n`;
}

function createContext(command: Command, values: Parsed['values'], io: Io, args: string[] = []): Context {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const workspaceArg = str('workspace');
  const workspace = resolve(workspaceArg ?? process.cwd());
  // a missing folder is a typo, not a place to create a memory in
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new UsageError(`workspace folder ${workspace} does not exist`);
  }
  const int = (k: string, min: number, max: number): number | undefined => {
    const v = str(k);
    if (v === undefined) return undefined;
    if (!/^\s*-?\d+\s*$/.test(v)) throw new UsageError(`--${k} must be a whole number, got "${v}"`);
    const n = Number(v);
    if (n < min || n > max) throw new UsageError(`--${k} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
  const threshold = int('threshold', 1, 1000);
  const json = values.json === true;
  const onWarning = (m: string) => io.err(`failure-memory: warning: ${m}\n`);
  // opened on first use: `--help`-like paths and usage errors never read the settings or the memory
  let opened: OpenedMemory<TeamMemory> | undefined;
  const open = () =>
    (opened ??= openWorkspaceMemory<TeamMemory>({
      workspace,
      overrides: { threshold },
      onWarning,
      longLived: command.longLived === true,
      // a one-shot process waits for git synchronously (see GitOptions.sync)
      ...(command.journal ? { journal: true, git: { sync: true } } : {}),
      // recall by meaning: the offline embedder (no model), vectors cached beside memory.json, never
      // replacing the vectors of the extension's transformer
      ...(command.semantic && values.lexical !== true ? { scorer: memoryDir => createOfflineScorer({ memoryDir, claim: false, onWarning }) } : {}),
      // the CLI and MCP can sync: the link is the team memory itself; without `sync` they still
      // push and pull, in a detached process (dist/team-sync.js beside this bundle)
      team: options => new TeamMemory({ ...options, ...teamRecallParts() }),
      backgroundSync: join(__dirname, 'team-sync.js'),
      // who found a restoration, in its event: the MCP server or the CLI
      gate: { via: command.name === 'mcp' ? 'mcp' : 'cli' },
    }));
  const cwdArg = str('cwd');
  const cwd = cwdArg === undefined ? undefined : toWorkspaceRelative(workspace, cwdArg);
  // as the MCP server refuses it: a folder outside the workspace is not one of its approaches' folders
  if (cwdArg !== undefined && cwd === undefined) throw new UsageError(`--cwd ${cwdArg} is outside the workspace folder (${workspace}): give a folder inside it, relative to it or absolute`);
  return {
    io,
    workspace,
    json,
    cwd,
    print: (human, value) => io.out(json ? `${JSON.stringify(value, null, 2)}\n` : human.endsWith('\n') ? human : `${human}\n`),
    memory: () => open().memory,
    args,
    team: () => ({ team: open().team, reason: open().teamReason }),
    str,
    required(k) {
      const v = str(k);
      if (v === undefined) throw new UsageError(`${command.name} needs --${k}`);
      if (!v.trim()) throw new UsageError(`--${k} is empty`);
      return v;
    },
    flag: k => values[k] === true,
    int,
    onWarning,
  };
}

/**
 * A cwd inside the workspace as a relative folder ('.' for the root): absolute, or relative to the
 * workspace. undefined when it lies outside (`/etc`, `../..`).
 */
export function toWorkspaceRelative(workspace: string, cwd: string): string | undefined {
  if (!cwd.trim()) return '.';
  const rel = relative(workspace, resolve(workspace, cwd));
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}
