// Approach identity: when are two command lines "the same approach" (the same base command, other flags)?
// Pure TypeScript: no vscode, no fs. Every function here is linear in its input and never throws.
//
// A command line is lexed shell-like (./lexer.ts), split into list elements (&& || ; & newlines: ./words.ts), the first
// useful stage of each pipeline is kept, `cd X` elements become a folder change, and the last remaining
// element is parsed: leading VAR=value words and wrappers (./wrappers.ts) are peeled off, the program name is
// canonicalized, and its family rule (./families/, one table entry per CLI) decides which positional
// arguments change WHAT is run. Flags and flag values never do.

import { FAMILIES, PLAIN } from './families';
import { GENERAL_VALUE_FLAGS, type FamilyRule } from './familyTypes';
import { lex, type Token } from './lexer';
import { clip, isAbsolutePath, joinCwd, normalizeCwd, scriptPath } from './paths';
import { CHARGE_TESTS, isHelpRun, isTestCommand, workArguments } from './work';
import { WRAPPERS, type WrapperRule } from './wrappers';
import { ASSIGNMENT_RE, assignmentsBefore, baseProgramName, canonicalProgram, cdTarget, classify, isFlag, isKnownProgram, listElements, own, stripReserved, stripVersion, type ElementKind, type ProgramName } from './words';

export interface ParsedCommand {
  /** Leading VAR=value names (names only, values dropped). */
  env: string[];
  /** Wrappers peeled off, outermost first: 'sudo', 'npx', 'time', 'python -m', './node_modules/.bin/' ... */
  wrappers: string[];
  /** Canonical program name, e.g. 'prisma', 'pytest', 'npm', 'git', 'make' (a script path for `./deploy.sh`). */
  program: string;
  /** Positional args that change WHAT is run (subcommands, package names, script names, make targets). */
  significant: string[];
  /** program + significant joined with a space, e.g. 'prisma generate', 'npm run build'. */
  label: string;
  /** If the line was `cd X && cmd`, the X (several cds are joined), so the caller can fold it into the folder. */
  cwdChange?: string;
}

const MAX_SIGNIFICANT = 12;
const MAX_DEPTH = 4;
const MAX_PEELS = 16;

/** Subcommand word of a known family: git push, rails db:migrate, dotnet app.dll, mix deps.get. */
const WORD_RE = /^[a-z0-9][a-z0-9._:+@-]*$/i;
/** Subcommand word of an unknown program or a script: lowercase letters, digits, dashes (flask run, uvicorn main:app). */
const STRICT_WORD_RE = /^[a-z][a-z0-9-]*(?::[a-z0-9-]+)*$/;
const NUMBER_RE = /^\d+([.:]\d+)*$/;

// ---------------------------------------------------------------------------------------------
// Family rules
// ---------------------------------------------------------------------------------------------

interface FlagSets {
  value: Set<string>;
  numeric: Set<string>;
}
const flagCache = new WeakMap<FamilyRule, FlagSets>();

function flagSets(rule: FamilyRule): FlagSets {
  let sets = flagCache.get(rule);
  if (!sets) {
    const value = new Set<string>();
    const numeric = new Set<string>();
    for (const f of [...GENERAL_VALUE_FLAGS, ...(rule.valueFlags ?? [])]) {
      const name = rule.ignoreCase ? f.toLowerCase() : f;
      if (name.endsWith('#')) numeric.add(name.slice(0, -1));
      else value.add(name);
    }
    for (const f of rule.boolFlags ?? []) {
      value.delete(f);
      numeric.delete(f);
    }
    sets = { value, numeric };
    flagCache.set(rule, sets);
  }
  return sets;
}

interface RuleResult {
  significant: string[];
  /** `bash -c "cmd"`: the inner command, parsed. */
  inner?: ParsedCommand;
  innerVia?: string;
  /** The words from this index (of args) are another program run by this one (node node_modules/.bin/jest, yarn jest). */
  delegateAt?: number;
  /** ... and it runs under this name when it differs from the word (node_modules/jest/bin/jest.js -> jest). */
  delegateName?: string;
}

const UNKNOWN_RULE: FamilyRule = { subcommands: 1 };
const PLAIN_RULE: FamilyRule = {};

