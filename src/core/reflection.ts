// Reflection stored as a Reflexion episodic-memory record.
// The engine fills the self-reflection from heuristics per error category; the host may replace
// it with a language model's answer and marks which produced it.

import { DEFAULT_SETTINGS } from './config';
import { ADVICE, CATEGORY_NAMES, questionsFor, type Advice, type FailureCategory } from './text/advice';
import { adviceFor } from './text/specificAdvice';
import { approachCounts, type ApproachCounts } from './rules/counts';
import { streakPatterns } from './rules/guardVerdict';
import { describeApproach } from './memory';
import { computeProgress, type Pattern, type ProgressStatus } from './rules/patterns';
import { SIMILAR_MIN_SCORE, type RecallHit } from './recall';
import type { ErrorCategory } from './text/signature';
import { cameText, errorTextOf, failedText, plainFromMarkdown } from './text/shownText';
import { currentStreak, recurringTests } from './rules/streak';
import type { Approach, Attempt, MemoryData } from './types';

export type { FailureCategory } from './text/advice';

/** "1 attempt", "3 attempts" (English: the record is data for people and agents alike). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface SelfReflection {
  reflection_text: string;
  credit_assignment: { failing_action_indices: number[]; root_cause: string; failure_category: FailureCategory };
  causal_reasoning: string;
  actionable_insights: string[];
  lessons_learned: string[];
  confidence: number;
  related_reflections?: number[];
}

/** A reflection record: the Reflexion record schema plus a `failure_memory` block for our own views. */
export interface ReflectionRecord {
  loop_id: string;
  iteration: number;
  timestamp: string;
  task_description: string;
  actor_output: {
    actions: Array<{ type: 'command_execution' | 'test_execution'; description: string; command: string; timestamp: string }>;
    rationale: string;
    strategy: string;
  };
  evaluator_output: {
    passed: boolean;
    verification_type: 'unit_tests' | 'heuristic';
    results: Array<{ tool: string; status: 'pass' | 'fail' | 'error' | 'skip'; exit_code?: number; duration_ms?: number }>;
    errors: Array<{ type: ReflexionErrorType; message: string; rule?: string }>;
    reward_signal: number;
    metrics: { tests_passed?: number; tests_failed?: number; tests_total?: number };
  };
  self_reflection: SelfReflection;
  memory_metadata: {
    omega_capacity: number;
    current_memory_size: number;
    reflections_in_context: number[];
    window_policy: 'fifo';
    total_reflections_generated: number;
  };
  context_injected: boolean;
  previous_reflections_used: number[];
  performance_delta: { reward_change: number; error_count_change: number; is_improvement: boolean };
  notes: string;
  failure_memory: {
    id: string;
    key: string;
    label: string;
    command: string;
    cwd: string;
    status: Approach['status'];
    attempts: number;
    threshold: number;
    progress: ProgressStatus;
    /** How the streak went in words ("the same error each time", "tests improving"); absent in older records. */
    progress_text?: string;
    warnings: string[];
    recent: RecentAttempt[];
    similar: RecallHit[];
    questions: string[];
    error_category: ErrorCategory;
    /** Who wrote the self-reflection. */
    produced_by: 'heuristics' | 'language-model';
    model?: string;
  };
}

type ReflexionErrorType =
  | 'syntax_error'
  | 'type_error'
  | 'test_failure'
  | 'lint_error'
  | 'runtime_error'
  | 'logic_error'
  | 'timeout'
  | 'other';

export interface RecentAttempt {
  number: number;
  command: string;
  outcome: Attempt['outcome'];
  exitCode: number | null;
  timestamp: string;
  error: string;
  tests?: { passed: number; failed: number; total: number };
  failingTests: string[];
}

const REFLEXION_ERROR_TYPE: Partial<Record<ErrorCategory, ReflexionErrorType>> = {
  syntax_error: 'syntax_error',
  type_error: 'type_error',
  runtime_error: 'runtime_error',
  failing_assertion: 'test_failure',
  test_failure: 'test_failure',
  test_setup: 'test_failure',
  timeout: 'timeout',
  compilation_error: 'syntax_error',
};

export interface ReflectionInput {
  data: MemoryData;
  approach: Approach;
  threshold: number;
  similar: RecallHit[];
  /** Ω: earlier reflections kept in the working window, FIFO (failureMemory.reflection.earlierReflections). */
  earlierReflections?: number;
  now?: Date;
  id: string;
}

