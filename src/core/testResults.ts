// Test-run parsing: turns the printed output of a test command into counts and failing test names.
// Pure and defensive: never throws, linear in the size of the (bounded) input, null when no test run is found.
//
// Supported: jest, vitest, mocha, pytest, go test (text and -json), cargo test, node:test (spec and TAP),
// Maven Surefire/Failsafe, RSpec, dotnet test. Each tool is recognised by its own summary line; when the
// output holds several runs of one tool (crates, packages, modules, projects) their counts are summed.

import type { TestFailure, TestResults } from './types';

/** Only the tail of a huge output is scanned; summaries are printed last. */
const SCAN_CHARS = 2 * 1024 * 1024;
/** Longer lines are cut before matching (minified bundles, base64 blobs). */
const MAX_LINE = 4096;
const MAX_FAILURES = 50;
const MAX_MESSAGE = 300;
const MAX_NAME = 300;
/** How far after a failure header its message is looked for. */
const LOOKAHEAD = 40;
/** Bound on per-test message lookups kept in maps (pytest headers, cargo stdout blocks, rspec failures). */
const MAX_MAP = 500;
const MAX_COUNT = 1e9;

export function parseTestResults(output: string): TestResults | null {
  try {
    if (typeof output !== 'string' || output.length === 0) return null;
    return parse(output);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Preparation

const ANSI_RE = new RegExp(
  [
    '\\x1b\\][^\\x07\\x1b\\r\\n]*(?:\\x07|\\x1b\\\\)?', // OSC (VS Code shell integration 633, titles, links)
    '\\x1b\\[[0-?]*[ -/]*[@-~]', // CSI (colors, cursor)
    '\\x9b[0-?]*[ -/]*[@-~]', // 8-bit CSI
    '\\x1b[PX^_][^\\x1b]*(?:\\x1b\\\\)?', // DCS, SOS, PM, APC
    '\\x1b[ -/]*[0-~]', // other escapes (charset selection, keypad modes)
    '[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1a\\x1c-\\x1f\\x7f]', // other control characters (binary noise)
    '\\x1b', // stray escape
  ].join('|'),
  'g',
);

/** Removes terminal escape sequences and control characters; keeps \n, \r and \t. */
function stripAnsi(s: string): string {
  return s.replace(ANSI_RE, '');
}

function prepare(output: string): { lines: string[]; text: string } {
  let s = output;
  if (s.length > SCAN_CHARS) {
    s = s.slice(s.length - SCAN_CHARS);
    const nl = s.indexOf('\n');
    if (nl >= 0 && nl < 64 * 1024) s = s.slice(nl + 1);
  }
  s = stripAnsi(s);
  const raw = s.split(/\r?\n|\r/);
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
    lines.push(line);
  }
  return { lines, text: lines.join('\n') };
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

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** undefined when the tool does not print a total (computed then). */
  total?: number;
}

interface Candidate {
  framework: string;
  counts: Counts;
  failures: Failures;
  /** Index of the last summary line, to prefer the run printed last. */
  last: number;
}

function num(s: string | undefined): number {
  if (!s) return 0;
  const n = parseInt(s, 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_COUNT) : 0;
}

function clean(s: string, max: number): string {
  if (s.length <= max && !/^\s|\s$|\s\s|[^\S ]/.test(s)) return s;
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Failing tests, deduplicated by name, capped; a later sighting fills in a missing message. */
class Failures {
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
const isBlank = (l: string): boolean => l.trim() === '';

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
function gather(lines: string[], start: number, opts: GatherOptions = {}): string {
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

function indentOf(line: string): number {
  const m = /^[ \t]*/.exec(line);
  return m ? m[0].length : 0;
}

// ---------------------------------------------------------------------------------------------------------
// Entry

type Parser = (lines: string[], text: string) => Candidate | null;

function parse(output: string): TestResults | null {
  const { lines, text } = prepare(output);
  if (lines.length === 0) return null;
  const parsers: Parser[] = [jest, vitest, mocha, pytest, goTest, cargo, nodeTest, surefire, rspec, dotnet];
  let best: Candidate | null = null;
  for (const p of parsers) {
    let c: Candidate | null = null;
    try {
      c = p(lines, text);
    } catch {
      c = null;
    }
    if (!c) continue;
    if (!best) {
      best = c;
      continue;
    }
    // a run that failed says more than one that passed; otherwise the run printed last wins
    const cf = c.counts.failed > 0 || c.failures.size > 0;
    const bf = best.counts.failed > 0 || best.failures.size > 0;
    if ((cf && !bf) || (cf === bf && c.last > best.last)) best = c;
  }
  return best ? finish(best) : null;
}

function finish(c: Candidate): TestResults {
  // the tool's own counts are kept as printed: a suite that failed to load (jest, vitest) is listed in
  // failures without being counted as a failed test
  const passed = c.counts.passed;
  const failed = c.counts.failed;
  const skipped = c.counts.skipped;
  const total = Math.max(c.counts.total ?? 0, passed + failed + skipped);
  return { framework: c.framework, total, passed, failed, skipped, failures: c.failures.list };
}

function candidate(framework: string, counts: Counts, failures: Failures, last: number): Candidate {
  return { framework, counts, failures, last };
}

// ---------------------------------------------------------------------------------------------------------
// jest

const JEST_TESTS_RE = /^\s*Tests:\s+((?:\d+ [a-z]+, )*\d+ total)\s*$/;
const JEST_FILE_RE = /^\s*(FAIL|PASS)\s+(\S.*?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$/;
const JEST_BULLET_RE = /^\s*● (.+?)\s*$/;
const JEST_NOT_TEST_RE = /^(Console|Validation (Warning|Error)|Deprecation Warning|Multiple configurations found)\b|:$/;
const JEST_STOP = (l: string): boolean =>
  /^\s*>?\s*\d+\s*\|/.test(l) || /^\s*●/.test(l) || /^\s*(FAIL|PASS)\s/.test(l) || /^\s*(Test Suites|Tests):/.test(l);

function jest(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests:')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = JEST_TESTS_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) ([a-z]+)/g)) {
      const v = num(n);
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else if (word === 'skipped' || word === 'todo') counts.skipped += v;
      else if (word === 'total') counts.total = (counts.total ?? 0) + v;
    }
  }
  if (last < 0) return null;
  const failures = new Failures();
  const failedFiles: string[] = [];
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = JEST_FILE_RE.exec(line);
    if (f) {
      file = f[1] === 'FAIL' ? f[2] : '';
      if (file && failedFiles.length < MAX_FAILURES) failedFiles.push(file);
      continue;
    }
    const b = JEST_BULLET_RE.exec(line);
    if (!b) continue;
    let name = b[1];
    if (JEST_NOT_TEST_RE.test(name)) continue;
    if (name === 'Test suite failed to run' && file) name = file;
    failures.add(name, () => gather(lines, i + 1, { max: 3, stop: JEST_STOP }));
  }
  if (failures.size === 0) for (const f of failedFiles) failures.add(f);
  return candidate('jest', counts, failures, last);
}

// ---------------------------------------------------------------------------------------------------------
// vitest

const VITEST_TESTS_RE = /^\s*Tests\s{2,}(\d.*?)\s*\((\d+)\)\s*$/;
const VITEST_PART_RE = /^\s*(\d+) ([a-z][a-z ]*?)\s*$/;
const VITEST_FAIL_RE = /^\s*FAIL\s+(?:\|[^|]*\|\s+)?(\S.*?)\s*$/;
const VITEST_CROSS_RE = /^\s*[×✗✕]\s+(.+?)(?:\s+\d+(?:\.\d+)?\s*m?s)?\s*$/;
const VITEST_ARROW_RE = /^\s*→\s+(.*)$/;
const VITEST_SEPARATOR_RE = /^\s*⎯/;

function vitest(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests ')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = VITEST_TESTS_RE.exec(lines[i]);
    if (!m) continue;
    const parts = m[1].split('|').map((p) => VITEST_PART_RE.exec(p));
    if (parts.some((p) => !p)) continue;
    last = i;
    for (const p of parts) {
      if (!p) continue;
      const v = num(p[1]);
      const word = p[2];
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else if (word === 'skipped' || word === 'todo') counts.skipped += v;
    }
    counts.total = (counts.total ?? 0) + num(m[2]);
  }
  if (last < 0) return null;
  const failures = new Failures();
  const crosses = new Failures();
  const isFailHeader = (l: string): boolean => VITEST_FAIL_RE.test(l);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = VITEST_FAIL_RE.exec(line);
    if (f) {
      // "src/a.test.ts > suite > test", "src/a.test.ts [ src/a.test.ts ]" (the file itself failed)
      let body = f[1];
      const bracket = body.endsWith(' ]') ? body.lastIndexOf(' [ ') : -1;
      if (bracket > 0) body = body.slice(0, bracket).trimEnd();
      const segs = body.split(' > ');
      const name = segs.length > 1 ? segs.slice(1).join(' > ') : segs[0];
      failures.add(name, () =>
        gather(lines, i + 1, {
          max: 2,
          colonOnly: true,
          skip: isFailHeader,
          stop: (l) => VITEST_SEPARATOR_RE.test(l) || /^\s*❯ /.test(l),
        }),
      );
      continue;
    }
    const x = VITEST_CROSS_RE.exec(line);
    if (x) {
      const a = i + 1 < lines.length ? VITEST_ARROW_RE.exec(lines[i + 1]) : null;
      crosses.add(x[1], a ? a[1] : '');
    }
  }
  // the "Failed Tests" section is complete and has messages; the × tree lines are a fallback
  return candidate('vitest', counts, failures.size > 0 ? failures : crosses, last);
}

