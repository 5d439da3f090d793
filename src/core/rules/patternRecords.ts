// Pattern records: one cause across approaches. Every failure whose cause
// is known (./causes.ts) joins the record of that cause, or starts one: the approaches and runs it
// touched, occurrences, first and last seen, the factors all its failures shared, and whether it is
// systemic (several approaches, a cause nothing in the workspace's code explains). A success of any
// command that needed the same thing resolves it, with what fixed it (the service started, the
// install, the login run meanwhile, the files changed); when the cause comes back, that fix comes with
// it ("last time: `docker compose up -d db`"), and each time it works again it is reinforced.
// Applied by applyAttempt for every run, so a journaled run and a direct write give the same records.
// Pure, and self-contained: it reads the run, its own approach and the records, never another approach.

import { causeLabel, causeOf, describeCause, SYSTEMIC_CLASSES } from './causes';
import { editsSince } from './edits';
import { shellEffects, workSignature } from './shellEffects';
import type { Approach, Attempt, AttemptCause, MemoryData, PatternRecord, PatternResolution } from '../types';

/** Pattern records kept per workspace. */
export const MAX_PATTERNS = 40;
/** Approaches, run ids, tried commands and fixes kept per record. */
export const MAX_PATTERN_APPROACHES = 8;
export const MAX_PATTERN_RUNS = 12;
const MAX_TRIED = 3;
const MAX_FIXES = 3;
const MAX_FILES = 8;
/** Distinct approaches a cause must fail before it is systemic. */
export const SYSTEMIC_MIN_APPROACHES = 2;
/**
 * A pattern whose last failure is older than this starts a new stretch when it fails again (its
 * count starts over: a service down this morning says little about this afternoon), and its stops lapse.
 */
export const PATTERN_STRETCH_MS = 30 * 60_000;

/** The cause of a recorded failure: the one found when it was recorded, else read again from what the attempt kept. */
export function attemptCause(t: Attempt): AttemptCause | undefined {
  if (t.cause) return t.cause;
  if (t.outcome !== 'failure') return undefined;
  return causeOf({ exitCode: t.exitCode, errorSignature: t.errorSignature, errorLine: t.errorLine, output: t.output, noErrorLine: t.noErrorLine });
}

/** A short stable id for a cause key (FNV-1a, 48 bits): the same cause has the same id everywhere (the team's records too). */
export function patternId(cause: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < cause.length; i++) {
    const c = cause.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x811c9dc5) >>> 0;
  }
  return `p${h1.toString(36)}${(h2 & 0xffff).toString(36)}`;
}

/** The workspace's pattern records (created empty on first use). */
function recordsOf(data: MemoryData): PatternRecord[] {
  if (!Array.isArray(data.patterns)) data.patterns = [];
  return data.patterns;
}

function newPattern(cause: AttemptCause, at: string): PatternRecord {
  return {
    id: patternId(cause.key),
    cause: cause.key,
    kind: cause.kind,
    cls: cause.cls,
    subject: describeCause(cause).slice(0, 240),
    factors: { ...cause.factors },
    approaches: [],
    runs: [],
    occurrences: 0,
    failures: 0,
    firstSeen: at,
    since: at,
    lastSeen: at,
    lastError: '',
    systemic: false,
    status: 'active',
  };
}

/** Approaches failing with the cause in the current stretch. */
export function activeApproaches(p: PatternRecord): PatternRecord['approaches'] {
  return p.approaches.filter(a => a.failures > 0);
}

/** Systemic: several approaches in this stretch, and a class of cause nothing in the workspace's code explains. */
export function isSystemic(p: Pick<PatternRecord, 'cls' | 'approaches'>, minApproaches = SYSTEMIC_MIN_APPROACHES): boolean {
  return SYSTEMIC_CLASSES.has(p.cls) && p.approaches.filter(a => a.failures > 0).length >= minApproaches;
}

/** A new stretch: the cause came back after a resolution, or after a long quiet. Its history and its fixes stay. */
function restart(p: PatternRecord, at: string): void {
  p.status = 'active';
  p.failures = 0;
  p.since = at;
  delete p.resolvedAt;
  delete p.tried;
  for (const a of p.approaches) a.failures = 0;
}

