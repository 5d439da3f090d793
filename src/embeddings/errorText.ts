// Error text → words, the same way for stored signatures and for queries: the run-to-run noise is
// masked (ports, times, paths under /tmp… — the signature's own normalization), identifiers are split
// (ModuleNotFoundError → module not found error, ERR_MODULE_NOT_FOUND → err module not found),
// contractions are spelled out, and well-known opaque codes (EADDRINUSE, ENOENT, TS2307…) also
// contribute the words they stand for, so that the two spellings of one failure share words.

import { normalizeErrorLine } from '../core/text/normalize';

/** Text beyond this many characters is not looked at (signatures are ≤300; a query may be pasted output). */
export const MAX_TEXT_CHARS = 8000;

/** Words too common to tell two failures apart (function words; "not"/"no" stay: they carry meaning in errors). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an the of to in on at by for from with as is are was were be been being it its this that these those and or but if then than so do does did has have had i you we they he she them our your their my me us which who what when where while there here into onto about over under up out via per'.split(' '),
);

const CONTRACTIONS: Record<string, string> = {
  "can't": 'cannot', "couldn't": 'could not', "doesn't": 'does not', "don't": 'do not', "didn't": 'did not',
  "isn't": 'is not', "aren't": 'are not', "wasn't": 'was not', "won't": 'will not', "wouldn't": 'would not',
  "shouldn't": 'should not', "hasn't": 'has not', "haven't": 'have not', "it's": 'it is', "that's": 'that is',
};

/**
 * What opaque codes mean, in plain words. Only codes whose meaning is fixed (errno names, Node and
 * npm error codes, a few compiler diagnostics and HTTP statuses); the words are added beside the code.
 */
export const CODE_GLOSSARY: Readonly<Record<string, string>> = {
  eaddrinuse: 'address already in use port',
  eaddrnotavail: 'address not available',
  econnrefused: 'connection refused',
  econnreset: 'connection reset',
  econnaborted: 'connection aborted',
  etimedout: 'connection timed out timeout',
  esockettimedout: 'socket timed out timeout',
  enotfound: 'host not found dns lookup',
  eai_again: 'dns lookup temporary failure',
  ehostunreach: 'host unreachable network',
  enetunreach: 'network unreachable',
  enoent: 'no such file or directory not found missing',
  eacces: 'permission denied access',
  eperm: 'operation not permitted permission',
  eexist: 'file already exists',
  eisdir: 'is a directory',
  enotdir: 'not a directory',
  enotempty: 'directory not empty',
  enospc: 'no space left on device disk full',
  emfile: 'too many open files',
  enfile: 'too many open files',
  enomem: 'out of memory',
  epipe: 'broken pipe',
  ebusy: 'resource busy locked',
  erofs: 'read only file system',
  exdev: 'cross device link',
  eintegrity: 'integrity checksum mismatch',
  eresolve: 'unable to resolve dependency tree conflict',
  ebadengine: 'unsupported engine version',
  enoversions: 'no matching version',
  etarget: 'no matching version target',
  elifecycle: 'script failed',
  e404: 'not found',
  e401: 'unauthorized authentication',
  e403: 'forbidden permission',
  err_module_not_found: 'cannot find module',
  module_not_found: 'cannot find module',
  err_require_esm: 'require of es module not supported',
  err_unknown_file_extension: 'unknown file extension',
  err_ossl_evp_unsupported: 'openssl digital envelope unsupported',
  err_invalid_arg_type: 'invalid argument type',
  err_pnpm_outdated_lockfile: 'lockfile outdated',
  modulenotfounderror: 'no module named',
  importerror: 'cannot import module',
  sigsegv: 'segmentation fault',
  segfault: 'segmentation fault',
  sigkill: 'killed',
  sigterm: 'terminated',
  oomkilled: 'out of memory killed',
  ts2307: 'cannot find module type declarations',
  ts2304: 'cannot find name',
  ts2322: 'type is not assignable',
  ts2339: 'property does not exist on type',
  ts2345: 'argument type is not assignable',
  ts7016: 'could not find declaration file for module',
  e0425: 'cannot find value in scope',
  e0433: 'failed to resolve unresolved import',
  e0432: 'unresolved import',
  e0308: 'mismatched types',
  e0599: 'no method found',
};

