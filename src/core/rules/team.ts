// Team memory, the pure part: who a project is across clones, what the outbox keeps when it is full,
// what the team's failures mean for a local check, and how to say it. No fs, no network: the store
// (src/store/team) moves the data, this decides.

import type { CheckResult } from './check';
import { runsNothing } from '../memory';
import type { Approach, Attempt, Learning, MemoryData, TestResults } from '../types';
import { teamFixFor, type SharedPattern, type TeamPattern } from './teamPatterns';

// ---------------------------------------------------------------------------------------------
// Project identity

/**
 * A git remote URL in one canonical form, so that every clone of a repository meets in one team
 * project whatever protocol it was cloned with:
 *   git@github.com:Org/Repo.git, https://user:token@github.com/Org/Repo/, ssh://git@github.com:22/Org/Repo
 *   → github.com/org/repo
 * Credentials, ports, the `.git` suffix and trailing slashes are dropped; the whole id is lower-cased
 * (GitHub, GitLab and Bitbucket paths are case-insensitive). '' when the URL is empty.
 */
export function normalizeRemote(url: string): string {
  let u = url.trim();
  if (!u) return '';
  let host = '';
  let path = '';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(u);
  if (scheme) {
    const proto = scheme[1].toLowerCase();
    const rest = scheme[2];
    if (proto === 'file') {
      return `file/${rest.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/i, '')}`.toLowerCase();
    }
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    path = slash < 0 ? '' : rest.slice(slash + 1);
    host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  } else {
    // scp-like: [user@]host:path (but not a Windows drive letter)
    const scp = /^(?:[^@/]+@)?([^:/]+):(.*)$/.exec(u);
    if (scp && scp[1].length > 1) {
      host = scp[1];
      path = scp[2];
    } else {
      // a local path used as a remote
      u = u.replace(/\\/g, '/');
      return `file/${u.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/i, '')}`.toLowerCase();
    }
  }
  path = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  host = host.replace(/^www\./i, '');
  return (path ? `${host}/${path}` : host).toLowerCase();
}

/** The `url` of `[remote "origin"]` in a .git/config text; '' when there is none. */
export function originFromGitConfig(configText: string): string {
  let inOrigin = false;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/i.test(line);
      continue;
    }
    if (!inOrigin) continue;
    const m = /^url\s*=\s*(.*)$/i.exec(line);
    if (m) return m[1].replace(/^"(.*)"$/, '$1').trim();
  }
  return '';
}

/**
 * The team project of a workspace folder: the override when set; else the normalized origin plus
 * the folder's path inside the repository (`github.com/org/repo` for the root, `github.com/org/repo#packages/api`
 * for a folder within); undefined when neither exists (team memory then needs the override).
 */
export function teamProjectId(opts: { override?: string; remote?: string; pathInRepo?: string }): string | undefined {
  const override = opts.override?.trim();
  if (override) return override.slice(0, 300);
  const remote = normalizeRemote(opts.remote ?? '');
  if (!remote) return undefined;
  const sub = (opts.pathInRepo ?? '').replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/^\/+|\/+$/g, '');
  return (sub ? `${remote}#${sub}` : remote).slice(0, 300);
}

// ---------------------------------------------------------------------------------------------
// What is shared: outbox entries

/** An attempt as the team sees it: bounded, redacted (it already is locally), output only when allowed. */
export interface SharedAttempt {
  id: string;
  key: string;
  label: string;
  command: string;
  cwd: string;
  exitCode: number | null;
  outcome: Attempt['outcome'];
  source: Attempt['source'];
  errorSignature: string;
  testResults: TestResults | null;
  /** '' unless failureMemory.team.shareOutput is on. */
  output: string;
  endedAt: string;
}

export interface SharedLearning {
  id: string;
  key?: string;
  type: Learning['type'];
  text: string;
  createdAt: string;
}

export interface SharedReflection {
  id: string;
  key: string;
  text: string;
  lessons: string[];
  createdAt: string;
}

export interface SharedResolve {
  /** Idempotency id of this resolve event. */
  id: string;
  key: string;
  label: string;
  cwd: string;
  at: string;
}

