// What the memory panel shows, built from each folder's memory: the snapshot the host posts to the
// webview. Pure (no vscode), so it is unit-tested with the protocol. Reflections are read
// defensively: the CLI, agents or an older version may have written them. An approach is shown
// through its current streak (since the last success or "Mark Resolved"): nothing older shows.

import { LEARNING_TYPES } from '../core/learnings';
import { streakPatterns } from '../core/rules/guardVerdict';
import { ledgerLines } from '../core/rules/ledger';
import { summarize } from '../core/memory';
import { computeProgress } from '../core/rules/patterns';
import { SIMILAR_MIN_SCORE, type RecallHit } from '../core/recall';
import { removeHidden } from '../core/text/hidden';
import { adviceFor } from '../core/text/specificAdvice';
import { approachCounts, type ApproachCounts } from '../core/rules/counts';
import { cameText, errorTextOf, failedText, failureBadge, plainFromMarkdown, readableSignature } from '../core/text/shownText';
import { countedRuns, currentStreak } from '../core/rules/streak';
import { describeTeamFailures, type TeamSyncState, type TeamView } from '../core/rules/team';
import type { Approach, Attempt, LearningType, MemoryData, PatternRecord } from '../core/types';
import { activeApproaches, causeHeadline, lastFix, liveCauses, shownPatterns } from '../core/rules/patternRecords';
import { clockTime, patternSentence } from '../core/rules/causePolicy';
import {
  LEARNING_TYPES as PROTOCOL_LEARNING_TYPES,
  PROGRESS_STATUSES,
  type ApproachView,
  type CaptureView,
  type LearningView,
  type PatternView,
  type RecallView,
  type ReflectionView,
  type Snapshot,
  type TeamPanelView,
} from '../shared/protocol';

// the protocol mirrors core's vocabulary: fail the type check when either side changes alone
const _learningTypesMatch: readonly LearningType[] = PROTOCOL_LEARNING_TYPES;
const _learningTypesMatchBack: readonly (typeof PROTOCOL_LEARNING_TYPES)[number][] = LEARNING_TYPES;

export interface FolderInput {
  uri: string;
  name: string;
  private: boolean;
  data: MemoryData;
  threshold: number;
  /** Team memory of this folder, when it is on. */
  team?: { project: string; state: TeamSyncState; waiting: number; error?: string; view?: TeamView };
}

/** What fails in the team for one folder, most recent first (only approaches with failures since their last success anywhere). */
export function teamPanelView(folder: string, data: MemoryData, team: NonNullable<FolderInput['team']>): TeamPanelView {
  const failures = Object.values(team.view?.approaches ?? {})
    .filter(a => a.failures > 0)
    .sort(byNewest(a => a.lastFailure ?? ''))
    .slice(0, SNAPSHOT_LIMITS.list)
    .map(a => {
      const local = data.approaches[a.key];
      return {
        folder,
        key: a.key,
        label: clip(a.label, 500),
        command: clip(a.command),
        cwd: clip(a.cwd, 500),
        failures: a.failures,
        machines: a.machines,
        ci: a.ci,
        lastError: clip(a.lastError),
        ...(a.lastFailure ? { lastFailure: a.lastFailure } : {}),
        summary: clip(describeTeamFailures(a, team.view?.windowDays)),
        local: !!local && local.failures > 0,
      };
    });
  const view: TeamPanelView = { folder, project: clip(team.project, 500), state: team.state, waiting: team.waiting, failures };
  if (team.error) view.error = clip(team.error, 1000);
  if (team.view?.pulledAt) view.pulledAt = team.view.pulledAt;
  return view;
}

export const SNAPSHOT_LIMITS = { resolved: 20, reflections: 30, learnings: 500, decisions: 30, patterns: 20, text: 4000, list: 20 } as const;

/** Recall hits scoring below this are not "similar" (a few shared words give 3–10%). */
export const SEARCH_MIN_SCORE = SIMILAR_MIN_SCORE;