// ---------------------------------------------------------------------------------------------------------
// mocha

const MOCHA_PASSING_RE = /^\s*(\d+) passing \([^)]*\)\s*$/;
const MOCHA_OTHER_RE = /^\s*(\d+) (pending|failing)\s*$/;
const MOCHA_ENTRY_RE = /^\s*(\d+)\) (.*)$/;

function mocha(lines: string[], text: string): Candidate | null {
  if (!text.includes(' passing (')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  const failingAt: Array<{ line: number; count: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MOCHA_PASSING_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    counts.passed += num(m[1]);
    for (let j = i + 1; j < Math.min(lines.length, i + 5); j++) {
      const o = MOCHA_OTHER_RE.exec(lines[j]);
      if (!o) {
        if (isBlank(lines[j])) continue;
        break;
      }
      last = j;
      if (o[2] === 'failing') {
        counts.failed += num(o[1]);
        failingAt.push({ line: j, count: num(o[1]) });
      } else counts.skipped += num(o[1]);
    }
  }
  if (last < 0) return null;
  const failures = new Failures();
  for (let k = 0; k < failingAt.length; k++) {
    const end = k + 1 < failingAt.length ? failingAt[k + 1].line : lines.length;
    // entries are numbered 1..count right after "N failing"; numbers restart in a later run's tree
    let expect = 1;
    for (let i = failingAt[k].line + 1; i < end && expect <= failingAt[k].count && failures.size < MAX_FAILURES; i++) {
      const e = MOCHA_ENTRY_RE.exec(lines[i]);
      if (!e || num(e[1]) !== expect) continue;
      expect++;
      // title lines, the last one ends with ':'
      const title: string[] = [e[2].trim()];
      let j = i + 1;
      while (!title[title.length - 1].endsWith(':') && j < end && j < i + 8 && !isBlank(lines[j])) {
        title.push(lines[j].trim());
        j++;
      }
      const name = title.join(' ').replace(/:$/, '');
      const message = gather(lines, j, {
        max: 2,
        colonOnly: true,
        stop: (l) => MOCHA_ENTRY_RE.test(l) || /^\s*\+ expected - actual/.test(l),
      });
      failures.add(name, message);
      i = j - 1;
    }
  }
  return candidate('mocha', counts, failures, last);
}

// ---------------------------------------------------------------------------------------------------------
// pytest

const PYTEST_WORDS = 'failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun|subtests passed|subtests failed';
const PYTEST_SUMMARY_RE = new RegExp(
  `^(?:=+ )?((?:\\d+ (?:${PYTEST_WORDS})(?:, )?)+|no tests ran) in \\d+(?:\\.\\d+)?\\s?s(?:econds)?\\b.*?(?: =+)?\\s*$`,
);
const PYTEST_HEADER_RE = /^_{3,} (.+?) _{3,}\s*$/;
const PYTEST_SHORT_RE = /^(FAILED|ERROR) (.+?)(?: - (.*))?\s*$/;
const PYTEST_VERBOSE_RE = /^(\S+::\S.*?) (FAILED|ERROR)(?:\s+\[\s*\d+%\])?\s*$/;

function pytest(lines: string[], text: string): Candidate | null {
  if (!text.includes(' in ')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = PYTEST_SUMMARY_RE.exec(lines[i].trim());
    if (!m) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) ([a-z]+(?: [a-z]+)?)/g)) {
      const v = num(n);
      if (word === 'passed' || word === 'xpassed') counts.passed += v;
      else if (word === 'failed' || word === 'error' || word === 'errors') counts.failed += v;
      else if (word === 'skipped' || word === 'xfailed') counts.skipped += v;
    }
  }
  if (last < 0) return null;

  // "____ test_name ____" sections: their first "E   " line is the best message
  const headerMessage = new Map<string, string>();
  const headers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = PYTEST_HEADER_RE.exec(lines[i]);
    if (!h) continue;
    const name = h[1].trim();
    let message = '';
    for (let j = i + 1; j < Math.min(lines.length, i + 200); j++) {
      const l = lines[j];
      if (PYTEST_HEADER_RE.test(l) || /^={3,}/.test(l)) break;
      if (l.startsWith('E ')) {
        message = message ? `${message} ${l.slice(1).trim()}` : l.slice(1).trim();
        if (!message.endsWith(':')) break;
      } else if (message) break;
    }
    if (headerMessage.size < MAX_MAP) headerMessage.set(name, message);
    if (headers.length < MAX_FAILURES) headers.push(name);
  }
  const lookup = (nodeid: string): string => {
    const sep = nodeid.indexOf('::');
    const inner = sep >= 0 ? nodeid.slice(sep + 2).replace(/::/g, '.') : '';
    for (const key of [inner, `ERROR at setup of ${inner}`, `ERROR at teardown of ${inner}`, `ERROR collecting ${nodeid}`, nodeid]) {
      const msg = key ? headerMessage.get(key) : undefined;
      if (msg) return msg;
    }
    return '';
  };

  const failures = new Failures();
  for (const line of lines) {
    const s = PYTEST_SHORT_RE.exec(line);
    if (s) {
      const nodeid = s[2].trim();
      if (!/::|\.py\b/.test(nodeid)) continue;
      const short = s[3] ?? '';
      failures.add(nodeid, () => (!short || short.endsWith('...') ? lookup(nodeid) || short : short));
      continue;
    }
    const v = PYTEST_VERBOSE_RE.exec(line);
    if (v) failures.add(v[1], () => lookup(v[1]));
  }
  if (failures.size === 0) for (const h of headers) failures.add(h, headerMessage.get(h) ?? '');
  return candidate('pytest', counts, failures, last);
}