/** An interpreter runs a script: the script (and a subcommand right after it) is what runs; undefined for a builtin. */
function interpreterScript(rule: FamilyRule, positionals: string[], positionIndex: number[], noScript: boolean): RuleResult | undefined {
  if (noScript) return { significant: [] };
  const first = positionals[0];
  if (first === undefined) return { significant: [] };
  if (!(rule.builtins && rule.builtins.includes(first.toLowerCase()))) {
    const path = scriptPath(first);
    const bin = /(^|\/)node_modules\/(.+\/)?([^/]+)$/.exec(path);
    if (bin) return { significant: [], delegateAt: positionIndex[0], delegateName: bin[3].replace(/\.[cm]?js$/, '') };
    const sig = [clip(path)];
    const second = positionals[1];
    // a subcommand of the script (manage.py migrate) directly follows it; after a flag it may be the flag's value
    if (second !== undefined && positionIndex[1] === positionIndex[0] + 1 && STRICT_WORD_RE.test(second) && second.length <= 40) sig.push(second);
    return { significant: sig };
  }
  return undefined;
}

/** npm-style script runners: `run X`, lifecycle scripts named bare, implicit scripts (yarn build); undefined otherwise. */
function scriptRunner(rule: FamilyRule, rs: NonNullable<FamilyRule['runScripts']>, positionals: string[], positionIndex: number[]): RuleResult | undefined {
  const first = positionals[0];
  if (first === undefined) return { significant: rs.bare ? [rs.bare] : [] };
  const lower = first.toLowerCase();
  const w = own(rule.aliases, lower) ?? lower;
  if (w === 'run') {
    const script = positionals[1];
    if (script === undefined) return { significant: ['run'] };
    return { significant: rs.lifecycle.includes(script) ? [script] : ['run', clip(script)] };
  }
  if (rs.lifecycle.includes(w)) return { significant: [w] };
  if (rs.implicit && !(rule.builtins && rule.builtins.includes(w))) {
    // yarn jest / pnpm prisma generate run a binary; yarn build runs a script
    if (isKnownProgram(baseProgramName(first))) return { significant: [], delegateAt: positionIndex[0] };
    return { significant: ['run', clip(first)] };
  }
  return undefined;
}

function applyRule(rule: FamilyRule, args: string[], depth: number): RuleResult {
  if (rule.innerAll) {
    return depth < MAX_DEPTH && args.length ? { significant: [], inner: parseLine(args.join(' '), depth + 1), innerVia: '' } : { significant: [] };
  }
  const { value, numeric } = flagSets(rule);
  const positionals: string[] = [];
  const positionIndex: number[] = [];
  let noScript = false;
  for (let j = 0; j < args.length; j++) {
    const a = args[j];
    const key = rule.ignoreCase ? a.toLowerCase() : a;
    if (rule.innerFlags && (rule.innerFlags.includes(key) || (rule.innerFlags.includes('-c') && /^-[a-z]+c$/i.test(a) && !a.startsWith('--')))) {
      const inner = rule.innerRest ? args.slice(j + 1).join(' ') : args[j + 1];
      if (inner !== undefined && depth < MAX_DEPTH) {
        return { significant: [], inner: parseLine(inner, depth + 1), innerVia: key };
      }
      break;
    }
    if (rule.scriptFlags && rule.scriptFlags.includes(key)) {
      const script = args[j + 1];
      return { significant: script === undefined ? [] : [clip(scriptPath(script))] };
    }
    if (a === '--') break;
    if (isFlag(a) || (rule.ignoreCase && /^\/[a-z?]$/i.test(a))) {
      const eq = key.indexOf('=');
      const name = eq > 0 ? key.slice(0, eq) : key;
      // only the interpreter's own flags count, not the script's (node x.js -p)
      if (rule.noScriptFlags && !positionals.length && rule.noScriptFlags.includes(name)) noScript = true;
      if (eq < 0 && j + 1 < args.length) {
        if (value.has(name) || (numeric.has(name) && NUMBER_RE.test(args[j + 1]))) j++;
      }
      continue;
    }
    if (ASSIGNMENT_RE.test(a)) continue; // make CC=gcc, rake VAR=x
    positionals.push(a);
    positionIndex.push(j);
    if (positionals.length >= 64) break;
  }

  // interpreters: the script is what runs
  if (rule.interpreter) {
    const r = interpreterScript(rule, positionals, positionIndex, noScript);
    if (r) return r;
  }
  // npm-style script runners
  if (rule.runScripts) {
    const r = scriptRunner(rule, rule.runScripts, positionals, positionIndex);
    if (r) return r;
  }

  const sig: string[] = [];
  let p = 0;
  let depthLeft = rule.subcommands ?? 0;
  // unknown program: a word after a flag may be that flag's value (psql -U postgres), so only a leading word counts
  if (rule === UNKNOWN_RULE && positionIndex[0] !== 0) depthLeft = 0;
  const wordRe = rule === UNKNOWN_RULE ? STRICT_WORD_RE : WORD_RE;
  while (depthLeft > 0 && p < positionals.length) {
    const raw = positionals[p];
    if (!wordRe.test(raw) || NUMBER_RE.test(raw) || raw.length > 40) break;
    let w = raw.toLowerCase();
    if (sig.length === 0) w = own(rule.aliases, w) ?? w;
    sig.push(w);
    p++;
    depthLeft--;
    depthLeft += own(rule.nested, sig.join(' ')) ?? 0;
  }
  const kind = own(rule.targets, sig.join(' '));
  if (kind !== undefined && p < positionals.length) {
    const rest = positionals.slice(p, p + MAX_SIGNIFICANT).map(clip);
    if (kind === 'one') sig.push(rest[0]);
    else if (kind === 'ordered') sig.push(...rest);
    else sig.push(...[...new Set(rest)].sort());
  }
  return { significant: sig.slice(0, MAX_SIGNIFICANT) };
}

