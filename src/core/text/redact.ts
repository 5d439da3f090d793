// Redaction: secrets are removed from commands and output before anything is stored or embedded.
// Each secret becomes a typed marker, `[REDACTED:<kind>]`, so a reader still sees what was there.
// Every built-in pattern is linear: bounded quantifiers, no nested repetition, cheap literal
// pre-checks; it is safe on 50 MB of output and on binary garbage. User patterns run on RE2JS
// (linear-time matching). Pure: no vscode, no fs.

import { applyUserPatterns, compileUserPattern, MAX_PATTERNS, RedactionPatternError, type RedactorOptions } from './userPatterns';

export { compileRedactionPattern, RedactionPatternError, validatePatterns, type RedactorOptions } from './userPatterns';

export interface RedactionResult {
  text: string;
  count: number;
  /** Kinds found, sorted, each once. */
  kinds: string[];
}

export interface Redactor {
  redact(text: string): RedactionResult;
}

/** Every kind a built-in rule can emit, plus `custom` for user patterns. */
export const REDACTION_KINDS = [
  'private-key',
  'url-credentials',
  'slack-webhook',
  'authorization',
  'anthropic-key',
  'openai-key',
  'github-token',
  'gitlab-token',
  'npm-token',
  'slack-token',
  'stripe-key',
  'sendgrid-key',
  'twilio-key',
  'huggingface-token',
  'aws-access-key',
  'aws-secret-key',
  'gcp-api-key',
  'google-oauth-token',
  'telegram-token',
  'azure-key',
  'azure-sas',
  'jwt',
  'password',
  'secret',
  'custom',
] as const;

export type RedactionKind = (typeof REDACTION_KINDS)[number];

const marker = (kind: string): string => `[REDACTED:${kind}]`;

interface Rule {
  kind: RedactionKind;
  re: RegExp;
  /** Cheap substring test; the regex runs only when one of these occurs (case-sensitive). */
  needles?: string[];
  /** Builds the replacement from the match; default: the whole match becomes the marker. */
  replace?: (m: string, ...groupsThenOffsetAndText: never[]) => string;
}

/** Keeps the captured prefix (key, header name, scheme…) and replaces the rest. */
const keepPrefix =
  (kind: RedactionKind) =>
  (_m: string, prefix: string): string =>
    `${prefix}${marker(kind)}`;

// Values after a key: quoted (with escapes) or a bare run up to whitespace, quote, & or ;.
const BARE_VALUE = String.raw`[^\s"'\`&;]{1,4096}`;