// ---------------------------------------------------------------------------------------------------------
// go test

const GO_TEST_RE = /^(\s*)--- (PASS|FAIL|SKIP): (\S+)/;
const GO_OK_RE = /^ok\s+(\S+)\s+(?:\d+(?:\.\d+)?s\b|\(cached\)|\[no tests to run\])/;
const GO_FAIL_RE = /^FAIL\s+(\S+)\s+(?:\d+(?:\.\d+)?s\b|\[([a-z ]+ failed)\]|\(cached\))/;
const GO_COMPILE_RE = /^\S+\.go:\d+(?::\d+)?: \S/;

interface GoTest {
  name: string;
  status: string;
  line: number;
}

function goTest(lines: string[], text: string): Candidate | null {
  if (!text.includes('--- ') && !/^(ok|FAIL)\s/m.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures = new Failures();
  let last = -1;
  let segment: GoTest[] = [];

  const closeSegment = (): void => {
    if (segment.length === 0) return;
    const parents = new Set<string>();
    const failedParents = new Set<string>();
    for (const t of segment) {
      for (let k = t.name.indexOf('/'); k > 0; k = t.name.indexOf('/', k + 1)) {
        const p = t.name.slice(0, k);
        parents.add(p);
        if (t.status === 'FAIL') failedParents.add(p);
      }
    }
    for (const t of segment) {
      const isParent = parents.has(t.name);
      // a parent counts only when it failed on its own (no failing subtest explains it)
      if (isParent && !(t.status === 'FAIL' && !failedParents.has(t.name))) continue;
      if (t.status === 'PASS') counts.passed++;
      else if (t.status === 'SKIP') counts.skipped++;
      else {
        counts.failed++;
        failures.add(t.name, () => goMessage(lines, t));
      }
    }
    segment = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = GO_TEST_RE.exec(line);
    if (t) {
      segment.push({ name: t[3], status: t[2], line: i });
      last = i;
      continue;
    }
    const ok = GO_OK_RE.exec(line);
    const fail = ok ? null : GO_FAIL_RE.exec(line);
    if (!ok && !fail) continue;
    last = i;
    if (segment.length > 0) {
      closeSegment();
      continue;
    }
    // no per-test lines for this package: the package counts as one test
    if (ok) counts.passed++;
    else if (fail) {
      counts.failed++;
      let message = fail[2] ?? '';
      if (fail[2]) {
        for (let j = i - 1; j >= Math.max(0, i - 30); j--) {
          if (GO_COMPILE_RE.test(lines[j].trim())) message = lines[j].trim();
          else if (/^(ok|FAIL)\s/.test(lines[j])) break;
        }
      } else {
        for (let j = i - 1; j >= Math.max(0, i - 30); j--) {
          if (/^panic: /.test(lines[j])) {
            message = lines[j];
            break;
          }
        }
      }
      failures.add(fail[1], message);
    }
  }
  closeSegment();
  if (last < 0) return null;
  return candidate('go', counts, failures, last);
}

/** The t.Error/t.Fatal lines of a failed go test: printed after "--- FAIL" without -v, after "=== RUN" with -v. */
function goMessage(lines: string[], t: GoTest): string {
  const own = indentOf(lines[t.line]);
  const body: string[] = [];
  for (let j = t.line + 1; j < Math.min(lines.length, t.line + LOOKAHEAD) && body.length < 8; j++) {
    const l = lines[j];
    if (isBlank(l)) continue;
    if (indentOf(l) <= own) break;
    if (/^\s*(---|===) /.test(l)) continue;
    body.push(l.trim());
  }
  if (body.length === 0) {
    let start = -1;
    for (let j = t.line - 1; j >= Math.max(0, t.line - 200); j--) {
      const r = /^\s*=== (?:RUN|CONT)\s+(\S+)/.exec(lines[j]);
      if (r && r[1] === t.name) {
        start = j;
        break;
      }
    }
    for (let j = start + 1; start >= 0 && j < t.line && body.length < 8; j++) {
      const l = lines[j];
      if (isBlank(l) || /^\s*(---|===) /.test(l)) continue;
      body.push(l.trim());
    }
  }
  if (body.length === 0) {
    // a panic is printed unindented right after the failing test
    for (let j = t.line + 1; j < Math.min(lines.length, t.line + 5); j++) {
      if (/^panic: /.test(lines[j])) return lines[j].replace(/ \[recovered\]$/, '');
    }
  }
  // testify: "Error Trace: ... Error: Not equal: expected: 5 actual: 6"
  const e = body.findIndex((l) => /^Error:\s/.test(l));
  const from = e >= 0 ? e : 0;
  return body.slice(from, from + 3).join(' ');
}

// ---------------------------------------------------------------------------------------------------------
// cargo test

const CARGO_RESULT_RE = /^\s*test result: (?:ok|FAILED)\. (.*)$/;
const CARGO_TEST_RE = /^test (.+?) \.\.\. (FAILED|ok|ignored)\b/;
const CARGO_BLOCK_RE = /^---- (.+?) std(?:out|err) ----\s*$/;
const CARGO_PANIC_RE = /^thread '[^']*'(?: \(\d+\))? panicked at (.*)$/;