// ---------------------------------------------------------------------------------------------
// One simple command: env, wrappers, program, significant
// ---------------------------------------------------------------------------------------------

/** Where a wrapper's wrapped program starts in `words` (from `start`), words.length if nothing follows, -1 if not wrapping. */
function peelWrapper(words: string[], start: number, rule: WrapperRule): { next: number; sub: string } {
  let j = start;
  let sub = '';
  let subMatched = !rule.sub;
  let skip = rule.skip ?? 0;
  const values = rule.valueFlags ?? [];
  while (j < words.length) {
    const w = words[j];
    if (w === '--') return subMatched ? { next: j + 1, sub } : { next: -1, sub };
    if (rule.programFlag && w === rule.programFlag) {
      return subMatched && j + 1 < words.length ? { next: j + 1, sub: sub || rule.programFlag } : { next: -1, sub };
    }
    if (isFlag(w)) {
      if (!w.includes('=') && values.includes(w)) j++;
      j++;
      continue;
    }
    if (!subMatched) {
      const match = (rule.sub ?? []).find((s) => s.split(' ').every((part, k) => (words[j + k] ?? '').toLowerCase() === part));
      if (match === undefined) return { next: -1, sub };
      sub = match;
      subMatched = true;
      j += match.split(' ').length;
      continue;
    }
    if (skip > 0) {
      skip--;
      j++;
      continue;
    }
    if (rule.programFlag && !rule.sub) return { next: -1, sub }; // python app.py: python is the program
    if (rule.doubleDash) {
      const dd = words.indexOf('--', j);
      if (dd >= 0) return { next: dd + 1, sub };
    }
    return { next: j, sub };
  }
  return subMatched ? { next: words.length, sub } : { next: -1, sub };
}

type Simple = Omit<ParsedCommand, 'label'>;

/** `$PY` / `${PY}` as a program word: the variable's name. */
const VAR_PROGRAM_RE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/** A program run through a variable set on the same line (`PY=.venv/bin/python $PY x.py`) is that program. */
function resolveVariable(word: string, vars: ReadonlyMap<string, string> | undefined): string {
  const m = VAR_PROGRAM_RE.exec(word);
  const value = m && vars?.get(m[1]);
  return value && !VAR_PROGRAM_RE.test(value) ? value : word;
}