export type OutboxEntry =
  | { kind: 'attempt'; id: string; queuedAt: string; machine: string; ci: boolean; attempt: SharedAttempt }
  | { kind: 'pattern'; id: string; queuedAt: string; machine: string; ci: boolean; pattern: SharedPattern }
  | { kind: 'learning'; id: string; queuedAt: string; machine: string; ci: boolean; learning: SharedLearning }
  | { kind: 'reflection'; id: string; queuedAt: string; machine: string; ci: boolean; reflection: SharedReflection }
  | { kind: 'resolve'; id: string; queuedAt: string; machine: string; ci: boolean; resolve: SharedResolve };

/** Caps on what one shared record may carry. */
export const SHARED_LIMITS = { command: 2000, errorSignature: 1000, output: 8 * 1024, text: 2000, lessons: 10, testFailures: 20 } as const;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function sharedAttempt(a: Attempt, label: string, shareOutput: boolean): SharedAttempt {
  return {
    id: a.id,
    key: a.key,
    label: cut(label, 300),
    command: cut(a.command, SHARED_LIMITS.command),
    cwd: a.cwd,
    exitCode: a.exitCode,
    outcome: a.outcome,
    source: a.source,
    errorSignature: cut(a.errorSignature, SHARED_LIMITS.errorSignature),
    testResults: a.testResults
      ? { ...a.testResults, failures: a.testResults.failures.slice(0, SHARED_LIMITS.testFailures).map(f => ({ name: cut(f.name, 300), message: cut(f.message, 500) })) }
      : null,
    output: shareOutput ? cut(a.output, SHARED_LIMITS.output) : '',
    endedAt: a.endedAt || a.timestamp,
  };
}

/**
 * Whether an attempt is worth telling the team: failures and unknown outcomes always; a success
 * only when it clears something (the approach failed here, or the team knows it as failing), so
 * that every `ls` does not travel; interrupts never. `teamKnowsFailing` is undefined when this
 * machine has no team view yet (never pulled): it cannot tell, so a success of a command that runs
 * something is shared (a teammate's failures may wait for it), one per approach (see the outbox).
 */
export function shouldShare(attempt: Attempt, storedLocally: boolean, teamKnowsFailing: boolean | undefined): boolean {
  if (attempt.outcome === 'failure' || attempt.outcome === 'unknown') return true;
  if (attempt.outcome === 'success') return storedLocally || teamKnowsFailing === true || (teamKnowsFailing === undefined && !runsNothing(attempt.key));
  return false;
}

/**
 * The outbox keeps at most `max` entries: when full, the oldest go first (they are the least useful
 * to the team, and the local memory still has them). Returns the kept entries and the evicted ones.
 */
export function boundOutbox<T extends { queuedAt: string }>(entries: readonly T[], max: number): { kept: T[]; evicted: T[] } {
  if (entries.length <= max) return { kept: [...entries], evicted: [] };
  const order = entries.map((e, i) => ({ e, i })).sort((a, b) => (a.e.queuedAt < b.e.queuedAt ? -1 : a.e.queuedAt > b.e.queuedAt ? 1 : a.i - b.i));
  const drop = new Set(order.slice(0, entries.length - Math.max(0, max)).map(x => x.i));
  return { kept: entries.filter((_, i) => !drop.has(i)), evicted: entries.filter((_, i) => drop.has(i)) };
}

// ---------------------------------------------------------------------------------------------
// The team view (what the puller caches) and what it means for a check

export interface TeamApproach {
  key: string;
  label: string;
  cwd: string;
  /** Team failures since the last success or resolve anywhere. */
  failures: number;
  /** Of those, how many in the last 7 days. */
  failuresThisWeek: number;
  /** Distinct machines with failures since the last success. */
  machines: number;
  /** Any of them from CI. */
  ci: boolean;
  lastError: string;
  lastFailure?: string;
  /** Latest success or resolve anywhere in the team. */
  lastCleared?: string;
  lastClearedBy?: string;
  /** Last failing command line. */
  command: string;
}

export interface TeamView {
  project: string;
  pulledAt: string;
  /** How many days back the pull counted failures (absent: views pulled before it was windowed). */
  windowDays?: number;
  approaches: Record<string, TeamApproach>;
  learnings: Array<SharedLearning & { machine: string }>;
  reflections: Array<SharedReflection & { machine: string }>;
  /** The causes the team met across commands, each machine's records merged (absent: a database without them, or an older pull). */
  patterns?: TeamPattern[];
}

export function emptyTeamView(project: string, now = new Date().toISOString()): TeamView {
  return { project, pulledAt: now, approaches: {}, learnings: [], reflections: [] };
}

export type TeamSyncState = 'online' | 'offline' | 'never';

