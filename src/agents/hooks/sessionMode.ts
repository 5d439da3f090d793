// Is anyone there to answer a prompt? A harness session is headless (`claude -p`, `copilot -p`,
// `gemini -p`, `codex exec`) or interactive (a person at its terminal UI). The gate's ask means "a
// person decides": it is put to the person only where one can answer; headless it is a refusal whose
// reason tells the agent to stop and ask the user.
// How each harness tells, as measured with the real programs (docs/agents.md):
// - Claude Code sets CLAUDE_CODE_ENTRYPOINT for its hooks: "cli" interactive, "sdk-cli" under -p;
// - Copilot CLI and Gemini CLI say nothing in the payload or the environment: the hook's parent is the
//   harness process, whose command line has -p/--prompt when headless (and whose stdin is a terminal
//   when a person is there). Read from /proc (Linux) or `ps` (elsewhere), only when the gate would ask;
// - Codex writes how the session started in its transcript (./transcript.ts headlessSession).
// Unknown stays unknown: the caller picks the safe answer for the harness (./types.ts gateShape).

import { readFileSync, readlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { harnessFacts } from './harnessTable';
import type { HarnessId } from './types';

export type SessionMode = 'headless' | 'interactive';

/** One process as the mode check needs it: its command line and whether its stdin is a terminal. */
export interface ProcessInfo {
  argv: string[];
  tty: boolean;
  ppid: number;
}

export type ProcessReader = (pid: number) => ProcessInfo | undefined;

/** A prompt given on the command line: the harness runs it and exits, no one at its UI. */
const PROMPT_FLAG = /^(?:-p|--prompt|--print)(?:=|$)/;
/** Gemini CLI's prompt that then stays interactive. */
const INTERACTIVE_PROMPT = /^(?:-i|--prompt-interactive)(?:=|$)/;

/** The mode a harness process's own command line and stdin say (undefined: not that harness's process). */
export function modeOfProcess(harness: HarnessId, p: ProcessInfo): SessionMode | undefined {
  const name = harnessFacts(harness).process;
  const at = name ? p.argv.slice(0, 3).findIndex(a => name.test(basename(a))) : -1;
  if (at < 0) return undefined;
  const args = p.argv.slice(at + 1);
  if (harness === 'gemini' && args.some(a => INTERACTIVE_PROMPT.test(a))) return 'interactive';
  if (args.some(a => PROMPT_FLAG.test(a))) return 'headless';
  return p.tty ? 'interactive' : 'headless';
}

/** The mode from the hook's environment and its ancestors (the nearest harness process within a few levels). */
export function sessionMode(harness: HarnessId, env: NodeJS.ProcessEnv, read: ProcessReader = readProcess, start: number = process.ppid): SessionMode | undefined {
  if (harness === 'vscode') return 'interactive';
  if (harness === 'claude') {
    if (env.CLAUDE_CODE_ENTRYPOINT === 'cli') return 'interactive';
    if (env.CLAUDE_CODE_ENTRYPOINT === 'sdk-cli') return 'headless';
  }
  if (!harnessFacts(harness).process) return undefined;
  let pid = start;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const p = read(pid);
    if (!p) return undefined;
    const mode = modeOfProcess(harness, p);
    if (mode) return mode;
    pid = p.ppid;
  }
  return undefined;
}

/** A process from /proc (Linux) or `ps` (macOS, BSD); undefined where neither answers (Windows). */
export function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    let tty = false;
    try {
      tty = /^\/dev\/(?:pts\/|tty)/.test(readlinkSync(`/proc/${pid}/fd/0`));
    } catch {
      // another user's process: its stdin cannot be read
    }
    return { argv, tty, ppid };
  } catch {
    return process.platform === 'win32' || process.platform === 'linux' ? undefined : psProcess(pid);
  }
}

/** `ps -o ppid=,tty=,args=`: the command line as one string (split on blanks: enough to find a flag). */
function psProcess(pid: number): ProcessInfo | undefined {
  const r = spawnSync('ps', ['-o', 'ppid=,tty=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const [ppid, tty, ...argv] = (r.stdout ?? '').trim().split(/\s+/);
  if (r.status !== 0 || !/^\d+$/.test(ppid ?? '') || !argv.length) return undefined;
  return { ppid: Number(ppid), tty: tty !== '??' && tty !== '?', argv };
}
