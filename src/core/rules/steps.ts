// What the gate judges of one command line: the lines that stand for what it runs. A line is judged as
// written and as a POSIX shell reads its backslashes (`npm te\st` runs `npm test`), and so is every step
// it runs: each command of a chain (`&&`, `||`, `;`, `&`, pipes, subshells, `{ …; }`), and the lines a
// step hands to a shell or runs itself — `bash -c '…'`, `eval`, a line piped or fed into a shell
// (`echo npm test | bash`, `bash <<< 'npm test'`, a heredoc), `xargs npm <<< test`, `script -qc '…'`,
// `watch …`, `corepack npm test`, `$(…)`. The answer is the strongest over them (src/app/gate.ts): an
// exhausted approach is stopped wherever it appears in the line. Pure and bounded: never throws.

import { normalizeCwd } from '../approach';
import { argvLine, lex, posixLine, type Token } from '../approach/lexer';
import { needKey, resolveLine, type ScriptNeed, type ScriptTables } from '../approach/scripts';
import { editsBeforeRun, editsWorkspace, shellEffects, workSignature } from './shellEffects';

/** One line the gate judges for a command line. */
export interface GateLine {
  /** The command line judged: its approach key and its work come from it. */
  line: string;
  /** The line the door was given: every step's context (the files it names, whether it waits). */
  whole: string;
  /** An edit or an install runs before this step in the line (`sed -i … && npm test`): new work the first time. */
  editBefore: boolean;
  /** The folder this step runs in when it is not the door's (a package script runs in its package's folder), normalized. */
  cwd?: string;
}

/** Steps judged per line, at most (the line as written first). */
export const MAX_STEPS = 32;
/** Lines within lines (`bash -c "eval '…'"`) followed this deep. */
const MAX_DEPTH = 4;

/**
 * The lines that stand for `line`, each once, the line as written first (see the file's comment).
 * `redact`: applied to the shell's reading of the line, whose backslashes may have hidden a secret from
 * the redaction the line itself had (every step is a part of one of the two readings).
 */
export function gateSteps(line: string, redact: (text: string) => string = t => t): GateLine[] {
  const out: GateLine[] = [];
  const seen = new Set<string>();
  const add = (g: GateLine): void => {
    const id = `${g.editBefore ? 1 : 0}\u0000${g.line}`;
    // the line as written is always judged (a blank one runs nothing: allowed); its parts only when they say something
    if (out.length < MAX_STEPS && (g.line.trim() || !out.length) && !seen.has(id)) {
      seen.add(id);
      out.push(g);
    }
  };
  const plain = plainLine(line);
  const whole = { whole: line, editBefore: !plain && safeEditsBeforeRun(line) };
  add({ line, ...whole });
  const shellRead = posixLine(line);
  const posix = shellRead === line ? line : redact(shellRead);
  if (posix !== line) add({ line: posix, ...whole });
  // one command that hands nothing to another: its only step is itself
  if (plain && posix === line) return out;
  for (const reading of posix !== line ? [line, posix] : [line]) {
    try {
      for (const s of innerSteps(reading, 0, [], false)) add({ ...s, whole: line });
    } catch {
      // a line the reader cannot take apart is judged as written
    }
  }
  return out;
}

/** Programs that run a line or a command they are given (innerLines reads them). */
const RUNNERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'eval', 'xargs', 'script', 'watch', 'corepack']);