const RULES: Rule[] = [
  {
    // PEM blocks, also inside JSON strings (escaped \n); a block cut off by truncation is redacted to its end.
    kind: 'private-key',
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----))*(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/g,
    needles: ['PRIVATE KEY'],
  },
  {
    kind: 'slack-webhook',
    re: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]{8,512}/g,
    needles: ['hooks.slack.com'],
    replace: keepPrefix('slack-webhook'),
  },
  {
    // scheme://user:password@host (any scheme: https, postgres, mongodb+srv, redis, amqp…); keeps the
    // scheme, the user name (only the password is secret) and the host
    kind: 'url-credentials',
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s/?#@:"'`<>]{0,256}:)[^\s/?#"'`<>]{0,512}@(?=[^\s@/]*[\w\]])/gi,
    needles: ['://'],
    replace: (_m: string, scheme: string, user: string) => `${scheme}${user}${marker('url-credentials')}@`,
  },
  {
    // Authorization / Proxy-Authorization headers (incl. curl -H "Authorization: …"); keeps the scheme word.
    // Parameter-list schemes (Digest, AWS4…) lose all their parameters; token schemes lose the token.
    kind: 'authorization',
    re: /\b((?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?)(?:((?:Digest|AWS4-HMAC-SHA256|OAuth|Signature|HOBA)[ \t]+)(?:[\w-]{1,64}=(?:"[^"\r\n]{0,2048}"|[^\s,"'`]{0,2048})[ \t]*,?[ \t]*){1,32}|((?:Bearer|Basic|Token|Bot|JWT|SSWS|ApiKey|Negotiate|NTLM|Key)[ \t]+)?[^\s"'`]{1,4096})/gi,
    needles: ['uthorization', 'UTHORIZATION'],
    replace: (m: string, prefix: string, paramScheme: string | undefined, tokenScheme: string | undefined) => {
      const scheme = paramScheme ?? tokenScheme ?? '';
      const value = m.slice(prefix.length + scheme.length);
      if (value.startsWith('[REDACTED:')) return m;
      let end = value.length;
      while (end > 0 && (value[end - 1] === ' ' || value[end - 1] === '\t')) end--;
      const trail = value.slice(end);
      return `${prefix}${scheme}${marker('authorization')}${trail}`;
    },
  },
  { kind: 'anthropic-key', re: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,512}/g, needles: ['sk-ant-'] },
  {
    kind: 'openai-key',
    re: /(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,512}/g,
    needles: ['sk-'],
  },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g, needles: ['gh', 'github_pat_'] },
  { kind: 'gitlab-token', re: /\bgl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_-]{20,255}/g, needles: ['gl'] },
  {
    kind: 'npm-token',
    re: /(\/\/[^\s:/]{1,256}(?:\/[^\s:]{0,256})?:_(?:authToken|auth|password)\s*=\s*)("?)[^\s"]{1,4096}\2/g,
    needles: [':_auth', ':_password'],
    replace: (_m: string, prefix: string, quote: string) => `${prefix}${quote}${marker('npm-token')}${quote}`,
  },
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g, needles: ['npm_'] },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/g, needles: ['xox'] },
  { kind: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,255}\b|\bwhsec_[A-Za-z0-9]{20,255}\b/g, needles: ['_live_', '_test_', 'whsec_'] },
  { kind: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g, needles: ['SG.'] },
  { kind: 'twilio-key', re: /\b(?:AC|SK)[0-9a-f]{32}\b/g, needles: ['AC', 'SK'] },
  { kind: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{30,255}\b/g, needles: ['hf_'] },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g, needles: ['A'] },
  {
    kind: 'aws-secret-key',
    re: /(\baws_?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{30,80}/gi,
    needles: ['ecret', 'ECRET'],
    replace: keepPrefix('aws-secret-key'),
  },
  { kind: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, needles: ['AIza'] },
  // Google OAuth 2.0 access tokens (gcloud auth print-access-token, metadata server answers)
  { kind: 'google-oauth-token', re: /(?<![\w.-])ya29\.[0-9A-Za-z_-]{20,4096}/g, needles: ['ya29.'] },
  // Telegram bot tokens, alone or in an API URL (https://api.telegram.org/bot<id>:<secret>/sendMessage)
  { kind: 'telegram-token', re: /(?:(?<=\/bot)|(?<![\w:-]))\d{6,12}:[A-Za-z0-9_-]{30,64}(?![\w-])/g, needles: [':'] },
  {
    kind: 'azure-key',
    re: /(\b(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)\s*=\s*)[A-Za-z0-9+/=]{16,512}/gi,
    needles: ['Key', 'key', 'KEY'],
    replace: keepPrefix('azure-key'),
  },
  {
    kind: 'azure-sas',
    re: /(\bSharedAccessSignature\s*=\s*)[^\s;"'`]{1,4096}|([?&]sig=)[A-Za-z0-9%+/=_-]{10,512}/g,
    needles: ['SharedAccessSignature', 'sig='],
    replace: (_m: string, a: string | undefined, b: string | undefined) => `${a ?? b ?? ''}${marker('azure-sas')}`,
  },
  { kind: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,4096}/g, needles: ['eyJ'] },
  {
    // mysql/mariadb -p<password> (no space: a bare -p prompts); docker/podman/helm login -p <password>; sshpass -p <password>
    kind: 'password',
    re: /([ \t]-p)([ \t]*)([^\s"'`-][^\s"'`]{0,4096}|"[^"\n]{0,4096}"|'[^'\n]{0,4096}')/g,
    needles: [' -p', '\t-p'],
    replace: (m: string, flag: string, space: string, _value: string, offset: number, whole: string) => {
      const before = lineBefore(whole, offset);
      const tool = space
        ? /\b(?:(?:docker|podman|helm|oras|buildah)\s+(?:registry\s+)?login|sshpass)\b/.test(before)
        : /\b(?:mysql\w*|mariadb\w*|sshpass)\b/.test(before);
      return tool ? `${flag}${space}${marker('password')}` : m;
    },
  },
  {
    // curl -u user:password / --user user:password; keeps the user
    kind: 'password',
    re: /((?:^|\s)(?:-u|--user)[ \t]+["']?[^\s:"']{1,256}:)[^\s"']{1,4096}/g,
    needles: ['-u'],
    replace: keepPrefix('password'),
  },
  {
    // .netrc: machine h login u password p
    kind: 'password',
    re: /(\bmachine\s+\S{1,256}\s+login\s+\S{1,256}\s+password\s+)\S{1,4096}/g,
    needles: ['machine'],
    replace: keepPrefix('password'),
  },
  {
    // a custom X- header written without its colon (`x-internal-token zq9Xk2…`: HTTP/2 and gRPC
    // dumps, logs): redacted when its name says secret (as a key=value's would) and the value has a digit
    kind: 'secret',
    re: /\b([Xx]-[A-Za-z0-9-]{1,80}[ \t]+)([A-Za-z0-9+/=_.~-]{8,4096})/g,
    needles: ['x-', 'X-'],
    replace: (m: string, prefix: string, value: string) => (isSecretKey(prefix.trim()) && /\d/.test(value) ? `${prefix}${marker('secret')}` : m),
  },
  {
    // (last: a known token there is already redacted by its own rule, with its own kind)
    // a token as the user name with no password (git's own "https://<token>@github.com/…" lines):
    // 20+ characters with a digit, the shape of a token rather than of a login name
    kind: 'url-credentials',
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)(?=[A-Za-z_-]{0,255}\d)[A-Za-z0-9_-]{20,256}@(?=[^\s@/]*[\w\]])/gi,
    needles: ['://'],
    replace: (_m: string, scheme: string) => `${scheme}${marker('url-credentials')}@`,
  },
];

// ---------------------------------------------------------------------------------------------
// <password>…</password>, and `Password:` with its value on the next line
// ---------------------------------------------------------------------------------------------

/** An XML or HTML element with a secret-sounding name: its text is the secret (Maven settings, .NET configs, SOAP). */
const XML_ELEMENT_RE = /<([A-Za-z_][\w.:-]{0,100})((?:\s[^<>]{0,1000})?)>([^<]{1,4096})<\/\1\s{0,16}>/g;

function redactXmlElements(text: string, count: Count): string {
  XML_ELEMENT_RE.lastIndex = 0;
  return text.replace(XML_ELEMENT_RE, (m: string, tag: string, attrs: string, value: string) => {
    const name = tag.includes(':') ? tag.slice(tag.lastIndexOf(':') + 1) : tag;
    if (!isSecretKey(name) || !worthRedacting(value.trim())) return m;
    count(kindForKey(name));
    return `<${tag}${attrs}>${marker(kindForKey(name))}</${tag}>`;
  });
}

/** A line that ends in a secret key and a colon (a prompt, a form dump), whose value is the next line. */
const KEY_AT_LINE_END_RE = /(?:^|[^A-Za-z0-9_])(pass(?:word|wd|phrase)?|secret|token|api[_ -]?key|access[_ -]?key|private[_ -]?key|credentials?)[ \t]{0,16}[:=][ \t]{0,16}$/i;

/** `Password:` then the value alone on the next line: the value goes. One pass over the lines. */
function redactNextLineValues(text: string, count: Count): string {
  const lines = text.split('\n');
  let changed = false;
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i].length > 300 ? lines[i].slice(-300) : lines[i];
    const m = KEY_AT_LINE_END_RE.exec(line.replace(/\r$/, ''));
    if (!m) continue;
    const next = lines[i + 1];
    const rest = next.trim();
    const value = rest.split(/[ \t]/, 1)[0];
    // the line's first token: alone on it, or shaped like a secret (a digit or a symbol, 6+ characters) before
    // more words; never prose ("The password is too short"), not already redacted, not a placeholder
    const alone = value === rest;
    if (!value || value.length > 4096 || !worthRedacting(value) || (!alone && !(value.length >= 6 && /[\d\W_]/.test(value)))) continue;
    const kind = kindForKey(m[1]);
    lines[i + 1] = next.replace(value, () => marker(kind));
    count(kind);
    changed = true;
  }
  return changed ? lines.join('\n') : text;
}

