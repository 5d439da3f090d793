// Untrusted text (terminal output, command lines, anything read from memory.json) shown by VS Code.
// Notifications render `[label](command:…)` as a clickable command link, MarkdownString (hovers,
// tooltips) renders links, autolinks and images too. inertText() keeps the text readable and makes
// it inert on every one of those surfaces: a zero-width space (U+200B) is put where a link would
// form, so nothing visible changes and nothing can be clicked. Linear; pure: no vscode, no fs.

import { stripAnsi } from './ansi';
import { removeHidden } from './hidden';
import { redact } from './redact';

const ZWSP = '\u200b';
/** `](` of an inline link or image, `][` of a reference link. */
const LINK_JOIN_RE = /\](?=[([])/g;
/** Schemes that act when clicked; `scheme://` of any URL (autolinks). */
const SCHEME_RE = /\b(command|vscode(?:-insiders)?|file|javascript|data|mailto|vbscript):/gi;
const URL_RE = /\b([a-z][a-z0-9+.-]{0,30}):(?=\/\/)/gi;
const WWW_RE = /\b(www)\./gi;
/** `<https://…>` autolinks and HTML tags. */
const ANGLE_RE = /</g;

/**
 * Makes untrusted text safe to show in a VS Code notification, MarkdownString, tooltip or log line:
 * terminal escapes and control bytes removed, invisible and bidi characters removed (./hidden.ts, our
 * own ZWSP among them), link syntax,
 * URL schemes, `www.` and `<` defused with a zero-width space, and cut to `maxLength` characters.
 */
export function inertText(text: unknown, maxLength = 2000): string {
  let s = stripAnsi(typeof text === 'string' ? text : String(text ?? ''));
  if (s.length > maxLength) s = `${s.slice(0, Math.max(0, maxLength - 1))}…`;
  return removeHidden(s)
    .replace(LINK_JOIN_RE, `]${ZWSP}`)
    .replace(SCHEME_RE, `$1${ZWSP}:`)
    .replace(URL_RE, `$1${ZWSP}:`)
    .replace(WWW_RE, `$1${ZWSP}.`)
    .replace(ANGLE_RE, `<${ZWSP}`);
}

/**
 * A log line: secrets redacted (built-in rules) and links defused. The extension log must never
 * hold a command line or output unredacted (a blocked `curl -H "Authorization: Bearer …"`).
 */
export function logText(message: string): string {
  return inertText(redact(message), 8000);
}
