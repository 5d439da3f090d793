// The Enter gate's wire format, between the extension host and the shells of VS Code's terminal
// (media/shell/enter.*). Line based and NUL separated, so that bash, zsh and PowerShell speak it
// without a helper:
//   extension → shell, on connect:  FM1 <server token>\n      (the shell checks it before it sends a line)
//   shell → extension:              <client token>\0<pid>\0<shell>\0<cwd>\0<flags>\0<line>\0
//   extension → shell:              run\n  |  block <one line to print>\n
// The server speaks first so that a shell never hands a command line to a stranger who took the
// port; the client token keeps other local users from querying the memory. A NUL cannot occur in a
// shell's command line, so the fields need no escaping.

import { CONTROL_RUNS_G } from './text/controls';

export const ENTER_PROTOCOL = 'FM1';
/** Fields of a request, in order. */
const FIELDS = 6;
/** A request longer than this is not checked (the line runs): nobody types that, and it bounds memory. */
export const MAX_REQUEST_BYTES = 256 * 1024;

export interface EnterRequest {
  token: string;
  /** The shell's process id: which terminal asks. */
  pid: number | undefined;
  shell: string;
  cwd: string;
  /** The line continues a multi-line command (its earlier lines were accepted already). */
  continuation: boolean;
  line: string;
}

/** How many NUL-terminated fields a request needs: the server reads until it has them. */
export function requestComplete(nulCount: number): boolean {
  return nulCount >= FIELDS;
}

/** A complete request's text (every field NUL-terminated), or undefined when it is malformed. */
export function parseEnterRequest(text: string): EnterRequest | undefined {
  const parts = text.split('\0');
  if (parts.length < FIELDS + 1) return undefined;
  const [token, pid, shell, cwd, flags, line] = parts;
  if (!/^[0-9a-f]{16,128}$/.test(token)) return undefined;
  const n = /^\d{1,10}$/.test(pid) ? Number(pid) : undefined;
  return { token, pid: n && n > 0 ? n : undefined, shell: shell.slice(0, 32), cwd, continuation: flags.includes('c'), line };
}

/** The server's greeting, which proves to the shell that it is the extension that wrote its token. */
export function greeting(serverToken: string): string {
  return `${ENTER_PROTOCOL} ${serverToken}\n`;
}

/** The answer's wire form; the printed line is kept to one line of printable text. */
export function enterReply(answer: { verdict: 'run' } | { verdict: 'block'; line: string }): string {
  if (answer.verdict === 'run') return 'run\n';
  const line = answer.line.replace(CONTROL_RUNS_G, ' ').slice(0, 2000);
  return `block ${line}\n`;
}