// ---------------------------------------------------------------------------------------------
// KEY=value, key: value, "key": "value", --flag value
// ---------------------------------------------------------------------------------------------

/** A key whose value is a secret. */
const SECRET_KEY_RE =
  /pass(?:word|wd|phrase)|(?<![a-z])pass(?![a-z])|(?<![a-z])pwd(?![a-z])|secret|token|api[_-]?key|apikey|private[_-]?key|credential|auth(?!or(?!i))|access[_-]?key|session[_-]?key|cookie|signing[_-]?key|encryption[_-]?key|master[_-]?key/i;
/** Keys that contain a secret word but hold something else (a path, a count, a name, a switch). */
const NOT_SECRET_KEY_RE =
  /(?:^|[_.-])(?:url|uri|endpoint|host|port|path|file|dir|ttl|expiry|expires(?:[_-]?(?:in|at))?|timeout|type|method|mode|enabled|length|limit|count|header|name|id|provider|domain|region|version|scopes?|algorithm|stdin|prompt|env|ref|arn|policy|format|kind|source|location|strategy)$|tokeniz|^(?:--?)?(?:max|min|num|total|prompt|completion|output|input)[_-]?tokens?$|^authorization$|^proxy-authorization$|^www-authenticate$|^author|^authority$|^tokens$/i;
