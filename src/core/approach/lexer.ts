// The shell-like lexer: words, operators and redirections of one command line, linear in its length.

export interface Token {
  kind: 'word' | 'op' | 'redir';
  text: string;
  /** A redirection that needs no target word (2>&1, >&-). */
  complete?: boolean;
}

/** Characters a backslash always escapes outside quotes. */
const ESCAPABLE = new Set([...' \t\n\'"\\$`&|;<>()#*?[]{}!~']);

export interface LexOptions {
  /**
   * Read every unquoted backslash as the shell does (`\x` is `x`), Windows paths included. The gate
   * uses it to see what a POSIX shell would really run; without it a word that looks like a Windows
   * path (C:\Users\me, .\gradlew.bat, node_modules\.bin\jest) keeps its backslashes.
   */
  posix?: boolean;
}

/**
 * A word shaped like a Windows path, whose backslashes are separators: a drive or UNC start, `.\`,
 * `..\`, more than one backslash, or a backslash followed later by a file extension. `te\st` is not
 * one: there a shell reads `test`, and so do we (the same approach as `npm test`).
 */
function windowsPathWord(input: string, start: number): boolean {
  let end = start;
  while (end < input.length && end - start < 4096 && !/[\s;&|<>()]/.test(input[end])) end++;
  const raw = input.slice(start, end);
  if (/^(?:[A-Za-z]:\\|\\\\|\.{1,2}\\)/.test(raw)) return true;
  const first = raw.indexOf('\\');
  if (first < 0) return false;
  return raw.indexOf('\\', first + 1) >= 0 || /\.[A-Za-z0-9]{1,8}$/.test(raw.slice(first));
}

interface Heredoc {
  delim: string;
  /** `<<-`: leading tabs are stripped from the body's lines, the delimiter line included. */
  stripTabs: boolean;
}

/** Skips the bodies of the pending heredocs, from the line after their command: returns where the next line starts. */
function skipHeredocs(input: string, i: number, heredocs: readonly Heredoc[]): number {
  const n = input.length;
  for (const doc of heredocs) {
    while (i < n) {
      const end = input.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      let line = input.slice(i, stop).replace(/\r$/, '');
      if (doc.stripTabs) line = line.replace(/^\t+/, '');
      i = stop + 1;
      if (line === doc.delim) break;
    }
  }
  return i;
}

/**
 * The redirection operator at `i` (a '<' or '>'): `>`, `>>`, `>|`, `>&`, `<<<`, `<<-`, `<<`, `<&`, `<>`;
 * a `&` operator takes its fd or `-` with it (`>&2`, `<&-`: complete, no target word follows).
 * `heredoc` is set for `<<` (false) and `<<-` (true, tabs stripped). `end` is the index after it.
 */
function redirection(input: string, i: number): { text: string; end: number; complete: boolean; heredoc: boolean | null } {
  const n = input.length;
  let text: string;
  let complete = false;
  let heredoc: boolean | null = null;
  if (input[i] === '>') {
    const next = input[i + 1];
    text = next === '>' || next === '|' || next === '&' ? '>' + next : '>';
  } else if (input.startsWith('<<<', i)) {
    text = '<<<';
  } else if (input.startsWith('<<-', i)) {
    text = '<<-';
    heredoc = true;
  } else if (input.startsWith('<<', i)) {
    text = '<<';
    heredoc = false;
  } else {
    const next = input[i + 1];
    text = next === '&' || next === '>' ? '<' + next : '<';
  }
  i += text.length;
  if (text.endsWith('&')) {
    // >&2, 2>&1, <&- : the target is part of the operator
    let j = i;
    while (j < n && j - i < 3 && input[j] >= '0' && input[j] <= '9') j++;
    if (j === i && input[i] === '-') j++;
    if (j > i) {
      text += input.slice(i, j);
      i = j;
      complete = true;
    }
  }
  return { text, end: i, complete, heredoc };
}

/** The lines lexed last, read-only to every reader: the gate and the recorder read one line several times (its key, its steps, its work). */
const recent = new Map<string, Token[]>();
const RECENT = 16;

/** The tokens of `input` (see scan). The result is shared: never change it. */
export function lex(input: string, options: LexOptions = {}): Token[] {
  if (options.posix) return scan(input, options);
  const hit = recent.get(input);
  if (hit) return hit;
  const tokens = scan(input, options);
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value as string);
  recent.set(input, tokens);
  return tokens;
}

