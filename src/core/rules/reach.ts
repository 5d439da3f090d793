// What a line reaches that its words do not spell plainly: the code an interpreter runs (`python -c`,
// `node -e`, `perl -e`, a heredoc fed to `python -`), the paths that code builds from string literals
// ('.vscode/' + 'failure-memory', os.path.join('.vscode', 'failure-memory'), a reversed or base64
// literal), the value of a command substitution the gate can evaluate (`$(echo .vscode)`, `$(pwd)`),
// and the names of Failure Memory's files and keys in any spelling it can normalise (escapes, quotes,
// concatenation). Pure, bounded and linear: every scan is capped, no regex backtracks.

import { removeHidden } from '../text/hidden';

/** Interpreters whose one-line code the gate reads, and the flags that give it. */
const CODE_FLAGS: Record<string, readonly string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-Command'],
  powershell: ['-c', '-command', '-Command'],
  rscript: ['-e'],
  tclsh: [],
  awk: [],
  jshell: [],
};
const MAX_CODE = 256 * 1024;
const MAX_LITERALS = 2048;

/** The interpreter an executable name stands for (python3.11 → python, nodejs → node), else undefined. */
export function interpreterOf(name: string): string | undefined {
  const n = name.toLowerCase().replace(/\.exe$/, '').replace(/^(python|pypy|ruby|perl|php|lua|node)(?:js)?[\d.]*$/, '$1').replace(/^pypy$/, 'python');
  return Object.prototype.hasOwnProperty.call(CODE_FLAGS, n) ? n : undefined;
}

/** The code of `python -c CODE`, `node -e CODE`, `perl -e CODE` … (flags clustered as -Sc, -ne too), else undefined. */
export function inlineCode(interp: string, args: readonly string[]): string | undefined {
  const flags = CODE_FLAGS[interp] ?? [];
  const codes: string[] = [];
  for (let k = 0; k < args.length && k < 64; k++) {
    const a = args[k];
    if (flags.includes(a) || (/^-[A-Za-z]+$/.test(a) && flags.some(f => f.length === 2 && a.endsWith(f[1])))) {
      if (args[k + 1] !== undefined) codes.push(args[++k]);
    } else if (/^--(?:eval|print)=/.test(a)) codes.push(a.slice(a.indexOf('=') + 1));
    else if (!a.startsWith('-')) break;
  }
  return codes.length ? codes.join('\n').slice(0, MAX_CODE) : undefined;
}

/** The first argument an interpreter runs as a script file (`python x.py`, `node x.js`, `sh x.sh`), else undefined. */
export function scriptArg(args: readonly string[], valueFlags: ReadonlySet<string> = NO_FLAGS): string | undefined {
  for (let k = 0; k < args.length && k < 64; k++) {
    const a = args[k];
    if (a === '--') return args[k + 1];
    if (a === '-' || !a.startsWith('-')) return a === '-' ? undefined : a;
    if (valueFlags.has(a)) k++;
  }
  return undefined;
}
const NO_FLAGS: ReadonlySet<string> = new Set();

/** `\uXXXX`, `\u{X}`, `\xXX`, `\NNN` and `%XX` decoded: the spelling of a name in JSON, a string literal or a URL. */
function unescape(text: string): string {
  return text
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([0-7]{3})|%([0-9a-fA-F]{2})/g, (m, a?: string, b?: string, c?: string, d?: string, e?: string) => {
      const code = a ?? b ?? c ?? e ? parseInt((a ?? b ?? c ?? e)!, 16) : parseInt(d!, 8);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    });
}

/**
 * The text with its spelling normalised: escapes decoded, string concatenation (`'a' + 'b'`,
 * `'a' . 'b'`, `'a' 'b'`) joined, argument lists joined as paths (`'a', 'b'` → a/b), quotes and
 * invisible characters removed, lower-cased; backslashes as separators (`slashes`) or as escapes.
 */
