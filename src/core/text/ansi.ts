// Terminal escapes and control bytes: the one place that turns raw terminal bytes into plain lines.
// Linear in its input whatever the bytes (each pattern starts at an ESC/C1 byte and stops at the
// next one, or at a line end), and a no-op scan on text that is already clean, so calling it again
// downstream (signature, test results) costs one pass of `test`, not another rewrite.
// Pure TypeScript: no vscode, no fs.

import { C0_AND_DEL_IN_TEXT } from './controls';

// OSC (incl. VS Code's ESC]633;…BEL shell-integration marks) ends at BEL or ST; an unterminated one
// ends at the line end so it can never swallow the rest of the output. Then DCS/SOS/PM/APC strings,
// CSI sequences (7-bit and C1), the remaining two-byte ESC sequences (charset selection, keypad…),
// a stray ESC, and the other control bytes (keeps \t, \n and \r: \r is handled per line below).
// The last class is ./controls.ts's C0_AND_DEL_IN_TEXT, spelled out so that the linter reads the whole
// pattern for super-linear backtracking (test/unit/controls.test.ts keeps the two equal).
const ESCAPE_OR_CONTROL_RE =
  /\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u009d[^\u0007\u001b\u009c\n]*(?:\u0007|\u009c)?|\u001b[PX^_][^\u001b\n]*(?:\u001b\\)?|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b[ -/]*[0-~]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Anything stripAnsi would change. */
const NEEDS_WORK_RE = new RegExp(`[${C0_AND_DEL_IN_TEXT}\\r\\u009b\\u009d]`);

/**
 * Removes terminal escape sequences, control bytes and carriage returns.
 * `\r\n` becomes `\n`; a line redrawn with bare `\r` (progress bars) keeps what was drawn last.
 */
export function stripAnsi(text: string): string {
  if (!text) return '';
  if (!NEEDS_WORK_RE.test(text)) return text;
  const s = text.replace(ESCAPE_OR_CONTROL_RE, '');
  if (!s.includes('\r')) return s;
  // Per line, never a pattern spanning lines: `[^\n]*\r[^\n]*` was quadratic on a long line.
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.includes('\r')) lines[i] = lastDrawn(line);
  }
  return lines.join('\n');
}

/** The last non-empty segment of a line redrawn with `\r` ('' when all are empty). */
function lastDrawn(line: string): string {
  let end = line.length;
  while (end > 0) {
    const start = line.lastIndexOf('\r', end - 1) + 1;
    if (start < end) return line.slice(start, end);
    end = start - 1;
  }
  return '';
}

/**
 * A command's output as the readers of one record read it (the test parsers, the error signature,
 * the printed error line): `source` with its terminal escapes and control bytes stripped once, and
 * split into lines once, instead of each reader stripping and splitting it again. `source` is kept
 * for the readers that read it as given (judging a probe's answer, the shell's "not found").
 */
export class PlainOutput {
  readonly text: string;
  private split: string[] | undefined;

  constructor(readonly source: string) {
    this.text = stripAnsi(source);
  }

  /** The stripped text's lines (it holds no \r: stripAnsi keeps what a redrawn line drew last). */
  get lines(): readonly string[] {
    return (this.split ??= this.text.split('\n'));
  }
}
