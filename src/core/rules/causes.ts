// A failure's cause: the error concept it shows (a refused connection, a missing program, a missing
// module, a full disk…) and the salient factors that tell one instance of that concept from another
// (the host and port, the program, the module, the variable, the file, the exit code's family). Found
// once when a run is recorded, from the redacted output as printed (the signature masks ports), and
// kept on the attempt: the cluster key of the pattern records (./patternRecords.ts). Different causes
// never share a key; the port keeps two services apart. Pure and linear: each pattern is a plain
// alternation over lines of bounded length.

import { failedStep } from './judgement';
import { errorCategory } from '../text/signature';
import type { AttemptCause, CauseClass } from '../types';

/** What a cause is read from: the run as recorded. */
export interface CauseInput {
  exitCode: number | null;
  errorSignature: string;
  /** The line the signature came from, as printed. */
  errorLine?: string;
  /** The redacted output (only lines that mention the concept are read, from its tail). */
  output: string;
  noErrorLine?: boolean;
}

/**
 * One concept: how it is recognised (case-insensitive, one line at a time), what class of cause it is,
 * and its factors; `factor` returns undefined when the line is not this concept after all (a
 * `KeyError: 'name'` of a dict is no missing variable).
 */
interface Concept {
  kind: string;
  cls: CauseClass;
  re: RegExp;
  factor: (text: string, input: CauseInput) => Record<string, string> | undefined;
}

const LINE_MAX = 2000;
/** Output lines read for factors: those that mention the concept, at most this many, from this much of the tail. */
const FACTOR_LINES = 8;
const OUTPUT_TAIL = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Factors

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '[::1]', '::', 'host.docker.internal']);
const normHost = (h: string) => {
  const x = h.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return LOCAL_HOSTS.has(x) || LOCAL_HOSTS.has(`[${x}]`) ? 'localhost' : x;
};

/** Well-known ports: the service a person would name. */
const SERVICES: Record<string, string> = {
  '5432': 'database',
  '3306': 'database',
  '1433': 'database',
  '1521': 'database',
  '27017': 'database',
  '26257': 'database',
  '9042': 'database',
  '6379': 'Redis',
  '11211': 'Memcached',
  '9200': 'Elasticsearch',
  '5672': 'message broker',
  '9092': 'Kafka',
  '2181': 'ZooKeeper',
  '4222': 'NATS',
  '8500': 'Consul',
  '2375': 'Docker daemon',
  '2376': 'Docker daemon',
  '11434': 'Ollama server',
  '4566': 'LocalStack',
  '9000': 'server',
};
/** Words that name the service when the port does not. */
const SERVICE_WORDS: Array<[RegExp, string]> = [
  [/postgres|psql|pgsql|database server|mysql|mariadb|mongo|sqlserver|prisma/, 'database'],
  [/redis/, 'Redis'],
  [/docker/, 'Docker daemon'],
  [/elasticsearch|opensearch/, 'Elasticsearch'],
  [/rabbitmq|amqp/, 'message broker'],
  [/kafka/, 'Kafka'],
];

const HOST = String.raw`(localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]{2,39}\]|[a-z0-9](?:[a-z0-9-]{0,62}\.){1,6}[a-z]{2,24})`;
const HOST_PORT_RE = new RegExp(`${HOST}:(\\d{2,5})\\b`, 'i');
const PG_HOST_RE = /(?:server at|on host) "([^"\s]{1,255})"/i;
const PORT_WORD_RE = /\bport[ :="']{1,3}(\d{2,5})\b/i;
const SOCKET_PORT_RE = /\.s\.pgsql\.(\d{2,5})\b/i;
const BACKTICK_HOST_PORT_RE = /`([a-z0-9.-]{1,255})`:`(\d{2,5})`/i;
const URL_HOST_RE = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?:[^@/\s]{1,200}@)?([a-z0-9.-]{1,255}|\[[0-9a-f:]{2,39}\])(?::(\d{2,5}))?/i;

