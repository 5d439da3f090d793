// Error signatures: the most telling error line(s) of a command's output, normalized so that the
// same failure gives the same text on every run (timestamps, ports, temp paths, line numbers masked)
// while different failures stay different (./normalize.ts). Also: terminal-escape stripping and a coarse category.
// Pure TypeScript: no vscode, no fs.

import { PlainOutput, stripAnsi } from './ansi';
import { normalizeErrorLine } from './normalize';

// One escape stripper for the whole codebase (core/text/ansi.ts); re-exported for the callers that import it from here.
export { stripAnsi };

// ---------------------------------------------------------------------------------------------
// Picking the signature lines
// ---------------------------------------------------------------------------------------------

interface Rule {
  re: RegExp;
  score: number;
}

/** Wrapper lines: they say that something failed, not what. Matching one caps the line's score. */
const WEAK: Rule[] = [
  { re: /^make(?:\[\d+\])?: \*\*\* \[.*\] (?:Error \d+|Killed|Interrupt|Segmentation fault)/, score: 15 },
  { re: /^error Command failed with exit code/, score: 15 },
  { re: /\bELIFECYCLE\b|ERR_PNPM_RECURSIVE_(?:RUN|EXEC)_FIRST_FAIL/, score: 15 },
  {
    re: /^npm (?:ERR!|error) (?:code \d+\s*$|Lifecycle script|Failed at the|This is probably not a problem|command failed|\s*in workspace|\s*at location|Error: command failed)/,
    score: 15,
  },
  { re: /\b(?:Process completed|Process finished|exited|failed) with (?:exit )?code:? \d+/i, score: 15 },
  { re: /^exit status \d+$|^FAIL$|^FAIL\t/, score: 15 },
  { re: /^error: (?:could not compile|aborting due to|test failed, to rerun|Recipe `\S+` failed)/, score: 20 },
  { re: /^Found [1-9]\d* errors?\b|^\d+ errors? generated|^collect2: error: ld returned|linker command failed with exit code|^✖ \d+ problems?\b/, score: 20 },
  { re: /\bBUILD FAILED\b|\bBUILD FAILURE\b|^FAILURE: Build failed|Compilation failed; see the compiler error output|^\[ERROR\] Failed to execute goal/, score: 20 },
  { re: /^Error: Command failed:/, score: 25 },
  { re: /^(?:ERROR: )?failed to solve:/i, score: 30 },
  { re: /(?:Test Suites|Tests):\s+\d+ failed|^\d+ (?:failed|failing)\b|\b\d+ failed(?:,| in\b)|^test result: FAILED|^Automatic merge failed/, score: 35 },
];

