// Characters a reader does not see, or sees as something else: the one set of rules for everything
// Failure Memory shows an agent or a person (deny reasons, session context, tool answers, CLI
// output, VS Code's dialogs, notifications and panel). Text from commands is untrusted: Unicode tag
// characters (U+E0000–E007F, "ASCII smuggling"), bidi embeddings and isolates, zero-width
// characters, the soft hyphen, U+061C, U+180E, variation selectors and the fillers that render as
// nothing would let a person reviewing read `Error: delta` where a model reads an instruction. They
// are removed, so that what a person sees is what a model reads. Look-alikes of the ⟦ ⟧ fence
// (./../prompts/agentText.ts) become plain brackets, so that quoted text cannot seem to close it.
// Pure and linear.

import { C0_AND_DEL, C1 } from './controls';

/**
 * Controls (C0, DEL, C1), format characters (Unicode's Cf: zero-width, bidi, soft hyphen, U+061C,
 * U+180E, the BOM, the tags U+E0001 and U+E0020–E007F), line and paragraph separators, variation
 * selectors (U+FE00–FE0F, U+E0100–E01EF, the Mongolian U+180B–180D and U+180F), the grapheme
 * joiner U+034F, the Khmer inherent vowels U+17B4–17B5, the Hangul fillers and the whole tag block.
 */
const HIDDEN_CLASS = `${C0_AND_DEL}${C1}\\p{Cf}\\p{Zl}\\p{Zp}\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u3164\\ufe00-\\ufe0f\\uffa0\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}`;

/** Hidden characters, a line's tab and newline left out (they are whitespace a reader sees). */
const HIDDEN_RE = new RegExp(`(?![\\t\\n])[${HIDDEN_CLASS}]`, 'gu');
const ANY_HIDDEN_RE = new RegExp(`(?![\\t\\n])[${HIDDEN_CLASS}]`, 'u');
/** Characters that break a line for a reader: turned into a space on one line. */
const BREAK_RE = /[\t\n\r\u000b\u000c\u0085\u2028\u2029]/g;

/** True when `s` holds a character removeHidden() takes out. */
export function hasHidden(s: string): boolean {
  return ANY_HIDDEN_RE.test(s);
}

/** `s` without its hidden characters; tabs and newlines stay (line and paragraph separators become newlines). */
export function removeHidden(s: string): string {
  const text = typeof s === 'string' ? s : String(s ?? '');
  if (!ANY_HIDDEN_RE.test(text)) return text;
  return text.replace(/[\u2028\u2029\u0085]/g, '\n').replace(HIDDEN_RE, '');
}

/**
 * A JSON value with removeHidden() applied to every string in it (an answer's machine-readable part,
 * which a model reads as well). Keys stay as they are: they are field names, or keys the caller may
 * have to name back.
 */
export function removeHiddenDeep<T>(value: T): T {
  if (typeof value === 'string') return removeHidden(value) as T;
  if (Array.isArray(value)) return value.map(v => removeHiddenDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: removeHiddenDeep(v), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}

/** One line: every line break and tab a space, hidden characters removed, whitespace collapsed. */
export function visibleLine(s: string): string {
  const text = typeof s === 'string' ? s : String(s ?? '');
  return text.replace(BREAK_RE, ' ').replace(HIDDEN_RE, '').replace(/\s+/g, ' ').trim();
}

/**
 * Brackets that read as ⟦ and ⟧ (the fence around quoted text): the fence itself, the white square
 * brackets 〚 〛, the white and black lenticular and tortoise-shell brackets, the fullwidth and
 * presentation-form square brackets, the square brackets with quill, ticks or underbar.
 */
const OPENING_LOOKALIKES = '⟦〚【〖〘［﹇⁅⦋⦍⦏⟬⦗';
const CLOSING_LOOKALIKES = '⟧〛】〗〙］﹈⁆⦌⦎⦐⟭⦘';
const FENCE_LOOKALIKE_RE = new RegExp(`[${OPENING_LOOKALIKES}${CLOSING_LOOKALIKES}]`, 'g');

/** `s` with the fence and its look-alikes turned into plain [ and ]: quoted text cannot seem to close its quotation. */
export function defuseFence(s: string): string {
  return s.replace(FENCE_LOOKALIKE_RE, c => (OPENING_LOOKALIKES.includes(c) ? '[' : ']'));
}
