// The trajectory corpus format read by `failure-memory replay`: one JSON object per line,
// `{"source", "agent", "task", "commands": [{"command", "exitCode", "cwd", "output", "exitCodeSource"}]}`,
// plain or gzip-compressed. Edit events (`{"kind": "edit", "tool", "path", "ok"}`, devcorpus2) stay in
// order: each shell command carries the edits made since the command before it. Bad lines are reported
// with their line number and skipped; nothing else is lost.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface CorpusCommand {
  command: string;
  /** null: unknown (killed on timeout, final submission): never a failure. */
  exitCode: number | null;
  /** The folder the command ran in; each command runs in a fresh subshell there (a `cd` does not carry over). */
  cwd: string;
  output: string;
  /** Edit events between the previous shell command and this one, in order. */
  editsBefore?: CorpusEdit[];
}

/** A file edit an agent made through its edit tool; `ok: false`: the harness reported it failed (nothing changed). */
export interface CorpusEdit {
  tool: string;
  path: string;
  ok: boolean;
}

export interface Trajectory {
  source: string;
  agent?: string;
  task?: string;
  commands: CorpusCommand[];
}

export interface CorpusProblem {
  line: number;
  message: string;
}

export interface Corpus {
  trajectories: Trajectory[];
  problems: CorpusProblem[];
}

/** Reads a .jsonl or .jsonl.gz file (gzip is recognised by its magic bytes, whatever the name). */
export function readCorpusFile(file: string): Corpus {
  let bytes = readFileSync(file);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return parseCorpus(bytes.toString('utf8'));
}

export function parseCorpus(text: string): Corpus {
  const trajectories: Trajectory[] = [];
  const problems: CorpusProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      problems.push({ line: i + 1, message: `not JSON (${(e as Error).message})` });
      continue;
    }
    const t = toTrajectory(raw, i + 1);
    if (typeof t === 'string') problems.push({ line: i + 1, message: t });
    else trajectories.push(t);
  }
  return { trajectories, problems };
}

function toTrajectory(raw: unknown, line: number): Trajectory | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'not a trajectory object';
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.commands)) return 'no "commands" array';
  const commands: CorpusCommand[] = [];
  let edits: CorpusEdit[] = [];
  for (let k = 0; k < o.commands.length; k++) {
    const c = o.commands[k] as Record<string, unknown> | null;
    if (c && typeof c === 'object' && c.kind === 'edit') {
      // a path the renderer truncated is null: still an edit of something (ok null: not known to have failed)
      edits.push({ tool: typeof c.tool === 'string' ? c.tool : 'edit', path: typeof c.path === 'string' && c.path ? c.path : '(unknown file)', ok: c.ok !== false });
      continue;
    }
    if (!c || typeof c !== 'object' || typeof c.command !== 'string') return `commands[${k}] has no "command" string`;
    const code = c.exitCode;
    if (code !== null && code !== undefined && (typeof code !== 'number' || !Number.isInteger(code))) {
      return `commands[${k}].exitCode must be an integer or null`;
    }
    commands.push({
      command: c.command,
      exitCode: typeof code === 'number' ? code : null,
      cwd: typeof c.cwd === 'string' && c.cwd ? c.cwd : '.',
      output: typeof c.output === 'string' ? c.output : '',
      ...(edits.length ? { editsBefore: edits } : {}),
    });
    edits = [];
  }
  return {
    source: typeof o.source === 'string' && o.source ? o.source : `line ${line}`,
    agent: typeof o.agent === 'string' ? o.agent : undefined,
    task: typeof o.task === 'string' ? o.task : undefined,
    commands,
  };
}