/** Error markers; a line scores the best rule it matches. */
const STRONG: Rule[] = [
  { re: /^FAILED\s+\S+::\S+/, score: 105 }, // pytest summary line: test id + message
  { re: /^(?:[a-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception)(?: \[\w+\])?(?::\s*\S|$)/, score: 100 }, // TypeError: …, java.io.IOException: …
  { re: /^(?:Error|Exception)(?: \[\w+\])?:\s*\S/, score: 95 }, // plain Error: … (Node), Exception: … (Python)
  { re: /^(?:[a-z_][\w]*\.)+[A-Z]\w*:\s\S/, score: 90 }, // django.core.exceptions.ImproperlyConfigured: …
  { re: /(?:^|[\s:(\[])(?:[a-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception)(?: \[\w+\])?(?::\s|$)/, score: 85 },
  { re: /^Exception in thread /, score: 95 },
  { re: /^(?:Unhandled|Uncaught)\b.*(?:Error|Exception|Rejection)/, score: 90 },
  { re: /\berror [A-Z]{1,4}\d{2,6}\s*:/, score: 100 }, // tsc TS2322, csc CS0103, msvc C2065
  { re: /\berror\[E\d{4}\]/, score: 100 }, // rustc
  { re: /^(?:fatal|FATAL)(?: error)?:|\bfatal error:|^FATAL ERROR:/, score: 95 },
  { re: /^panic:|\bpanicked at\b/, score: 95 },
  { re: /command not found|is not recognized as (?:an internal or external command|the name of a cmdlet)|: not found$|executable file not found/, score: 100 },
  { re: /\bEADDRINUSE\b|address already in use|\b[Pp]ort \d+ is (?:already )?in use|port is already allocated/, score: 100 },
  { re: /heap out of memory|OutOfMemoryError|\bMemoryError\b|Cannot allocate memory|\bENOMEM\b|^Killed\b|Segmentation fault|core dumped|\bOOMKilled\b/, score: 95 },
  { re: /\bKilled\b/, score: 80 },
  { re: /\bENOSPC\b|No space left on device/, score: 95 },
  { re: /Cannot find (?:module|package)|No module named|Module not found|Can't resolve|cannot find package|no required module provides package|\bERR_MODULE_NOT_FOUND\b/, score: 100 },
  { re: /No such file or directory|\bENOENT\b|cannot find the (?:file|path) specified/i, score: 90 },
  { re: /Permission denied|\bEACCES\b|\bEPERM\b|Access is denied|Operation not permitted/i, score: 90 },
  { re: /^npm (?:ERR!|error) code E[A-Z0-9_]+/, score: 95 },
  {
    re: /\bERR_PNPM_\w+|\bE(?:RESOLVE|INTEGRITY|NOTEMPTY|EXIST|ISDIR|NOTDIR|BADENGINE|NOTSUP|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH|401|403|404|422|MFILE)\b/,
    score: 80,
  },
  { re: /Error response from daemon|Cannot connect to the Docker daemon/, score: 95 },
  {
    re: /undefined reference to|Undefined symbols? for architecture|cannot find symbol|unresolved external symbol|was not declared in this scope|undeclared identifier|\bundeclared\b|(?:^|\s)undefined: \S|(?:imported|declared) and not used|No rule to make target|missing separator/i,
    score: 90,
  },
  { re: /--- FAIL:|^test \S+ \.\.\. FAILED/, score: 90 },
  { re: /^●\s+(?!Console\b)\S/, score: 95 }, // jest: ● suite › test
  { re: /^(?:FAIL|✕|×|✗|✖|✘)\s+\S/, score: 50 },
  { re: /^\d+:\d+\s+error\s/, score: 85 }, // eslint
  { re: /^(?:\S+:\d+(?::\d+)?:\s*)?error:\s*\S/i, score: 85 },
  { re: /^CONFLICT\b/, score: 80 },
  { re: /^\[?ERROR\]?:?\s|^ERROR\b/, score: 50 },
  { re: /\b(?:denied|forbidden|unauthori[sz]ed)\b|authentication failed|bad credentials|invalid credentials/i, score: 85 },
  { re: /SyntaxError|syntax error|Unexpected token|Unexpected end of|invalid syntax|IndentationError|parse error/i, score: 85 },
  { re: /ECONNREFUSED|Connection refused|getaddrinfo|Could not resolve host|timed out|\btimeout\b|certificate|\bSSL\b|\bTLS\b/i, score: 75 },
  { re: /\b(?:Cannot|cannot|can't|Can't) \w+/, score: 75 },
  { re: /\b(?:Could not|could not|Couldn't|couldn't|Unable to|unable to|Failed to|failed to) \w+/, score: 65 },
  { re: /\bnot found\b|\bdoes not exist\b|\bno such\b/i, score: 65 },
  { re: /^(?:Expected values to be (?:strictly |loosely )?(?:deep-?)?equal|Expected "actual" to|The expression evaluated to a falsy value|Values (?:identical but not reference-equal|have same structure but are not reference-equal))/, score: 90 }, // node:assert
  { re: /\bassert(?:ion)?\b|\bexpect\(|\bexpected\b[^|]*?\b(?:got|but (?:got|was|received)|received)\b/i, score: 60 },
  { re: /\b(?:Aborted|abort|panic|fatal)\b/i, score: 50 },
  { re: /\berror\b|\bERR!/i, score: 40 },
  { re: /\bfail(?:ed|ure|ing|s)?\b/i, score: 35 },
  { re: /\b(?:invalid|unexpected|illegal|unknown|missing)\b/i, score: 30 },
];

/** Lines that never make a signature: stack frames, code frames, separators, log pointers. */
const NOISE: RegExp[] = [
  /^at\s+(?:async\s+)?\S.*(?:\)|:\d+|<anonymous>|native)$/, // JS / Java stack frames
  /^\.\.\. \d+ (?:more|common frames omitted)$/,
  /^File ".*", line \d+/,
  /^Traceback \(most recent call last\):?$/,
  /^(?:During handling of the above exception|The above exception was the direct cause)/,
  /^[\^~\s]+$/,
  /^>?\s*\d+\s*\|/, // code frames: "> 5 | expect(…)"
  /^[|>]/, // rust gutter, pytest source line, npm script header
  /^-->\s/,
  /^= (?:note|help):/,
  /^(?:note|help|hint)\s*:/i,
  /^\S+?:\d+(?::\d+)?:\s*(?:note|remark|hint|info):/i, // gcc/clang "main.c:3:5: note: …"
  /^Node\.js v\d/,
  /A complete log of this run can be found in/,
  /[/\\]_logs[/\\]\S*debug\S*\.log$/,
  /^npm (?:ERR!|error|warn|WARN|notice)\s*$/,
  /^npm (?:ERR!|error) (?:syscall|path|errno|cwd|signal|command (?!not found)|Log files were not written|You can rerun|\s*[/\\])/,
  /^npm (?:notice|timing|http|verb|sill)\b/,
  /^Require stack:$/,
  /^[\w-]+: [|>][-+]?\d*$/, // a YAML block's header (TAP's `error: |-`): its message is on the lines below
  /^(?:code|errno|syscall|path|address|port|dest|requireStack|url|type|signal|status|cmd|library|reason|opensslErrorStack):\s.*$/, // Node error object fields
  /^- \S+$/,
  /^\d+: 0x[0-9a-f]+ /,
  /^<--- .* --->$/,
  /^\[\d+:0x[0-9a-f]+\]/,
  /^[=\-_*#~.+<>!]{3,}$/,
  /^(?:FAILURES|ERRORS|short test summary info|warnings summary|test session starts)$/,
  /^● Console$/,
  /^console\.(?:log|error|warn|info|debug)$/,
  /^For more information about this error, try/,
  /^(?:Run with --(?:stacktrace|info|debug|scan)|\* Try:|\* What went wrong:|\[ERROR\] -> \[Help \d+\]|\[ERROR\] (?:To see the full stack trace|Re-run Maven|For more information about)|\[ERROR\]\s*$)/,
  /^info Visit /,
  /^(?:Done|✨\s+Done) in [\d.]+m?s\.?$/,
  /^(?:✓|✔|√|PASS\b|ok\s)/,
  /^… \[\d+ bytes omitted by Failure Memory\] …$/,
  /^Ran all test suites/,
];

/** Warnings are not errors: their lines are capped low whatever words they contain. */
const WARNING_RE = /^(?:\S+:\d+(?::\d+)?:\s*)?warning\b|^(?:npm )?WARN(?:ING)?\b|^npm warn\b|^\[WARN(?:ING)?\]|^\(node:\d+\) \w*Warning:|^\w*Warning:|^DeprecationWarning\b/i;
/** "0 errors", "no failures": words that mean the opposite of an error. */
const ZERO_RE = /\b(?:0|no|zero) (?:errors?|failures?|failed|problems?|warnings?)\b/gi;

interface Scored {
  index: number;
  score: number;
  display: string;
}

interface Cleaned {
  text: string;
  causedBy: boolean;
  pytestE: boolean;
}


const DECO = new Set(['=', '_', '-', '*', '#']);

/** The text inside a decoration line (`===== FAILURES =====`): at least 3 of = _ - * # on each side; '' otherwise. */
function decorated(s: string): string {
  let a = 0;
  while (a < s.length && DECO.has(s[a])) a++;
  let b = s.length;
  while (b > a && DECO.has(s[b - 1])) b--;
  if (a < 3 || s.length - b < 3) return '';
  return s.slice(a, b).trim();
}

function preClean(line: string): Cleaned {
  let s = line.trim();
  s = s.replace(/^#\d+ \d+(?:\.\d+)? /, ''); // docker BuildKit step prefix
  s = s.replace(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z /, ''); // CI log timestamps
  s = s.replace(/^##\[error\]|^::error[^:]*::/, '');
  const inner = decorated(s);
  if (inner) s = inner;
  let causedBy = false;
  let pytestE = false;
  const e = /^E\s{2,}(\S.*)$/.exec(s);
  if (e) {
    s = e[1];
    pytestE = true;
  }
  const c = /^(?:Caused by:|\[cause\]:)\s*(\S.*)$/.exec(s);
  if (c) {
    s = c[1];
    causedBy = true;
  }
  s = s.replace(/^Uncaught (?=\S*(?:Error|Exception)\b)/, '');
  return { text: s, causedBy, pytestE };
}

function isNoise(s: string): boolean {
  if (!s) return true;
  for (const re of NOISE) if (re.test(s)) return true;
  return false;
}

function scoreLine(s: string): number {
  for (const w of WEAK) if (w.re.test(s)) return w.score;
  const generic = s.replace(ZERO_RE, '');
  let best = 0;
  for (const r of STRONG) if (r.score > best && r.re.test(generic)) best = r.score;
  if (best > 10 && WARNING_RE.test(s)) return 10;
  return best;
}

/** The part of a chosen line worth keeping: compiler lines lose their location prefix. */
function clip(s: string): string {
  const code = /\berror (?:[A-Z]{1,4}\d{2,6}\s*:|\[E\d{4}\])|\berror\[E\d{4}\]/.exec(s);
  if (code && code.index > 0) return s.slice(code.index);
  const eslint = /^\d+:\d+\s+(error\s.*)$/.exec(s);
  if (eslint) return eslint[1];
  const loc = /^((?:[A-Za-z]:)?[^\s:()]+)(?:\(\d+,\d+\)|:\d+(?::\d+)?):\s*(\S.*)$/.exec(s);
  if (loc && /\.[A-Za-z]\w{0,7}$/.test(loc[1])) return loc[2];
  return s;
}

const MIN_SCORE = 15;
const NON_BLANK_RE = /\S/;
const SECOND_MIN_SCORE = 50;
const SCAN_LIMIT = 1_000_000;
const LINE_LIMIT = 2000;

export interface SignatureOptions {
  /**
   * When nothing looks like an error, use the last meaningful line of the output instead of ''.
   * Default true: callers ask for a signature when the exit was a failure. Pass false to get ''.
   */
  fallback?: boolean;
}

/**
 * The most telling error line(s) of a command's output (up to two, joined with ' | '), normalized
 * so that the same failure gives the same text on every run. Root causes beat wrapper lines
 * (`make: *** … Error 1`, `npm ERR! code 1`, `error Command failed…`); Python tracebacks and Java
 * `Caused by:` chains give their last exception. '' for empty output, and when nothing looks like
 * an error and `fallback` is false.
 */
export function errorSignature(output: string | PlainOutput, maxLength = 300, options: SignatureOptions = {}): string {
  if (!sourceOf(output) || maxLength <= 0) return '';
  const fallback = options.fallback ?? true;
  const { lines, cleaned, scored, lastMeaningful, preferLast } = scanLines(output);

  if (!scored.length) {
    if (!fallback || lastMeaningful < 0) return '';
    return bound([normalizeErrorLine(cleaned[lastMeaningful])], maxLength);
  }

  const primary = pickBest(scored, preferLast);
  const first = normalizeErrorLine(primary.display);
  let second = '';
  // A line that announces its message on the next line ("panicked at src/main.rs:2:5:") takes that line.
  if (/:$/.test(primary.display)) {
    for (let j = primary.index + 1; j < Math.min(lines.length, primary.index + 4); j++) {
      if (cleaned[j] !== undefined) {
        second = normalizeErrorLine(clip(cleaned[j]));
        break;
      }
    }
  }
  if (!second) {
    // best remaining line that says something the first does not; a bounded number of tries
    const rest = scored
      .filter(s => s !== primary && s.score >= SECOND_MIN_SCORE)
      .sort((a, b) => b.score - a.score || (preferLast ? b.index - a.index : a.index - b.index));
    const seen = new Set<string>();
    for (let k = 0; k < rest.length && seen.size < 50; k++) {
      if (seen.has(rest[k].display)) continue;
      seen.add(rest[k].display);
      const n = normalizeErrorLine(rest[k].display);
      if (n && n !== first && !first.includes(n) && !n.includes(first)) {
        second = n;
        break;
      }
    }
  }
  return bound(second && second !== first ? [first, second] : [first], maxLength);
}

/** The first (most telling) part of a signature, as the gate and the agents' summary compare it. */
export function signatureHead(signature: string): string {
  return signature.split(' | ')[0]?.trim() ?? '';
}

/**
 * The last line of `output` whose normalized form is `sig` (a signature's first part), as printed;
 * '' when none is. What the agents are shown as the last error (see agentContext.lastErrorLine).
 */
export function printedErrorLine(output: string | PlainOutput, sig: string): string {
  if (!sig || !sourceOf(output)) return '';
  const lines = typeof output === 'string' ? stripAnsi(output).split('\n') : output.lines;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line || line.length > 2000) continue;
    const n = normalizeErrorLine(line);
    if (n && (n === sig || sig.startsWith(n) || n.includes(sig))) return line;
  }
  return '';
}

/**
 * The error line a person would point at, as the output printed it (not normalized: real paths,
 * numbers and times stay): the line the signature is built from. '' when the output has none.
 * Output passed here must already be redacted.
 */
export function errorLine(output: string | PlainOutput, maxLength = 300): string {
  if (!sourceOf(output) || maxLength <= 0) return '';
  const { lines, cleaned, scored, lastMeaningful, preferLast } = scanLines(output);
  if (!scored.length) return lastMeaningful < 0 ? '' : truncate(cleaned[lastMeaningful].replace(/\s+/g, ' '), maxLength);
  const primary = pickBest(scored, preferLast);
  let line = cleaned[primary.index] ?? primary.display;
  if (/:$/.test(line)) {
    for (let j = primary.index + 1; j < Math.min(lines.length, primary.index + 4); j++) {
      if (cleaned[j] !== undefined) {
        line = `${line} ${clip(cleaned[j])}`;
        break;
      }
    }
  }
  return truncate(line.replace(/\s+/g, ' ').trim(), maxLength);
}

const sourceOf = (output: string | PlainOutput) => (typeof output === 'string' ? output : output.source);

/** The output's stripped text and lines: as the record read them once, unless a huge output must be cut first. */
function plainOf(output: string | PlainOutput): { text: string; lines: readonly string[] } {
  if (typeof output !== 'string' && output.source.length <= SCAN_LIMIT) return output;
  const text = stripAnsi(boundForScan(sourceOf(output)));
  return { text, lines: text.split('\n') };
}

function scanLines(output: string | PlainOutput): { lines: readonly string[]; cleaned: string[]; scored: Scored[]; lastMeaningful: number; preferLast: boolean } {
  const { text, lines } = plainOf(output);
  const preferLast = /Traceback \(most recent call last\)|^[ \t]*Caused by: /m.test(text);
  const scored: Scored[] = [];
  const cleaned: string[] = new Array<string>(lines.length);
  let lastMeaningful = -1;
  // outputs repeat lines (progress, the same warning per file): each distinct line is judged once
  const judged = new Map<string, JudgedLine | null>();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].length > LINE_LIMIT ? lines[i].slice(0, LINE_LIMIT) : lines[i];
    if (!NON_BLANK_RE.test(raw)) continue; // blank lines are most of some outputs: skip them cheaply
    let line = judged.get(raw);
    if (line === undefined) {
      line = judgeLine(raw);
      if (judged.size < MAX_JUDGED_LINES) judged.set(raw, line);
    }
    if (!line) continue;
    cleaned[i] = line.text;
    lastMeaningful = i;
    if (line.score >= MIN_SCORE) scored.push({ index: i, score: line.score, display: line.display });
  }
  return { lines, cleaned, scored, lastMeaningful, preferLast };
}

interface JudgedLine {
  text: string;
  score: number;
  display: string;
}

/** Distinct lines remembered per scan (a hostile output of a million different lines stays small). */
const MAX_JUDGED_LINES = 4096;

/** A non-blank line as the signature sees it: cleaned and scored; null for a noise line. */
function judgeLine(raw: string): JudgedLine | null {
  const c = preClean(raw);
  if (isNoise(c.text)) return null;
  let score = scoreLine(c.text);
  if (c.pytestE) score = Math.max(score, 45);
  if (c.causedBy && score >= 85) score += 5;
  return { text: c.text, score, display: score >= MIN_SCORE ? clip(c.text) : '' };
}

function pickBest(items: Scored[], preferLast: boolean): Scored {
  let best = items[0];
  for (const it of items) {
    if (it.score > best.score || (preferLast && it.score === best.score)) best = it;
  }
  return best;
}

/** Huge output: the head and the (more telling) tail, cut at line ends. */
function boundForScan(output: string): string {
  if (output.length <= SCAN_LIMIT) return output;
  const headEnd = output.lastIndexOf('\n', SCAN_LIMIT / 5);
  const tailStart = output.indexOf('\n', output.length - (SCAN_LIMIT * 4) / 5);
  return output.slice(0, headEnd > 0 ? headEnd : SCAN_LIMIT / 5) + '\n' + output.slice(tailStart > 0 ? tailStart + 1 : output.length - (SCAN_LIMIT * 4) / 5);
}

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 1) return s.slice(0, max);
  let cut = max - 1;
  const code = s.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // do not split a surrogate pair
  return s.slice(0, cut) + '…';
}

function bound(parts: string[], max: number): string {
  const first = truncate(parts[0], max);
  if (parts.length < 2) return first;
  const room = max - first.length - 3;
  if (room < 20) return first;
  return `${first} | ${truncate(parts[1], room)}`;
}

// ---------------------------------------------------------------------------------------------
// Category
// ---------------------------------------------------------------------------------------------

export type ErrorCategory =
  | 'missing_module'
  | 'command_not_found'
  | 'port_in_use'
  | 'permission_denied'
  | 'auth_failure'
  | 'missing_file'
  | 'type_error'
  | 'syntax_error'
  | 'runtime_error'
  | 'test_setup'
  | 'failing_assertion'
  | 'test_failure'
  | 'out_of_memory'
  | 'connection_refused'
  | 'dns'
  | 'tls'
  | 'network'
  | 'timeout'
  | 'dependency_conflict'
  | 'compilation_error'
  | 'unknown';

/**
 * Checked in order: specific root causes first, generic test/compile failures last. Each category
 * names one kind of cause, so that the advice fits it: a compiler rejecting the code (compilation,
 * type check, syntax) is not the program crashing when it runs (runtime); a test whose assertion
 * fails is not a test that could not start (setup); nothing listening (refused) is not a name that
 * does not resolve (DNS) or a certificate refused (TLS).
 */
const CATEGORY_RULES: ReadonlyArray<readonly [ErrorCategory, RegExp]> = [
  ['port_in_use', /\bEADDRINUSE\b|address already in use|\bport\b[^\n]{0,40}?\bis (?:already )?(?:in use|allocated)|port is already allocated/i],
  [
    'out_of_memory',
    /heap out of memory|Reached heap limit|OutOfMemoryError|\bMemoryError\b|\bENOMEM\b|Cannot allocate memory|out of memory|\bOOMKilled\b|\bOOM\b|\bKilled\b|exit(?:ed with)? code:? 137\b/,
  ],
  [
    'command_not_found',
    /command not found|is not recognized as (?:an internal or external command|the name of a cmdlet)|\bspawn \S+ ENOENT|ENOENT[^\n]*\bspawn\b|executable file not found|: not found\s*$|could not determine executable to run|Unknown command|is not a (?:git|docker|npm) command/m,
  ],
  [
    'dependency_conflict',
    /\bERESOLVE\b|peer dep|conflicting peer dependency|Could not resolve dependency|unable to resolve dependency tree|version solving failed|ResolutionImpossible|conflicting dependencies|dependency conflict|failed to select a version|incompatible (?:versions|dependencies)|\bE(?:PEER|BADENGINE)\b|requires a peer of/i,
  ],
  [
    'missing_module',
    /Cannot find (?:module|package)|No module named|ModuleNotFoundError|\bImportError\b|cannot find package|no required module provides package|Could not resolve (?!host\b|proxy\b)|Module not found|Can't resolve|Failed to resolve (?:import|entry|module)|unresolved import|(?:could not|can't) find crate|error\[E04(?:32|33|63)\]|error TS2307\b|Could not find a declaration file for module|cannot load such file|Could not find gem|ClassNotFoundException|NoClassDefFoundError|No matching distribution found|Could not find a version that satisfies|is not in (?:GOROOT|std)|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|\bcode E404\b|404 Not Found - GET|is not in (?:the npm|this) registry/i,
  ],
  [
    'auth_failure',
    /\bE40[13]\b|\b40[13]\s*(?:[-:]\s*)?(?:Unauthorized|Forbidden)\b|(?:HTTP\/[\d.]+|status(?: ?code)?|code|error|response|returned|responded with)[\s:=("']{1,3}(?:status |code |error:? )?40[13]\b|\bUnauthori[sz]ed\b|\bForbidden\b|authentication (?:failed|required)|\bbad credentials\b|invalid (?:credentials|token|api key|access token|username or password)|token (?:has )?expired|could not read Username|Permission denied \(publickey|not authori[sz]ed|requires? authentication|login required|docker login|pull access denied|Unable to authenticate|incorrect (?:username or )?password|password authentication failed|access denied for user/i,
  ],
  ['permission_denied', /\bEACCES\b|\bEPERM\b|Permission denied|Operation not permitted|Access is denied|access denied|insufficient permissions|Read-only file system|\bEROFS\b/i],
  [
    'connection_refused',
    /\bECONNREFUSED\b|Connection refused|Couldn't connect to server|Could not connect to (?:server|the server|host)|actively refused|is the server running|connection to server [^\n]{0,80} failed|Failed to connect to [^\n]{0,120}(?:refused|Couldn't connect)/i,
  ],
  ['dns', /\bENOTFOUND\b|\bEAI_AGAIN\b|getaddrinfo|Could not resolve host|Temporary failure in name resolution|Name or service not known|nodename nor servname|no such host|name resolution failed|DNS lookup failed/i],
  [
    'tls',
    /certificate (?:verify|has expired|is not (?:yet )?valid|signed by|chain|problem)|self[- ]signed certificate|unable to (?:get|verify) (?:local issuer|the first) certificate|\bCERT_[A-Z_]+|\bERR_TLS|\bERR_SSL|\bSSL(?:Error|_ERROR|: | routines)|SSL certificate|\bTLS handshake|handshake failure|wrong version number|x509:/,
  ],
  [
    'network',
    /\bECONNRESET\b|\bETIMEDOUT\b|\bENETUNREACH\b|\bEHOSTUNREACH\b|Connection reset|connection timed out|Network is unreachable|No route to host|network error|socket hang up|fetch failed|Failed to connect to|unable to access 'https?:/i,
  ],
  ['timeout', /\btimed? ?out\b|\btimeout\b|TimeoutError|deadline exceeded|Exceeded timeout|took too long/i],
  [
    'missing_file',
    /No such file or directory|\bENOENT\b|FileNotFoundError|FileNotFoundException|cannot find the (?:file|path) specified|(?:file|directory|path)\b[^\n]{0,80}?\b(?:does not exist|not found)|\bENOTDIR\b|Could not read package\.json|Cannot open (?:file|include file)|cannot access '/i,
  ],
  [
    'syntax_error',
    /SyntaxError|syntax error|Unexpected token|Unexpected end of (?:input|JSON|file)|Unexpected identifier|\bParseError\b|parse error|IndentationError|TabError|error TS1\d{3}\b|invalid syntax|[Uu]nterminated|JSONDecodeError|YAMLException|YAMLError|missing separator/i,
  ],
  // the compiler's type checker (tsc, rustc, javac, mypy): the code does not compile
  [
    'type_error',
    /error TS\d+|mismatched types|type mismatch|incompatible types|is not assignable to|error\[E0308\]|no (?:field|method) named|Argument of type|: error: Incompatible|error: incompatible types/,
  ],
  // a test that could not start: its setup, hooks or fixtures failed before any assertion ran
  [
    'test_setup',
    /Test suite failed to run|"(?:before|after) (?:all|each)" hook|\b(?:beforeAll|beforeEach|afterAll|afterEach|before|after)\b hook|hookFailed|ERROR at (?:setup|teardown) of|error in (?:setup|teardown)|fixture '[^'\n]+' not found|\[setup failed\]|SetUpError|OneTimeSetUp|Hook timed out|\bNo tests? found\b|no test files|found no tests?|could not (?:load|collect) tests?|ERROR collecting/i,
  ],
  [
    'failing_assertion',
    /AssertionError|AssertError|[Aa]ssertion (?:failed|`)|\bexpect\(|\bExpected:?[\s\S]{0,200}?\bReceived:|\bassert\b|\bassertEquals\b|ComparisonFailure|expected [^\n]{1,80} (?:to (?:be|equal|have|contain)|but (?:got|was))|Expected values to be (?:strictly |loosely )?(?:deep-?)?equal/,
  ],
  // the program started and crashed: an exception thrown while it ran (not a compiler's verdict)
  [
    'runtime_error',
    /\b(?:TypeError|ReferenceError|RangeError|URIError|EvalError|NameError|AttributeError|KeyError|IndexError|ValueError|ZeroDivisionError|RuntimeError|RecursionError|UnboundLocalError|NullPointerException|ClassCastException|IllegalArgumentException|IllegalStateException|ArrayIndexOutOfBoundsException|ArithmeticException|NoMethodError|ArgumentError|InvalidOperationException|NullReferenceException)\b|is not a function|is not a constructor|Cannot read propert(?:y|ies) of (?:undefined|null)|undefined is not an object|\bis not defined\b|Traceback \(most recent call last\)|Exception in thread|^(?:Uncaught|Unhandled)\b|UnhandledPromiseRejection|\bpanic:|panicked at|Segmentation fault|core dumped|^[ \t]+at (?:async )?[^\n(]{1,300}\([^\n()]{1,500}:\d+:\d+\)$/m,
  ],
  [
    'test_failure',
    /(?<!BUILD |[Cc]ompile\w{0,20} )\bFAILED\b|\bFAIL\b|\bTests?:\s+\d+ failed|(?<!\d)\d+ (?:failed|failing)\b|^[ \t]*●\s|--- FAIL|test result: FAILED|Failures: [1-9]|There (?:was|were) \d+ failures?|tests? failed|^not ok \d+/m,
  ],
  // what a compiler or linker says, with its own markers (a bare "error:" from any program is not one)
  [
    'compilation_error',
    /error\[E\d+\]|\berror [A-Z]{1,4}\d{3,5}\b|[Cc]ompilation (?:failed|error|terminated)|Compilation failure|[Ff]ailed to compile|could not compile|make(?:\[\d+\])?: \*\*\*|BUILD FAILED|BUILD FAILURE|(?<!\d)\d+ errors? generated|undefined reference to|\bld: |collect2|linker command failed|cannot find symbol|\bundefined: \w|declared and not used|\bcompile\w* FAILED|was not declared in this scope|undeclared identifier|undeclared \(first use|unresolved external symbol|^[^\s:]+\.(?:c|cc|cpp|cxx|h|hpp|go|rs|java|kt|scala|swift|cs|ts|tsx|m|zig|f90):\d+(?::\d+)?: (?:fatal )?error:/m,
  ],
];

function classify(text: string): ErrorCategory {
  for (const [category, re] of CATEGORY_RULES) if (re.test(text)) return category;
  return 'unknown';
}

/**
 * A coarse category for a signature or a whole output. For multi-line output the signature is
 * classified first (it names the root cause); the whole text only when that says nothing.
 */
export function errorCategory(text: string): ErrorCategory {
  if (!text) return 'unknown';
  if (!text.includes('\n')) return classify(text.length > LINE_LIMIT * 4 ? text.slice(0, LINE_LIMIT * 4) : text);
  const sig = errorSignature(text, 1000, { fallback: false });
  const bySignature = sig ? classify(sig) : 'unknown';
  if (bySignature !== 'unknown') return bySignature;
  return classify(stripAnsi(boundForScan(text)));
}