const CAMEL_NOT_SECRET_RE =
  /[a-z0-9](?:Url|Uri|Endpoint|Host|Port|Path|File|Dir|Ttl|Expiry|Expires|ExpiresIn|ExpiresAt|Timeout|Type|Method|Mode|Enabled|Length|Limit|Count|Header|Name|Id|ID|Provider|Domain|Region|Version|Scope|Scopes|Algorithm|Ref|Arn|Policy|Format|Kind|Source|Location|Strategy)$/;
/** Values that are references or placeholders, not secrets. */
const PLACEHOLDER_RE =
  /^(?:\[REDACTED|\$|%[A-Za-z_]|\{\{|<[^>]*>$|\*+$|x{3,}$|X{3,}$|\.{3}$|…$|(?:true|false|null|nil|none|undefined|yes|no|on|off)$|(?:process\.env|os\.environ|os\.getenv|import\.meta\.env|env\.|ENV\[|secrets\.|vars\.)|\(|\{\s*$|\[\s*$)/i;
/** Words that make "xxx token: …" prose ("Unexpected token: }", "Invalid password: too short"). */
const PROSE_KEY_RE = /^(?:pass(?:word|wd|phrase)?s?|pwd|secrets?|tokens?|auth|credentials?|cookies?|api[_ -]?keys?|private[_ -]?keys?)$/i;

// the key may be quoted, also with escaped quotes inside a JSON string: {\"password\":\"…\"}
// a key may spell letters as JSON escapes ({"pass\u0077ord": …}): they are read as the letters they are
const ASSIGN_RE = /(?<![\w.$-])(\\?["']|)((?:[A-Za-z_]|\\u[0-9A-Fa-f]{4})(?:[\w.-]|\\u[0-9A-Fa-f]{4}){0,100})\1([ \t]*(?::=|[:=](?![=>~:/]))[ \t]*)/g;
const FLAG_RE = /(?<![\w-])(--?[A-Za-z][\w-]{0,100})(=|[ \t]+)/g;
const VALUE_RE = new RegExp(
  String.raw`"((?:[^"\\\r\n]|\\.){0,4096})"|'((?:[^'\\\r\n]|\\.){0,4096})'|\`([^\`\r\n]{0,4096})\`|(<[^<>\r\n]{0,200}>|${BARE_VALUE}|["'\`][^\r\n]{1,4096})`,
  'y',
);

/** \uXXXX escapes in a key, read as the characters they stand for. */
const unescapeKey = (key: string): string => (key.includes('\\u') ? key.replace(/\\u([0-9A-Fa-f]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : key);

function isSecretKey(key: string): boolean {
  const bare = unescapeKey(key).replace(/^-{1,2}/, '');
  return SECRET_KEY_RE.test(bare) && !NOT_SECRET_KEY_RE.test(bare) && !CAMEL_NOT_SECRET_RE.test(bare);
}

function kindForKey(key: string): RedactionKind {
  if (/pass|pwd/i.test(unescapeKey(key))) return 'password';
  return 'secret';
}

interface ValueMatch {
  start: number;
  end: number;
  inner: string;
  quote: string;
}

/** Characters a bare value runs over (BARE_VALUE's class). */
const BARE_CHAR_RE = /[^\s"'`&;]/y;

function readValue(text: string, at: number): ValueMatch | null {
  if (text.startsWith('\\"', at)) {
    // an escaped-quoted value inside a JSON string: \"…\"
    const close = text.indexOf('\\"', at + 2);
    if (close < 0 || close - at > 4096 || text.slice(at + 2, close).includes('\n')) return null;
    return { start: at, end: close + 2, inner: text.slice(at + 2, close), quote: '\\"' };
  }
  VALUE_RE.lastIndex = at;
  const m = VALUE_RE.exec(text);
  if (!m) return null;
  if (m[4] !== undefined) {
    let end = at + m[0].length;
    // a bare value longer than the pattern's bound is redacted to its very end, not cut at 4,096
    if (m[0].length >= 4096 && m[0] === m[4]) {
      BARE_CHAR_RE.lastIndex = end;
      while (BARE_CHAR_RE.test(text)) end = BARE_CHAR_RE.lastIndex;
    }
    return { start: at, end, inner: text.slice(at, end), quote: '' };
  }
  const quote = m[0][0];
  const inner = m[1] ?? m[2] ?? m[3] ?? '';
  return { start: at, end: at + m[0].length, inner, quote };
}

function worthRedacting(value: string): boolean {
  return value.length > 0 && /[A-Za-z0-9]/.test(value) && !PLACEHOLDER_RE.test(value);
}

/** Text between the start of the line and `at`, at most 200 characters (never a scan of the whole text). */
function lineBefore(text: string, at: number): string {
  const window = text.slice(Math.max(0, at - 200), at);
  const nl = window.lastIndexOf('\n');
  return nl < 0 ? window : window.slice(nl + 1);
}

type Count = (kind: RedactionKind) => void;

/**
 * Redacts the value after each match of `re` (a global regex) that `secretAfter` finds to be a
 * secret: keeps what the match covers (a key, a flag), replaces the value, scans on after it.
 */
function redactValuesAfter(
  text: string,
  re: RegExp,
  count: Count,
  secretAfter: (m: RegExpExecArray, valueAt: number) => { v: ValueMatch; kind: RedactionKind } | undefined,
): string {
  let out = '';
  let last = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const found = secretAfter(m, m.index + m[0].length);
    if (!found) continue;
    const { v, kind } = found;
    out += text.slice(last, v.start) + `${v.quote}${marker(kind)}${v.quote}`;
    last = v.end;
    re.lastIndex = v.end;
    count(kind);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** KEY=value / key: value / "key": "value" with a secret-sounding key: keeps the key, redacts the value. */
function redactAssignments(text: string, count: Count): string {
  return redactValuesAfter(text, ASSIGN_RE, count, (m, valueAt) => {
    const [, quote, key, sep] = m;
    if (!isSecretKey(key)) return undefined;
    const colon = sep.includes(':') && !sep.includes('=');
    const prose = colon && !quote && PROSE_KEY_RE.test(unescapeKey(key)) && /[A-Za-z]\s*$/.test(lineBefore(text, m.index));
    const v = readValue(text, valueAt);
    if (!v || !worthRedacting(v.inner)) return undefined;
    // "Invalid password: too short" is prose; "echo password: hunter2" and "bad apiKey: sk-…" are not:
    // mid-line, a value is kept only when it is a plain word
    if (prose && /^[A-Za-z]{1,16}[.,!?]?$/.test(v.inner)) return undefined;
    return { v, kind: /^aws_?secret_?access_?key$/i.test(unescapeKey(key)) ? 'aws-secret-key' : kindForKey(key) };
  });
}

/** --password x, --token=x, --client-secret x: keeps the flag, redacts the value. */
function redactFlags(text: string, count: Count): string {
  return redactValuesAfter(text, FLAG_RE, count, (m, valueAt) => {
    const flag = m[1];
    if (!isSecretKey(flag)) return undefined;
    if (text[valueAt] === '-') return undefined; // next flag: this one takes no value here
    const v = readValue(text, valueAt);
    if (!v || !worthRedacting(v.inner)) return undefined;
    return { v, kind: kindForKey(flag) };
  });
}

// ---------------------------------------------------------------------------------------------
// The redactor
// ---------------------------------------------------------------------------------------------

/**
 * Builds a redactor with the built-in rules and the user's extra patterns (regular-expression
 * sources, each match becoming `[REDACTED:custom]`). Throws RedactionPatternError naming the first
 * invalid extra pattern.
 */
export function createRedactor(extraPatterns: string[] = [], options: RedactorOptions = {}): Redactor {
  const sources = extraPatterns ?? [];
  if (sources.length > MAX_PATTERNS) throw new RedactionPatternError(String(sources[MAX_PATTERNS]), `more than ${MAX_PATTERNS} patterns`);
  const custom = sources.map(compileUserPattern);
  return {
    redact(text: string): RedactionResult {
      if (!text) return { text: text ?? '', count: 0, kinds: [] };
      let count = 0;
      const kinds = new Set<string>();
      const note: Count = kind => {
        count++;
        kinds.add(kind);
      };
      // the user's own patterns first: what they asked for is never split by a built-in rule
      let s = custom.length ? applyUserPatterns(text, custom, () => note('custom'), options) : text;
      for (const rule of RULES) {
        if (rule.needles && !rule.needles.some(n => s.includes(n))) continue;
        rule.re.lastIndex = 0;
        s = s.replace(rule.re, (m: string, ...rest: unknown[]) => {
          const out = rule.replace ? rule.replace(m, ...(rest as never[])) : marker(rule.kind);
          if (out !== m) note(rule.kind);
          return out;
        });
      }
      if (s.includes('</')) s = redactXmlElements(s, note);
      if (s.includes('\n') && /[:=]/.test(s)) s = redactNextLineValues(s, note);
      if (/[:=]/.test(s)) s = redactAssignments(s, note);
      if (s.includes('-')) s = redactFlags(s, note);
      return { text: s, count, kinds: [...kinds].sort() };
    },
  };
}

const defaultRedactor = createRedactor();

/** Redacts with the built-in rules (and `extraPatterns`, compiled for this call). */
export function redact(text: string, extraPatterns?: string[]): string {
  const r = extraPatterns && extraPatterns.length ? createRedactor(extraPatterns) : defaultRedactor;
  return r.redact(text).text;
}
