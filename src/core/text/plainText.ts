// Untrusted text (terminal output, command lines, memory.json) made safe for the places VS Code
// renders with some markup: notifications and terminal-link hovers turn `[text](command:…)` into
// a clickable link, the status bar turns `$(name)` into an icon. The text keeps reading the same;
// only the markup cannot form. One line, for dialogs, notifications, the status bar and pickers;
// the defusing itself is inertText() (./untrusted), shared with log lines and multi-line text.

import { stripAnsi } from './ansi';
import { inertText } from './untrusted';

const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * One line of plain text: terminal escapes removed, control and bidi characters become spaces,
 * whitespace collapses, the text is cut at `max` characters, link syntax is defused by inertText()
 * and icon syntax (`$(`) is broken with a space, so that no renderer can turn it into a link, a
 * command or an icon.
 */
export function plainText(s: string, max = 300): string {
  const line = stripAnsi(s ?? '').replace(CONTROL_RE, ' ').replace(/\s+/g, ' ').trim();
  return inertText(line, max).replace(/\$\(/g, '$ (');
}