function cargo(lines: string[], text: string): Candidate | null {
  if (!text.includes('test result:')) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = CARGO_RESULT_RE.exec(lines[i]);
    if (!m || !/\b\d+ passed/.test(m[1])) continue;
    last = i;
    for (const [, n, word] of m[1].matchAll(/\b(\d+) (passed|failed|ignored)/g)) {
      const v = num(n);
      if (word === 'passed') counts.passed += v;
      else if (word === 'failed') counts.failed += v;
      else counts.skipped += v;
    }
  }
  if (last < 0) return null;
  const messages = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const b = CARGO_BLOCK_RE.exec(lines[i]);
    if (b && messages.size < MAX_MAP && !messages.has(b[1])) messages.set(b[1], cargoMessage(lines, i + 1));
  }
  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const t = CARGO_TEST_RE.exec(lines[i]);
    if (t && t[2] === 'FAILED') {
      const name = t[1].replace(/ - should panic$/, '');
      failures.add(name, messages.get(name) ?? messages.get(t[1]) ?? '');
      continue;
    }
    const b = CARGO_BLOCK_RE.exec(lines[i]);
    if (b) failures.add(b[1], messages.get(b[1]) ?? '');
  }
  return candidate('cargo', counts, failures, last);
}

function cargoMessage(lines: string[], start: number): string {
  const end = Math.min(lines.length, start + LOOKAHEAD);
  let first = '';
  for (let i = start; i < end; i++) {
    const l = lines[i];
    if (CARGO_BLOCK_RE.test(l) || /^(failures:|test result:)/.test(l)) break;
    const p = CARGO_PANIC_RE.exec(l.trim());
    if (p) {
      const at = p[1];
      // Rust >= 1.73: "panicked at src/lib.rs:10:9:" then the message on the next lines
      if (/:\d+:\d+:$/.test(at)) {
        return gather(lines, i + 1, { max: 3, stop: (x) => /^(note:|stack backtrace:|failures:|test result:|\s*\d+: )/.test(x) || CARGO_BLOCK_RE.test(x) });
      }
      // older: "panicked at 'message', src/lib.rs:10:9" (the message may span lines)
      const parts: string[] = [];
      let s = at.replace(/^'/, '');
      for (let j = i; j < end && parts.length < 4; j++) {
        if (j > i) s = lines[j];
        const tail = /^(.*)', \S+:\d+:\d+$/.exec(s);
        if (tail) {
          parts.push(tail[1]);
          break;
        }
        parts.push(s);
      }
      return parts.join(' ');
    }
    if (!first && !isBlank(l) && !/^(stderr|stdout):$/.test(l.trim())) first = l.trim();
  }
  return first;
}

// ---------------------------------------------------------------------------------------------------------
// node:test (spec and TAP reporters)

const NODE_COUNT_RE = /^(?:ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)\s*$/;
const NODE_SPEC_FAIL_RE = /^(\s*)✖ (.+?)\s*$/;
const NODE_SPEC_GROUP_RE = /^(\s*)▶ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?\s*$/;
const NODE_TAP_FAIL_RE = /^(\s*)not ok \d+(?: - (.*))?$/;
const NODE_DIRECTIVE_RE = /\s#\s*(SKIP|TODO)\b/i;
const NODE_DURATION_RE = /\s*\(\d+(?:\.\d+)?m?s\)$/;
const SUBTESTS_FAILED_RE = /^'?\d+ subtests? failed'?$/;

function nodeTest(lines: string[], text: string): Candidate | null {
  if (!/^(ℹ|#) tests \d/m.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const m = NODE_COUNT_RE.exec(lines[i]);
    if (!m) continue;
    const key = m[1];
    if (key === 'tests') inBlock = true;
    if (!inBlock) continue;
    last = i;
    const v = num(m[2]);
    if (key === 'tests') counts.total = (counts.total ?? 0) + v;
    else if (key === 'pass') counts.passed += v;
    else if (key === 'fail' || key === 'cancelled') counts.failed += v;
    else if (key === 'skipped' || key === 'todo') counts.skipped += v;
    else if (key === 'duration_ms') inBlock = false;
  }
  if (last < 0) return null;

  const groups = new Set<string>();
  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const g = NODE_SPEC_GROUP_RE.exec(line);
    if (g) {
      if (groups.size < MAX_MAP) groups.add(g[2]);
      continue;
    }
    const s = NODE_SPEC_FAIL_RE.exec(line);
    if (s) {
      if (NODE_DIRECTIVE_RE.test(s[2])) continue;
      const name = s[2].replace(NODE_DURATION_RE, '');
      if (name === 'failing tests:' || /^\d+ problems? \(/.test(name)) continue;
      if (!failures.wants(name)) continue;
      const message = gather(lines, i + 1, {
        max: 2,
        colonOnly: true,
        minIndent: s[1].length,
        stop: (l) => /^\s*\{$/.test(l),
      });
      // a suite or parent test whose subtests failed: its children are the failures
      if (!message && groups.has(name)) continue;
      if (SUBTESTS_FAILED_RE.test(message)) continue;
      failures.add(name, message);
      continue;
    }
    const t = NODE_TAP_FAIL_RE.exec(line);
    if (t) {
      const title = t[2] ?? '';
      if (NODE_DIRECTIVE_RE.test(title) || !failures.wants(title.replace(/\\#/g, '#'))) continue;
      const info = tapYaml(lines, i + 1, t[1].length);
      if (info.subtestsFailed) continue;
      failures.add(title.replace(/\\#/g, '#'), info.message);
    }
  }
  return candidate('node-test', counts, failures, last);
}

/** Reads the YAML diagnostics block under a TAP "not ok" line. */
function tapYaml(lines: string[], start: number, indent: number): { message: string; subtestsFailed: boolean } {
  let error = '';
  let name = '';
  let subtestsFailed = false;
  const end = Math.min(lines.length, start + 200);
  let i = start;
  if (i < end && lines[i].trim() !== '---') return { message: '', subtestsFailed };
  for (i++; i < end; i++) {
    const l = lines[i];
    const trimmed = l.trim();
    if (trimmed === '...' || (indentOf(l) <= indent && !isBlank(l))) break;
    const kv = /^\s*([A-Za-z_]+):\s?(.*)$/.exec(l);
    if (!kv || indentOf(l) > indent + 2) continue;
    const [, key, value] = kv;
    if (key === 'failureType' && /subtestsFailed/.test(value)) subtestsFailed = true;
    else if (key === 'name' && !name) name = unquote(value);
    else if (key === 'error' && !error) {
      if (/^[|>][-+]?$/.test(value.trim())) {
        error = gather(lines, i + 1, { max: 2, colonOnly: true, minIndent: indentOf(l) });
      } else error = unquote(value);
    }
  }
  if (SUBTESTS_FAILED_RE.test(error)) subtestsFailed = true;
  const message = name && error && !error.startsWith(name) ? `${name}: ${error}` : error;
  return { message, subtestsFailed };
}

function unquote(v: string): string {
  const t = v.trim();
  const q = /^(['"])(.*)\1$/.exec(t);
  return (q ? q[2] : t).replace(/\\n/g, ' ').replace(/''/g, "'");
}

// ---------------------------------------------------------------------------------------------------------
// Maven Surefire / Failsafe

const MVN_LEVEL_RE = /^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\] ?/;
const SUREFIRE_COUNT_RE = /^Tests run:\s*(\d+),\s*Failures:\s*(\d+),\s*Errors:\s*(\d+),\s*Skipped:\s*(\d+)(.*)$/;
const SUREFIRE_SECTION_RE = /^(Failures|Errors|Failed tests|Tests in error|Flakes|Flaked tests)\s*:\s*$/;
const SUREFIRE_ENTRY_RE = /^(\S+?)(?::\d+)?(?:\s+(?:»\s*)?(.*))?$/;

function mvn(line: string): string {
  return line.replace(MVN_LEVEL_RE, '');
}

function surefire(lines: string[], text: string): Candidate | null {
  if (!text.includes('Tests run:')) return null;
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const perClass: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let haveTotals = false;
  let last = -1;
  const failures = new Failures();
  let inResults = false;
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = mvn(lines[i]);
    const c = SUREFIRE_COUNT_RE.exec(line.trim());
    if (c) {
      last = i;
      const run = num(c[1]);
      const failed = num(c[2]) + num(c[3]);
      const skipped = num(c[4]);
      const isClass = /Time elapsed|\bin\s+\S/.test(c[5]);
      const into = isClass ? perClass : totals;
      if (!isClass) haveTotals = true;
      into.total = (into.total ?? 0) + run;
      into.failed += failed;
      into.skipped += skipped;
      into.passed += Math.max(0, run - failed - skipped);
      inResults = false;
      section = '';
      continue;
    }
    if (/^Results\s*:\s*$/.test(line.trim())) {
      inResults = true;
      section = '';
      continue;
    }
    if (inResults) {
      const s = SUREFIRE_SECTION_RE.exec(line.trim());
      if (s) {
        section = /^Flake/.test(s[1]) ? '' : s[1];
        continue;
      }
      if (!section || !/^\s+\S/.test(line)) continue;
      const entry = line.trim();
      const run = /^Run \d+:\s*(.*)$/.exec(entry);
      if (run) continue;
      const e = SUREFIRE_ENTRY_RE.exec(entry);
      if (e) {
        let message = e[2] ?? '';
        if (!message) {
          const next = i + 1 < lines.length ? /^Run \d+:\s*\S+?(?::\d+)?\s+(?:»\s*)?(.*)$/.exec(mvn(lines[i + 1]).trim()) : null;
          if (next) message = next[1];
        }
        failures.add(javaName(e[1]), message);
      }
      continue;
    }
    // "com.x.CalculatorTest.testAdd -- Time elapsed: 0.037 s <<< FAILURE!" (JUnit 4: "testAdd(com.x.CalculatorTest)  Time…")
    const k = line.indexOf('Time elapsed:');
    if (k > 0 && /<<<\s*(?:FAILURE|ERROR)!/.test(line.slice(k))) {
      const name = line.slice(0, k).trim().replace(/\s*--$/, '');
      if (name && !name.startsWith('Tests run:')) {
        failures.add(javaName(name), () => gather(lines, i + 1, { max: 1, stop: (l) => /^\[(INFO|ERROR|WARNING)\]/.test(l) }));
      }
    }
  }
  if (last < 0) return null;
  return candidate('surefire', haveTotals ? totals : perClass, failures, last);
}

/** "testAdd(com.x.CalculatorTest)" and "com.x.CalculatorTest.testAdd" -> "CalculatorTest.testAdd". */
function javaName(raw: string): string {
  const junit4 = /^([\w$]+)\(([\w.$]+)\)$/.exec(raw);
  if (junit4) return `${simpleClass(junit4[2])}.${junit4[1]}`;
  const base = /^[^([]+/.exec(raw);
  const head = base ? base[0] : raw;
  const segs = head.split('.');
  let cls = -1;
  for (let k = segs.length - 2; k >= 0; k--) {
    if (/^[A-Z]/.test(segs[k])) {
      cls = k;
      break;
    }
  }
  return cls > 0 ? segs.slice(cls).join('.') : head;
}

function simpleClass(fqn: string): string {
  const k = fqn.lastIndexOf('.');
  return k >= 0 ? fqn.slice(k + 1) : fqn;
}

// ---------------------------------------------------------------------------------------------------------
// RSpec

const RSPEC_SUMMARY_RE =
  /^\s*(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?\s*$/;
const RSPEC_RERUN_RE = /^\s*rspec (\S+) # (.+?)\s*$/;
const RSPEC_ENTRY_RE = /^\s+(\d+)\) (.+?)\s*$/;
const RSPEC_LOAD_RE = /^\s*An error occurred while loading (.+?)\.?\s*$/;

function rspec(lines: string[], text: string): Candidate | null {
  if (!/\b\d+ examples?, \d+ failures?/.test(text)) return null;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = RSPEC_SUMMARY_RE.exec(lines[i]);
    if (!m) continue;
    last = i;
    const examples = num(m[1]);
    const failed = num(m[2]);
    const pending = num(m[3]);
    const outside = num(m[4]);
    counts.total = (counts.total ?? 0) + examples + outside;
    counts.failed += failed + outside;
    counts.skipped += pending;
    counts.passed += Math.max(0, examples - failed - pending);
  }
  if (last < 0) return null;
  const failures = new Failures();
  const messages = new Map<string, string>();
  let inFailures = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === 'Failures:') {
      inFailures = true;
      continue;
    }
    if (/^(Pending:|Finished in |Failed examples:)/.test(trimmed)) {
      inFailures = false;
      continue;
    }
    const load = RSPEC_LOAD_RE.exec(line);
    if (load) {
      failures.add(load[1], () => rspecMessage(lines, i + 1));
      continue;
    }
    if (inFailures) {
      const e = RSPEC_ENTRY_RE.exec(line);
      if (e) {
        const message = rspecMessage(lines, i + 1);
        if (messages.size < MAX_MAP) messages.set(clean(e[2], MAX_NAME), message);
        failures.add(e[2], message);
      }
      continue;
    }
    const r = RSPEC_RERUN_RE.exec(line);
    if (r) failures.add(r[2], messages.get(clean(r[2], MAX_NAME)) ?? '');
  }
  return candidate('rspec', counts, failures, last);
}

/** After "Failure/Error: <code>": the explanation lines ("expected: 4 got: 3", "ZeroDivisionError: divided by 0"). */
function rspecMessage(lines: string[], start: number): string {
  const end = Math.min(lines.length, start + LOOKAHEAD);
  let code = '';
  const parts: string[] = [];
  for (let i = start; i < end && parts.length < 3; i++) {
    const t = lines[i].trim();
    if (!t) continue;
    if (t.startsWith('# ') || RSPEC_ENTRY_RE.test(lines[i]) || /^(Finished in |Failed examples:|rspec )/.test(t)) break;
    const fe = /^Failure\/Error:\s*(.*)$/.exec(t);
    if (fe) {
      if (code || parts.length) break;
      code = fe[1];
      continue;
    }
    parts.push(t);
  }
  return parts.length ? parts.join(' ') : code;
}

// ---------------------------------------------------------------------------------------------------------
// dotnet test

const DOTNET_MINIMAL_RE = /^\s*[A-Za-z]+!\s*-\s*Failed:\s*(\d+),\s*Passed:\s*(\d+),\s*Skipped:\s*(\d+),\s*Total:\s*(\d+)/;
const DOTNET_SUMMARY_RE = /^\s*Test summary:\s*(.*)$/i;
const DOTNET_RUN_SUMMARY_RE = /^\s*Test run summary:/i;
const DOTNET_TOTAL_RE = /^\s*Total tests:\s*(\d+)/;
const DOTNET_FAILED_RE = /^\s*Failed\s+(\S.*?)(\s+\[[^\]]{0,40}\])?\s*$/;
const DOTNET_MTP_FAILED_RE = /^\s*failed (\S.*?) \(\d+(?:\.\d+)?\s*(?:ms|s|m|h)\)\s*$/;
const DOTNET_MESSAGE_STOP = (l: string): boolean =>
  /^\s*(Stack Trace:|Standard Output Messages:|Standard Error Messages:|Failed\s|Passed\s|Skipped\s)/.test(l);

function dotnet(lines: string[], text: string): Candidate | null {
  if (!/Total:|Total tests:|Test summary:/i.test(text)) return null;
  const minimal: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const summary: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const legacy: Counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let lastMinimal = -1;
  let lastSummary = -1;
  let lastLegacy = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = DOTNET_MINIMAL_RE.exec(line);
    if (m) {
      lastMinimal = i;
      minimal.failed += num(m[1]);
      minimal.passed += num(m[2]);
      minimal.skipped += num(m[3]);
      minimal.total = (minimal.total ?? 0) + num(m[4]);
      continue;
    }
    const s = DOTNET_SUMMARY_RE.exec(line);
    if (s && /total:\s*\d+/i.test(s[1])) {
      lastSummary = i;
      for (const [, key, n] of s[1].matchAll(/\b([a-z]+):\s*(\d+)/gi)) {
        const v = num(n);
        const k = key.toLowerCase();
        if (k === 'total') summary.total = (summary.total ?? 0) + v;
        else if (k === 'failed' || k === 'error') summary.failed += v;
        else if (k === 'succeeded' || k === 'passed') summary.passed += v;
        else if (k === 'skipped') summary.skipped += v;
      }
      continue;
    }
    if (DOTNET_RUN_SUMMARY_RE.test(line)) {
      // Microsoft.Testing.Platform: "Test run summary: Failed! - MyTests.dll" then "  total: 5", "  failed: 1", …
      let found = false;
      for (let j = i + 1; j < Math.min(lines.length, i + 10); j++) {
        const kv = /^\s*(total|failed|succeeded|skipped|duration):\s*(\d*)/i.exec(lines[j]);
        if (!kv) break;
        const v = num(kv[2]);
        const k = kv[1].toLowerCase();
        if (k === 'total') [found, summary.total] = [true, (summary.total ?? 0) + v];
        else if (k === 'failed') summary.failed += v;
        else if (k === 'succeeded') summary.passed += v;
        else if (k === 'skipped') summary.skipped += v;
        if (found) lastSummary = j;
      }
      continue;
    }
    const t = DOTNET_TOTAL_RE.exec(line);
    if (t) {
      lastLegacy = i;
      legacy.total = (legacy.total ?? 0) + num(t[1]);
      // "Total tests: 5. Passed: 4. Failed: 1. Skipped: 0." or the same keys on the following lines
      const seen = new Set<string>();
      const take = (l: string): void => {
        for (const [, key, n] of l.matchAll(/\b(Passed|Failed|Skipped):\s*(\d+)/g)) {
          if (seen.has(key)) continue;
          seen.add(key);
          if (key === 'Passed') legacy.passed += num(n);
          else if (key === 'Failed') legacy.failed += num(n);
          else legacy.skipped += num(n);
        }
      };
      take(line.slice(t[0].length));
      for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
        if (!/^\s*(Passed|Failed|Skipped|Not Run|Total time):/.test(lines[j])) break;
        take(lines[j]);
        lastLegacy = j;
      }
    }
  }
  let counts: Counts;
  let last: number;
  if (lastMinimal >= 0) [counts, last] = [minimal, lastMinimal];
  else if (lastSummary >= 0) [counts, last] = [summary, lastSummary];
  else if (lastLegacy >= 0) [counts, last] = [legacy, lastLegacy];
  else return null;

  const failures = new Failures();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = DOTNET_FAILED_RE.exec(line);
    if (f) {
      let msgAt = -1;
      for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
        if (/^\s*Error Message:\s*$/.test(lines[j])) {
          msgAt = j;
          break;
        }
        if (!isBlank(lines[j])) break;
      }
      // a bare "Failed <name>" needs its "Error Message:" to be sure it is a test
      if (!f[2] && msgAt < 0) continue;
      failures.add(f[1], () => (msgAt >= 0 ? gather(lines, msgAt + 1, { max: 3, stop: DOTNET_MESSAGE_STOP }) : ''));
      continue;
    }
    const n = DOTNET_MTP_FAILED_RE.exec(line);
    if (n) failures.add(n[1], () => gather(lines, i + 1, { max: 3, minIndent: indentOf(line), stop: DOTNET_MESSAGE_STOP }));
  }
  return candidate('dotnet', counts, failures, last);
}
