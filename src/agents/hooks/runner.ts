// `failure-memory hook <harness> <event>`: one process reads the harness's hook JSON on stdin and
// answers in that harness's protocol (./<harness>.ts). pre: the gate; post: record the result;
// session-start / prompt: the failure summary for the agent's context.
// Fast path: a pre call for a tool that runs no shell command is answered before memory is read;
// a pre check reads memory.json without the write lock. When it cannot decide (unreadable memory,
// outside any workspace, bad input) it lets the call through and says so in the harness's visible
// channel (adapter.notice: Claude Code's systemMessage, …), never only in a debug log.

import { existsSync, readFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { agentAskReason, agentAskRefusal, agentDenyReason, agentSummary, agentWarning, askUnansweredLine } from '../../core/prompts/agentContext';
import { harnessText } from '../../core/prompts/agentText';
import type { CheckResult } from '../../core/rules/check';
import { isBlocking } from '../../core/rules/policy';
import type { JudgedLine } from '../../core/rules/steps';
import { decideGate, decideGateNow, gateLines, loggedSteps } from '../../app/gate';
import { scriptReader, type ScriptReader } from '../../app/scripts';
import { selfProtectionRefusal } from '../../core/rules/selfProtection';
import { heldHeads, lostFrom, type GateHead } from '../../core/gateState';
import { createRedactor } from '../../core/text/redact';
import { emptyMemory, type Decision, type EngineSettings, type GitState, type MemoryData } from '../../core/types';
import { loadWorkspaceSettings } from '../../app/settings';
import { hookTeam, refreshTeamView, teamContext, teamMerger, teamWords } from './team';
import { memoryDirFor } from '../../store/paths';
import { listedExhausted, readMemorySnapshot, type HeadGuard, type KnownExhausted } from '../../app/hookMemory';
import { readRegularSync } from '../../store/regularFile';
import { claimCall, leaveNote, takeNote } from './callOnce';
import { locate, type Located } from './locate';
import { claimPre, noteHarness, takePre } from './witness';
import { editsOf, patchApplies, patchFiles } from './edits';
import { agentGatesSetUp, editCall, editRefusal, protectedFor } from './protect';
import type { HookEdits } from './record';
import type { HookRecord } from '../../app/hookRecord';
import { noteForUser, replyWithNotes } from './notices';
import { launcherTampered, repairLauncher, type LauncherTarget } from '../launcher';
import { keepRestored, lostGate, tellEvents, type RestoreGate } from './restore';
import { agentRulesPresent, refreshRules } from '../../app/agentRules';
import { expectTerminalRun, handTerminalOutput, waitForTerminalRecords } from '../../app/agentRuns';
import { exitCodeFromTranscript, transcriptMode } from './transcript';
import { sessionMode, type SessionMode } from './sessionMode';
import { userCommand } from '../userCommand';
import { ASKS, askNeedsMode, gateShape, HARNESSES, type HarnessId, type GateShape, HOOK_EVENTS, type HarnessAdapter, type HookAnswer, type HookEvent, type HookInput, type HookReply, type Json, type ShellRun, str } from './index';

export const HOOK_USAGE = `Usage: failure-memory hook <harness> <event>   (the hook JSON on stdin)
  harness: ${Object.keys(HARNESSES).join(', ')}
  event:   ${HOOK_EVENTS.join(', ')}
`;

const PREFIX = 'Failure Memory hook';

/** Lets the call through and says why where the harness's user sees it (never silent, never blocking). */
function failOpen(adapter: HarnessAdapter | undefined, event: HookEvent | undefined, payload: Json, why: string): HookReply {
  const message = `${PREFIX}: ${harnessText(why)}; not checked, the agent goes on.`;
  if (!adapter || !event) return { exitCode: 1, stdout: '', stderr: `${message}\n` };
  return adapter.notice(event, message, payload);
}

/** The shell commands of a call: several (Cline's run_commands) or the one. */
const runsOf = (input: HookInput): ShellRun[] => input.runs ?? (input.command ? [{ command: input.command, result: input.result }] : []);

export interface HookRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Writes a post result (./record.ts; dist/hook.js loads it from its own bundle only when needed). */
  record: (r: HookRecord) => Promise<void>;
  /** The store's own read (migrations, a damaged file moved aside), when the quick read cannot use the file. */
  readFull: (workspace: string) => Promise<MemoryData>;
  /** Writes the edit events of an edit tool's post call (the same bundle as `record`). */
  recordEdits?: (r: HookEdits) => Promise<void>;
  /** Writes an ask or deny of the gate to the decision log (the same bundle, loaded only then). */
  recordDecision?: (workspace: string, c: CheckResult, via: string) => Promise<void>;
  /** The workspace's git state now: asked only before a deny, to be sure nothing changed that no hook reported. */
  gitState?: (workspace: string) => Promise<GitState | undefined>;
  /** Writes back what memory lost behind Failure Memory's back (the same bundle, loaded only then). */
  restoreGate?: RestoreGate;
  /**
   * This hook's own install (the built bundles give it): at session start, a launcher that is not
   * Failure Memory's is written again (for the install it names, else this one) and the user told.
   */
  launcher?: LauncherTarget;
  /** The background team sync's script; default dist/team-sync.js beside this bundle. */
  syncScript?: string;
  /** How a session's mode is read (./sessionMode.ts: its environment and its process); tests give their own. */
  sessionMode?: (harness: HarnessId, env: NodeJS.ProcessEnv) => SessionMode | undefined;
}

