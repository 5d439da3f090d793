// Shared by the test-run parsers: bounds, preparation of the output (escapes, long lines, go test -json),
// the failure list and the message gatherer.

import { PlainOutput, stripAnsi } from '../text/ansi';
import type { TestFailure } from '../types';

/** Only the tail of a huge output is scanned; summaries are printed last. */
const SCAN_CHARS = 2 * 1024 * 1024;
/** Longer lines are cut before matching (minified bundles, base64 blobs). */
const MAX_LINE = 4096;
export const MAX_FAILURES = 50;
const MAX_MESSAGE = 300;
export const MAX_NAME = 300;
/** How far after a failure header its message is looked for. */
export const LOOKAHEAD = 40;
/** Bound on per-test message lookups kept in maps (pytest headers, cargo stdout blocks, rspec failures). */
export const MAX_MAP = 500;
const MAX_COUNT = 1e9;

// ---------------------------------------------------------------------------------------------------------
// Preparation

export function prepare(output: string | PlainOutput): { lines: string[]; text: string } {
  // output read once for the whole record: its stripped lines, unless its tail must be cut first
  const raw = typeof output !== 'string' && output.source.length <= SCAN_CHARS ? output.lines : plainLines(typeof output === 'string' ? output : output.source);
  const lines: string[] = [];
  for (let line of raw) {
    line = tidy(line);
    // go test -json: keep the printed text of "output" events, which is the plain -v output
    if (line.charCodeAt(0) === 123 /* { */ && line.includes('"Action"')) {
      const out = goJsonOutput(line);
      if (out !== undefined) {
        for (const l of out.split(/\r?\n|\r/)) if (l) lines.push(tidy(l));
        continue;
      }
    }
    // a run of more than two blank lines says nothing more than two: ten parsers need not walk it
    if (line === '' && lines.length >= 2 && lines[lines.length - 1] === '' && lines[lines.length - 2] === '') continue;
    lines.push(line);
  }
  return { lines, text: lines.join('\n') };
}

function plainLines(output: string): string[] {
  let s = output;
  if (s.length > SCAN_CHARS) {
    s = s.slice(s.length - SCAN_CHARS);
    const nl = s.indexOf('\n');
    if (nl >= 0 && nl < 64 * 1024) s = s.slice(nl + 1);
  }
  return stripAnsi(s).split(/\r?\n|\r/);
}

/**
 * Cuts a line to MAX_LINE, drops trailing blanks and shortens long runs of blanks (indentation to 64,
 * inner runs to 8). Keeps every pattern below linear: no blank run can make a backtracking match quadratic.
 */
function tidy(line: string): string {
  let l = line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
  l = l.trimEnd();
  if (l.length > 8 && (l.includes('         ') || (l.includes('\t') && /[ \t]{9}/.test(l)))) {
    l = l.replace(/^[ \t]{65,}/, (m) => m.slice(0, 64)).replace(/(\S)[ \t]{9,}/g, '$1        ');
  }
  return l;
}

/** The Output of a `go test -json` output event, '' for other events, undefined when the line is not one. */
function goJsonOutput(line: string): string | undefined {
  let ev: unknown;
  try {
    ev = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!ev || typeof ev !== 'object') return undefined;
  const o = ev as { Action?: unknown; Output?: unknown };
  if (typeof o.Action !== 'string') return undefined;
  return o.Action === 'output' && typeof o.Output === 'string' ? stripAnsi(o.Output) : '';
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** undefined when the tool does not print a total (computed then). */
  total?: number;
}

export interface Candidate {
  framework: string;
  counts: Counts;
  failures: Failures;
  /** Index of the last summary line, to prefer the run printed last. */
  last: number;
}

export function num(s: string | undefined): number {
  if (!s) return 0;
  const n = parseInt(s, 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_COUNT) : 0;
}

export function clean(s: string, max: number): string {
  if (s.length <= max && !/^\s|\s$|\s\s|[^\S ]/.test(s)) return s;
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Failing tests, deduplicated by name, capped; a later sighting fills in a missing message. */
export class Failures {
  readonly list: TestFailure[] = [];
  private readonly index = new Map<string, number>();
  private readonly tries = new Map<number, number>();

  /** The message may be given as a function: it is only worked out when the entry needs it. */
  add(rawName: string, rawMessage: string | (() => string) = ''): void {
    const name = clean(rawName, MAX_NAME);
    if (!name) return;
    const at = this.index.get(name);
    if (at !== undefined) {
      // a missing message is looked for again a few times (a later section may have it), not every time
      const tries = this.tries.get(at) ?? 0;
      if (!this.list[at].message && tries < 3) {
        this.tries.set(at, tries + 1);
        this.list[at].message = clean(resolve(rawMessage), MAX_MESSAGE);
      }
      return;
    }
    if (this.list.length >= MAX_FAILURES) return;
    this.index.set(name, this.list.length);
    this.list.push({ name, message: clean(resolve(rawMessage), MAX_MESSAGE) });
  }

  /** False when adding this name would change nothing (list full, or already there with a message). */
  wants(rawName: string): boolean {
    const at = this.index.get(clean(rawName, MAX_NAME));
    return at === undefined ? this.list.length < MAX_FAILURES : !this.list[at].message && (this.tries.get(at) ?? 0) < 3;
  }

  get size(): number {
    return this.list.length;
  }
}

function resolve(m: string | (() => string)): string {
  return typeof m === 'function' ? m() : m;
}

const STACK_RE = /^\s*at\s+\S/;
export const isBlank = (l: string): boolean => l.trim() === '';

interface GatherOptions {
  /** Most lines to join. */
  max?: number;
  /** Only continue past a line that ends with ':' (e.g. "Expected values to be strictly equal:"). */
  colonOnly?: boolean;
  /** Stop before this line. */
  stop?: (line: string) => boolean;
  /** Pass over this line without taking it. */
  skip?: (line: string) => boolean;
  /** Stop at the first line indented at most this much (blank lines excepted). */
  minIndent?: number;
}

/** Joins the first meaningful lines from `start` on into a one-line message. */
export function gather(lines: string[], start: number, opts: GatherOptions = {}): string {
  const max = opts.max ?? 1;
  const parts: string[] = [];
  const end = Math.min(lines.length, start + LOOKAHEAD);
  for (let i = start; i < end && parts.length < max; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    if (opts.minIndent !== undefined && indentOf(line) <= opts.minIndent) break;
    if (opts.stop?.(line) || STACK_RE.test(line)) break;
    if (opts.skip?.(line)) continue;
    if (opts.colonOnly && parts.length > 0 && !parts[parts.length - 1].endsWith(':')) break;
    parts.push(line.trim());
  }
  return parts.join(' ');
}

export function indentOf(line: string): number {
  const m = /^[ \t]*/.exec(line);
  return m ? m[0].length : 0;
}

export type Parser = (lines: string[], text: string) => Candidate | null;

export function candidate(framework: string, counts: Counts, failures: Failures, last: number): Candidate {
  return { framework, counts, failures, last };
}
