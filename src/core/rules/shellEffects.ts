// What a shell command line does to the workspace besides running its approach: the files it writes
// (`sed -i`, `cat > f <<EOF`, `tee`, `cp`, `git apply`…), the packages it installs, the background jobs
// and services it starts, and whether it only reads (`sleep 30; tail log`, `ps aux | grep x`). The
// judgement uses these as evidence: an edit between two failing runs is trying a fix, a job started is
// something a probe may be waiting for. Pure and linear in the line's length; never throws.

import { stripAnsi } from '../text/ansi';
import { lex, type Token } from '../approach/lexer';

/** One list element of a line (split on && || ; & newlines): its words and its output redirections. */
interface Element {
  words: string[];
  /** Files written by `>`, `>>`, `>|`, `&>` (never /dev/null or a file descriptor). */
  redirects: string[];
  /** The element runs in the background (`cmd &`). */
  background: boolean;
  /** The element is a later stage of a pipeline (`… | tee f`). */
  piped: boolean;
}

export interface ShellEffects {
  /** Files the line writes (relative as written), at most MAX_PATHS. */
  writes: string[];
  /** It installs, removes or syncs packages: what the next run imports has changed. */
  installs: boolean;
  /** The index (in `elements`) of the first element that edits or installs; -1 when none does. */
  firstEdit: number;
  /** The index of the element the approach runs (the last one that is neither an edit nor bookkeeping). */
  runIndex: number;
  /** It starts a background job or a service a probe may wait for. */
  starts: boolean;
  /** Every element only reads (inspection, waiting): nothing is written, installed or started. */
  readOnly: boolean;
  /** It waits before it looks: `sleep 30`, `wait`, `watch`, `tail -f`. */
  waits: boolean;
}

const MAX_PATHS = 16;
const MAX_ELEMENTS = 200;

const NULL_TARGET = /^(?:\/dev\/(?:null|stdout|stderr|tty)|&?\d*-?)$/;

function elementsOf(tokens: readonly Token[]): Element[] {
  const out: Element[] = [];
  let cur: Element = { words: [], redirects: [], background: false, piped: false };
  let target: string | null = null; // the redirection whose target word comes next
  const end = (background: boolean, nextPiped: boolean): void => {
    if (cur.words.length || cur.redirects.length) out.push({ ...cur, background });
    cur = { words: [], redirects: [], background: false, piped: nextPiped };
  };
  for (const t of tokens) {
    if (out.length >= MAX_ELEMENTS) break;
    if (t.kind === 'redir') {
      const writes = /^(?:\d*>{1,2}\|?|&>>?)$/.test(t.text);
      target = !t.complete && writes ? t.text : !t.complete ? '' : null;
      continue;
    }
    if (t.kind === 'op') {
      target = null;
      if (t.text === '|') end(false, true);
      else if (t.text === '(' || t.text === ')') continue;
      else end(t.text === '&', false);
      continue;
    }
    if (target !== null) {
      if (target && !NULL_TARGET.test(t.text)) cur.redirects.push(t.text);
      target = null;
      continue;
    }
    cur.words.push(t.text);
  }
  end(false, false);
  return out;
}