/** Host and port of a network error, and the service they name. */
function endpoint(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const hp = BACKTICK_HOST_PORT_RE.exec(text) ?? HOST_PORT_RE.exec(text);
  if (hp) {
    out.host = normHost(hp[1]);
    out.port = String(Number(hp[2]));
  }
  if (!out.host) {
    const pg = PG_HOST_RE.exec(text) ?? URL_HOST_RE.exec(text);
    if (pg) out.host = normHost(pg[1]);
    if (pg?.[2] && !out.port) out.port = String(Number(pg[2]));
  }
  if (!out.port) {
    const p = PORT_WORD_RE.exec(text) ?? SOCKET_PORT_RE.exec(text);
    if (p) out.port = String(Number(p[1]));
  }
  if (!out.host && SOCKET_PORT_RE.test(text)) out.host = 'localhost';
  const service = (out.port && SERVICES[out.port]) || SERVICE_WORDS.find(([re]) => re.test(text))?.[1];
  if (service) out.service = service;
  return out;
}

const SSH_HOST_RE = /\b[\w.-]{1,64}@([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,6})\b/i;

/** The host of an error that names one (DNS, TLS, credentials, rate limits): never a port's service. */
function hostOnly(text: string): Record<string, string> {
  const e = endpoint(text);
  if (e.host) return { host: e.host };
  const ssh = SSH_HOST_RE.exec(text);
  return ssh ? { host: normHost(ssh[1]) } : {};
}

/** The port a listener could not bind: `listen EADDRINUSE: address already in use :::3000`, `port 8080 is already in use`. */
const BIND_PORT_RE = /\b(?:eaddrinuse|in use|allocated)\b[^\n]{0,80}?:(\d{2,5})\b|\bport (\d{2,5}) is\b/i;

function boundPort(text: string): Record<string, string> {
  const e = endpoint(text);
  const m = BIND_PORT_RE.exec(text);
  const port = m?.[1] ?? m?.[2] ?? e.port;
  return port ? { port: String(Number(port)) } : {};
}