function parseSimple(words: string[], depth: number, vars?: Map<string, string>): Simple {
  const env: string[] = [];
  const wrappers: string[] = [];
  let versioned = false;
  let i = 0;
  let lastWrapper: { at: number; prog: ProgramName; wrappersBefore: number } | undefined;
  for (let guard = 0; guard < MAX_PEELS && i < words.length; guard++) {
    while (i < words.length && (ASSIGNMENT_RE.test(words[i]) || words[i] === '')) {
      if (words[i] !== '') {
        const eq = words[i].indexOf('=');
        const name = words[i].slice(0, eq).replace(/\+$/, '');
        env.push(name);
        vars?.set(name, words[i].slice(eq + 1));
      }
      i++;
    }
    if (i >= words.length) break;
    words[i] = resolveVariable(words[i], vars);
    const prog = canonicalProgram(versioned ? stripVersion(words[i]) : words[i]);
    // `command -v jq` asks whether jq exists: it is not running jq
    if (prog.name === 'command' && /^-[vV]$/.test(words[i + 1] ?? '')) return { env, wrappers, program: 'command', significant: ['-v'] };
    const wrapper = prog.script ? undefined : own(WRAPPERS, prog.name);
    if (wrapper) {
      const { next, sub } = peelWrapper(words, i + 1, wrapper);
      if (next >= 0) {
        lastWrapper = { at: i, prog, wrappersBefore: wrappers.length };
        if (prog.prefix) wrappers.push(prog.prefix);
        wrappers.push(sub ? `${prog.name} ${sub}` : prog.name);
        versioned = wrapper.versioned === true;
        i = next;
        continue;
      }
    }
    if (prog.prefix) wrappers.push(prog.prefix);
    return finish(env, wrappers, prog, words.slice(i + 1), depth);
  }
  if (i < words.length) {
    // more nested wrappers than MAX_PEELS: take the current word as the program
    return finish(env, wrappers, canonicalProgram(words[i]), words.slice(i + 1), depth, true);
  }
  if (lastWrapper) {
    // a wrapper with nothing to wrap (`sudo`, `npx`, `python -m`) is the program itself
    wrappers.length = lastWrapper.wrappersBefore;
    if (lastWrapper.prog.prefix) wrappers.push(lastWrapper.prog.prefix);
    return finish(env, wrappers, lastWrapper.prog, words.slice(lastWrapper.at + 1), depth, true);
  }
  return { env, wrappers, program: '', significant: [] };
}

function finish(env: string[], wrappers: string[], prog: ProgramName, args: string[], depth: number, noDelegate = false): Simple {
  let name = prog.name;
  let rest = args;
  if (name.includes(' ')) {
    const parts = name.split(' ');
    name = parts[0];
    rest = [...parts.slice(1), ...args];
  }
  if (prog.script) {
    const sig = applyRule(UNKNOWN_RULE, rest, depth).significant;
    return { env, wrappers, program: clip(name), significant: isHelpRun(rest, name) ? [...sig, '--help'] : sig };
  }
  const rule = own(FAMILIES, name) ?? (PLAIN.has(name) ? PLAIN_RULE : UNKNOWN_RULE);
  const result = applyRule(rule, rest, depth);
  if (result.inner && result.inner.program) {
    const inner = result.inner;
    return {
      env: [...env, ...inner.env],
      wrappers: [...wrappers, `${name} ${result.innerVia ?? ''}`.trim(), ...inner.wrappers],
      program: inner.program,
      significant: inner.significant,
      ...(inner.cwdChange !== undefined ? { cwdChange: inner.cwdChange } : {}),
    };
  }
  if (result.delegateAt !== undefined && !noDelegate && depth < MAX_DEPTH) {
    const delegated = rest.slice(result.delegateAt);
    if (result.delegateName) delegated[0] = result.delegateName;
    const inner = parseSimple(delegated, depth + 1);
    if (inner.program) {
      return {
        env: [...env, ...inner.env],
        wrappers: [...wrappers, name, ...inner.wrappers],
        program: inner.program,
        significant: inner.significant,
      };
    }
  }
  return { env, wrappers, program: clip(name), significant: [...result.significant, ...workArguments(name, rest, result.significant).map(clip), ...(isHelpRun(rest, name, rule) ? ['--help'] : [])] };
}


function emptyParsed(): ParsedCommand {
  return { env: [], wrappers: [], program: '', significant: [], label: '' };
}

/**
 * The tokens of the line lexed last (read-only to every reader here): recording one run reads its
 * command line three or four times (its program, its last pipeline, its approach key).
 */
let lastLexed: { line: string; tokens: Token[] } | undefined;
function tokensOf(line: string): Token[] {
  if (lastLexed?.line !== line) lastLexed = { line, tokens: lex(line) };
  return lastLexed.tokens;
}