/** The engine settings every door uses (app/settings.ts); a bad value is its default here, never a failure. */
function settingsFor(workspace: string): EngineSettings {
  return loadWorkspaceSettings(workspace).engine;
}

/**
 * Memory's exhausted approaches as a quick read knows them, for the copy's `heads` (undefined: only a
 * whole read knows): memory.index.json's list when it holds them all (most calls: one small read),
 * else a partial read with the journal's runs applied.
 */
function quickExhausted(workspace: string, heads: readonly GateHead[]): KnownExhausted {
  const listed = listedExhausted(workspace);
  if (listed && !lostFrom(heads, key => listed.get(key)).length) return listed;
  const seen: { exhausted?: KnownExhausted } = {};
  readMemorySnapshot(workspace, [], { touched: false }, seen);
  return seen.exhausted;
}

async function readMemory(workspace: string, full: HookRunOptions['readFull']): Promise<MemoryData> {
  const snap = readMemorySnapshot(workspace);
  if (snap) return snap;
  if (snap === null) return emptyMemory();
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
  // every text handed to the harness: no terminal escapes, no control or invisible characters; and
  // what the user must hear whatever the answer (a file skipped, the gate's state restored)
  const reply = (a: HookAnswer) =>
    adapter.reply(ev, a.kind === 'deny' || a.kind === 'ask' ? { ...a, reason: harnessText(a.reason) } : a.kind === 'context' ? { ...a, text: harnessText(a.text) } : a, payload, opts.env ?? process.env);
  const answer = (a: HookAnswer) => replyWithNotes(a, ev, adapter, payload, reply);
  try {
    switch (ev) {
      case 'pre':
        return await pre(input, answer, adapter, payload, opts);
      case 'post':
        return await post(input, answer, adapter, payload, opts);
      default:
        return await context(input, answer, adapter, ev, payload, opts);
    }
  } catch (e) {
    return failOpen(adapter, ev, payload, `memory could not be used (${oneLine((e as Error)?.message ?? String(e))})`);
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);

async function pre(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, payload: Json, gate: HookRunOptions): Promise<HookReply> {
  if (input.patch) return shellPatchPre(input, input.patch, answer, adapter, gate);
  const home = safeHome();
  const commands = runsOf(input).map(r => r.command).filter(c => c.trim());
  if (!commands.length) {
    // not a shell command: only an edit of Failure Memory's own files is the gate's business
    const edit = editCall(payload);
    if (!edit) return answer({ kind: 'allow' });
    // a harness that names no folder for an edit (Windsurf's pre_write_code): the file's own folder
    const file = edit.paths.find(p => isAbsolute(p));
    const where = locate(input.root, input.cwd ?? (file ? dirname(file) : undefined));
    if (typeof where === 'string') return answer({ kind: 'allow' });
    const refusal = editRefusal(edit, join(where.workspace, where.rel), protectedFor(where.workspace, { home: safeHome(), dist: ownDist() }));
    return answer(refusal ? { kind: 'deny', reason: refusal.reason } : { kind: 'allow' });
  }
  // our CLI's user-only subcommands are refused wherever the call runs
  for (const command of commands) {
    const cli = selfProtectionRefusal(command, { workspace: toSlash(input.cwd ?? '/'), cwd: '.', home });
    if (cli) return answer({ kind: 'deny', reason: cli.reason });
  }
  const where = locate(input.root, input.cwd);
  if (typeof where === 'string') return failOpen(adapter, 'pre', payload, where);
  for (const command of commands) {
    const files = selfProtectionRefusal(command, { workspace: toSlash(where.workspace), cwd: where.rel, home }, protectedFor(where.workspace, { home, dist: ownDist() }));
    if (files) return answer({ kind: 'deny', reason: files.reason });
  }
  // VS Code's terminal tool: the extension records its runs; the run before this call first
  const inAgentTerminal = !!input.recordedElsewhere && commands.length === 1;
  if (inAgentTerminal) await waitForTerminalRecords(where.workspace);
  const ws = loadWorkspaceSettings(where.workspace);
  const settings = ws.engine;
  const redactor = createRedactor(settings['redaction.extraPatterns']);
  // team memory on: the cached team view too (off: nothing more is read)
  const team = hookTeam(where.workspace, ws);
  if (team) refreshTeamView(team, gate.env ?? process.env, gate.syncScript);
  const { shape, mode } = gateShaper(adapter, input, gate.env ?? process.env, gate.sessionMode ?? sessionMode);
  const g: GateContext = { where, settings, gate, adapter, shape, mode, team, redact: t => redactor.redact(t).text };
  // first from the approaches of these lines alone (memory.index.json's heads for the others): an
  // allow or a warning read that way is the answer when the decision used nothing a head lacks;
  // anything else (an ask, a deny, a head asked for its history) is decided again from the whole memory
  const guard: HeadGuard = { touched: false };
  // every step of each line, its package scripts resolved (the manifests read only for a step that runs one)
  const lines = commands.map(c => gateLines(c, where.rel, { redact: g.redact, scripts: scriptsOf(where.workspace) }));
  const keys = lines.flatMap(l => l.map(x => x.key));
  const seen: { exhausted?: KnownExhausted } = {};
  const quickData = readMemorySnapshot(where.workspace, keys, guard, seen);
  // exhausted approaches lost behind Failure Memory's back: decided from the gate's copy, and said
  const via = `hook:${adapter.id} pre`;
  const lost = await lostGate(where.workspace, () => seen.exhausted, () => readMemory(where.workspace, gate.readFull), via);
  if (lost) await keepRestored(where.workspace, lost, via, undefined, gate.restoreGate);
  else tellEvents(where.workspace);
  const quick = !lost && quickData !== undefined ? await gateCommands(commands, lines, quickData ?? emptyMemory(), true, g) : undefined;
  let reply = quick && !guard.touched ? quick : undefined;
  reply ??= (await gateCommands(commands, lines, lost?.data ?? (await readMemory(where.workspace, gate.readFull)), false, g))!;
  if (inAgentTerminal && reply.kind !== 'deny' && reply.kind !== 'ask') expectTerminalRun(where.workspace, input.callId, commands[0]);
  if (reply.kind !== 'deny' && !inAgentTerminal) witnessed(where.workspace, commands);
  // a harness whose pre hook has no context for the model: the warning rides on the call's result
  if (reply.kind === 'context' && adapter.warnsAfterTool && input.noteKey) leaveNote(memoryDirFor(where.workspace), input.noteKey, harnessText(reply.text));
  return answer(reply);
}

/** The hook process's reader of the workspace's script tables (one process, one workspace in practice). */
let scripts: { workspace: string; read: ScriptReader } | undefined;
function scriptsOf(workspace: string): ScriptReader {
  if (scripts?.workspace !== workspace) scripts = { workspace, read: scriptReader(workspace) };
  return scripts.read;
}

/** The calls this pre hook lets run: their posts may record them; and the harness running it, for the CLI to know it (./witness.ts). */
function witnessed(workspace: string, commands: readonly string[]): void {
  const dir = memoryDirFor(workspace);
  for (const c of commands) claimPre(dir, undefined, c);
  noteHarness(dir);
}

interface GateContext {
  where: Located;
  settings: EngineSettings;
  gate: HookRunOptions;
  adapter: HarnessAdapter;
  shape: (c: CheckResult) => GateShape;
  /** The session's mode (headless or interactive), when known; read once, only when an ask needs it. */
  mode: () => SessionMode | undefined;
  team: ReturnType<typeof hookTeam>;
  redact: (text: string) => string;
}

/**
 * The gate's answer (src/app/gate.ts) for the call's command lines from `data`, in this harness's
 * shape. `quick`: a trial on a partial memory, which writes nothing and reads no git state: undefined
 * as soon as a line would be asked or denied.
 */
async function gateCommands(commands: string[], lines: JudgedLine[][], data: MemoryData, quick: boolean, g: GateContext): Promise<HookAnswer | undefined> {
  const warnings: string[] = [];
  const view = { data, settings: g.settings, redact: g.redact };
  const team = g.team ? { team: teamMerger(g.team) } : {};
  const workspace = g.where.workspace;
  const git = g.gate.gitState;
  for (const [i, command] of commands.entries()) {
    const answer = quick ? decideGateNow(command, g.where.rel, view, team, lines[i]) : await decideGate(command, g.where.rel, view, { ...team, ...(git ? { git: () => git(workspace) } : {}) }, lines[i]);
    if (quick && answer.steps.some(s => isBlocking(s.local.policyDecision) || isBlocking(s.check.policyDecision))) return undefined;
    // logged with what this harness does with it (an ask it cannot put to anyone is a warning, or a deny when headless)
    if (!quick) for (const s of loggedSteps(answer)) await g.gate.recordDecision?.(workspace, { ...s.check, decision: given(g.shape(s.check), s.check) }, `hook:${g.adapter.id}`).catch(() => undefined);
    const told = g.team ? answer.steps.map(s => teamWords(g.team!, s)) : [];
    const deny = told.find(t => t.deny)?.deny;
    if (deny) return { kind: 'deny', reason: deny };
    const a = gateAnswer(g.shape(answer.check), answer.check, data, g, answer.step.local);
    if (a.kind === 'deny' || a.kind === 'ask') return a;
    for (const w of [a.kind === 'context' ? a.text : undefined, ...told.map(t => t.warn)]) if (w && !warnings.includes(w)) warnings.push(w);
  }
  return warnings.length ? { kind: 'context', text: warnings.join('\n\n') } : { kind: 'allow' };
}

/** The decision as this harness gives it: its shape, or the decision itself where the harness lets it run. */
const given = (s: GateShape, c: CheckResult): Decision => (s === 'allow' ? c.decision : s);

/**
 * What this harness does with a decision (gateShape). The session's mode is read once, and only for an
 * ask whose shape depends on it (./sessionMode.ts; Codex's from its transcript).
 */
function gateShaper(adapter: HarnessAdapter, input: HookInput, env: NodeJS.ProcessEnv, readMode: NonNullable<HookRunOptions['sessionMode']>): { shape: (c: CheckResult) => GateShape; mode: () => SessionMode | undefined } {
  let read = false;
  let known: SessionMode | undefined;
  const mode = () => {
    if (!read) {
      read = true;
      known = input.interactive ? 'interactive' : ((input.sessionLog ? transcriptMode(input.sessionLog) : undefined) ?? readMode(adapter.id, env));
    }
    return known;
  };
  return { mode, shape: c => gateShape(adapter.id, c.decision, c.decision === 'ask' && askNeedsMode(adapter.id) ? mode() : undefined) };
}

/**
 * The gate's answer in the shape this harness gets it: the text follows what the harness does with it.
 * An ask no one can answer here is a refusal that says how the user lets it run; an ask whose harness
 * may refuse it itself (a headless run it could not tell) says the same after its question. `local`: the
 * step's check before the team's view was merged in.
 */
function gateAnswer(shape: GateShape, c: CheckResult, data: MemoryData, g: GateContext, local: CheckResult = c): HookAnswer {
  const cli = () => userCommand(g.gate.env ?? process.env);
  switch (shape) {
    case 'deny':
      return { kind: 'deny', reason: c.decision === 'deny' ? agentDenyReason(c, data) : agentAskRefusal(c, data, { cli: cli(), headless: g.mode() === 'headless' }) };
    case 'ask':
      return { kind: 'ask', reason: ASKS[g.adapter.id] === 'always' || g.mode() === 'interactive' ? agentAskReason(c, data) : `${agentAskReason(c, data)}\n${askUnansweredLine(c, cli())}` };
    case 'warn':
      // this workspace's warning; one the team's view alone gives is in the team's own words (teamWords)
      return local.decision === 'warn' ? { kind: 'context', text: agentWarning(local, data) } : { kind: 'allow' };
    default:
      return { kind: 'allow' };
  }
}

/** The text of a file an edit names (bounded; undefined when it cannot be read). */
function readText(file: string): string | undefined {
  try {
    return readRegularSync(file, 'utf8', { maxBytes: MAX_PATCHED_FILE_BYTES });
  } catch {
    return undefined;
  }
}
const MAX_PATCHED_FILE_BYTES = 8 * 1024 * 1024;

/**
 * An apply_patch given to the shell tool (Codex applies it itself; no post hook follows): an edit, so
 * the gate's business is only Failure Memory's own files; and since this is the one report of it, the
 * edit is recorded here, as applied when Codex will apply it (else ok: false: it changes nothing).
 */
async function shellPatchPre(input: HookInput, patch: NonNullable<HookInput['patch']>, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, opts: HookRunOptions): Promise<HookReply> {
  const where = locate(input.root, input.cwd);
  if (typeof where === 'string') return answer({ kind: 'allow' });
  const cwd = resolve(where.workspace, where.rel, patch.dir ?? '.');
  const paths = patchFiles(patch.patch);
  const refusal = editRefusal({ tool: 'apply_patch', paths, texts: [patch.patch], pairs: [] }, cwd, protectedFor(where.workspace, { home: safeHome(), dist: ownDist() }));
  if (refusal) return answer({ kind: 'deny', reason: refusal.reason });
  const first = !input.callId || claimCall(memoryDirFor(where.workspace), `${input.callId}\nedit`);
  if (paths.length && opts.recordEdits && first) {
    const ok = patchApplies(patch.patch, p => readText(absolutePath(p, cwd)));
    await opts.recordEdits({ workspace: where.workspace, edits: paths.map(p => ({ path: absolutePath(p, cwd), ok, tool: 'apply_patch' })), via: adapter.id, pending: true });
  }
  return answer({ kind: 'allow' });
}

const toSlash = (p: string) => p.replace(/\\/g, '/');
/** The folder of the bundle running now when it is Failure Memory's dist/ (protected like the launcher). */
const ownDist = (): string | undefined => (existsSync(join(__dirname, 'hook.js')) ? __dirname : undefined);
function safeHome(): string | undefined {
  try {
    return toSlash(homedir());
  } catch {
    return undefined;
  }
}

/** A Codex post names no exit code: the transcript has it, written just before the hook ran. */
async function codeFromTranscript(t: NonNullable<HookInput['transcript']>): Promise<number | undefined> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const code = exitCodeFromTranscript(t.path, t.toolUseId);
    if (code !== undefined) return code;
    await new Promise(r => setTimeout(r, 25 * (attempt + 1)));
  }
  return undefined;
}