/** A program the shell could not find: `bash: ffmpeg: command not found`, `zsh: command not found: jq`, `spawn ffmpeg ENOENT`. */
const MISSING_PROGRAM_RE = /(?:^|[\s:'"])([\w.+/-]{1,120}): (?:command )?not found\b|command not found: ([\w.+/-]{1,120})|'([\w.+/-]{1,120})' is not recognized|executable file not found in \$path: "?([\w.+/-]{1,120})|spawn ([\w.+/-]{1,120}) enoent/i;

function program(text: string, input: CauseInput): Record<string, string> | undefined {
  const m = MISSING_PROGRAM_RE.exec(text);
  const out = input.output.length > OUTPUT_TAIL ? input.output.slice(-OUTPUT_TAIL) : input.output;
  const name = m?.slice(1).find(Boolean) ?? failedStep(out);
  if (!name) return {};
  const base = name.replace(/^.*\//, '');
  return { program: base, ...(name.includes('/') ? { path: name } : {}) };
}

/** A module: Python's `No module named 'a.b'` (its top package), Node's `Cannot find module '@s/p/x'` (its package), a relative path as it is. */
const MODULE_RE =
  /no module named '?([\w.-]{1,200})|cannot find (?:module|package) '([^'\s]{1,200})'|can't resolve '([^'\s]{1,200})'|err_module_not_found[^'\n]{0,200}'([^'\s]{1,200})'|cannot load such file -- (\S{1,200})|could not find gem '([\w.-]{1,100})|no required module provides package ([^\s;]{1,200})|unresolved import `([\w:]{1,200})`/i;

/** No module named: not this concept (a module we cannot name would merge unrelated failures). */
function moduleName(text: string): Record<string, string> | undefined {
  const m = MODULE_RE.exec(text);
  const raw = m?.slice(1).find(Boolean)?.replace(/['"]$/, '');
  if (!raw) return undefined;
  if (/^(?:\.{1,2}\/|\/|[a-z]:[\\/])/i.test(raw)) return { module: raw, relative: 'yes' };
  const top = raw.startsWith('@') ? raw.split('/').slice(0, 2).join('/') : (raw.split(/[/.:]/)[0] ?? raw);
  return { module: top };
}

/** A variable: `DATABASE_URL is not set`, `environment variable OPENAI_API_KEY`, `KeyError: 'HOME_DIR'`, `$TOKEN is empty`. */
const VARIABLE_RE =
  /(?:environment variable|env var(?:iable)?)s?[ :'"`]{1,3}\$?([a-z_][a-z0-9_]{1,100})|\$?([a-z_][a-z0-9_]{2,100})['"`]? (?:environment variable )?(?:is|was) (?:not set|unset|empty|missing|required|undefined)|keyerror: '([a-z_][a-z0-9_]{1,100})'|missing (?:required )?(?:env(?:ironment)? )?var(?:iable)? [`'"]?\$?([a-z_][a-z0-9_]{1,100})/i;

/** Only a name written as environment variables are (`DATABASE_URL`): `KeyError: 'name'` of a dict is the code's. */
function variable(text: string): Record<string, string> | undefined {
  for (const line of text.split('\n')) {
    const v = VARIABLE_RE.exec(line)?.slice(1).find(Boolean);
    if (v && /^[A-Z_][A-Z0-9_]{2,}$/.test(v)) return { variable: v };
  }
  return undefined;
}

/** A path: the one after `open`, `stat`, `access`…, a quoted one, or a shell's `prog: path: No such file`. */
const PATH_RE = /\b(?:open|stat|access|lstat|mkdir|unlink|scandir|opendir|rename|chmod|copyfile|readfile)\s+'([^'\n]{1,300})'|: '([^'\n]{1,300})'$|^[\w.-]{1,40}: (?:cannot \w{1,20} '?)?([^\s:'"]{1,300})'?: (?:no such file|permission denied)|"([^"\n]{1,300})"|'([^'\n]{1,300})'/i;

/** The file named; undefined when none is (then the failure is the code's own error: an unnamed missing file tells nothing). */
function filePath(text: string): Record<string, string> | undefined {
  for (const line of text.split('\n')) {
    const p = PATH_RE.exec(line)?.slice(1).find(Boolean);
    if (p && !p.includes('<tmp>') && !/\s/.test(p) && /[/.]/.test(p)) return { file: p };
  }
  return undefined;
}

const none = () => ({});

/** The concepts, checked in order (the specific first). Each is a plain alternation matched on one line at a time (linear). */
const CONCEPTS: readonly Concept[] = [
  { kind: 'docker_daemon', cls: 'service', re: /cannot connect to the docker daemon|is the docker daemon running|docker daemon is not running|docker\.sock: connect|error during connect: .{0,80}docker/i, factor: none },
  { kind: 'addr_in_use', cls: 'service', re: /\beaddrinuse\b|address already in use|port is already allocated|\bport \d{2,5} is (?:already )?in use|bind: address/i, factor: boundPort },
  {
    kind: 'conn_refused',
    cls: 'service',
    re: /\beconnrefused\b|connection refused|could not connect to (?:server|the server|host|database)|actively refused|is the server running|connection to server .{0,120} failed|can't reach database server|couldn't connect to server|failed to connect to .{0,160}(?:refused|couldn't connect)|errno 111|no connection could be made/i,
    factor: endpoint,
  },
  { kind: 'dns', cls: 'service', re: /\benotfound\b|\beai_again\b|getaddrinfo|could not resolve host|temporary failure in name resolution|name or service not known|nodename nor servname|no such host|name resolution failed/i, factor: hostOnly },
  { kind: 'tls', cls: 'service', re: /certificate verify failed|self[- ]signed certificate|unable to (?:get|verify) (?:local issuer|the first) certificate|cert_has_expired|x509: certificate|ssl: certificate/i, factor: hostOnly },
  {
    kind: 'auth',
    cls: 'credentials',
    re: /authentication failed|authentication required|permission denied \(publickey|bad credentials|invalid (?:credentials|api key|access token|token)\b|invalid username or password|access denied for user|pull access denied|could not read username|\b401 unauthorized|\bunauthorized\b|not logged in|please (?:log ?in|run .{0,40}login)|requires authentication|login required/i,
    factor: hostOnly,
  },
  { kind: 'expired', cls: 'credentials', re: /\bexpiredtoken\b|token (?:has )?expired|session (?:has )?expired|credentials (?:have )?expired|sso session .{0,40}expired|refresh token .{0,40}expired/i, factor: hostOnly },
  { kind: 'rate_limit', cls: 'service', re: /rate limit|too many requests|(?:http|status|code|error) 429\b|\b429 too many/i, factor: hostOnly },
  { kind: 'disk_full', cls: 'resources', re: /no space left on device|\benospc\b|disk quota exceeded|\bedquot\b|disk is full|not enough space on the disk/i, factor: none },
  { kind: 'out_of_memory', cls: 'resources', re: /out of memory|outofmemoryerror|heap limit|\benomem\b|\boomkilled\b|cannot allocate memory|\bmemoryerror\b|java heap space|^killed\b/i, factor: none },
  { kind: 'open_files', cls: 'resources', re: /\bemfile\b|too many open files|\benfile\b/i, factor: none },
  { kind: 'network_timeout', cls: 'service', re: /\betimedout\b|connection timed out|connect timeout|timed out while connecting|operation timed out after .{0,40}connect/i, factor: hostOnly },
  { kind: 'command_missing', cls: 'toolchain', re: /command not found|is not recognized as an internal or external command|executable file not found in \$path|: not found$|spawn \S{1,120} enoent/i, factor: program },
  { kind: 'module_missing', cls: 'toolchain', re: /no module named|modulenotfounderror|cannot find (?:module|package) '|can't resolve '|module not found|err_module_not_found|cannot load such file|could not find gem|no required module provides package|unresolved import/i, factor: moduleName },
  {
    kind: 'env_missing',
    cls: 'toolchain',
    re: /environment variable|env var|\b(?:is|was) (?:not set|unset)\b|keyerror: '[a-z0-9_]{2,100}'|missing (?:required )?(?:env(?:ironment)? )?var/i,
    factor: variable,
  },
  { kind: 'engine_version', cls: 'toolchain', re: /ebadengine|unsupported engine|engine "node" is incompatible|requires node|requires python|python_requires|unsupported (?:node|python) version|requires a different python/i, factor: none },
  { kind: 'permission', cls: 'files', re: /\beacces\b|permission denied|operation not permitted|\beperm\b|permissionerror|access is denied|read-only file system/i, factor: filePath },
  { kind: 'file_missing', cls: 'files', re: /no such file or directory|\benoent\b|filenotfounderror|filenotfoundexception|file not found|cannot find the (?:file|path) specified/i, factor: filePath },
];

/** The factor of each kind that goes into the cluster key (the others are only told). */
const KEY_FACTORS: Record<string, string[]> = {
  conn_refused: ['host', 'port'],
  addr_in_use: ['port'],
  dns: ['host'],
  tls: ['host'],
  auth: ['host'],
  expired: ['host'],
  rate_limit: ['host'],
  network_timeout: ['host'],
  command_missing: ['program'],
  module_missing: ['module'],
  env_missing: ['variable'],
  permission: ['file'],
  file_missing: ['file'],
};

/** The family of an exit code: what it says whatever the program (127 not found, 137 killed…). */
export function exitFamily(code: number | null): string {
  if (code === null) return '';
  if (code === 127) return 'not found (127)';
  if (code === 126) return 'not executable (126)';
  if (code === 137) return 'killed (137)';
  if (code === 139 || code === 134 || code === 135 || code === 136) return `crashed (${code})`;
  if (code > 128 && code < 160) return `signal (${code})`;
  if (code === 1 || code === 2) return 'error (1-2)';
  return `exit ${code}`;
}

/** A line as read: bounded, trimmed. */
const bounded = (l: string) => (l.length > LINE_MAX ? l.slice(0, LINE_MAX) : l).trim();

/** The error's own lines: the line printed and the signature's parts (the output itself never names the concept). */
function headLines(input: CauseInput): string[] {
  return [input.errorLine ?? '', ...input.errorSignature.split(' | ')].map(bounded).filter(Boolean);
}

/** Up to FACTOR_LINES lines of the output's tail that mention the concept (the port is often on the line after the error). */
function outputHits(input: CauseInput, re: RegExp): string[] {
  const out = input.output.length > OUTPUT_TAIL ? input.output.slice(-OUTPUT_TAIL) : input.output;
  const lines = out.split('\n');
  const hits: string[] = [];
  for (let i = lines.length - 1; i >= 0 && hits.length < FACTOR_LINES; i--) {
    const l = bounded(lines[i]);
    if (l && re.test(l)) hits.push(l);
  }
  return hits;
}

/** The code's own error: its first line with numbers folded (`3 != 4` and `2 != 4` are one assertion failing). */
function codeError(signature: string): string {
  const head = (signature.split(' | ')[0] ?? '').trim();
  return head.replace(/\d+/g, '<n>').slice(0, 200);
}

/**
 * The cause of a failing run; undefined when it printed nothing to tell one by. The concept is the
 * first one the error's own lines show (an assertion whose test logged "connection refused" is the
 * code's); its factors are read from those lines and from the output lines that mention it. A kind's
 * own factors make the key: two refused ports are two causes, a missing relative module (`./utils`)
 * or a program run by its path is the workspace's code, not the toolchain.
 */
export function causeOf(input: CauseInput): AttemptCause | undefined {
  const head = headLines(input);
  const exit = exitFamily(input.exitCode);
  for (const concept of CONCEPTS) {
    const own = head.filter(l => concept.re.test(l));
    if (!own.length) continue;
    const factors = concept.factor([...own, ...outputHits(input, concept.re)].join('\n'), input);
    if (!factors) continue;
    let cls = concept.cls;
    if (factors.relative || (concept.kind === 'command_missing' && factors.path)) cls = 'code';
    const { relative: _relative, ...kept } = factors;
    if (exit) kept.exit = exit;
    const keyed = (KEY_FACTORS[concept.kind] ?? []).map(k => kept[k] ?? '').join(':');
    return { kind: concept.kind, cls, key: `${concept.kind}|${keyed}`.slice(0, 400), factors: kept };
  }
  if (!input.errorSignature || input.noErrorLine) return undefined;
  const error = codeError(input.errorSignature);
  if (!error) return undefined;
  return { kind: 'error', cls: 'code', key: `error|${errorCategory(input.errorSignature)}|${error}`, factors: { error, ...(exit ? { exit } : {}) } };
}

/** The classes of cause that can be systemic: nothing in the workspace's code explains them. */
export const SYSTEMIC_CLASSES: ReadonlySet<CauseClass> = new Set(['service', 'credentials', 'resources', 'toolchain']);

const code = (s: string) => `\`${s}\``;

/** The cause in words, for a person or an agent: "the database at localhost:5432", "`ffmpeg` (not installed)". */
export function describeCause(c: Pick<AttemptCause, 'kind' | 'factors'>): string {
  const f = c.factors;
  const at = f.host || f.port ? ` at ${f.host ?? 'localhost'}${f.port ? `:${f.port}` : ''}` : '';
  switch (c.kind) {
    case 'conn_refused':
      return `the ${f.service ?? 'service'}${at}`;
    case 'addr_in_use':
      return `port ${f.port ?? '(unknown)'}, already in use`;
    case 'docker_daemon':
      return 'the Docker daemon';
    case 'dns':
      return f.host ? `the host name ${f.host}` : 'name resolution';
    case 'tls':
      return `the TLS certificate${f.host ? ` of ${f.host}` : ''}`;
    case 'auth':
      return `the credentials${f.host ? ` for ${f.host}` : ''}`;
    case 'expired':
      return `expired credentials${f.host ? ` for ${f.host}` : ''}`;
    case 'rate_limit':
      return `the rate limit${f.host ? ` of ${f.host}` : ''}`;
    case 'disk_full':
      return 'a full disk';
    case 'out_of_memory':
      return 'memory running out';
    case 'open_files':
      return 'the open-files limit';
    case 'network_timeout':
      return `the network${f.host ? ` to ${f.host}` : ''} timing out`;
    case 'command_missing':
      return f.program ? `${code(f.program)} (not installed)` : 'a program that is not installed';
    case 'module_missing':
      return f.module ? `the module ${code(f.module)} (missing)` : 'a missing module';
    case 'env_missing':
      return f.variable ? `the variable ${code(f.variable)} (not set)` : 'an environment variable that is not set';
    case 'engine_version':
      return 'the toolchain version';
    case 'permission':
      return `permission denied${f.file ? ` on ${code(f.file)}` : ''}`;
    case 'file_missing':
      return f.file ? `${code(f.file)} (missing)` : 'a missing file';
    default:
      return `the same error: ${f.error ?? ''}`;
  }
}

/** What to do about a cause first, in a few words: "start it first", "install it first". */
export function causeRemedy(kind: string): string {
  switch (kind) {
    case 'conn_refused':
    case 'docker_daemon':
      return 'start it first';
    case 'addr_in_use':
      return 'stop what holds the port first (or use another port)';
    case 'command_missing':
    case 'module_missing':
      return 'install it first';
    case 'env_missing':
      return 'set it first';
    case 'auth':
    case 'expired':
      return 'log in again first';
    case 'disk_full':
      return 'free some space first';
    case 'out_of_memory':
      return 'free memory or lower the load first';
    case 'open_files':
      return 'raise the limit or close what holds the files first';
    case 'rate_limit':
      return 'wait before trying again';
    case 'dns':
    case 'network_timeout':
    case 'tls':
      return 'check the network and the host first';
    case 'engine_version':
      return 'switch to the version it needs first';
    default:
      return 'change the cause first';
  }
}

/** The cause in a few words, for a status bar: "database on :5432", "ffmpeg missing", "DATABASE_URL not set". */
export function causeLabel(c: Pick<AttemptCause, 'kind' | 'factors'>): string {
  const f = c.factors;
  const on = f.port ? ` on :${f.port}` : f.host ? ` on ${f.host}` : '';
  switch (c.kind) {
    case 'conn_refused':
      return `${f.service ?? 'service'}${on}`;
    case 'addr_in_use':
      return `port :${f.port ?? '?'} taken`;
    case 'docker_daemon':
      return 'Docker daemon down';
    case 'command_missing':
      return `${f.program ?? 'a program'} missing`;
    case 'module_missing':
      return `module ${f.module ?? '?'} missing`;
    case 'env_missing':
      return `${f.variable ?? 'a variable'} not set`;
    case 'auth':
    case 'expired':
      return `login${f.host ? ` to ${f.host}` : ''}`;
    case 'disk_full':
      return 'disk full';
    case 'out_of_memory':
      return 'out of memory';
    case 'file_missing':
      return `${f.file ?? 'a file'} missing`;
    default:
      return describeCause(c).slice(0, 60);
  }
}
