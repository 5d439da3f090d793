// `failure-memory hook <harness> <event>`: one process reads the harness's hook JSON on stdin and
// answers in that harness's protocol (./<harness>.ts). pre: the gate; post: record the result;
// session-start / prompt: the failure summary for the agent's context.
// Fast path: a pre call for a tool that runs no shell command is answered before memory is read;
// a pre check reads memory.json without the write lock. When it cannot decide (unreadable memory,
// outside any workspace, bad input) it lets the call through and says so in the harness's visible
// channel (adapter.notice: Claude Code's systemMessage, …), never only in a debug log.

import { existsSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { agentDenyReason, agentSummary, userOnlyReason, userOnlySubcommand } from '../../core/agentContext';
import { checkCommand } from '../../core/check';
import { approachKey, normalizeCwd } from '../../core/approach';
import { createRedactor, type Redactor } from '../../core/redact';
import { SCHEMA_VERSION, type EngineSettings, type MemoryData } from '../../core/types';
import { loadWorkspaceSettings } from '../../app/settings';
import { memoryDirFor } from '../../store/paths';
import { guardOthers, readOwnView, readView, type IndexCache } from '../../store/quickView';
import { claimCall } from './callOnce';
import type { HookRecord } from './record';
import { refreshRules } from './rules';
import { exitCodeFromTranscript } from './transcript';
import { HARNESSES, HOOK_EVENTS, type HarnessAdapter, type HookAnswer, type HookEvent, type HookInput, type HookReply, type Json, type ShellRun } from './index';

export const HOOK_USAGE = `Usage: failure-memory hook <harness> <event>   (the hook JSON on stdin)
  harness: ${Object.keys(HARNESSES).join(', ')}
  event:   ${HOOK_EVENTS.join(', ')}
`;

const PREFIX = 'Failure Memory hook';

/** Lets the call through and says why where the harness's user sees it (never silent, never blocking). */
function failOpen(adapter: HarnessAdapter | undefined, event: HookEvent | undefined, payload: Json, why: string): HookReply {
  const message = `${PREFIX}: ${why}; not checked, the agent goes on.`;
  if (!adapter || !event) return { exitCode: 1, stdout: '', stderr: `${message}\n` };
  return adapter.notice(event, message, payload);
}

/** The shell commands of a call: several (Cline's run_commands) or the one. */
const runsOf = (input: HookInput): ShellRun[] => input.runs ?? (input.command ? [{ command: input.command, result: input.result }] : []);

const real = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
};

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** `inner` relative to `outer` with '/' separators; undefined when it is not inside. */
function inside(outer: string, inner: string): string | undefined {
  const rel = relative(outer, inner);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** The nearest folder at or above `dir` holding Failure Memory's folder, else a git top level. */
function findWorkspaceAbove(dir: string): string | undefined {
  let gitTop: string | undefined;
  for (let d = dir; ; d = dirname(d)) {
    if (isDir(memoryDirFor(d))) return d;
    if (!gitTop && existsSync(join(d, '.git'))) gitTop = d;
    if (dirname(d) === d) return gitTop;
  }
}

export interface Located {
  workspace: string;
  /** cwd relative to the workspace ('.' for the root). */
  rel: string;
}

/**
 * The workspace folder and relative cwd of a hook call. Both sides are compared as real paths, so
 * a symlinked project folder (a harness reporting /real/path while the project says /link) matches.
 */
export function locate(root: string | undefined, cwd: string | undefined): Located | string {
  const c = cwd && isAbsolute(cwd) ? real(cwd) : undefined;
  if (root && isAbsolute(root)) {
    const r = real(root);
    if (!c) return { workspace: r, rel: '.' };
    const rel = inside(r, c);
    if (rel !== undefined) return { workspace: r, rel };
  }
  if (c) {
    const ws = findWorkspaceAbove(c);
    if (ws) return { workspace: ws, rel: inside(ws, c) ?? '.' };
    return `${cwd} is outside any workspace (no .vscode/failure-memory or git repository above it)`;
  }
  return 'the call names no folder (no cwd, no project directory)';
}

export interface HookRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Writes a post result (./record.ts; dist/hook.js loads it from its own bundle only when needed). */
  record: (r: HookRecord) => Promise<void>;
  /** The store's own read (migrations, a damaged file moved aside), when the quick read cannot use the file. */
  readFull: (workspace: string) => Promise<MemoryData>;
}

/** The engine settings every door uses (app/settings.ts); a bad value is its default here, never a failure. */
function settingsFor(workspace: string): EngineSettings {
  return loadWorkspaceSettings(workspace).engine;
}