/** The factors every failure shared: those that differ now are dropped (the cause's own never differ). */
function commonFactors(before: Record<string, string>, now: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(before)) if (now[k] === v) out[k] = v;
  return out;
}

/** Records a failure into its cause's pattern (mutates `data`); returns the record, or undefined when the cause is unknown. */
export function notePatternFailure(data: MemoryData, attempt: Attempt, approach: Approach, minApproaches = SYSTEMIC_MIN_APPROACHES): PatternRecord | undefined {
  const cause = attemptCause(attempt);
  if (!cause) return undefined;
  const records = recordsOf(data);
  const at = attempt.timestamp;
  let p = records.find(r => r.cause === cause.key);
  if (!p) {
    p = newPattern(cause, at);
    records.push(p);
  } else if (p.status === 'resolved' || Date.parse(at) - Date.parse(p.lastSeen) > PATTERN_STRETCH_MS) {
    restart(p, at);
  }
  const factors = { ...cause.factors, ...(approach.cwd && approach.cwd !== '.' ? { cwd: approach.cwd } : { cwd: '.' }) };
  p.factors = p.occurrences ? commonFactors(p.factors, factors) : factors;
  p.occurrences += 1;
  p.failures += 1;
  p.lastSeen = at;
  if (attempt.git?.fingerprint) p.lastGit = attempt.git.fingerprint;
  else delete p.lastGit;
  p.lastError = (attempt.errorLine || attempt.errorSignature.split(' | ')[0] || '').slice(0, 300);
  p.runs.push(attempt.id);
  if (p.runs.length > MAX_PATTERN_RUNS) p.runs.splice(0, p.runs.length - MAX_PATTERN_RUNS);
  const i = p.approaches.findIndex(a => a.key === approach.key);
  const entry = i >= 0 ? p.approaches.splice(i, 1)[0] : { key: approach.key, label: approach.label, cwd: approach.cwd, failures: 0, lastSeen: at };
  entry.failures += 1;
  entry.lastSeen = at;
  entry.label = approach.label;
  p.approaches.push(entry);
  // the oldest approach of an earlier stretch goes first, then the oldest of this one
  while (p.approaches.length > MAX_PATTERN_APPROACHES) {
    const old = p.approaches.findIndex(a => a.failures === 0);
    p.approaches.splice(old >= 0 ? old : 0, 1);
  }
  p.systemic = isSystemic(p, minApproaches);
  boundPatterns(data, p);
  return p;
}

/** A login: what an expired or refused credential waits for. */
const LOGIN_RE = /^(?:docker login|podman login|gh auth (?:login|refresh)|glab auth login|npm (?:login|adduser)|yarn npm login|pnpm login|aws (?:sso login|configure)|gcloud auth (?:login|application-default login)|az login|kinit|ssh-add|heroku login|vault login|op signin|firebase login|huggingface-cli login|hf auth login|wandb login|vercel login|netlify login|fly auth login|gsutil config)\b/;

const WRAPPERS = new Set(['sudo', 'env', 'time', 'command', 'exec', 'npx', 'nohup']);

/** A command line that logs in somewhere (`gh auth login`, `docker login`, `aws sso login`…), wrappers and VAR=value prefixes aside. */
export function logsIn(command: string): boolean {
  for (const part of command.slice(0, 10_000).split(/&&|\|\||;|\n/)) {
    const words = part.trim().split(/\s+/);
    let i = 0;
    while (i < words.length && (WRAPPERS.has(words[i]) || /^[A-Za-z_]\w*=/.test(words[i]))) i++;
    if (LOGIN_RE.test(words.slice(i, i + 4).join(' '))) return true;
  }
  return false;
}

/** What a command line can do to a systemic cause: start a service, install, log in. */
export function mayFixCause(command: string): boolean {
  const e = shellEffects(command);
  return e.starts || e.installs || logsIn(command);
}

/** Notes a command that may fix the active patterns (a service started, an install, a login), as a candidate fix. */
function noteTried(data: MemoryData, attempt: Attempt): void {
  if (attempt.outcome === 'interrupted' || !mayFixCause(attempt.command)) return;
  for (const p of data.patterns ?? []) {
    if (p.status !== 'active') continue;
    const tried = (p.tried ??= []);
    const command = attempt.command.split('\n')[0].slice(0, 300);
    const same = tried.findIndex(t => workSignature(t.command) === workSignature(command));
    if (same >= 0) tried.splice(same, 1);
    tried.push({ command, at: attempt.timestamp });
    if (tried.length > MAX_TRIED) tried.splice(0, tried.length - MAX_TRIED);
  }
}