/** One simple command with no operator, redirection, substitution or quote-hidden line, whose program runs no line it is given. */
function plainLine(line: string): boolean {
  if (/[;&|<>()\n`$]/.test(line)) return false;
  const first = line.trim().split(/[ \t]+/).find(w => !ASSIGN.test(w));
  return first !== undefined && !RUNNERS.has(base(first)) && !WRAPS.has(base(first)) && base(first) !== 'timeout';
}

function safeEditsBeforeRun(line: string): boolean {
  try {
    return editsBeforeRun(shellEffects(line));
  } catch {
    return false;
  }
}

/** One stage of a pipeline as the steps reader sees it. */
interface Stage {
  words: string[];
  /** Files its `>`/`>>` write. */
  redirects: string[];
  /** Its `<<< word`. */
  hereString?: string;
  /** Its heredoc's body. */
  heredoc?: string;
  /** The words of the stage piped into it (`echo npm test | bash`). */
  fedBy?: string[];
  piped: boolean;
}

/** Shell keywords that open or close a compound command: `if npm test; then …; fi`, `{ make; }`, `for …; do …; done`. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'esac', 'time']);
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const CD = new Set(['cd', 'pushd', 'popd']);

/** The list elements of a line, each a pipeline of stages (heredoc bodies and here-strings kept with their stage). */
function elementsOf(line: string): Stage[][] {
  const bodies = heredocBodies(line);
  const elements: Stage[][] = [];
  let stages: Stage[] = [];
  let cur: Stage = { words: [], redirects: [], piped: false };
  let pending: { kind: 'write' | 'skip' | 'here' | 'doc' } | undefined;
  const endStage = (piped: boolean): void => {
    const words = stripReserved(cur.words);
    if (words.length || cur.redirects.length) stages.push({ ...cur, words });
    cur = { words: [], redirects: [], piped, ...(piped && words.length ? { fedBy: words } : {}) };
  };
  const endElement = (): void => {
    endStage(false);
    if (stages.length) elements.push(stages);
    stages = [];
  };
  for (const t of lex(line) as Token[]) {
    if (t.kind === 'redir') {
      if (t.complete) continue;
      if (t.text === '<<<') pending = { kind: 'here' };
      else if (t.text.startsWith('<<')) pending = { kind: 'doc' };
      else pending = { kind: /^(?:\d*>{1,2}\|?|&>>?)$/.test(t.text) ? 'write' : 'skip' };
      continue;
    }
    if (t.kind === 'op') {
      pending = undefined;
      if (t.text === '|') endStage(true);
      else endElement();
      continue;
    }
    if (pending) {
      if (pending.kind === 'write' && !/^(?:\/dev\/(?:null|stdout|stderr|tty)|&?\d*-?)$/.test(t.text)) cur.redirects.push(t.text);
      else if (pending.kind === 'here') cur.hereString = t.text;
      else if (pending.kind === 'doc') {
        const body = bodies.shift();
        if (body !== undefined) cur.heredoc = body;
      }
      pending = undefined;
      continue;
    }
    cur.words.push(t.text);
  }
  endElement();
  return elements;
}

function stripReserved(words: string[]): string[] {
  let k = 0;
  while (k < words.length && RESERVED.has(words[k])) k++;
  let end = words.length;
  while (end > k && words[end - 1] === '}') end--;
  return k || end < words.length ? words.slice(k, end) : words;
}

/** The bodies of the line's heredocs, in the order of their `<<` (the lexer skips them). */
function heredocBodies(line: string): string[] {
  if (!line.includes('<<')) return [];
  const out: string[] = [];
  const lines = line.split('\n');
  const queue: Array<{ delim: string; tabs: boolean }> = [];
  let body: string[] = [];
  for (let i = 0; i < lines.length && out.length < 16; i++) {
    const l = lines[i].replace(/\r$/, '');
    if (queue.length) {
      const doc = queue[0];
      if ((doc.tabs ? l.replace(/^\t+/, '') : l) === doc.delim) {
        out.push(body.join('\n'));
        body = [];
        queue.shift();
      } else body.push(l);
      continue;
    }
    for (const m of l.matchAll(/<<(-?)[ \t]*(['"]?)([A-Za-z_][\w.-]{0,40})\2/g)) {
      if (l[(m.index ?? 0) + 2] === '<') continue;
      queue.push({ delim: m[3], tabs: m[1] === '-' });
    }
  }
  return out;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);
const base = (w: string) => w.replace(/\\/g, '/').replace(/^.*\//, '').toLowerCase();
/** Wrappers the steps reader looks through to find a shell or a runner under them. */
const WRAPS = new Set(['env', 'sudo', 'doas', 'nohup', 'nice', 'ionice', 'stdbuf', 'exec', 'command', 'unbuffer', 'chronic', 'setsid', 'caffeinate']);

/** The words after wrappers and VAR=value prefixes: `sudo -E env X=1 bash -c …` → `bash -c …`. */
function unwrap(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    const b = base(w);
    if (ASSIGN.test(w)) i++;
    else if (WRAPS.has(b)) {
      i++;
      while (i < words.length && words[i].startsWith('-')) i += /^-[ugCDp]$/.test(words[i]) ? 2 : 1;
    } else if (b === 'timeout') {
      i++;
      while (i < words.length && words[i].startsWith('-')) i += /^-[sk]$/.test(words[i]) ? 2 : 1;
      i++; // the duration
    } else break;
  }
  return words.slice(i);
}

/** What `echo …` or `printf …` writes: the text a shell or xargs reads from the pipe. */
function echoed(words: readonly string[] | undefined): string | undefined {
  if (!words?.length) return undefined;
  const w = unwrap(words);
  const p = base(w[0] ?? '');
  if (p !== 'echo' && p !== 'printf') return undefined;
  const args = w.slice(1).filter((a, k) => !(p === 'echo' && k === 0 && /^-[neE]+$/.test(a)));
  return args.join(' ').replace(/\\n/g, '\n');
}

/** Flags of xargs, watch and script that take a value. */
const XARGS_VALUES = new Set(['-n', '-I', '-L', '-P', '-d', '-s', '-a', '-E', '--max-args', '--replace', '--max-lines', '--max-procs', '--delimiter', '--arg-file', '--eof']);
const WATCH_VALUES = new Set(['-n', '--interval', '-q', '--equexit', '-s', '--shell']);

/** `-c`, `-lc`, `-qc`: short flags, one of them `c` (the next word is a command line). */
const shortFlagsWithC = (a: string): boolean => /^-[a-z]+$/i.test(a) && a.toLowerCase().includes('c');

/** The command lines a stage runs besides its own words (a shell's input, a runner's command), or none. */
function innerLines(stage: Stage): string[] {
  const words = unwrap(stage.words);
  const p = base(words[0] ?? '');
  const args = words.slice(1);
  const out: string[] = [];
  // command substitutions run too: `echo $(npm test)`
  for (const w of stage.words) {
    const m = /^\$\((.*)\)$/s.exec(w) ?? /^`(.*)`$/s.exec(w);
    if (m && m[1].trim()) out.push(m[1]);
  }
  if (SHELLS.has(p)) {
    const c = args.findIndex(shortFlagsWithC);
    if (c >= 0 && args[c + 1] !== undefined) out.push(args[c + 1]);
    else if (!args.some(a => !a.startsWith('-'))) {
      // no script named: the shell reads its input
      const input = stage.hereString ?? stage.heredoc ?? echoed(stage.fedBy);
      if (input !== undefined) out.push(input);
    }
  } else if (p === 'eval' && args.length) {
    out.push(args.join(' '));
  } else if (p === 'xargs') {
    let k = 0;
    let replace: string | undefined;
    while (k < args.length && args[k].startsWith('-')) {
      if (/^-I./.test(args[k])) replace = args[k].slice(2);
      if (XARGS_VALUES.has(args[k])) {
        if (args[k] === '-I') replace = args[k + 1];
        k++;
      }
      k++;
    }
    const input = (stage.hereString ?? stage.heredoc ?? echoed(stage.fedBy) ?? '').trim();
    const cmd = args.slice(k);
    if (cmd.length) out.push(replace ? argvLine(cmd.map(w => w.split(replace!).join(input))) : `${argvLine(cmd)}${input ? ` ${input}` : ''}`);
  } else if (p === 'script') {
    const c = args.findIndex(a => a === '--command' || shortFlagsWithC(a));
    if (c >= 0 && args[c + 1] !== undefined) out.push(args[c + 1]);
    else {
      // BSD: script [-q] file command…
      const pos = args.findIndex(a => !a.startsWith('-'));
      if (pos >= 0 && args.length > pos + 1) out.push(argvLine(args.slice(pos + 1)));
    }
  } else if (p === 'watch') {
    let k = 0;
    while (k < args.length && args[k].startsWith('-')) k += WATCH_VALUES.has(args[k]) ? 2 : 1;
    if (k < args.length) out.push(args.slice(k).join(' '));
  } else if (p === 'corepack' && args.length && !args[0].startsWith('-')) {
    out.push(argvLine(args));
  }
  return out;
}

/**
 * A pipeline as one command line: each stage's words, and the heredoc each one reads (the script
 * `python - <<'EOF' … EOF` runs is its work: another body is other work).
 */
function pipelineLine(stages: readonly Stage[]): string {
  const bodies: string[] = [];
  const parts: string[] = [];
  for (const st of stages) {
    if (!st.words.length) continue;
    if (st.heredoc === undefined) {
      parts.push(argvLine(st.words));
      continue;
    }
    let delim = 'FM_EOF';
    while (st.heredoc.split('\n').includes(delim)) delim += '_';
    parts.push(`${argvLine(st.words)} <<'${delim}'`);
    bodies.push(`${st.heredoc}\n${delim}`);
  }
  return parts.length ? [parts.join(' | '), ...bodies].join('\n') : '';
}

/** Each step of `line` (recursively into the lines its steps run), with the `cd`s and assignments before it. */
function innerSteps(line: string, depth: number, prefix: readonly string[], editBefore: boolean): Array<Omit<GateLine, 'whole'>> {
  const out: Array<Omit<GateLine, 'whole'>> = [];
  const before = [...prefix];
  let edited = editBefore;
  for (const stages of elementsOf(line)) {
    if (out.length >= MAX_STEPS) break;
    const first = unwrap(stages[0].words);
    // `cd X` and `X=1` / `export X=1` carry over to the steps after them
    if (stages.length === 1 && first.length && (CD.has(base(first[0])) || first.every(w => ASSIGN.test(w)) || (first[0] === 'export' && first.slice(1).every(w => ASSIGN.test(w))))) {
      before.push(argvLine(first));
      continue;
    }
    let editsHere = false;
    // a pipeline is one step (`cat p2.lean | python run.py -` runs other data than `cat p.lean | …`); what its stages hand a shell is another
    const pipeline = pipelineLine(stages);
    if (pipeline) out.push({ line: [...before, pipeline].join(' && '), editBefore: edited });
    for (const stage of stages) {
      if (depth < MAX_DEPTH) for (const inner of innerLines(stage)) {
        out.push({ line: before.length ? `${before.join(' && ')} && ${inner}` : inner, editBefore: edited });
        out.push(...innerSteps(inner, depth + 1, before, edited));
      }
      if (editsWorkspace(stage.words, stage.redirects, stage.piped, line)) editsHere = true;
    }
    if (editsHere) edited = true;
  }
  return out;
}

/** A line the gate judges, with what it is: its approach, the folder it runs in, its work. */
export interface JudgedLine extends GateLine {
  key: string;
  cwd: string;
  /** The command line that does its work: its script's own command when it runs one (../approach/scripts.ts). */
  resolved: string;
  /** What it does, cosmetics aside (its scripts resolved): see StepContext in ./edits.ts. Read when asked. */
  readonly work: string;
}

/** A judged line whose work signature is computed when first read (only an exhausted approach's verdict and a record read it). */
function judged(g: GateLine & { cwd: string }, key: string, resolved: string): JudgedLine {
  let work: string | undefined;
  return { ...g, key, resolved, get work() {
    return (work ??= stepWork(resolved, key));
  } };
}

/**
 * What a command line does for its approach `key`, cosmetics aside (its work signature): a single command
 * is read from its approach's program on, so that the runners before it (`yarn jest`, `pnpm exec jest`,
 * `python -m pytest`) are not work of their own.
 */
export function stepWork(line: string, key: string): string {
  const program = key.slice(key.indexOf('::') + 2).split(' ')[0];
  if (!program || program.includes('/')) return workSignature(line);
  let tokens: Token[];
  try {
    tokens = lex(line);
  } catch {
    return workSignature(line);
  }
  if (tokens.some(t => t.kind !== 'word') || line.includes('\n')) return workSignature(line);
  const at = tokens.findIndex((t, k) => k > 0 && base(t.text).replace(/\.(?:cmd|exe|js)$/, '') === program);
  return workSignature(at > 0 ? argvLine(tokens.slice(at).map(t => t.text)) : line);
}

/** Script bodies followed this deep (a script that runs scripts that run scripts). */
const MAX_SCRIPT_DEPTH = 3;

/**
 * The lines the gate judges for `command` run in `cwd`, each with its approach key, its scripts resolved
 * through `tables` (../approach/scripts.ts): a script that runs several commands adds each of them as a
 * step. `missing`: the tables it needed and was not given (the app reads them and asks again). Lines
 * that are the same approach, edit context and work are judged once.
 */
export function judgedLines(command: string, cwd: string | undefined, tables?: ScriptTables, redact: (text: string) => string = t => t): { lines: JudgedLine[]; missing: ScriptNeed[] } {
  // a line is judged, then recorded (both read it, redacted the same way): the second reading is the first's
  const whole = redact(command);
  const memoKey = `${normalizeCwd(cwd)}\u0000${whole}`;
  if (!tables && lastJudged?.key === memoKey) return lastJudged.value;
  const value = judge(whole, cwd, tables, redact);
  if (!tables) lastJudged = { key: memoKey, value };
  return value;
}

let lastJudged: { key: string; value: ReturnType<typeof judgedLines> } | undefined;

function judge(whole: string, cwd: string | undefined, tables: ScriptTables | undefined, redact: (text: string) => string): { lines: JudgedLine[]; missing: ScriptNeed[] } {
  const home = normalizeCwd(cwd);
  const lines: JudgedLine[] = [];
  const missing = new Map<string, ScriptNeed>();
  const seen = new Set<string>();
  // redacted before it is taken apart, and so is the shell's reading of it (a secret its backslashes hid)
  const steps = (line: string) => gateSteps(redact(line), redact);
  const queue = gateSteps(whole, redact).map(g => ({ g, depth: 0 }));
  for (let next = queue.shift(); next && lines.length < MAX_STEPS; next = queue.shift()) {
    const { g, depth } = next;
    const at = g.cwd ?? home;
    const r = resolveLine(g.line, at, tables);
    for (const n of r.missing) missing.set(needKey(n), n);
    const j = judged({ ...g, cwd: at }, r.key, r.line);
    // judged once per approach, edit context and work (the work read only when the approach came up before)
    const id = `${j.key}\u0000${j.editBefore ? 1 : 0}`;
    if (seen.has(id) && lines.some(l => l.key === j.key && l.editBefore === j.editBefore && l.work === j.work)) continue;
    seen.add(id);
    lines.push(j);
    if (r.body && depth < MAX_SCRIPT_DEPTH) {
      for (const b of r.body) for (const s of steps(b)) queue.push({ g: { ...s, whole: g.whole, editBefore: g.editBefore || s.editBefore, cwd: r.cwd }, depth: depth + 1 });
    }
  }
  return { lines, missing: [...missing.values()] };
}