/** The last three runs that ran to an end (an interrupted run says nothing about the approach). */
function recentAttempts(a: Approach): RecentAttempt[] {
  const numbered = a.attempts.map((t, i) => ({ t, number: a.totalAttempts - (a.attempts.length - 1 - i) }));
  return numbered
    .filter(({ t }) => t.outcome !== 'interrupted')
    .slice(-3)
    .map(({ t, number }) => ({
      number: Math.max(1, number),
      command: t.command,
      outcome: t.outcome,
      exitCode: t.exitCode,
      timestamp: t.timestamp,
      error: t.outcome === 'success' ? '' : errorTextOf(t),
      tests: t.testResults ? { passed: t.testResults.passed, failed: t.testResults.failed, total: t.testResults.total } : undefined,
      failingTests: (t.testResults?.failures ?? []).slice(0, 5).map(f => f.name),
    }));
}

/**
 * The warnings of a reflection: exhausted (with the streak's count), then the loop patterns of the
 * streak, the repeated error worded for its cause (a "different approach" fits a missing tool, not
 * an assertion bug) and named by its real line.
 */
export function warningsFor(patterns: Pattern[], a: Approach, threshold: number, advice: Advice = ADVICE.unknown): string[] {
  const counts = approachCounts(a, threshold);
  const w = patterns.map(p =>
    p.kind === 'same_error' ? `${advice.sameError}${p.subject ? ` (${p.subject})` : ''}` : `${p.message}${p.subject && p.kind !== 'same_test_failure' ? ` (${p.subject})` : ''}`,
  );
  if (a.status === 'exhausted') w.unshift(`This approach is exhausted: it ${failedText(counts)}. Do not run it again unchanged.`);
  return w;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'command';
}

const reward = (t: Attempt | undefined) =>
  t?.outcome === 'success' ? 1 : t?.testResults && t.testResults.total > 0 ? t.testResults.passed / t.testResults.total : 0;
const errorCount = (t: Attempt | undefined) => (t?.outcome === 'failure' ? Math.max(1, t.testResults?.failed ?? 1) : 0);

/**
 * The cause of an approach's failures and what to say about it: the category of what recurs across
 * the current streak (./advice.ts), the advice for it, the streak's counts (./counts.ts, the same
 * numbers every other surface shows) and the tests that keep failing.
 */
function diagnose(a: Approach, threshold: number) {
  const counts = approachCounts(a, threshold);
  const advice = adviceFor(a, threshold);
  const category = advice.errorCategory;
  const sharedTests = recurringTests(currentStreakOrWindow(a));
  const failingTests = sharedTests.length ? sharedTests.map(t => t.name) : counts.failingTests;
  const lastDiffers = !!counts.recurring && !!counts.last && counts.recurring.times > 1 && counts.last.text !== counts.recurring.text;
  return { counts, category, advice, sharedTests, failingTests, lastDiffers, sig: a.lastErrorSignature };
}
type Diagnosis = ReturnType<typeof diagnose>;

/** The current streak; the whole window when the streak is empty (a reflection on a resolved approach). */
function currentStreakOrWindow(a: Approach): Attempt[] {
  const streak = currentStreak(a);
  return streak.length ? streak : [...a.attempts];
}

function insightsFor(a: Approach, d: Diagnosis, patterns: Pattern[], progress: ProgressStatus, similar: RecallHit[]): string[] {
  const insights = [...d.advice.insights];
  if (patterns.some(p => p.kind === 'same_error')) insights.unshift(d.advice.sameError);
  if (d.sharedTests.length) insights.push(`Focus on the test that keeps failing: ${d.sharedTests[0].name}.`);
  if (progress === 'improving') insights.push('More tests pass each time: keep going in this direction.');
  if (progress === 'regressing') insights.push('Fewer tests pass than before: undo the last change and reconsider.');
  for (const s of similar.filter(s => s.key !== a.key && s.lesson).slice(0, 2)) insights.push(`Similar failure before (${s.label}): ${plainFromMarkdown(s.lesson ?? '')}`);
  return insights;
}