export interface TeamCheck extends Pick<TeamApproach, 'failures' | 'failuresThisWeek' | 'machines' | 'ci' | 'lastError' | 'lastFailure' | 'lastCleared'> {
  /**
   * The approach as the team sees it. unknown: this machine has no team view it can trust (never
   * pulled, or the last pull is older than TEAM_VIEW_STALE_AFTER) and the view it has shows no failure.
   */
  status: 'unknown' | 'clear' | 'failing' | 'exhausted';
  /**
   * Whether the database was reachable at the last sync, what waits to be pushed, when the view was
   * pulled, whether it is too old to call anything clear, and the last connection problem.
   */
  sync: { state: TeamSyncState; waiting: number; pulledAt?: string; stale?: boolean; error?: string };
  /** One sentence for people and agents: "failed 7 times this week on 3 machines, including CI, last error …". */
  summary: string;
}

export interface TeamCheckOptions {
  threshold: number;
  /** true: team failures alone may block (failureMemory.team.blockOnTeamFailures); default only warn. */
  canBlock: boolean;
  sync: TeamCheck['sync'];
  /** How many days the view counted (its windowDays). */
  windowDays?: number;
  /** The team's pattern records (their fixes come with a local pattern of the same cause that has none). */
  patterns?: readonly unknown[];
}

/**
 * A team view older than this (or than ten pull intervals, if longer) no longer says "clear": the
 * team may have failed since. Its failures are still told, with their age.
 */
export const TEAM_VIEW_STALE_AFTER_MS = 15 * 60_000;

/** Whether a view pulled at `pulledAt` is too old to call an approach clear. */
export function isStaleView(pulledAt: string | undefined, pullIntervalSeconds: number, now: number = Date.now()): boolean {
  if (!pulledAt) return true;
  const age = now - Date.parse(pulledAt);
  return !(age <= Math.max(TEAM_VIEW_STALE_AFTER_MS, pullIntervalSeconds * 10_000));
}

/** "failed 7 times this week on 3 machines, including CI, last error: …" */
export function describeTeamFailures(t: Pick<TeamApproach, 'failures' | 'failuresThisWeek' | 'machines' | 'ci' | 'lastError'>, windowDays?: number): string {
  if (!t.failures) return 'no failure in the team since the last success';
  const n = t.failuresThisWeek === t.failures ? t.failuresThisWeek : t.failures;
  const when = t.failuresThisWeek === t.failures ? ' this week' : windowDays ? ` in the last ${windowDays} days` : '';
  const parts = [`failed ${n} time${n === 1 ? '' : 's'}${when} on ${t.machines} machine${t.machines === 1 ? '' : 's'}${t.ci ? ', including CI' : ''}`];
  if (t.lastError) parts.push(`last error: ${cut(t.lastError, 300)}`);
  return parts.join(', ');
}

/**
 * Merges the cached team view into a local check. The local memory stays the gate's source of truth;
 * the team adds:
 * - a success (or resolve) anywhere after the last local failure clears the approach here too;
 * - team failures at or over the threshold warn a command that is clear or failing here, or block it
 *   when `canBlock` is set;
 * - a `team` object for the CLI, the agents and the dialog.
 */
