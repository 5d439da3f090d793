// Untrusted text (terminal output, command lines, memory.json) made safe for the places VS Code
// renders with some markup: notifications and terminal-link hovers turn `[text](command:…)` into
// a clickable link, the status bar turns `$(name)` into an icon. The text keeps reading the same;
// only the markup cannot form.

const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * One line of plain text: control and bidi characters become spaces, whitespace collapses, the
 * text is cut at `max` characters, and link (`](`, `<http…>`) and icon (`$(`) syntax is broken
 * with a space so that no renderer can turn it into a link, a command or an icon.
 */
export function plainText(s: string, max = 300): string {
  let t = (s ?? '').replace(CONTROL_RE, ' ').replace(/\s+/g, ' ').trim();
  if (t.length > max) t = `${t.slice(0, Math.max(0, max - 1))}…`;
  return t
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (')
    .replace(/<(?=[a-z][a-z0-9+.-]*:)/gi, '< ')
    .replace(/\b(command|vscode|vscode-insiders|file):(?=\S)/gi, '$1: ');
}