export function normalised(text: string, backslash: 'slashes' | 'escapes' = 'slashes'): string {
  const t = removeHidden(unescape(text.slice(0, MAX_CODE)));
  return t
    .replace(/(['"`])[ \t]{0,8}(?:\+|\.{1,2}|\|\||<>)?[ \t]{0,8}(['"`])/g, '')
    .replace(/(['"`])[ \t]{0,8},[ \t]{0,8}(['"`])/g, '/')
    .replace(/['"`]/g, '')
    .replace(/\\+/g, backslash === 'slashes' ? '/' : '')
    .toLowerCase();
}

/** String literals of a program's code, in order (quotes of ', " and ` with their escapes), bounded. */
function literals(code: string): Array<{ text: string; start: number; end: number }> {
  const out: Array<{ text: string; start: number; end: number }> = [];
  const n = Math.min(code.length, MAX_CODE);
  for (let i = 0; i < n && out.length < MAX_LITERALS; i++) {
    const q = code[i];
    if (q !== '"' && q !== "'" && q !== '`') continue;
    let j = i + 1;
    let text = '';
    for (; j < n && code[j] !== q; j++) {
      if (code[j] === '\\' && j + 1 < n) text += code[++j];
      else text += code[j];
    }
    out.push({ text: unescape(text), start: i, end: j });
    i = j;
  }
  return out;
}

/** What joins two neighbouring literals: nothing (concatenation), a path separator (an argument list), or they are apart. */
function glue(between: string): '' | '/' | undefined {
  const g = between.trim();
  if (g === '' || g === '+' || g === '.' || g === '..' || g === '||' || g === '<>') return '';
  if (g === ',') return '/';
  return undefined;
}

/** base64 and hex literals decoded when they decode to printable text (a name hidden from a plain read). */
function decodedForms(s: string): string[] {
  const out: string[] = [];
  if (s.length >= 8 && s.length <= 4096 && /^[A-Za-z0-9+/_-]+=*$/.test(s) && typeof atob === 'function') {
    try {
      const d = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
      if (/^[\x20-\x7e]+$/.test(d)) out.push(d);
    } catch {
      // not base64
    }
  }
  if (s.length >= 8 && s.length <= 4096 && s.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(s)) {
    const d = s.replace(/../g, h => String.fromCharCode(parseInt(h, 16)));
    if (/^[\x20-\x7e]+$/.test(d)) out.push(d);
  }
  return out;
}

/**
 * The strings a program's code may use as paths: each literal, each run of literals joined as the
 * code joins them, their reversed and decoded forms, and the words of each (a shell line in a string).
 */
export function pathCandidates(code: string, anchoredOnly = false): string[] {
  const lits = literals(code);
  // anchored: a run that starts an argument list, an assignment, a list or a statement, so that it is
  // relative to the folder the code runs in (not `join(base, '.vscode', …)`, whose base is unknown)
  const anchored = (start: number) => {
    let k = start;
    while (k > 0 && (code[k - 1] === ' ' || code[k - 1] === '\t')) k--;
    return k === 0 || '([{=:;\n'.includes(code[k - 1]) || code.slice(Math.max(0, k - 6), k) === 'return';
  };
  const out = new Set<string>();
  const add = (s: string) => {
    if (!s || s.length > 4096 || out.size >= 4 * MAX_LITERALS) return;
    out.add(s);
    for (const w of s.split(/[\s;|&<>()=]+/)) if (w && w !== s) out.add(w);
  };
  let run = '';
  let runAnchored = false;
  for (let k = 0; k < lits.length; k++) {
    const l = lits[k];
    const joint = k > 0 ? glue(code.slice(lits[k - 1].end + 1, l.start)) : undefined;
    if (joint === undefined) runAnchored = !anchoredOnly || anchored(l.start);
    run = joint === undefined ? l.text : `${run}${joint}${l.text}`;
    if (!runAnchored) continue;
    add(l.text);
    if (joint !== undefined) add(run);
    if (anchoredOnly) continue;
    for (const d of decodedForms(l.text)) add(d);
    if (l.text.length > 3 && l.text.length <= 256) add([...l.text].reverse().join(''));
  }
  return [...out];
}

/** Calls in a program's code that write, move, delete or re-permission files, or hand work to a shell. */
const WRITE_API =
  /\b(?:write|writelines|write_text|write_bytes|writeFile\w*|appendFile\w*|createWriteStream|rmtree|rm_rf|rm_r|rm_f|remove_dir|remove_entry\w*|mv|cp_r|rmdir\w*|unlink\w*|remove|removedirs|rename\w*|replace|move|copy\w*|cp\w*|rm|rmSync|truncate\w*|chmod\w*|chown\w*|symlink\w*|link\w*|mkdir\w*|makedirs|dump|save\w*|system|popen|spawn\w*|exec\w*|call|check_call|check_output|run|Popen|extractall|unpack_archive|utime|touch|print\s*\{|syswrite|File\.(?:write|open|delete)|FileUtils|Files\.(?:write|delete|move|copy))\s*[(\s{]|\bopen\s*\([^()]{0,512},\s*(?!['"]r[bt]?['"])|(?:^|[^<])>{1,2}\s*['"$]|\bos\.open\b|\bfs\.(?:rm|promises)\b/;

/** Does this code look like it writes files (or runs something that might)? */
export function codeWrites(code: string): boolean {
  return WRITE_API.test(code.slice(0, MAX_CODE));
}

/** What a normalised text names of Failure Memory's files and keys. */
export interface Names {
  /** .vscode/failure-memory (the memory folder). */
  memory: boolean;
  /** ~/.failure-memory (the launcher and the code cache). */
  ownHome: boolean;
  /** .vscode/settings.json. */
  settingsFile: boolean;
  /** A failureMemory.* setting. */
  ourKey: boolean;
  /** A harness configuration that holds (or could disable) the gate's hooks, or a key that disables them. */
  gateConfig: string | undefined;
}

const GATE_NAMES: Array<[RegExp, string]> = [
  [/\.claude\/settings(?:\.local)?\.json/, '.claude/settings.json'],
  [/\.codex\/(?:hooks\.json|config\.toml)/, '.codex/hooks.json'],
  [/\.gemini\/settings\.json/, '.gemini/settings.json'],
  [/\.github\/hooks(?:\/|$|\s)/, '.github/hooks'],
  [/\.clinerules\/hooks/, '.clinerules/hooks'],
  [/\.cursor\/hooks\.json/, '.cursor/hooks.json'],
  [/\.windsurf\/hooks\.json/, '.windsurf/hooks.json'],
  [/disableallhooks/, 'disableAllHooks'],
  [/failure_memory_(?:bin|cache_dir)/, 'FAILURE_MEMORY_BIN'],
];

const MEMORY_PATH = /\.vscode\/+failure-memory(?![\w-])/;
const VSCODE_WORD = /(?:^|[^\w])\.vscode(?![\w-])/;
const MEMORY_WORD = /(?:^|[^\w.-])failure-memory(?![\w-])/;

/** The names a text spells, in either reading of its backslashes (see normalised()), its base64 and hex words decoded too. */
export function namesIn(text: string): Names {
  const decoded: string[] = [];
  for (const word of text.slice(0, MAX_CODE).split(/[\s'"`;|&()=]+/)) if (word.length >= 8 && decoded.length < 64) decoded.push(...decodedForms(word));
  const all = decoded.length ? `${text}\n${decoded.join('\n')}` : text;
  const [a, b] = [normalised(all, 'slashes'), normalised(all, 'escapes')];
  const any = (re: RegExp) => re.test(a) || re.test(b);
  return {
    memory: any(MEMORY_PATH) || (any(VSCODE_WORD) && any(MEMORY_WORD)),
    ownHome: any(/(?:^|[^\w-])\.failure-memory(?![\w-])/),
    settingsFile: any(/\.vscode\/+settings\.json/),
    ourKey: any(/failurememory/),
    gateConfig: GATE_NAMES.find(([re]) => any(re))?.[1],
  };
}

/** Does a text name any protected file or key? */
export const namesAny = (n: Names): boolean => n.memory || n.ownHome || n.ourKey || !!n.gateConfig;

/**
 * The value of a command substitution the gate can evaluate: `$(echo X)`, `$(printf %s X)`,
 * `` `echo X` ``, `$(pwd)`, `$(dirname X)`, `$(basename X)`, `$(realpath X)`; undefined otherwise.
 */
export function substitutionValue(words: readonly string[], pwd: string): string | undefined {
  const [prog, ...args] = words;
  const plain = args.filter(a => !/^-[A-Za-z]+$/.test(a));
  switch (prog) {
    case 'echo':
      return plain.join(' ');
    case 'printf':
      return plain.length === 1 && !/[%\\]/.test(plain[0]) ? plain[0] : plain[0] === '%s' ? plain.slice(1).join('') : undefined;
    case 'pwd':
      return pwd;
    case 'dirname': {
      if (plain.length !== 1) return undefined;
      const p = trimSlashes(plain[0]);
      const cut = p.lastIndexOf('/');
      return cut < 0 ? '.' : trimSlashes(p.slice(0, cut)) || '/';
    }
    case 'basename':
      return plain.length >= 1 ? baseName(plain[0]) : undefined;
    case 'realpath': case 'readlink':
      return plain.length === 1 ? plain[0] : undefined;
    default:
      return undefined;
  }
}

/** A path without its trailing slashes (linear: no regex backtracking on a run of them). */
export function trimSlashes(p: string): string {
  let end = p.length;
  while (end > 0 && p[end - 1] === '/') end--;
  return p.slice(0, end);
}

/** The last segment of a path (`a/b/` → b). */
export const baseName = (p: string): string => {
  const t = trimSlashes(p);
  return t.slice(t.lastIndexOf('/') + 1);
};