const base = (w: string) => w.replace(/\\/g, '/').replace(/^.*\//, '').toLowerCase().replace(/^(python|pip)\d+(\.\d+)*$/, '$1');
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Wrappers and package runners that run the program after them: `npx jest` and `jest` do the same work. */
const PEEL = new Set(['sudo', 'env', 'time', 'nohup', 'timeout', 'nice', 'stdbuf', 'exec', 'command', 'setsid', 'xargs', 'npx', 'pnpx', 'bunx', 'uvx', 'corepack']);
/** Runners named by two words: `pnpm exec jest`, `uv run pytest`, `poetry run pytest`. */
const PEEL_TWO: Readonly<Record<string, string>> = { npm: 'exec', pnpm: 'exec', yarn: 'exec', bun: 'x', uv: 'run', poetry: 'run', pdm: 'run', pipenv: 'run', hatch: 'run', rye: 'run' };

/** The program of an element and its arguments, wrappers and VAR=value prefixes peeled. */
function programOf(words: readonly string[]): { program: string; args: string[] } {
  let i = 0;
  for (;;) {
    const w = words[i];
    if (w === undefined) break;
    const b = base(w);
    if (ASSIGN.test(w) || PEEL.has(b) || (base(words[i - 1] ?? '') === 'timeout' && /^\d/.test(w)) || (i > 0 && w.startsWith('-') && PEEL.has(base(words[i - 1])))) i++;
    else if (Object.prototype.hasOwnProperty.call(PEEL_TWO, b) && (words[i + 1] ?? '').toLowerCase() === PEEL_TWO[b] && i + 2 < words.length) i += 2;
    else break;
  }
  return { program: i < words.length ? base(words[i]) : '', args: words.slice(i + 1) };
}

const positional = (args: readonly string[]) => args.filter(a => !a.startsWith('-'));

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/** The command line `eval …` or `sh -c '…'` runs, else undefined. */
function innerLine(program: string, args: readonly string[]): string | undefined {
  if (program === 'eval') return args.length ? args.join(' ') : undefined;
  if (!SHELLS.has(program)) return undefined;
  const c = args.findIndex(a => a.startsWith('-') && !a.startsWith('--') && /^-[a-z]+$/.test(a) && a.includes('c'));
  return c >= 0 && args[c + 1] !== undefined ? args[c + 1] : undefined;
}

/** Files an in-place editor writes: `sed -i 's/a/b/' f.py g.py`, `perl -pi -e '…' f`. */
function inPlaceTargets(program: string, args: readonly string[]): string[] | undefined {
  if (program === 'sed' || program === 'gsed') {
    if (!args.some(a => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return undefined;
    const pos = positional(args);
    const hasScriptFlag = args.some(a => a === '-e' || a === '-f' || a === '--expression');
    return hasScriptFlag ? pos.slice(0) : pos.slice(1);
  }
  if (program === 'perl' || program === 'ruby') {
    if (!args.some(a => /^-[a-zA-Z]*i/.test(a))) return undefined;
    const files: string[] = [];
    for (let k = 0; k < args.length; k++) {
      if (/^-[a-zA-Z]*e$/.test(args[k])) k++;
      else if (!args[k].startsWith('-')) files.push(args[k]);
    }
    return files;
  }
  return undefined;
}

const GIT_WRITES = new Set(['apply', 'am', 'checkout', 'restore', 'reset', 'stash', 'pull', 'merge', 'rebase', 'cherry-pick', 'revert', 'switch', 'mv', 'rm']);
const COPIES = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);
const REMOVES = new Set(['rm', 'unlink', 'rmdir', 'truncate']);

/** Package managers and the verbs that change what is installed. */
const INSTALLERS: Record<string, RegExp> = {
  pip: /^(?:install|uninstall)$/,
  uv: /^(?:add|remove|sync|pip)$/,
  poetry: /^(?:add|remove|install|update)$/,
  npm: /^(?:install|i|ci|add|uninstall|remove|rm|update|link)$/,
  yarn: /^(?:add|remove|install|upgrade)$/,
  pnpm: /^(?:add|remove|install|i|update)$/,
  bun: /^(?:add|remove|install|i)$/,
  apt: /^(?:install|remove|purge)$/,
  'apt-get': /^(?:install|remove|purge)$/,
  conda: /^(?:install|remove|update|create)$/,
  mamba: /^(?:install|remove|update|create)$/,
  cargo: /^(?:add|remove|install|update)$/,
  go: /^(?:get|install)$/,
  gem: /^(?:install|uninstall)$/,
  bundle: /^(?:install|add|update)$/,
  brew: /^(?:install|uninstall|upgrade)$/,
  composer: /^(?:install|require|remove|update)$/,
  dotnet: /^(?:add|restore)$/,
};

/** Inline code that writes a file (`python -c "open('f','w').write(…)"`, a heredoc script doing so). */
const INLINE_WRITE = /\.write_text\(|\.write_bytes\(|open\([^)]*['"][wa]\+?b?['"]|writeFileSync\(|json\.dump\(|\.to_csv\(|shutil\.(?:copy|move)/;
const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'perl']);

interface ElementEffect {
  writes: string[];
  installs: boolean;
}

/** What one element writes or installs; undefined when it neither edits nor installs. */
function editOf(e: Element, line: string): ElementEffect | undefined {
  const { program, args } = programOf(e.words);
  const inPlace = inPlaceTargets(program, args);
  if (inPlace) return { writes: inPlace, installs: false };
  const installVerb = INSTALLERS[program];
  const pos = positional(args);
  if (installVerb && pos.length && installVerb.test(pos[0].toLowerCase())) return { writes: [], installs: true };
  if (program === 'python' && /^(?:setup\.py)$/.test(pos[0] ?? '') && /^(?:install|develop)$/.test(pos[1] ?? '')) return { writes: [], installs: true };
  if (program === 'tee') return { writes: pos, installs: false };
  if (program === 'patch') return { writes: pos.slice(0, 1), installs: false };
  if (program === 'git' && GIT_WRITES.has((pos[0] ?? '').toLowerCase())) return { writes: pos.slice(1), installs: false };
  if (COPIES.has(program) && pos.length >= 2) return { writes: [pos[pos.length - 1]], installs: false };
  if (REMOVES.has(program) && pos.length) return { writes: pos, installs: false };
  // a writer whose output goes to a file: `cat > f.py <<EOF`, `echo x >> .env`, `printf … > cfg`
  if (e.redirects.length && (['cat', 'echo', 'printf', 'tee', 'envsubst', ''].includes(program) || e.piped)) return { writes: e.redirects, installs: false };
  // inline code that writes files (only when the whole line says so: a heredoc's body is not lexed)
  if (INTERPRETERS.has(program) && (args.includes('-c') || args.includes('-e') || args.includes('-')) && INLINE_WRITE.test(line)) return { writes: [], installs: false };
  return undefined;
}

/** Commands that keep running as a service a probe can wait for. */
const SERVICE_RE =
  /^(?:docker (?:run\b.*\s-d\b|compose up|start|restart)|docker-compose up|podman (?:run\b.*\s-d\b|compose up|start)|systemctl (?:start|restart)|service \S+ (?:start|restart)|pm2 (?:start|restart)|(?:npm|pnpm|yarn|bun) (?:start|run (?:dev|start|serve|preview))|(?:yarn|pnpm|bun) (?:dev|serve|preview)|python -m http\.server|uvicorn|gunicorn|hypercorn|flask run|rails (?:s|server)|php -S|next (?:dev|start)|vite|http-server|serve|kubectl (?:apply|create|rollout restart|run)|brew services (?:start|restart)|pg_ctl\b.*\bstart|redis-server|mongod|ollama serve|jupyter (?:notebook|lab))\b/;

function startsService(e: Element): boolean {
  const { program, args } = programOf(e.words);
  const line = [program, ...args].join(' ');
  return SERVICE_RE.test(line);
}

/** Programs that only read or wait. */
const READERS = new Set([
  'sleep', 'tail', 'head', 'cat', 'less', 'more', 'ls', 'll', 'ps', 'pgrep', 'grep', 'egrep', 'fgrep', 'rg', 'wc', 'find', 'du', 'df', 'stat',
  'date', 'echo', 'printf', 'nvidia-smi', 'jq', 'pwd', 'file', 'tree', 'top', 'htop', 'free', 'uptime', 'watch', 'which', 'test', '[', '[[',
  'awk', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'true', 'wait', 'cd', 'lsof', 'ss', 'netstat', 'nc', 'curl', 'wget', 'id', 'whoami',
  'env', 'printenv', 'type', 'basename', 'dirname', 'realpath', 'readlink', 'md5sum', 'sha256sum', 'xxd', 'od', 'column', 'nl', 'seq',
]);

function reads(e: Element): boolean {
  if (e.redirects.length) return false;
  const { program, args } = programOf(e.words);
  if (!program) return true;
  if (program === 'find' && args.some(a => a === '-delete' || a === '-exec' || a === '-execdir')) return false;
  if (program === 'git') return /^(?:status|log|diff|show|branch|rev-parse|ls-files)$/.test(positional(args)[0] ?? '');
  if (program === 'curl' || program === 'wget') return !args.some(a => /^-(?:[a-zA-Z]*[dFTo]|X)$|^--(?:data|form|upload-file|output|request)/.test(a));
  return READERS.has(program);
}

const NONE: ShellEffects = { writes: [], installs: false, firstEdit: -1, runIndex: -1, starts: false, readOnly: true, waits: false };

/** An element that waits: `sleep 30`, `wait`, `watch …`, `tail -f log`, `inotifywait`. */
function waitsFor(e: Element): boolean {
  const { program, args } = programOf(e.words);
  if (program === 'sleep') return positional(args).some(a => /^\d+(?:\.\d+)?[smh]?$/.test(a) && parseFloat(a) > 0);
  if (program === 'tail') return args.some(a => /^-[a-zA-Z]*[fF]/.test(a) || a === '--follow');
  return program === 'wait' || program === 'watch' || program === 'inotifywait';
}

/**
 * One element of a line (its words, the files its `>`/`>>` write, whether output is piped into it) edits
 * or installs: `sed -i … f`, `cat > f`, `npm install x`, `git checkout f`. `line`: the whole line (inline code).
 */
export function editsWorkspace(words: readonly string[], redirects: readonly string[], piped: boolean, line: string): boolean {
  return editOf({ words: [...words], redirects: [...redirects], background: false, piped }, line) !== undefined;
}

/** What `commandLine` writes, installs and starts, and whether it only reads. */
export function shellEffects(commandLine: string): ShellEffects {
  let elements: Element[];
  try {
    // terminal escapes and control bytes are not work (the approach key ignores them too); stripAnsi takes them all
    const line = typeof commandLine === 'string' ? stripAnsi(commandLine.slice(0, 100_000)) : '';
    elements = elementsOf(lex(line));
  } catch {
    return NONE;
  }
  if (!elements.length) return NONE;
  const writes: string[] = [];
  let installs = false;
  let firstEdit = -1;
  let runIndex = -1;
  let starts = false;
  let readOnly = true;
  let waits = false;
  elements.forEach((e, k) => {
    if (waitsFor(e)) waits = true;
    const edit = editOf(e, commandLine);
    if (edit) {
      if (firstEdit < 0) firstEdit = k;
      installs ||= edit.installs;
      for (const w of edit.writes) if (writes.length < MAX_PATHS && !writes.includes(w)) writes.push(w);
    } else if (!e.piped && programOf(e.words).program && !BOOKKEEPING.has(programOf(e.words).program) && programOf(e.words).program !== 'mkdir') {
      runIndex = k;
    }
    if (e.background || startsService(e)) starts = true;
    if (edit || e.background || !reads(e)) readOnly = false;
  });
  if (starts) readOnly = false;
  return { writes, installs, firstEdit, runIndex, starts, readOnly, waits };
}

/** The line edits (or installs) before the run it checks: `sed -i … && python x.py`, `cat > t.py <<EOF … python t.py`. */
export function editsBeforeRun(e: ShellEffects): boolean {
  return e.firstEdit >= 0 && e.runIndex > e.firstEdit;
}

/** The line changes the workspace at all (files written or packages installed). */
export function changesWorkspace(e: ShellEffects): boolean {
  return e.firstEdit >= 0;
}

/** Elements that say or wait but do no work of their own (`… && echo done`, `sleep 3 && curl …`). */
const BOOKKEEPING = new Set(['cd', 'echo', 'printf', 'true', ':', 'sleep', 'pwd', 'date', 'clear', 'export', 'set', 'unset', 'wait', 'source', '.']);
const PLUMBING = new Set(['tail', 'head', 'grep', 'egrep', 'fgrep', 'rg', 'sed', 'awk', 'cut', 'sort', 'uniq', 'tee', 'less', 'more', 'wc', 'tr', 'column', 'cat']);

/**
 * What a line does, without its cosmetics: each element's program and its non-flag arguments (numbers
 * left out), later pipeline stages that only filter the output (`| tail -30`, `| grep x`) left out, and
 * the text after the first line (a heredoc's body, a script's further lines) kept. Two lines with the
 * same work signature run the same thing: `python x.py 2>&1 | tail -20` and `python3 x.py | tail -50`.
 */
export function workSignature(commandLine: string, depth = 0): string {
  let elements: Element[];
  try {
    // terminal escapes and control bytes are not work (the approach key ignores them too); stripAnsi takes them all
    const line = typeof commandLine === 'string' ? stripAnsi(commandLine.slice(0, 100_000)) : '';
    elements = elementsOf(lex(line));
  } catch {
    return commandLine;
  }
  const parts: string[] = [];
  for (const e of elements) {
    const { program, args } = programOf(e.words);
    if (!program || BOOKKEEPING.has(program) || (e.piped && PLUMBING.has(program))) continue;
    // a line the shell runs again (`eval "npm test"`, `bash -lc 'npm test'`) is the work of that line
    const inner = depth < 3 ? innerLine(program, args) : undefined;
    if (inner !== undefined) {
      parts.push(workSignature(inner, depth + 1));
      continue;
    }
    // `--opt=value` and `--opt value` name the same value: keep values, drop flag names and numbers
    const words = args.map(a => (/^--?[\w-]+=/.test(a) ? a.slice(a.indexOf('=') + 1) : a));
    parts.push([program.replace(/^python3$/, 'python'), ...positional(words).filter(a => !/^\d+$/.test(a))].join(' '));
  }
  const nl = commandLine.indexOf('\n');
  const rest = nl >= 0 && /<</.test(commandLine) ? commandLine.slice(nl + 1).replace(/\s+/g, ' ').trim() : '';
  return `${parts.join(' ; ')}${rest ? ` <<${rest}` : ''}`;
}
