// The user's own redaction patterns (setting `failureMemory.redaction.extraPatterns`): compiled in a
// linear-time engine with a size budget, run with a time budget. Used by ./redact.ts, which runs them
// before its built-in rules. Pure: no vscode, no fs.

import type { RE2JS } from 're2js';

// re2js builds large Unicode tables when it loads (~5 ms): loaded for the first user pattern, not
// with this module, so a hook or a check without user patterns never pays for it
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, on purpose
const re2 = (): typeof RE2JS => (require('re2js') as typeof import('re2js')).RE2JS;

const MARKER = '[REDACTED:custom]';

/** A user pattern (setting `failureMemory.redaction.extraPatterns`) that is not a usable regular expression. */
export class RedactionPatternError extends Error {
  readonly pattern: string;
  constructor(pattern: string, reason: string) {
    super(`Invalid redaction pattern ${JSON.stringify(pattern)}: ${reason}`);
    this.name = 'RedactionPatternError';
    this.pattern = pattern;
  }
}


/**
 * A user pattern runs on RE2JS (a pure-JS port of RE2): matching is linear in the input whatever
 * the pattern, so `(a+)+$` from a workspace's settings cannot hang the extension host or a hook.
 * Linear is not cheap: `(.*a){100}` costs ~500 steps per character. So each pattern has a size
 * budget (its source and its compiled program) and a time budget per redaction, and all of them
 * together a time budget per redaction; text a pattern had no time to scan is never kept.
 * RE2 has no backreferences and no lookahead; such a pattern is refused with a message saying so.
 */
export interface UserPattern {
  source: string;
  re: RE2JS;
}

/** Size budget of one pattern: its source, and its compiled RE2 program (instructions). */
export const MAX_PATTERN_CHARS = 1000;
export const MAX_PATTERN_PROGRAM = 2000;
/** At most this many user patterns. */
export const MAX_PATTERNS = 50;
/** Time budget of one pattern, and of all user patterns together, in one redaction (one record). */
export const PATTERN_BUDGET_MS = 1000;
export const RECORD_BUDGET_MS = 2000;
/** Text is scanned in windows of this many characters (cut at a line end), overlapping by OVERLAP. */
const WINDOW = 8 * 1024;
const OVERLAP = 1024;

const RE2_HINT = 'Failure Memory runs redaction patterns with a linear-time engine (RE2 syntax: no backreferences, no lookahead)';

/**
 * Compiles one `failureMemory.redaction.extraPatterns` entry: a plain regex source, or `/source/flags`
 * (flags i, m, s; g and y are implied or ignored). The one place patterns are validated: the
 * settings reader calls it to report a bad entry, the redactor to use a good one.
 */
export function compileRedactionPattern(source: unknown): { ok: true; pattern: UserPattern } | { ok: false; reason: string } {
  if (typeof source !== 'string' || source.trim() === '') return { ok: false, reason: 'empty pattern' };
  if (source.length > MAX_PATTERN_CHARS) return { ok: false, reason: `longer than ${MAX_PATTERN_CHARS} characters` };
  let body = source;
  const RE2 = re2();
  let flags = RE2.LOOKBEHINDS;
  const literal = /^\/([^]+)\/([dgimsuvy]*)$/.exec(source);
  if (literal) {
    body = literal[1];
    if (literal[2].includes('i')) flags |= RE2.CASE_INSENSITIVE;
    if (literal[2].includes('m')) flags |= RE2.MULTILINE;
    if (literal[2].includes('s')) flags |= RE2.DOTALL;
  }
  let re: RE2JS;
  try {
    re = RE2.compile(body, flags);
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    return { ok: false, reason: `${reason}. ${RE2_HINT}.` };
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) {
    return { ok: false, reason: `too complex (${re.programSize()} instructions compiled, at most ${MAX_PATTERN_PROGRAM}): write it with fewer or smaller repetitions` };
  }
  if (re.matcher('').find()) return { ok: false, reason: 'it matches the empty string' };
  return { ok: true, pattern: { source, re } };
}