// A path of three or more components (/home/dev/shop/src/App.java, node_modules/.bin/tsc): the
// folders say where, not what failed; the last two components are kept (openssl/ssl.h, acme/App.java).
// starts only where a run of path characters starts: from inside a run it would rescan the run (quadratic)
const PATH_RE = /(?<![\w.@%+~\\/-])(?:[A-Za-z]:)?[\\/]?(?:[\w.@%+~-]+[\\/]){2,}[\w.@%+~-]*/g;

function shortenPath(p: string): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  return ` ${parts.slice(-2).join('/')} `;
}

const PLACEHOLDER_WORDS: Record<string, string> = { port: ' port ', tmp: ' temp ' };

export interface ErrorWordsOptions {
  /** Add the words of CODE_GLOSSARY next to the codes (default true). */
  glossary?: boolean;
}

/**
 * The words of an error text, in order, lower-case, function words removed. Compound identifiers
 * give their parts and the joined compound (the compound only matches itself; the parts carry the
 * meaning). Numbers of 3 to 4 digits are kept (HTTP statuses, exit codes); other numbers are dropped.
 */
export function errorWords(text: string, options: ErrorWordsOptions = {}): string[] {
  const glossary = options.glossary ?? true;
  const clipped = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
  const normalized = clipped
    .split('\n')
    .map(normalizeErrorLine)
    .join('\n')
    .replace(/\[REDACTED:[\w-]+\]/g, ' ')
    .replace(PATH_RE, shortenPath)
    .replace(/<(\w+)>/g, (_m, name: string) => own(PLACEHOLDER_WORDS, name) ?? ' ');

  const out: string[] = [];
  const re = /[A-Za-z][A-Za-z0-9_]*(?:['’][A-Za-z]+)?|\d+/g;
  for (let m = re.exec(normalized); m; m = re.exec(normalized)) {
    const raw = m[0].replace('’', "'");
    if (/^\d+$/.test(raw)) {
      if (raw.length >= 3 && raw.length <= 4) out.push(raw);
      continue;
    }
    const lower = raw.toLowerCase();
    const spelled = own(CONTRACTIONS, lower);
    if (spelled) {
      for (const w of spelled.split(' ')) push(out, w);
      continue;
    }
    const word = lower.replace(/'s$/, '').replace(/'/g, '');
    // a very long identifier (a hash, a blob) is one word: splitting it is quadratic and means nothing
    const parts = raw.length > 64 ? [word] : splitIdentifier(raw.replace(/'s$/, '').replace(/'/g, ''));
    if (parts.length > 1) {
      for (const p of parts) push(out, p);
      if (word.length <= 40) push(out, word.replace(/_/g, ''));
    } else {
      push(out, word);
    }
    if (glossary) {
      const meaning = own(CODE_GLOSSARY, word);
      if (meaning) for (const w of meaning.split(' ')) push(out, w);
    }
  }
  return out;
}

/** A table entry, never an inherited property ("constructor" is a word too). */
function own(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

function push(out: string[], w: string): void {
  if (w.length < 2 && !/\d/.test(w)) return;
  if (STOP_WORDS.has(w)) return;
  out.push(w);
}

/**
 * Splits an identifier into lower-case words: camelCase and PascalCase (ModuleNotFoundError),
 * snake and SCREAMING_SNAKE (ERR_MODULE_NOT_FOUND), letter/digit boundaries only after a word
 * (utf8Decode → utf8 decode; TS2307 and E0425 stay whole). An all-capitals word stays whole (ENOENT).
 */
export function splitIdentifier(id: string): string[] {
  const out: string[] = [];
  for (const chunk of id.split(/_+/)) {
    if (!chunk) continue;
    if (/^[A-Z0-9]+$/.test(chunk) || /^[a-z0-9]+$/.test(chunk)) {
      out.push(chunk.toLowerCase());
      continue;
    }
    // ABCWord → ABC Word; wordWord → word Word; word123 stays
    const pieces = chunk.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
    for (const p of pieces) if (p) out.push(p.toLowerCase());
  }
  return out;
}