/**
 * Memory as the hook sees it: memory.json with the runs other hooks journaled since it was written,
 * read without the lock and without the store (see store/quickView.ts), with the approaches of
 * `keys` loaded whole (all of them for 'all'). The store's own read when the quick one cannot use
 * the file (an older schema, damaged: the store migrates or moves it aside).
 */
async function readMemory(workspace: string, keys: readonly string[] | 'all', redactor: Redactor, full: HookRunOptions['readFull'], cache: IndexCache = {}): Promise<MemoryData> {
  const view = readView(memoryDirFor(workspace), keys, { redact: t => redactor.redact(t).text }, cache);
  if (view) return view.data;
  if (view === null) return emptyMemoryData();
  return full(workspace);
}

/** Answers one hook call. Never throws: every failure is a fail-open reply. */
export async function runHook(harness: string, event: string, stdinText: string, opts: HookRunOptions): Promise<HookReply> {
  const adapter = (HARNESSES as Record<string, HarnessAdapter | undefined>)[harness];
  if (!adapter || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    return { exitCode: 1, stdout: '', stderr: `${PREFIX}: unknown ${adapter ? 'event' : 'harness'} "${adapter ? event : harness}"; not checked.\n${HOOK_USAGE}` };
  }
  const ev = event as HookEvent;
  let payload: Json;
  try {
    const v: unknown = JSON.parse(stdinText);
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    payload = v as Json;
  } catch {
    return failOpen(adapter, ev, {}, `the ${adapter.title} hook input is not a JSON object`);
  }
  let input: HookInput;
  try {
    input = adapter.parse(ev, payload, opts.env ?? process.env);
  } catch (e) {
    return failOpen(adapter, ev, payload, `cannot read the ${adapter.title} hook input (${(e as Error).message})`);
  }
  const answer = (a: HookAnswer) => adapter.reply(ev, a, payload);
  try {
    switch (ev) {
      case 'pre':
        return await pre(input, answer, adapter, payload, opts.readFull);
      case 'post':
        return await post(input, answer, adapter, payload, opts.record, opts.readFull);
      default:
        return await context(input, answer, adapter, ev, payload, opts.readFull);
    }
  } catch (e) {
    return failOpen(adapter, ev, payload, `memory could not be used (${oneLine((e as Error)?.message ?? String(e))})`);
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);

async function pre(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, payload: Json, readFull: HookRunOptions['readFull']): Promise<HookReply> {
  // other tools are not the gate's business: answered at once, memory untouched
  const commands = runsOf(input).map(r => r.command).filter(c => c.trim());
  if (!commands.length) return answer({ kind: 'allow' });
  for (const command of commands) {
    const sub = userOnlySubcommand(command);
    if (sub) return answer({ kind: 'deny', reason: userOnlyReason(sub) });
  }
  const where = locate(input.root, input.cwd);
  if (typeof where === 'string') return failOpen(adapter, 'pre', payload, where);
  const settings = settingsFor(where.workspace);
  const redactor = createRedactor(settings.extraRedactionPatterns);
  const lines = commands.map(c => redactor.redact(c).text);
  const keys = lines.map(c => approachKey(c, normalizeCwd(where.rel)));
  // most calls are let through on these commands' own approaches alone (what others' runs can do to
  // them never turns a let-through into a block); a block, or a rule that looked at the rest of
  // memory, is decided again on a full read
  const index: IndexCache = {};
  const own = readOwnView(memoryDirFor(where.workspace), keys, { redact: t => redactor.redact(t).text }, index);
  if (own !== undefined && own !== 'others') {
    const guard = guardOthers(own?.data ?? emptyMemoryData(), keys);
    const clear = lines.every(line => checkCommand(guard.data, line, where.rel, settings).verdict !== 'block');
    if (clear && !guard.lookedElsewhere()) return answer({ kind: 'allow' });
  }
  const data = await readMemory(where.workspace, keys, redactor, readFull, index);
  for (const line of lines) {
    const c = checkCommand(data, line, where.rel, settings);
    if (c.verdict === 'block') return answer({ kind: 'deny', reason: agentDenyReason(c, data) });
  }
  return answer({ kind: 'allow' });
}

const emptyMemoryData = (): MemoryData => ({ schemaVersion: SCHEMA_VERSION, approaches: {}, reflections: [], learnings: [], updatedAt: new Date().toISOString() });

/** A Codex post names no exit code: the transcript has it, written just before the hook ran. */
async function codeFromTranscript(t: NonNullable<HookInput['transcript']>): Promise<number | undefined> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const code = exitCodeFromTranscript(t.path, t.toolUseId);
    if (code !== undefined) return code;
    await new Promise(r => setTimeout(r, 25 * (attempt + 1)));
  }
  return undefined;
}