// A single left-to-right scan whose small state (the current word, quoting, pending heredocs) every
// branch shares; each branch is one token kind and says so.
// eslint-disable-next-line max-lines-per-function -- one scan over shared state (the word being built, quoting, heredocs): split into helpers it would pass that state around on every character
function scan(input: string, options: LexOptions): Token[] {
  const out: Token[] = [];
  const n = input.length;
  let word = '';
  let inWord = false;
  let wordStart = 0;
  /** The current word's verdict of windowsPathWord (computed once, at its first backslash). */
  let windowsWord: boolean | undefined;
  let quoted = false;
  let heredocNext: boolean | null = null; // the next word is a heredoc delimiter (true: <<- strips tabs)
  const heredocs: Heredoc[] = [];
  let i = 0;

  const flush = (): void => {
    if (!inWord) return;
    if (heredocNext !== null) {
      heredocs.push({ delim: word, stripTabs: heredocNext });
      heredocNext = null;
    }
    out.push({ kind: 'word', text: word });
    word = '';
    inWord = false;
    quoted = false;
    windowsWord = undefined;
  };
  const op = (text: string): void => {
    flush();
    out.push({ kind: 'op', text });
  };
  /** End index (exclusive) of a balanced `(...)` starting at the '(' at `open`; quotes inside are skipped. */
  const balanced = (open: number): number => {
    let depth = 0;
    let j = open;
    while (j < n) {
      const ch = input[j];
      if (ch === '(') depth++;
      else if (ch === ')') {
        depth--;
        if (depth === 0) return j + 1;
      } else if (ch === "'" || ch === '"' || ch === '`') {
        const close = input.indexOf(ch, j + 1);
        if (close < 0) return n;
        j = close;
      }
      j++;
    }
    return n;
  };
  /**
   * A quoted run from `from` up to the closing `close`, added to the word; `escape` says what a
   * backslash pair stands for inside it (undefined: both characters are kept as they are).
   */
  const quotedRun = (from: number, close: string, escape: (next: string) => string | undefined): void => {
    inWord = quoted = true;
    i = from;
    while (i < n && input[i] !== close) {
      const escaped = input[i] === '\\' && i + 1 < n ? escape(input[i + 1]) : undefined;
      if (escaped !== undefined) {
        word += escaped;
        i += 2;
      } else {
        word += input[i];
        i++;
      }
    }
    i++;
  };

  while (i < n) {
    const c = input[i];
    const code = input.charCodeAt(i);
    if (!inWord) wordStart = i;
    if (c === '\n') {
      op(';');
      i++;
      if (heredocs.length) {
        i = skipHeredocs(input, i, heredocs);
        heredocs.length = 0;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || code < 32 || code === 127) {
      flush();
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      const end = input.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "'") {
      inWord = quoted = true;
      const close = input.indexOf("'", i + 1);
      const stop = close < 0 ? n : close;
      word += input.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      // a backslash escapes only " \ $ ` and a newline (a line continuation: dropped) inside double quotes
      quotedRun(i + 1, '"', next => ('"\\$`\n'.includes(next) ? (next === '\n' ? '' : next) : undefined));
      continue;
    }
    if (c === '$' && input[i + 1] === "'") {
      // ANSI-C quoting: $'a\tb' (the backslash pair is kept as its second character)
      quotedRun(i + 2, "'", next => next);
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && input[i + 1] === '(') {
      // command substitution $(cmd), process substitution <(cmd) >(cmd): one word
      const end = balanced(i + 1);
      word += input.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '`') {
      const close = input.indexOf('`', i + 1);
      const stop = close < 0 ? n : close + 1;
      word += input.slice(i, stop);
      inWord = true;
      i = stop;
      continue;
    }
    if (c === '\\') {
      const next = input[i + 1];
      if (next === '\n') {
        i += 2; // line continuation
      } else if (next === '\r' && input[i + 2] === '\n') {
        i += 3;
      } else if (next !== undefined && (ESCAPABLE.has(next) || options.posix || !(windowsWord ??= windowsPathWord(input, inWord ? wordStart : i)))) {
        word += next;
        inWord = true;
        i += 2;
      } else {
        word += '\\';
        inWord = true;
        i++;
      }
      continue;
    }
    if (c === '&') {
      if (input[i + 1] === '&') {
        op('&&');
        i += 2;
      } else if (input[i + 1] === '>') {
        flush();
        const append = input[i + 2] === '>';
        out.push({ kind: 'redir', text: append ? '&>>' : '&>' });
        i += append ? 3 : 2;
      } else {
        op('&');
        i++;
      }
      continue;
    }
    if (c === '|') {
      if (input[i + 1] === '|') {
        op('||');
        i += 2;
      } else {
        op('|');
        i += input[i + 1] === '&' ? 2 : 1;
      }
      continue;
    }
    if (c === ';') {
      op(';');
      i += input[i + 1] === ';' || input[i + 1] === '&' ? 2 : 1;
      continue;
    }
    if (c === '(' || c === ')') {
      op(c);
      i++;
      continue;
    }
    if (c === '<' || c === '>') {
      let fd = '';
      if (inWord && !quoted && /^\d{1,2}$/.test(word)) {
        fd = word;
        word = '';
        inWord = false;
      } else {
        flush();
      }
      const r = redirection(input, i);
      i = r.end;
      out.push({ kind: 'redir', text: fd + r.text, complete: r.complete });
      if (r.heredoc !== null) heredocNext = r.heredoc;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return out;
}

/**
 * The line as a POSIX shell reads its backslashes: every unquoted `\\x` is written `'x'`, so that
 * lexing it in the default mode gives the words bash would run (`n\\p\\m te\\st` -> `npm test`).
 * Quoted text and line continuations are kept as they are. Linear.
 */
export function posixLine(input: string): string {
  let out = '';
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (c === "'" || (c === '"')) {
      // a quoted run, copied whole (a backslash pair inside double quotes stays a pair)
      let j = i + 1;
      while (j < n && input[j] !== c) j += c === '"' && input[j] === '\\' ? 2 : 1;
      out += input.slice(i, j + 1);
      i = j + 1;
    } else if (c === '\\' && i + 1 < n && input[i + 1] !== '\n' && input[i + 1] !== '\r') {
      out += input[i + 1] === "'" ? `"'"` : `'${input[i + 1]}'`;
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A string as one single-quoted word for a POSIX shell. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** One word for a POSIX shell, quoted only when it holds anything but plain characters. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
}

/** An argv as the command line a shell would read back into the same words. */
export const argvLine = (argv: readonly string[]): string => argv.map(shellWord).join(' ');
