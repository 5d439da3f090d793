// The control characters, named once: every check and every clean-up of control characters in
// Failure Memory builds its character class from these (./hidden.ts adds the invisible format
// characters to them; ./ansi.ts the terminal escapes). A leaf with no imports: src/shared (bundled
// into the webview) may import it too.

/** The C0 controls (U+0000–001F) and DEL (U+007F). */
export const C0_AND_DEL = '\\u0000-\\u001f\\u007f';
/** The C0 controls and DEL but the tab, line feed and carriage return that text holds. */
export const C0_AND_DEL_IN_TEXT = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f';
/** The C1 controls (U+0080–009F): CSI U+009B and OSC U+009D among them. */
export const C1 = '\\u0080-\\u009f';

/** Holds a control character other than a tab or a line break (text a person typed, a program printed). */
export const CONTROL_IN_TEXT_RE = new RegExp(`[${C0_AND_DEL_IN_TEXT}]`);
/** Holds any C0 control or DEL (a name, a key, an id: one line). */
export const CONTROL_RE = new RegExp(`[${C0_AND_DEL}]`);
/** Every control character but a tab or a line break, for a replace. */
export const CONTROLS_IN_TEXT_G = new RegExp(`[${C0_AND_DEL_IN_TEXT}]`, 'g');
/** Runs of any control character, C0, DEL or C1, for a replace. */
export const CONTROL_RUNS_G = new RegExp(`[${C0_AND_DEL}${C1}]+`, 'g');