async function post(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, payload: Json, record: HookRunOptions['record'], readFull: HookRunOptions['readFull']): Promise<HookReply> {
  const runs = runsOf(input).filter(r => r.command.trim() && r.result);
  if (!runs.length || input.recordedElsewhere) return answer({ kind: 'none' });
  const where = locate(input.root, input.cwd);
  if (typeof where === 'string') return failOpen(adapter, 'post', payload, `${where}: the result is not recorded`);
  if (input.callId && !claimCall(memoryDirFor(where.workspace), `${input.callId}\n${runs.map(r => r.command).join('\n')}`)) return answer({ kind: 'none' });
  if (input.transcript && runs.length === 1 && runs[0].result!.exitCode === null) {
    const code = await codeFromTranscript(input.transcript);
    if (code !== undefined) runs[0] = { ...runs[0], result: { ...runs[0].result!, exitCode: code } };
  }
  for (const r of runs) await record({ workspace: where.workspace, command: r.command, cwd: where.rel, exitCode: r.result!.exitCode, output: r.result!.output });
  const rules = adapter.rulesFile;
  if (rules) {
    const settings = settingsFor(where.workspace);
    const data = await readMemory(where.workspace, 'all', createRedactor(settings.extraRedactionPatterns), readFull);
    refreshRules(where.workspace, rules, agentSummary(data, settings.threshold));
  }
  return answer({ kind: 'none' });
}

async function context(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, ev: HookEvent, payload: Json, readFull: HookRunOptions['readFull']): Promise<HookReply> {
  if (!adapter.nativeEvents[ev]) return answer({ kind: 'none' });
  const where = locate(input.root, input.root ? undefined : input.cwd);
  if (typeof where === 'string') return failOpen(adapter, ev, payload, where);
  const settings = settingsFor(where.workspace);
  const data = await readMemory(where.workspace, 'all', createRedactor(settings.extraRedactionPatterns), readFull);
  const text = agentSummary(data, settings.threshold);
  const rules = adapter.rulesFile;
  if (rules) refreshRules(where.workspace, rules, text);
  return answer(text ? { kind: 'context', text } : { kind: 'none' });
}

/** Reads stdin to the end (bounded: a hook payload with a huge tool output is cut to its tail). */
export async function readAll(stream: NodeJS.ReadableStream, max = 8 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    chunks.push(b);
    size += b.length;
    while (size > max && chunks.length > 1) size -= chunks.shift()!.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The whole process: argv [harness, event]; writes the reply and returns the exit code. */
export interface HookIo extends HookRunOptions {
  /** The payload; default: fd 0 read synchronously (no stream machinery on the hot path). */
  stdin?: NodeJS.ReadableStream;
  out?: (s: string) => unknown;
  err?: (s: string) => unknown;
}

/** stdin in one synchronous read of fd 0 (pipes and files); a stream only where that cannot work. */
async function readStdin(stream?: NodeJS.ReadableStream): Promise<string> {
  if (stream) return readAll(stream);
  try {
    const b = readFileSync(0);
    return (b.length > 8 * 1024 * 1024 ? b.subarray(b.length - 8 * 1024 * 1024) : b).toString('utf8');
  } catch {
    return readAll(process.stdin);
  }
}

function writeFd(fd: 1 | 2, s: string): void {
  try {
    writeSync(fd, s);
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(s);
  }
}

export async function hookMain(argv: string[], io: HookIo): Promise<number> {
  const out = io.out ?? ((s: string) => writeFd(1, s));
  const err = io.err ?? ((s: string) => writeFd(2, s));
  const [harness, event] = argv;
  if (!harness || !event || argv.length > 2) {
    err(`${PREFIX}: expected <harness> <event>; not checked.\n${HOOK_USAGE}`);
    return 1;
  }
  let text = '';
  try {
    text = await readStdin(io.stdin);
  } catch {
    // unreadable stdin: the runner fails open on the empty input
  }
  const reply = await runHook(harness, event, text, io);
  if (reply.stdout) out(reply.stdout);
  if (reply.stderr) err(reply.stderr);
  return reply.exitCode;
}

/** A hook process: argv `[hook] <harness> <event>`, the reply written, the exit code set; never throws. */
export function startHookProcess(io: HookIo): void {
  const argv = process.argv.slice(2);
  hookMain(argv[0] === 'hook' ? argv.slice(1) : argv, io).then(
    code => {
      process.exitCode = code;
    },
    e => {
      process.stderr.write(`${PREFIX}: ${e}; not checked, the agent goes on.\n`);
      process.exitCode = 1;
    },
  );
}