export function mergeTeamCheck(local: CheckResult, team: TeamApproach | undefined, localApproach: Approach | undefined, opts: TeamCheckOptions): CheckResult & { team: TeamCheck } {
  const t: TeamApproach = team ?? { key: local.key, label: local.label, cwd: local.cwd, failures: 0, failuresThisWeek: 0, machines: 0, ci: false, lastError: '', command: local.command };
  const unknown = !opts.sync.pulledAt || !!opts.sync.stale;
  const status: TeamCheck['status'] = t.failures === 0 ? (unknown ? 'unknown' : 'clear') : t.failures >= opts.threshold ? 'exhausted' : 'failing';
  const info: TeamCheck = {
    status,
    failures: t.failures,
    failuresThisWeek: t.failuresThisWeek,
    machines: t.machines,
    ci: t.ci,
    lastError: t.lastError,
    ...(t.lastFailure ? { lastFailure: t.lastFailure } : {}),
    ...(t.lastCleared ? { lastCleared: t.lastCleared } : {}),
    sync: opts.sync,
    summary: status === 'unknown' ? describeUnknown(opts.sync) : describeTeamFailures(t, opts.windowDays),
  };
  const out: CheckResult & { team: TeamCheck } = { ...local, team: info, ...withTeamFix(local, opts.patterns) };
  // a success anywhere in the team after our last failure: the approach works now
  if (local.status !== 'clear' && t.lastCleared && localApproach?.lastFailure && t.lastCleared > localApproach.lastFailure) {
    return {
      ...out,
      status: 'clear',
      verdict: 'allow',
      decision: 'allow',
      policyDecision: 'allow',
      code: 'team',
      attempts: 0,
      allowOnce: false,
      reason: `succeeded in the team since the last failure here${t.lastClearedBy ? ` (on ${t.lastClearedBy})` : ''}: cleared`,
      why: 'it succeeded in the team since the last failure here',
    };
  }
  if (status === 'exhausted' && local.verdict !== 'block') {
    const verdict = opts.canBlock && !local.allowOnce ? 'block' : 'warn';
    // team failures block only where the user opted in (blockOnTeamFailures): then the refusal they asked for
    const decision = verdict === 'block' ? 'deny' : 'warn';
    return {
      ...out,
      verdict,
      decision,
      policyDecision: decision,
      code: 'team',
      reason: `${local.reason}; in the team it ${info.summary}${verdict === 'block' ? ' (team failures block)' : ''}`,
      why: `in the team it ${info.summary}`,
    };
  }
  return out;
}

/** The local pattern with the team's fix for its cause, when it has none of its own ("last time: … — the team's, on ci-1"). */
function withTeamFix(local: CheckResult, patterns: readonly unknown[] | undefined): Pick<CheckResult, 'pattern'> {
  if (!local.pattern || local.pattern.fix) return {};
  const fix = teamFixFor(patterns, local.pattern.id);
  return fix ? { pattern: { ...local.pattern, fix: { command: fix.command, worked: fix.worked, from: 'team', machine: fix.machine } } } : {};
}

/** Why the team's part of a check is unknown, in one clause. */
function describeUnknown(sync: TeamCheck['sync']): string {
  const why = sync.error ? ` (the last sync failed: ${cut(sync.error, 200)})` : sync.state === 'offline' ? ' (team memory is offline)' : '';
  if (!sync.pulledAt) return `not known yet: this machine has not pulled the team's failures${why}`;
  return `not known: the team view was last pulled at ${sync.pulledAt}${why}`;
}

/**
 * Local approaches that a team success has cleared: failing or exhausted here, and the team's last
 * success or resolve is later than the last local failure. The puller resolves them locally, so
 * that the status bar, the panel and the guard agree with the team.
 */
export function clearedByTeam(data: MemoryData, view: TeamView): string[] {
  const out: string[] = [];
  for (const a of Object.values(data.approaches)) {
    if (a.failures === 0 && a.status !== 'exhausted') continue;
    const t = view.approaches[a.key];
    if (t?.lastCleared && a.lastFailure && t.lastCleared > a.lastFailure) out.push(a.key);
  }
  return out;
}

/** A machine's name as the team sees it, and whether it is CI, from the environment. */
export function machineIdentity(env: Record<string, string | undefined>, hostname: string, override?: string): { machine: string; ci: boolean } {
  const ci = !!env.CI && env.CI !== 'false' && env.CI !== '0';
  if (override?.trim()) return { machine: override.trim().slice(0, 100), ci };
  if (ci) {
    const where = env.GITHUB_ACTIONS ? 'github-actions' : env.GITLAB_CI ? 'gitlab-ci' : env.BUILDKITE ? 'buildkite' : env.JENKINS_URL ? 'jenkins' : 'ci';
    const runner = env.RUNNER_NAME || env.CI_RUNNER_DESCRIPTION || hostname;
    return { machine: `ci:${where}/${runner}`.slice(0, 100), ci };
  }
  return { machine: hostname.slice(0, 100) || 'unknown', ci };
}

/** The gate's message when the team's failures (not this machine's) block a command. */
export function explainTeamBlock(c: CheckResult & { team: TeamCheck }): string {
  return [
    `Failure Memory: NOT RUN — \`${c.command}\` ${c.team.summary} (team threshold ${c.threshold}), with no success anywhere since.`,
    'Team failures block here because failureMemory.team.blockOnTeamFailures is on.',
    'Running it again the same way will most likely fail the same way. Change something first, try a different approach, or ask the team.',
    'When the cause is fixed, one success (or `failure-memory resolve`) on any machine clears it for the whole team.',
  ].join('\n');
}
