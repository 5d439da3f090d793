// Untrusted text (terminal output, command lines, memory.json) made safe for the places VS Code
// renders with some markup: notifications and terminal-link hovers turn `[text](command:…)` into
// a clickable link, the status bar turns `$(name)` into an icon. The text keeps reading the same;
// only the markup cannot form. One line, for dialogs, notifications, the status bar and pickers;
// the defusing itself is inertText() (./untrusted), shared with log lines and multi-line text.

import { stripAnsi } from './ansi';
import { visibleLine } from './hidden';
import { inertText } from './untrusted';

/**
 * One line of plain text: terminal escapes removed, line breaks become spaces, control, format and
 * other invisible characters are removed (./hidden.ts), whitespace collapses, the text is cut at `max` characters, link syntax is defused by inertText()
 * and icon syntax (`$(`) is broken with a space, so that no renderer can turn it into a link, a
 * command or an icon.
 */
export function plainText(s: string, max = 300): string {
  const line = visibleLine(stripAnsi(s ?? ''));
  return inertText(line, max).replace(/\$\(/g, '$ (');
}