export function compileUserPattern(source: string): UserPattern {
  const r = compileRedactionPattern(source);
  if (!r.ok) throw new RedactionPatternError(String(source), r.reason);
  return r.pattern;
}

/** Splits user patterns into the usable ones and error messages naming the others. */
export function validatePatterns(sources: string[]): { valid: string[]; errors: string[] } {
  const valid: string[] = [];
  const errors: string[] = [];
  for (const s of sources ?? []) {
    const r = valid.length >= MAX_PATTERNS ? { ok: false as const, reason: `more than ${MAX_PATTERNS} patterns` } : compileRedactionPattern(s);
    if (r.ok) valid.push(s);
    else errors.push(new RedactionPatternError(String(s), r.reason).message);
  }
  return { valid, errors };
}

export interface RedactorOptions {
  /** Told why text was not kept when user patterns ran over their time budget (once per redaction). */
  onOverBudget?: (reason: string) => void;
  /** Milliseconds (tests drive it); default performance.now. */
  now?: () => number;
}

/** Where a window of at most WINDOW characters from `pos` ends: after the last line end in it when there is one. */
function windowEnd(text: string, pos: number): number {
  if (pos + WINDOW >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', pos + WINDOW - 1);
  return nl > pos ? nl + 1 : pos + WINDOW;
}

/** The spans (in `slice`) the patterns match that start before `limit`, each pattern timed. */
function matchSpans(slice: string, limit: number, patterns: UserPattern[], spent: number[], now: () => number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  patterns.forEach((p, k) => {
    const t0 = now();
    const m = p.re.matcher(slice);
    while (m.find()) {
      const a = m.start();
      if (a >= limit) break;
      if (m.end() > a) spans.push([a, m.end()]);
    }
    spent[k] += now() - t0;
  });
  return spans.sort((x, y) => x[0] - y[0]);
}

/**
 * The user's patterns over `text`, window by window (all patterns on each window, overlapping by
 * OVERLAP so that a match across a cut is still found). When a pattern or all of them run over
 * their time budget, the rest of the text is replaced by one marker saying why: never kept unscanned.
 */
export function applyUserPatterns(text: string, patterns: UserPattern[], note: () => void, opts: RedactorOptions): string {
  const now = opts.now ?? (() => performance.now());
  // time spent matching, per pattern; the record's budget is their sum
  const spent = patterns.map(() => 0);
  let out = '';
  let pos = 0;
  while (pos < text.length) {
    const over = spent.findIndex(t => t > PATTERN_BUDGET_MS);
    if (over >= 0 || spent.reduce((a, b) => a + b, 0) > RECORD_BUDGET_MS) {
      const why = over >= 0 ? `redaction pattern ${JSON.stringify(patterns[over].source.slice(0, 80))} ran over its time budget (${PATTERN_BUDGET_MS} ms)` : `the redaction patterns ran over their time budget (${RECORD_BUDGET_MS} ms)`;
      opts.onOverBudget?.(`${why}: the last ${text.length - pos} of ${text.length} characters were not kept`);
      note();
      return `${out}${MARKER} (${text.length - pos} characters not kept: ${why})`;
    }
    const end = windowEnd(text, pos);
    const slice = text.slice(pos, Math.min(text.length, end + OVERLAP));
    let next = end - pos;
    let cursor = 0;
    for (const [a, b] of matchSpans(slice, end - pos, patterns, spent, now)) {
      if (b <= cursor) continue;
      out += slice.slice(cursor, Math.max(cursor, a)) + (a >= cursor ? MARKER : '');
      if (a >= cursor) note();
      cursor = b;
      next = Math.max(next, b);
    }
    out += slice.slice(cursor, Math.max(cursor, next));
    pos += next;
  }
  return out;
}
