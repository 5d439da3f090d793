// The shell-like lexer: words, operators and redirections of one command line, linear in its length.

export interface Token {
  kind: 'word' | 'op' | 'redir';
  text: string;
  /** A redirection that needs no target word (2>&1, >&-). */
  complete?: boolean;
}

/** Characters a backslash escapes outside quotes; before anything else the backslash is kept (C:\Users\me). */
const ESCAPABLE = new Set([...' \t\n\'"\\$`&|;<>()#*?[]{}!~']);

// One function on purpose (about 240 lines): a single left-to-right scan whose small state (the current
// word, quoting, pending heredocs) every branch shares; split into helpers it would pass that state around
// on every character. Each branch is one token kind and says so.
export function lex(input: string): Token[] {
  const out: Token[] = [];
  const n = input.length;
  let word = '';
  let inWord = false;
  let quoted = false;
  let heredocNext: boolean | null = null; // the next word is a heredoc delimiter (true: <<- strips tabs)
  const heredocs: { delim: string; stripTabs: boolean }[] = [];

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

  let i = 0;
  while (i < n) {
    const c = input[i];
    const code = input.charCodeAt(i);
    if (c === '\n') {
      op(';');
      i++;
      if (heredocs.length) {
        // skip heredoc bodies up to their delimiter lines
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
      inWord = quoted = true;
      i++;
      while (i < n && input[i] !== '"') {
        if (input[i] === '\\' && i + 1 < n && '"\\$`\n'.includes(input[i + 1])) {
          if (input[i + 1] !== '\n') word += input[i + 1];
          i += 2;
        } else {
          word += input[i];
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === '$' && input[i + 1] === "'") {
      // ANSI-C quoting: $'a\tb'
      inWord = quoted = true;
      i += 2;
      while (i < n && input[i] !== "'") {
        if (input[i] === '\\' && i + 1 < n) {
          word += input[i + 1];
          i += 2;
        } else {
          word += input[i];
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === '$' && input[i + 1] === '(') {
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
      } else if (next !== undefined && ESCAPABLE.has(next)) {
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
    if ((c === '<' || c === '>') && input[i + 1] === '(') {
      // process substitution <(cmd): one word
      const end = balanced(i + 1);
      word += input.slice(i, end);
      inWord = true;
      i = end;
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
      let text: string;
      let complete = false;
      let heredoc: boolean | null = null;
      if (c === '>') {
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
      out.push({ kind: 'redir', text: fd + text, complete });
      if (heredoc !== null) heredocNext = heredoc;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return out;
}