/** Text shown in the panel: no invisible characters (core/text/hidden.ts), cut at `max`. */
const clip = (s: string, max: number = SNAPSHOT_LIMITS.text) => {
  const t = removeHidden(s);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const byNewest = <T>(time: (x: T) => string) => (a: T, b: T) => (time(b) < time(a) ? -1 : time(b) > time(a) ? 1 : 0);

export function approachView(folder: string, a: Approach, threshold: number, now: Date = new Date()): ApproachView {
  const streak = currentStreak(a);
  // a resolved approach shows its last streak's story (the window), an active one only its streak
  const shown = a.status === 'resolved' && !streak.length ? a.attempts : streak;
  const counts = approachCounts(a, threshold);
  const badge = failureBadge(counts);
  const patterns = a.status === 'resolved' ? [] : streakPatterns(a);
  const view: ApproachView = {
    folder,
    key: a.key,
    label: clip(a.label, 500),
    command: clip(a.command),
    cwd: clip(a.cwd, 500),
    status: a.status,
    failures: a.failures,
    totalAttempts: a.totalAttempts,
    // a streak's runs are its failures (a success ends it); interrupted runs are not runs
    runs: a.status === 'resolved' ? countedRuns(shown).length : counts.failures,
    threshold,
    badge: badge.text,
    badgeLabel: badge.label,
    summary: clip(streakSummary(counts), 1000),
    failingTests: counts.failingTests.slice(0, SNAPSHOT_LIMITS.list).map(n => clip(n, 500)),
    lastErrorSignature: clip(a.lastErrorSignature),
    lastError: clip(counts.last?.text ?? (a.status === 'resolved' ? lastShownError(shown) : ''), 1000),
    alternativesTried: a.alternativesTried.slice(-SNAPSHOT_LIMITS.list).map(s => clip(s, 500)),
    allowOnce: !!a.allowOnce,
    progress: computeProgress(shown),
    tests: countedRuns(shown).map(t => (t.testResults ? { passed: t.testResults.passed, failed: t.testResults.failed, total: t.testResults.total } : null)),
    // the repeat worded for its cause: "change the code" for an assertion, "start the service" for a refused connection
    patterns: patterns.map(p => clip(p.kind === 'same_error' ? adviceFor(a, threshold).sameError : p.message, 500)),
  };
  const history = ledgerLines(a, now);
  if (history.length) view.history = history.map(l => clip(l, 1000));
  if (a.lastFailure) view.lastFailure = a.lastFailure;
  if (a.resolvedAt) view.resolvedAt = a.resolvedAt;
  if (a.resolvedBy) view.resolvedBy = a.resolvedBy;
  return view;
}

/** A pattern record as the Patterns section shows it: the cause, its commands, its occurrences, its resolution. */
export function patternView(folder: string, p: PatternRecord, threshold: number, now: Date, live: ReadonlySet<PatternRecord>): PatternView {
  const active = p.status === 'active';
  const commands = (active ? activeApproaches(p) : p.approaches).map(a => clip(a.cwd && a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label, 500));
  const fix = lastFix(p);
  const r = p.resolution;
  const view: PatternView = {
    folder,
    id: p.id,
    // the code's own error is named by its line (lastError), not by its folded form
    subject: clip(p.kind === 'error' ? `The same error in ${commands.length} commands` : p.subject, 500),
    headline: clip(causeHeadline(p), 500),
    sentence: clip(active ? patternSentence(p, now) : p.subject, 1000),
    status: p.status,
    systemic: p.systemic,
    stopping: active && live.has(p) && p.failures >= threshold,
    failures: p.failures,
    occurrences: p.occurrences,
    commands: commands.slice(-SNAPSHOT_LIMITS.list),
    firstSeen: p.firstSeen,
    lastSeen: p.lastSeen,
    lastError: clip(p.lastError, 1000),
    factors: clip(Object.entries(p.factors).filter(([k, v]) => k !== 'error' && (k !== 'cwd' || v !== '.')).map(([k, v]) => `${k} ${v}`).join(', '), 1000),
  };
  if (!active && r) {
    const by = r.by === 'manual' ? 'marked resolved' : r.by === 'team' ? 'resolved in the team' : `a passing run${r.command ? ` of “${r.command}”` : ''}`;
    view.resolution = clip(`${by}${r.fix ? ` after “${r.fix}”` : ''} (${clockTime(r.at, now)})${r.files?.length ? `; files changed: ${r.files.slice(0, 5).join(', ')}` : ''}`, 1000);
  }
  if (fix) {
    view.fix = clip(fix.command, 1000);
    view.fixWorked = fix.worked;
  }
  return view;
}

/** "failed 11 times in a row (the limit is 5) · the same error came 11 times" — the counts' own words. */
function streakSummary(c: ApproachCounts): string {
  if (!c.failures) return '';
  const e = c.recurring && c.recurring.times > 1 ? c.recurring : undefined;
  return `${failedText(c)}${e ? ` · the same error ${cameText(e, c.failures)}` : ''}`;
}

/** The error a resolved approach's last failure printed (its story, after the streak ended). */
function lastShownError(attempts: readonly Attempt[]): string {
  for (let i = attempts.length - 1; i >= 0; i--) if (attempts[i].outcome === 'failure') return errorTextOf(attempts[i]);
  return '';
}

const str = (v: unknown, max?: number): string => (typeof v === 'string' ? clip(v, max) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, SNAPSHOT_LIMITS.list).map(x => clip(x)) : [];
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A stored reflection record as the panel shows it; undefined when it is not one of ours. */
export function reflectionView(folder: string, raw: unknown): ReflectionView | undefined {
  const r = obj(raw);
  const fm = obj(r.failure_memory);
  const sr = obj(r.self_reflection);
  const id = str(fm.id, 128);
  const key = str(fm.key);
  if (!id || !key || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const status = fm.status === 'exhausted' || fm.status === 'resolved' ? fm.status : 'active';
  const progress = (PROGRESS_STATUSES as readonly unknown[]).includes(fm.progress) ? (fm.progress as ReflectionView['progress']) : 'insufficient_data';
  const view: ReflectionView = {
    folder,
    id,
    key,
    label: str(fm.label, 500) || key,
    timestamp: str(r.timestamp, 64),
    producedBy: fm.produced_by === 'language-model' ? 'language-model' : 'heuristics',
    status,
    attempts: num(fm.attempts),
    threshold: num(fm.threshold),
    progress,
    warnings: strs(fm.warnings),
    // records written before reflections dropped Markdown quote commands in backticks
    reflectionText: str(sr.reflection_text).replace(/`([^`\n]*)`/g, '“$1”'),
    rootCause: str(obj(sr.credit_assignment).root_cause),
    insights: strs(sr.actionable_insights),
    lessons: strs(sr.lessons_learned),
  };
  const model = str(fm.model, 200);
  if (model) view.model = model;
  return view;
}

/** Search results of every folder, best first, without hits too weak to call similar. */
export function searchResults(perFolder: ReadonlyArray<{ folder: string; hits: readonly RecallHit[] }>, max = 8): RecallView[] {
  return perFolder
    .flatMap(f => f.hits.filter(h => h.score >= SEARCH_MIN_SCORE).map(h => recallView(f.folder, h)))
    .sort((a, b) => b.score - a.score)
    .slice(0, max);
}

export function recallView(folder: string, h: RecallHit): RecallView {
  const v: RecallView = {
    folder,
    key: h.key,
    label: clip(h.label, 500),
    command: clip(h.command),
    status: h.status,
    score: h.score,
    errorSignature: clip(h.errorSignature),
    errorText: clip(h.errorText ?? readableSignature(h.errorSignature)),
    attempts: h.attempts,
  };
  if (h.lesson) v.lesson = clip(plainFromMarkdown(h.lesson));
  return v;
}

/**
 * Approach views kept between snapshots: a memory of 500 approaches changes one approach per run, and
 * each view reads the approach's streak, patterns, ledger and the category of its error. A view is
 * used again while what it is made of is the same: the approach's own state (every run and every
 * resolution moves `updatedAt`), the alternatives another approach's failure may add without
 * touching it, the limit, and the minute (the ledger's lines say "2 hours ago").
 */
export class ApproachViewCache {
  private views = new Map<string, { stamp: string; view: ApproachView }>();

  view(folder: string, a: Approach, threshold: number, now: Date): ApproachView {
    const id = `${folder}\u0000${a.key}`;
    const stamp = [threshold, Math.floor(now.getTime() / 60_000), a.updatedAt, a.status, a.failures, a.totalAttempts, a.allowOnce ?? '', a.resolvedAt ?? '', a.resolvedBy ?? '', a.ledger?.length ?? 0, a.alternativesTried.join('\u0001'), a.label, a.command].join('\u0000');
    const hit = this.views.get(id);
    if (hit && hit.stamp === stamp) return hit.view;
    const view = approachView(folder, a, threshold, now);
    this.views.set(id, { stamp, view });
    return view;
  }

  /** Forgets the approaches not seen in the last snapshot (evicted, cleared). */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.views.keys()) if (!ids.has(id)) this.views.delete(id);
  }
}

/** The full state of every folder's memory, as the panel shows it. */
export function buildSnapshot(
  folders: readonly FolderInput[],
  capture: CaptureView,
  extra: { highlight?: { folder: string; key: string }; highlightReflection?: string; now?: Date; cache?: ApproachViewCache } = {},
): Snapshot {
  const exhausted: ApproachView[] = [];
  const failing: ApproachView[] = [];
  // resolved approaches are many and few are shown: the most recent are chosen before they are viewed
  const resolvedOf: Array<{ f: FolderInput; a: Approach }> = [];
  const reflections: ReflectionView[] = [];
  const learnings: LearningView[] = [];
  const now = extra.now ?? new Date();
  const seen = new Set<string>();
  const viewOf = (folder: string, a: Approach, threshold: number) => {
    seen.add(`${folder}\u0000${a.key}`);
    return extra.cache ? extra.cache.view(folder, a, threshold, now) : approachView(folder, a, threshold, now);
  };
  for (const f of folders) {
    const s = summarize(f.data);
    exhausted.push(...s.exhausted.map(a => viewOf(f.uri, a, f.threshold)));
    failing.push(...s.failing.map(a => viewOf(f.uri, a, f.threshold)));
    resolvedOf.push(...s.resolved.map(a => ({ f, a })));
    for (const r of f.data.reflections) {
      const v = reflectionView(f.uri, r);
      if (v) reflections.push(v);
    }
    for (const l of f.data.learnings) {
      // lessons from fixes were once written with Markdown backticks: the panel shows text as is
      const v: LearningView = { folder: f.uri, id: l.id, type: l.type, text: clip(l.source === 'fix' ? plainFromMarkdown(l.text) : l.text), source: l.source, createdAt: l.createdAt };
      if (l.key) v.key = l.key;
      if (l.updatedAt) v.updatedAt = l.updatedAt;
      learnings.push(v);
    }
  }
  const lastFailure = byNewest<ApproachView>(a => a.lastFailure ?? '');
  const snapshot: Snapshot = {
    folders: folders.map(f => ({ uri: f.uri, name: f.name, private: f.private, threshold: f.threshold })),
    exhausted: exhausted.sort(lastFailure),
    failing: failing.sort(lastFailure),
    resolved: resolvedOf
      .sort(byNewest(x => x.a.resolvedAt ?? ''))
      .slice(0, SNAPSHOT_LIMITS.resolved)
      .map(x => viewOf(x.f.uri, x.a, x.f.threshold)),
    // stored oldest first: stable sort keeps the latest of equal timestamps on top after reverse()
    reflections: reflections.reverse().sort(byNewest(r => r.timestamp)).slice(0, SNAPSHOT_LIMITS.reflections),
    learnings: learnings.reverse().sort(byNewest(l => l.createdAt)).slice(0, SNAPSHOT_LIMITS.learnings),
    capture: { ...capture },
    generatedAt: now.toISOString(),
  };
  extra.cache?.keepOnly(seen);
  const decisions = folders
    .flatMap(f => (f.data.decisions ?? []).map(d => ({ folder: f.uri, at: d.at, label: clip(d.label, 500), command: clip(d.command), cwd: d.cwd, decision: d.decision, policy: d.policy, code: d.code.slice(0, 100), reason: clip(d.reason), via: d.via.slice(0, 100) })))
    .sort(byNewest(d => d.at))
    .slice(0, SNAPSHOT_LIMITS.decisions);
  if (decisions.length) snapshot.decisions = decisions;
  const patterns = folders
    .flatMap(f => {
      const live = new Set(liveCauses(f.data, now));
      return shownPatterns(f.data).map(p => patternView(f.uri, p, f.threshold, now, live));
    })
    .sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || (b.lastSeen < a.lastSeen ? -1 : b.lastSeen > a.lastSeen ? 1 : 0))
    .slice(0, SNAPSHOT_LIMITS.patterns);
  if (patterns.length) snapshot.patterns = patterns;
  const teams = folders.filter(f => f.team).map(f => teamPanelView(f.uri, f.data, f.team!));
  if (teams.length) snapshot.team = teams;
  if (extra.highlight) snapshot.highlight = { ...extra.highlight };
  if (extra.highlightReflection) snapshot.highlightReflection = extra.highlightReflection;
  return snapshot;
}