/** The first-person account: what ran, what keeps failing, the likely cause, what to do next time (numbers from the counts). */
function reflectionTextOf(a: Approach, d: Diagnosis, insights: string[]): string {
  const { counts, sharedTests } = d;
  const where = a.cwd !== '.' ? ` in ${a.cwd}` : '';
  const { recurring, last } = counts;
  return [
    `I ran “${a.label}”${where} and it ${failedText(counts)}.`,
    !recurring && !last
      ? 'No error text was captured.'
      : recurring && recurring.times > 1
        ? `The same error ${cameText(recurring, counts.failures)}: ${recurring.text}.`
        : `The error was: ${(last ?? recurring)?.text}.`,
    d.lastDiffers && last ? `The last run failed differently (${last.text}), but that is not the recurring cause.` : '',
    sharedTests.length ? `Tests failing again and again: ${sharedTests.slice(0, 3).map(t => t.name).join(', ')}.` : '',
    `Likely cause: ${d.advice.rootCause}`,
    `Next time: ${insights[0]}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** How the streak's runs went, in words: the test counts when there are any, else whether the error changed. */
export function progressText(a: Approach, counts: ApproachCounts): string {
  const progress = computeProgress(currentStreakOrWindow(a));
  const tested = currentStreakOrWindow(a).some(t => t.testResults);
  if (tested && progress !== 'insufficient_data') return `tests ${progress.replace(/_/g, ' ')}`;
  if (counts.failures < 2 || !counts.recurring) return '';
  if (counts.recurring.times === counts.recurring.of) return 'the same error each time';
  return counts.recurring.times === 1 ? 'a different error each time' : 'the error changes between runs';
}

function actorOutput(a: Approach): ReflectionRecord['actor_output'] {
  return {
    actions: a.attempts.map(t => ({
      type: t.testResults ? ('test_execution' as const) : ('command_execution' as const),
      description: `${t.source} ran “${t.command}” → ${t.outcome}${t.exitCode !== null ? ` (exit ${t.exitCode})` : ''}`,
      command: t.command,
      timestamp: t.timestamp,
    })),
    rationale: `Re-ran the ${describeApproach(a)} approach ${plural(a.totalAttempts, 'time')}.`,
    strategy: a.alternativesTried.length ? `Also tried: ${a.alternativesTried.join('; ')}` : 'Repeated the same approach.',
  };
}

/** The error a reflection is about, as the output printed it: the recurring one, else the last. */
const causeText = (d: Diagnosis) => d.counts.recurring?.text || d.counts.last?.text || '';

function evaluatorOutput(a: Approach, d: Diagnosis): ReflectionRecord['evaluator_output'] {
  const last = a.attempts[a.attempts.length - 1];
  const lastTests = last?.testResults;
  return {
    passed: last?.outcome === 'success',
    verification_type: lastTests ? 'unit_tests' : 'heuristic',
    results: a.attempts.map(t => ({
      tool: t.command,
      status: t.outcome === 'success' ? 'pass' : t.outcome === 'failure' ? 'fail' : t.outcome === 'interrupted' ? 'skip' : 'error',
      ...(t.exitCode !== null ? { exit_code: t.exitCode } : {}),
      ...(t.durationMs !== undefined ? { duration_ms: Math.round(t.durationMs) } : {}),
    })),
    errors: causeText(d) ? [{ type: REFLEXION_ERROR_TYPE[d.category] ?? 'runtime_error', message: causeText(d), ...(d.failingTests[0] ? { rule: d.failingTests[0] } : {}) }] : [],
    reward_signal: Math.round(reward(last) * 1000) / 1000,
    metrics: lastTests ? { tests_passed: lastTests.passed, tests_failed: lastTests.failed, tests_total: lastTests.total } : {},
  };
}

/** Builds the reflection record for an approach from memory and heuristics. */
export function buildReflection(input: ReflectionInput): ReflectionRecord {
  const { data, approach: a, threshold } = input;
  const now = (input.now ?? new Date()).toISOString();
  const capacity = Math.max(1, input.earlierReflections ?? DEFAULT_SETTINGS['reflection.earlierReflections']);
  const d = diagnose(a, threshold);
  const { category, advice, counts } = d;
  const cause = causeText(d);
  // the loop patterns of the current streak (none from before a resolution, none while improving),
  // the repeated error named by its real line
  const patterns = streakPatterns(a).map(p => (p.kind === 'same_error' && counts.last ? { ...p, subject: counts.last.text } : p));
  const progress = computeProgress(a.attempts);
  const last = a.attempts[a.attempts.length - 1];
  const prev = a.attempts[a.attempts.length - 2];
  // only what is similar enough to say so (a few shared words are not a similar failure)
  const similar = input.similar.filter(s => s.key !== a.key && s.score >= SIMILAR_MIN_SCORE).slice(0, 5);
  const insights = insightsFor(a, d, patterns, progress, similar);
  const failingIdx = a.attempts.map((t, i) => (t.outcome === 'failure' ? i : -1)).filter(i => i >= 0);
  const where = a.cwd !== '.' ? ` in ${a.cwd}` : '';

  const previous = data.reflections
    .filter((r): r is ReflectionRecord => isReflectionFor(r, a.key))
    .slice(-capacity);

  return {
    loop_id: `ralph-fm-${slug(a.label)}`,
    iteration: Math.max(0, a.totalAttempts - 1),
    timestamp: now,
    task_description: `Make “${a.label}” succeed${where} without repeating a failing approach.`,
    actor_output: actorOutput(a),
    evaluator_output: evaluatorOutput(a, d),
    self_reflection: {
      reflection_text: reflectionTextOf(a, d, insights),
      credit_assignment: { failing_action_indices: failingIdx, root_cause: advice.rootCause, failure_category: advice.category },
      causal_reasoning: cause
        ? `The error “${cause}” is a ${CATEGORY_NAMES[category]}${counts.recurring && counts.recurring.times > 1 ? ` that ${cameText(counts.recurring, counts.failures)}` : ''}. ${advice.rootCause} Repeating the command does not change that cause.`
        : `The command exits with a failure but printed no recognizable error. ${advice.rootCause}`,
      actionable_insights: insights,
      lessons_learned: [advice.lesson],
      confidence: category === 'unknown' ? 0.3 : cause ? 0.6 : 0.4,
      related_reflections: previous.map(r => r.iteration),
    },
    memory_metadata: {
      omega_capacity: capacity,
      current_memory_size: Math.min(capacity, previous.length + 1),
      reflections_in_context: previous.map(r => r.iteration),
      window_policy: 'fifo',
      total_reflections_generated: data.reflections.filter(r => isReflectionFor(r, a.key)).length + 1,
    },
    context_injected: previous.length > 0,
    previous_reflections_used: previous.map(r => r.iteration),
    performance_delta: {
      reward_change: Math.round((reward(last) - reward(prev)) * 1000) / 1000,
      error_count_change: errorCount(last) - errorCount(prev),
      is_improvement: reward(last) > reward(prev),
    },
    notes: `Generated by Failure Memory from ${plural(a.attempts.length, 'recorded attempt')}.`,
    failure_memory: {
      id: input.id,
      key: a.key,
      label: a.label,
      command: a.command,
      cwd: a.cwd,
      status: a.status,
      attempts: a.failures,
      threshold,
      progress,
      progress_text: progressText(a, counts),
      warnings: warningsFor(patterns, a, threshold, advice),
      recent: recentAttempts(a),
      similar,
      questions: questionsFor(category, advice.question),
      error_category: category,
      produced_by: 'heuristics',
    },
  };
}

export function isReflectionFor(r: unknown, key: string): r is ReflectionRecord {
  return typeof r === 'object' && r !== null && (r as ReflectionRecord).failure_memory?.key === key;
}

/** Adds a reflection to episodic memory (FIFO under the store's cap). */
export function storeReflection(data: MemoryData, r: ReflectionRecord, max: number): void {
  data.reflections.push(r);
  if (data.reflections.length > max) data.reflections.splice(0, data.reflections.length - max);
}

/**
 * A reflection kept on screen while its approach moves on, made current: one written by the
 * heuristics is written again from the approach as it stands (its id and its similar failures
 * kept); a language model's keeps the model's words, takes the approach's facts (status, counts,
 * warnings, recent runs) and says at which count the words were written.
 */
export function followReflection(shown: ReflectionRecord, current: { data: MemoryData; approach: Approach | undefined; threshold: number; now?: Date }): ReflectionRecord {
  if (!current.approach) return shown;
  const fm = shown.failure_memory;
  const fresh = buildReflection({ data: current.data, approach: current.approach, threshold: current.threshold, similar: fm.similar, id: fm.id, now: current.now });
  if (fm.produced_by !== 'language-model') return fresh;
  const then = failedText({ failures: fm.attempts, threshold: fm.threshold });
  const nowText = failedText(approachCounts(current.approach, current.threshold));
  const warnings = then === nowText ? fresh.failure_memory.warnings : [`Written by the language model when it ${then}; it has now ${nowText.replace(/^has /, '')}.`, ...fresh.failure_memory.warnings];
  return { ...shown, failure_memory: { ...fresh.failure_memory, produced_by: fm.produced_by, ...(fm.model ? { model: fm.model } : {}), warnings } };
}
