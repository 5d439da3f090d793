// Codex CLI's PostToolUse payload has the command's output but not its exit code; Codex writes the
// code into its session transcript (JSON lines, transcript_path) before it runs the hook: an item or
// event for the call (its tool_use_id) with an integer exit_code. Only the file's tail is read.
// Its first line says how the session was started: `codex exec` is headless (no one to ask).

import { closeSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { openRegularSync } from '../../store/regularFile';

const TAIL_BYTES = 1024 * 1024;

function tail(path: string): string {
  // the path comes from the payload: a FIFO there must never hold the hook
  const { fd, stat: st } = openRegularSync(path);
  try {
    const len = Math.min(st.size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, st.size - len);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The exit_code of the object naming `id` (as id or call_id), searched depth-first. */
function exitCodeFor(v: unknown, id: string, depth = 0): number | undefined {
  if (!v || typeof v !== 'object' || depth > 8) return undefined;
  const o = v as Record<string, unknown>;
  if ((o.id === id || o.call_id === id) && typeof o.exit_code === 'number' && Number.isInteger(o.exit_code)) return o.exit_code;
  for (const child of Object.values(o)) {
    const found = exitCodeFor(child, id, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The exit code Codex recorded for a tool call, or undefined (no transcript, no such line yet). */
export function exitCodeFromTranscript(path: string, toolUseId: string): number | undefined {
  if (!isAbsolute(path) || !toolUseId) return undefined;
  let text: string;
  try {
    text = tail(path);
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line.includes(toolUseId) || !line.includes('exit_code')) continue;
    try {
      const code = exitCodeFor(JSON.parse(line), toolUseId);
      if (code !== undefined) return code;
    } catch {
      // a line cut by the tail, or being written
    }
  }
  return undefined;
}

const HEAD_BYTES = 64 * 1024;

/**
 * How the Codex session of this transcript was started: its first line, session_meta, says so
 * (`"originator":"codex_exec"`, `"source":"exec"`: headless; the interactive CLI says `"source":"cli"`).
 * Only the head of the file is read; undefined when it cannot be read or says nothing.
 */
export function transcriptMode(path: string): 'headless' | 'interactive' | undefined {
  if (!isAbsolute(path)) return undefined;
  let head: string;
  try {
    const { fd } = openRegularSync(path);
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      head = buf.toString('utf8', 0, readSync(fd, buf, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const first = head.split('\n', 1)[0];
  if (!/"type"\s*:\s*"session_meta"/.test(first)) return undefined;
  return /"originator"\s*:\s*"codex_exec"/.test(first) || /"source"\s*:\s*"exec"/.test(first) ? 'headless' : 'interactive';
}