async function post(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, payload: Json, opts: HookRunOptions): Promise<HookReply> {
  // an edit tool's call: the files it changed are evidence (trying fixes, not looping blind)
  const edits = editsOf(adapter.id, 'post', payload);
  if (edits) {
    if (!edits.length || !opts.recordEdits) return answer({ kind: 'none' });
    const where = locate(input.root, input.cwd ?? dirname(absolutePath(edits[0].path, input.root)));
    if (typeof where === 'string') return failOpen(adapter, 'post', payload, `${where}: the edit is not recorded`);
    // one edit, one event: Copilot CLI runs .claude/settings.json's hooks for its edit tools too (as
    // Write and Edit), and a shell-given patch was recorded by its pre hook (should a harness post it)
    if (input.callId && !claimCall(memoryDirFor(where.workspace), `${input.callId}\nedit`)) return answer({ kind: 'none' });
    const base = input.cwd && isAbsolute(input.cwd) ? resolve(input.cwd, input.patch?.dir ?? '.') : where.workspace;
    await opts.recordEdits({ workspace: where.workspace, edits: edits.map(e => ({ ...e, path: absolutePath(e.path, base) })), via: adapter.id });
    return answer({ kind: 'none' });
  }
  const runs = runsOf(input).filter(r => r.command.trim() && r.result);
  if (input.recordedElsewhere) return handOver(input, runs, answer);
  if (!runs.length) return answer({ kind: 'none' });
  const where = locate(input.root, input.cwd);
  if (typeof where === 'string') return failOpen(adapter, 'post', payload, `${where}: the result is not recorded`);
  // where gates are set up, only what a pre hook let run is evidence: a post no pre saw (one piped into the hook by hand) records nothing
  const seen = runs.filter(r => takePre(memoryDirFor(where.workspace), undefined, r.command));
  if (input.callId && !claimCall(memoryDirFor(where.workspace), `${input.callId}\n${runs.map(r => r.command).join('\n')}`)) return answer({ kind: 'none' });
  // the gate's copy checked after the call ran: a loss found now was this call's doing (or ran beside it)
  const via = `hook:${adapter.id} post`;
  const lost = await lostGate(where.workspace, heads => quickExhausted(where.workspace, heads), () => readMemory(where.workspace, opts.readFull), via);
  if (lost) await keepRestored(where.workspace, lost, via, runs.map(r => r.command).join('\n'), opts.restoreGate);
  if (seen.length < runs.length && agentGatesSetUp(where.workspace)) runs.splice(0, runs.length, ...seen);
  if (!runs.length) return answer({ kind: 'none' });
  if (input.transcript && runs.length === 1 && runs[0].result!.exitCode === null) {
    const code = await codeFromTranscript(input.transcript);
    if (code !== undefined) runs[0] = { ...runs[0], result: { ...runs[0].result!, exitCode: code } };
  }
  for (const r of runs) await opts.record({ workspace: where.workspace, command: r.command, cwd: where.rel, exitCode: r.result!.exitCode, output: r.result!.output, via });
  // the gate's warning, left by the pre hook of a harness whose pre hook cannot tell the model (Gemini CLI)
  const note = adapter.warnsAfterTool && input.noteKey ? takeNote(memoryDirFor(where.workspace), input.noteKey) : undefined;
  return answer(note ? { kind: 'context', text: note } : { kind: 'none' });
}