/** Words of a command line, for "names the pattern's factor" (`pg_isready -p 5432`, `ffmpeg -version`, `python -c "import numpy"`). */
function namesFactor(p: PatternRecord, command: string): boolean {
  const f = p.factors;
  const words = new Set(command.split(/[\s'"=:;,()[\]{}<>|&]+/).filter(Boolean));
  switch (p.kind) {
    case 'conn_refused':
    case 'addr_in_use':
      return !!f.port && (words.has(f.port) || new RegExp(`[:=]${f.port}\\b`).test(command));
    case 'command_missing':
      return !!f.program && [...words].some(w => w === f.program || w.endsWith(`/${f.program}`));
    case 'module_missing':
      return !!f.module && new RegExp(`\\b(?:import|require\\(?)\\s*['"]?${f.module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b`).test(command);
    default:
      return false;
  }
}

/**
 * Whether a success answers for the pattern: a run of one of its approaches passed (it needed the
 * same thing and got it), or a command that names the pattern's factor did (`pg_isready -p 5432`
 * for a refused :5432, `ffmpeg -version` for a missing ffmpeg).
 */
export function successAnswers(p: PatternRecord, attempt: Pick<Attempt, 'key' | 'command' | 'timestamp'>): boolean {
  if (p.status !== 'active' || attempt.timestamp < p.lastSeen) return false;
  return p.approaches.some(a => a.key === attempt.key && a.failures > 0) || namesFactor(p, attempt.command);
}

/** Files changed between the pattern's last failure and now (the run ledger's fix when the passing approach had one). */
function filesSince(data: MemoryData, p: PatternRecord, fixFiles: readonly string[] | undefined): string[] {
  const files = fixFiles?.length ? [...fixFiles] : [...new Set(editsSince(data, p.lastSeen).map(e => e.path))];
  return files.slice(0, MAX_FILES);
}

/** Resolves a pattern (mutates it): the resolution, and the fix reinforced when a command fixed it. */
export function resolvePattern(p: PatternRecord, r: PatternResolution): void {
  p.status = 'resolved';
  p.resolvedAt = r.at;
  p.resolution = r;
  for (const a of p.approaches) a.failures = 0;
  delete p.tried;
  if (!r.fix) return;
  const fixes = (p.fixes ??= []);
  const same = fixes.find(f => workSignature(f.command) === workSignature(r.fix!));
  if (same) {
    // the root cause → fix mapping, reinforced each time it works
    same.worked += 1;
    same.lastWorked = r.at;
    same.command = r.fix;
  } else fixes.push({ command: r.fix, worked: 1, lastWorked: r.at });
  fixes.sort((a, b) => b.worked - a.worked || (b.lastWorked < a.lastWorked ? -1 : 1));
  if (fixes.length > MAX_FIXES) fixes.splice(MAX_FIXES);
}

/**
 * Applies a run that is not a failure to the records (mutates `data`): a command that may fix a cause
 * is noted; a success that answers for a pattern resolves it. Returns the patterns it resolved.
 */
export function notePatternRun(data: MemoryData, attempt: Attempt, fixFiles?: readonly string[]): PatternRecord[] {
  if (!data.patterns?.length) return [];
  noteTried(data, attempt);
  if (attempt.outcome !== 'success') return [];
  const resolved: PatternRecord[] = [];
  for (const p of data.patterns) {
    if (!successAnswers(p, attempt)) continue;
    // the fix: the latest candidate run since the last failure, unless the passing line itself is one
    const tried = (p.tried ?? []).filter(t => t.at >= p.lastSeen);
    const self = mayFixCause(attempt.command) ? attempt.command.split('\n')[0].slice(0, 300) : undefined;
    const fix = tried.length ? tried[tried.length - 1].command : self;
    const files = filesSince(data, p, fixFiles);
    resolvePattern(p, { at: attempt.timestamp, by: 'success', run: attempt.id, command: attempt.command.split('\n')[0].slice(0, 300), key: attempt.key, ...(files.length ? { files } : {}), ...(fix ? { fix } : {}) });
    resolved.push(p);
  }
  return resolved;
}

/** "Mark Resolved" on an approach resolves the active patterns it is in (the user says its cause is gone). */
export function resolvePatternsOf(data: MemoryData, key: string, at: string): PatternRecord[] {
  const out: PatternRecord[] = [];
  for (const p of data.patterns ?? []) {
    if (p.status !== 'active' || !p.approaches.some(a => a.key === key && a.failures > 0)) continue;
    resolvePattern(p, { at, by: 'manual', key });
    out.push(p);
  }
  return out;
}

/** How much a record is worth keeping: systemic and active ones last, those with a learned fix next, single-approach code errors first to go. */
function worth(p: PatternRecord): number {
  return (p.systemic ? 4 : 0) + (p.status === 'active' ? 2 : 0) + (p.fixes?.length ? 2 : 0) + (p.approaches.length >= 2 ? 1 : 0);
}

/** Keeps the records within MAX_PATTERNS: the least worth first, the oldest of equal worth first; never `keep`. */
export function boundPatterns(data: MemoryData, keep?: PatternRecord, max = MAX_PATTERNS): void {
  const records = recordsOf(data);
  if (records.length <= max) return;
  const order = records
    .filter(p => p !== keep)
    .map(p => ({ p, w: worth(p) }))
    .sort((a, b) => a.w - b.w || (a.p.lastSeen < b.p.lastSeen ? -1 : a.p.lastSeen > b.p.lastSeen ? 1 : 0));
  const drop = new Set(order.slice(0, records.length - max).map(x => x.p));
  data.patterns = records.filter(p => !drop.has(p));
}

/** The last fix that worked for a pattern, as a person reads it: the most reinforced one. */
export function lastFix(p: Pick<PatternRecord, 'fixes' | 'resolution'>): { command: string; worked: number } | undefined {
  const f = p.fixes?.[0];
  if (f) return { command: f.command, worked: f.worked };
  return p.resolution?.fix ? { command: p.resolution.fix, worked: 1 } : undefined;
}

/** Active systemic patterns whose stretch is recent (within PATTERN_STRETCH_MS), most failures first: the causes the gate counts now. */
export function liveCauses(data: Pick<MemoryData, 'patterns'>, now: Date, systemic: (p: PatternRecord) => boolean = p => p.systemic): PatternRecord[] {
  return (data.patterns ?? [])
    .filter(p => p.status === 'active' && systemic(p) && now.getTime() - Date.parse(p.lastSeen) <= PATTERN_STRETCH_MS)
    .sort((a, b) => b.failures - a.failures);
}

/** "one cause: database on :5432 — 3 commands": a live cause in a status bar's words. */
export function causeHeadline(p: PatternRecord): string {
  const n = activeApproaches(p).length;
  return `one cause: ${causeLabel(p)} — ${n} command${n === 1 ? '' : 's'}`;
}

/** Patterns worth showing: active ones spanning several approaches (systemic first), then those resolved with a known fix; newest first. */
export function shownPatterns(data: Pick<MemoryData, 'patterns'>): PatternRecord[] {
  const rank = (p: PatternRecord) => (p.status === 'active' ? (p.systemic ? 0 : activeApproaches(p).length >= 2 ? 1 : 3) : lastFix(p) || p.approaches.length >= 2 ? 2 : 4);
  return (data.patterns ?? [])
    .filter(p => rank(p) < 3)
    .sort((a, b) => rank(a) - rank(b) || (b.lastSeen < a.lastSeen ? -1 : b.lastSeen > a.lastSeen ? 1 : 0));
}

/**
 * Pattern records for a memory written before they existed: its approaches' short-term windows
 * replayed in time order (failures join their causes; successes resolve them). Mutates `data`.
 */
export function seedPatterns(data: MemoryData): void {
  data.patterns = [];
  const runs = Object.values(data.approaches)
    .flatMap(a => a.attempts.map(t => ({ a, t })))
    .filter(x => x.t.outcome === 'failure' || x.t.outcome === 'success')
    .sort((x, y) => (x.t.timestamp < y.t.timestamp ? -1 : x.t.timestamp > y.t.timestamp ? 1 : 0));
  for (const { a, t } of runs) {
    if (t.outcome === 'failure') notePatternFailure(data, t, a);
    else notePatternRun(data, t);
  }
}