/** The list element of a line that is its approach (see parseLine), with every element and the operator after each. */
export function chooseElement(line: string, depth: number, charge?: string): { elements: string[][]; kinds: ElementKind[]; ops: string[]; chosen: number } | undefined {
  const ops: string[] = [];
  const elements = listElements(tokensOf(line), ops);
  if (!elements.length) return undefined;
  const kinds = elements.map(classify);
  let chosen = kinds.lastIndexOf('real');
  if (chosen < 0) chosen = kinds.lastIndexOf('tidy');
  if (charge !== undefined) {
    // the step the shell named as failing (`killall: not found`) is the approach the failure belongs to
    for (let k = elements.length - 1; k >= 0; k--) {
      if (kinds[k] !== 'real' && kinds[k] !== 'tidy') continue;
      const step = parseSimple(elements[k], depth, assignmentsBefore(elements, k));
      if (charge === CHARGE_TESTS ? isTestCommand(step.program, step.significant) : step.program === charge) {
        chosen = k;
        break;
      }
    }
  }
  if (chosen < 0) chosen = kinds.lastIndexOf('noise');
  if (chosen < 0) chosen = elements.length - 1; // only cds: the cd itself is the command
  return { elements, kinds, ops, chosen };
}

function parseLine(line: string, depth: number, charge?: string): ParsedCommand {
  const choice = chooseElement(line, depth, charge);
  if (!choice) return emptyParsed();
  const { elements, kinds, chosen } = choice;
  // collect the cd targets and normalize once (a line of 10,000 cds stays linear)
  let cwdParts: string[] = [];
  const moveTo = (target: string): void => {
    if (isAbsolutePath(target)) cwdParts = [target];
    else cwdParts.push(target);
  };
  for (let k = 0; k < chosen; k++) {
    if (kinds[k] !== 'cd') continue;
    const target = cdTarget(elements[k]);
    if (target !== undefined) moveTo(target);
  }
  const simple = parseSimple(elements[chosen], depth, assignmentsBefore(elements, chosen));
  if (simple.cwdChange !== undefined) moveTo(simple.cwdChange);
  const cwd = cwdParts.length ? normalizeCwd(cwdParts.join('/')) : undefined;
  const label = simple.program ? [simple.program, ...simple.significant].join(' ') : '';
  const parsed: ParsedCommand = {
    env: simple.env,
    wrappers: simple.wrappers,
    program: simple.program,
    significant: simple.significant,
    label,
  };
  if (cwd !== undefined && cwd !== '.') parsed.cwdChange = cwd;
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** Shell-like words: quotes ('...', "..."), backslash escapes, whitespace; && || ; | & ( ) and redirections are separate tokens. */
export function tokenize(commandLine: string): string[] {
  try {
    return typeof commandLine === 'string' ? tokensOf(commandLine).map((t) => t.text) : [];
  } catch {
    return [];
  }
}

export function parseCommand(commandLine: string): ParsedCommand {
  try {
    return typeof commandLine === 'string' ? parseLine(commandLine, 0) : emptyParsed();
  } catch {
    return emptyParsed();
  }
}

/** The programs of a line's last pipeline (first word of each stage, base names): `ps aux | grep apt` -> ['ps', 'grep']. */
export function lastPipeline(commandLine: string): string[] {
  try {
    const tokens = tokensOf(typeof commandLine === 'string' ? commandLine : '');
    let stages: string[][] = [[]];
    for (const t of tokens) {
      if (t.kind === 'op' && t.text === '|') stages.push([]);
      else if (t.kind === 'op' && t.text !== '(' && t.text !== ')') stages = [[]];
      else if (t.kind === 'word') stages[stages.length - 1].push(t.text);
    }
    if (stages.length === 1 && stages[0].length === 0) return [];
    return stages.map(words => parseSimple(stripReserved(words), 0).program);
  } catch {
    return [];
  }
}

/** Human label of the approach: 'prisma generate', 'npm run build', 'make clean'; '' for an empty line. */
export function approachLabel(commandLine: string): string {
  return parseCommand(commandLine).label;
}

/**
 * `${folder}::${label}`: same base command in the same folder is the same approach. A leading `cd X &&` moves the folder.
 * `charge`: the program the failure belongs to when the shell named it (`X: not found`); ignored when no step runs it.
 */
export function approachKey(commandLine: string, cwd?: string, charge?: string): string {
  let parsed: ParsedCommand;
  try {
    parsed = typeof commandLine === 'string' ? parseLine(commandLine, 0, charge) : emptyParsed();
  } catch {
    parsed = emptyParsed();
  }
  const folder = parsed.cwdChange !== undefined ? joinCwd(normalizeCwd(cwd), parsed.cwdChange) : normalizeCwd(cwd);
  return `${folder}::${parsed.label}`;
}