/**
 * A run in VS Code's agent terminal: recorded by the extension (shell integration has the exit code),
 * never here; its output, which shell integration may have missed, is handed to that record.
 */
function handOver(input: HookInput, runs: ShellRun[], answer: (a: HookAnswer) => HookReply): HookReply {
  const where = runs.length === 1 ? locate(input.root, input.cwd) : undefined;
  if (where && typeof where !== 'string') {
    const redactor = createRedactor(settingsFor(where.workspace)['redaction.extraPatterns']);
    handTerminalOutput(where.workspace, input.callId, redactor.redact(runs[0].result!.output).text);
  }
  return answer({ kind: 'none' });
}

/** An edit's path as an absolute path (relative ones are relative to the call's folder). */
function absolutePath(path: string, base: string | undefined): string {
  return isAbsolute(path) || !base ? path : resolve(base, path);
}

async function context(input: HookInput, answer: (a: HookAnswer) => HookReply, adapter: HarnessAdapter, ev: HookEvent, payload: Json, opts: HookRunOptions): Promise<HookReply> {
  if (!adapter.nativeEvents[ev]) return answer({ kind: 'none' });
  const where = locate(input.root, input.root ? undefined : input.cwd);
  if (typeof where === 'string') return failOpen(adapter, ev, payload, where);
  if (ev === 'session-start' && opts.launcher) launcherAtStart(opts.launcher);
  // once per session (one session id, whichever adapter's entry runs the event): by the first of its
  // start and its first prompt to run (VS Code may run the prompt's hook first), and again when the
  // session resumes, is cleared or compacts its context
  const session = str(payload.session_id) || str(payload.sessionId) || str(payload.taskId);
  const restart = ev === 'session-start' && /^(?:resume|clear|compact)/.test(str(payload.source));
  if (session && !claimCall(memoryDirFor(where.workspace), `${session}\nsummary`) && !restart) return answer({ kind: 'none' });
  const ws = loadWorkspaceSettings(where.workspace);
  const via = `hook:${adapter.id} ${ev}`;
  let data = await readMemory(where.workspace, opts.readFull);
  const read = data;
  const lost = await lostGate(where.workspace, () => heldHeads(read), async () => read, via);
  if (lost) await keepRestored(where.workspace, lost, via, undefined, opts.restoreGate);
  else tellEvents(where.workspace);
  data = lost?.data ?? data;
  const team = hookTeam(where.workspace, ws);
  if (team) refreshTeamView(team, opts.env ?? process.env, opts.syncScript);
  const own = agentSummary(data, ws.engine.threshold);
  const teamText = team ? teamContext(team, data, ws.engine.threshold) : '';
  // a harness that reads its rules file (Cline): the workspace's summary is there, current; the team's comes here
  const rules = adapter.rulesFile;
  const inRules = !!rules && agentRulesPresent(where.workspace).includes(rules);
  if (inRules) refreshRules(where.workspace, rules, own);
  // this workspace's own failures first, then the team's, each under its own heading
  const text = [inRules ? '' : own, teamText].filter(Boolean).join('\n\n');
  return answer(text ? { kind: 'context', text } : { kind: 'none' });
}

/** A launcher that is not Failure Memory's, written again at session start, and said. */
function launcherAtStart(own: LauncherTarget): void {
  try {
    const r = repairLauncher(own);
    if (r && launcherTampered(r.before, own.version)) noteForUser(`The failure-memory launcher (${r.before.file}) was not Failure Memory's: something changed or replaced it, and every hook could have passed without a word. ${r.after.ours ? 'It was written again.' : 'It could not be written again: run `failure-memory setup-agents`.'}`);
  } catch {
    // doctor says it
  }
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
