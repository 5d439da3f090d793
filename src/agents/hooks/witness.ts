// Only the witness writes the record. The pre hook leaves a claim for each shell call it lets run;
// a post hook records a result only by taking the claim of a call the pre hook saw (a forged
// PostToolUse piped into the hook by the agent finds none and records nothing). The pre hook also
// notes the harness process that ran it (pid and start time, Linux's /proc), so that our CLI run
// from inside an agent's tool call, by whatever name or route, can see that it is and refuse what
// only the user may do there (resolve, allow, clear, record, edit).

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortName, writableDir } from '../../app/agentRuns';

/** A claim older than this is no evidence (a call that never posted: refused by the user, the harness gone). */
const CLAIM_MS = 6 * 60 * 60 * 1000;
const AGENT_MS = 7 * 24 * 60 * 60 * 1000;

const callsDir = (memoryFolder: string) => join(memoryFolder, 'hook-calls');
/** Harnesses number calls (Claude Code's tool_use_id); others are known by the command alone. */
const claimKey = (callId: string | undefined, command: string) => `pre\n${callId ?? ''}\n${command}`;

/** The pre hook lets this call run: one claim for its post (several calls of one command may be in flight). */
export function claimPre(memoryFolder: string, callId: string | undefined, command: string, now = Date.now()): void {
  try {
    // never through a link, and with the memory folder's .gitignore when this makes the folder
    const dir = join(writableDir(memoryFolder, 'hook-calls'), `pre-${shortName(claimKey(callId, command))}`);
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(join(dir, `${now.toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`), 'wx'));
    // claims of this command that never saw their post (a call the user refused, a harness gone)
    for (const name of readdirSync(dir)) if (now - parseInt(name.split('-')[0], 36) > CLAIM_MS) rmSync(join(dir, name), { force: true });
  } catch {
    // a read-only folder: its post records nothing either
  }
}

/**
 * A post hook's result for this call may be recorded: true when a pre hook let it run (its claim is
 * taken, so one pre gives one post). A claim made by a pre hook under another harness format of the
 * same call (Copilot CLI runs two) is the same key.
 */
export function takePre(memoryFolder: string, callId: string | undefined, command: string, now = Date.now()): boolean {
  const dir = join(callsDir(memoryFolder), `pre-${shortName(claimKey(callId, command))}`);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return false;
  }
  for (const name of names) {
    const made = parseInt(name.split('-')[0], 36);
    try {
      rmSync(join(dir, name));
    } catch {
      continue; // another post took it
    }
    if (Number.isFinite(made) && now - made <= CLAIM_MS) {
      try {
        rmdirSync(dir);
      } catch {
        // other calls of this command are in flight
      }
      return true;
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // another call's claim came meanwhile
  }
  return false;
}

/** Housekeeping with the call claims' (./callOnce.ts): claims older than their use, harnesses noted long ago. */
export function pruneWitness(callsFolder: string, name: string, now: number): boolean {
  const p = join(callsFolder, name);
  const keep = name === 'agents' ? AGENT_MS : name.startsWith('pre-') ? CLAIM_MS : undefined;
  if (keep === undefined) return false;
  try {
    // a claim says when it was made in its name; a noted harness, in its file's time
    const madeAt = (f: string) => (name === 'agents' ? statSync(join(p, f)).mtimeMs : parseInt(f.split('-')[0], 36));
    for (const f of readdirSync(p)) if (!(now - madeAt(f) <= keep)) rmSync(join(p, f), { force: true });
    if (name !== 'agents') rmdirSync(p);
  } catch {
    // in use, or gone already
  }
  return true;
}

// ---- the harness process ----

interface Proc {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: with the pid, one process across pid reuse. */
  start: string;
  comm: string;
}

function proc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(fields[1]), start: fields[19], comm: stat.slice(stat.indexOf('(') + 1, close) };
  } catch {
    return undefined;
  }
}

const SHELL_COMM = /^(?:sh|bash|dash|zsh|ksh|ash|mksh|fish|busybox|env|timeout|nice|nohup|sudo|failure-memory)$/;

/** This process's ancestors, nearest first (pid 1 and above excluded), at most 64; up to the first `until` accepts when given. */
function ancestors(from = process.ppid, until?: (p: Proc) => boolean): Proc[] {
  const out: Proc[] = [];
  for (let pid = from; pid > 1 && out.length < 64; ) {
    const p = proc(pid);
    if (!p) break;
    out.push(p);
    if (until?.(p)) break;
    pid = p.ppid;
  }
  return out;
}

const agentsDir = (memoryFolder: string) => join(callsDir(memoryFolder), 'agents');

/**
 * The pre hook notes the harness that runs it: the nearest ancestor that is not a shell or our own
 * launcher (a hook is started through `sh -c` and the launcher). Once per harness process.
 */
export function noteHarness(memoryFolder: string): void {
  if (process.platform !== 'linux') return;
  try {
    // the launcher execs the hook's node: the ancestors start at whatever ran the launcher
    const harness = ancestors(process.ppid, p => !SHELL_COMM.test(p.comm)).pop();
    if (!harness || SHELL_COMM.test(harness.comm)) return;
    const file = join(agentsDir(memoryFolder), `${harness.pid}-${harness.start}`);
    try {
      statSync(file);
      return;
    } catch {
      // not noted yet
    }
    mkdirSync(join(writableDir(memoryFolder, 'hook-calls'), 'agents'), { recursive: true });
    writeFileSync(file, harness.comm.slice(0, 64));
  } catch {
    // nothing noted: the CLI's own check has less to go on, the pre hook's refusals still hold
  }
}

/** The harness (its program name) whose tool call this process runs in, when a pre hook noted it; else undefined. */
export function runByAgent(memoryFolder: string, now = Date.now()): string | undefined {
  if (process.platform !== 'linux') return undefined;
  let noted: string[];
  try {
    noted = readdirSync(agentsDir(memoryFolder));
  } catch {
    return undefined;
  }
  if (!noted.length) return undefined;
  const known = new Set(noted);
  for (const p of ancestors()) {
    if (!known.has(`${p.pid}-${p.start}`)) continue;
    try {
      if (now - statSync(join(agentsDir(memoryFolder), `${p.pid}-${p.start}`)).mtimeMs > AGENT_MS) continue;
    } catch {
      continue;
    }
    return p.comm;
  }
  return undefined;
}

/** Our subcommands that change what the gate decides: the user's, never an agent's where gates are set up. */
const DECIDING = new Set(['resolve', 'allow', 'clear', 'record', 'edit']);

/**
 * Why our CLI refuses `sub` here, or undefined: run from inside an agent's tool call (a harness a
 * pre hook of this workspace noted is among its ancestors) in a workspace where gates are set up.
 * `gated` is asked only then (it reads the harness configurations).
 */
export function agentCliRefusal(sub: string, remove: boolean, memoryFolder: string, gated: () => boolean): string | undefined {
  if (!DECIDING.has(sub) && !(sub === 'setup-agents' && remove)) return undefined;
  const harness = runByAgent(memoryFolder);
  if (!harness || !gated()) return undefined;
  return [
    `failure-memory: NOT RUN — \`failure-memory ${sub}\` was started from inside an agent's tool call (${harness.replace(/[^\w.-]/g, '?')}), where the agent gate is set up.`,
    sub === 'record' || sub === 'edit'
      ? "The harness's own hooks record what the agent runs and edits here; a result the agent reports itself is evidence nobody saw."
      : "Unblocking an exhausted approach or clearing the memory is the user's decision (the Failure Memory panel or commands, or their own terminal).",
  ].join('\n');
}
