// Reflection (seed 000) stored as a Reflexion episodic-memory record (seed 003 schema).
// The engine fills the self-reflection from heuristics per error category; the host may replace
// it with a language model's answer and marks which produced it.

import { streakPatterns } from './guardVerdict';
import { describeApproach } from './memory';
import { computeProgress, type Pattern, type ProgressStatus } from './patterns';
import type { RecallHit } from './recall';
import type { Block, Line, ReflectionDoc } from '../shared/reflectionDoc';
import { errorCategory, type ErrorCategory } from './signature';
import { currentStreak, errorLineOf, recurringError, recurringTests } from './streak';
import type { Approach, Attempt, MemoryData } from './types';

/** "1 attempt", "3 attempts" (English: the record is data for people and agents alike). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export const REFLECTION_QUESTIONS = [
  'What specifically went wrong in the last attempt?',
  'Am I repeating the same approach? Should I try something different?',
  'Are there edge cases I am missing?',
];

export type FailureCategory =
  | 'hallucination'
  | 'inefficient_planning'
  | 'incorrect_assumption'
  | 'incomplete_implementation'
  | 'edge_case_miss'
  | 'integration_error'
  | 'configuration_error'
  | 'logic_error'
  | 'other';

export interface SelfReflection {
  reflection_text: string;
  credit_assignment: { failing_action_indices: number[]; root_cause: string; failure_category: FailureCategory };
  causal_reasoning: string;
  actionable_insights: string[];
  lessons_learned: string[];
  confidence: number;
  related_reflections?: number[];
}

/** A reflection record: the seed 003 schema plus a `failure_memory` block for our own views. */
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

interface Heuristic {
  rootCause: string;
  category: FailureCategory;
  insights: string[];
  lesson: string;
}

/** What the engine knows to say per error category, when no model writes the reflection. */
const HEURISTICS: Record<ErrorCategory, Heuristic> = {
  missing_module: {
    rootCause: 'A module or package the command imports is not installed or not resolvable from this folder.',
    category: 'configuration_error',
    insights: [
      'Install the missing package in the project that runs the command (check which package.json / virtualenv is active).',
      'Check the import name and the working folder: a monorepo package may need its own install.',
      'Do not re-run the command unchanged: it will fail the same way until the dependency exists.',
    ],
    lesson: 'A "cannot find module" error is fixed by installing or linking the dependency, not by re-running.',
  },
  command_not_found: {
    rootCause: 'The program is not installed or not on PATH in this shell.',
    category: 'configuration_error',
    insights: ['Install the tool or run it through the project (npx, python -m, ./node_modules/.bin).', 'Check PATH in this terminal.'],
    lesson: '"command not found" means the tool is missing; re-running cannot help.',
  },
  port_in_use: {
    rootCause: 'Another process already listens on the port the command needs.',
    category: 'configuration_error',
    insights: ['Find and stop the process holding the port (lsof -i :PORT), or start on another port.'],
    lesson: 'EADDRINUSE: free the port or change it before retrying.',
  },
  permission_denied: {
    rootCause: 'The command lacks permission on a file, folder or device.',
    category: 'configuration_error',
    insights: ['Check ownership and mode of the path named in the error; avoid sudo as a blind fix.'],
    lesson: 'Permission errors need a change of ownership, mode or location, not a retry.',
  },
  auth_failure: {
    rootCause: 'Authentication failed: missing, expired or wrong credentials.',
    category: 'configuration_error',
    insights: ['Log in again or refresh the token; check which account/registry the command uses.'],
    lesson: 'Auth failures repeat until the credentials change.',
  },
  missing_file: {
    rootCause: 'A file or folder the command expects does not exist at that path.',
    category: 'incorrect_assumption',
    insights: ['Check the working folder and the path in the error; generate or create the file first if it is a build output.'],
    lesson: 'ENOENT / "No such file": fix the path or create the file before retrying.',
  },
  type_error: {
    rootCause: 'The code does not type-check or calls something with the wrong type.',
    category: 'logic_error',
    insights: ['Read the first type error and fix that code; later errors often follow from it.'],
    lesson: 'Type errors are fixed in the code the error names, not by re-running the compiler.',
  },
  syntax_error: {
    rootCause: 'The source or config has a syntax error.',
    category: 'incomplete_implementation',
    insights: ['Open the file and position named in the error and fix the syntax.'],
    lesson: 'Syntax errors point at a line: go there first.',
  },
  failing_assertion: {
    rootCause: 'A test assertion fails: the code does not do what the test expects.',
    category: 'logic_error',
    insights: ['Compare expected and actual values in the failing test and trace where they diverge.', 'Check edge cases of the input.'],
    lesson: 'A failing assertion needs a change in logic; re-running the same code gives the same result.',
  },
  test_failure: {
    rootCause: 'Tests fail.',
    category: 'logic_error',
    insights: ['Focus on one failing test at a time, starting with the first.'],
    lesson: 'Fix one failing test at a time and watch the pass count.',
  },
  out_of_memory: {
    rootCause: 'The process ran out of memory or was killed.',
    category: 'configuration_error',
    insights: ['Reduce the workload or raise the limit (e.g. NODE_OPTIONS=--max-old-space-size).'],
    lesson: 'Out-of-memory failures need less work or more memory, not a retry.',
  },
  network: {
    rootCause: 'A network call failed (connection refused, DNS, TLS or timeout).',
    category: 'integration_error',
    insights: ['Check that the service is running and reachable, and proxy/TLS settings.'],
    lesson: 'Network failures depend on the other side: check it before retrying.',
  },
  timeout: {
    rootCause: 'The command timed out.',
    category: 'integration_error',
    insights: ['Find what it waits on; raise the timeout only when the wait is legitimate.'],
    lesson: 'A timeout usually hides a dependency that never answers.',
  },
  dependency_conflict: {
    rootCause: 'Package versions conflict.',
    category: 'configuration_error',
    insights: ['Read which versions conflict and align them; avoid forcing installs blindly.'],
    lesson: 'Dependency conflicts are solved by choosing versions, not by retrying the install.',
  },
  compilation_error: {
    rootCause: 'The build fails to compile.',
    category: 'incomplete_implementation',
    insights: ['Fix the first compiler error; re-run only after a change.'],
    lesson: 'Compile errors need a code change first.',
  },
  unknown: {
    rootCause: 'The command fails; the output does not name a known cause.',
    category: 'other',
    insights: ['Run it once with more verbose output to see the real error.', 'Try a different approach rather than repeating this one.'],
    lesson: 'Without a clear error, get more information before retrying.',
  },
};

const REFLEXION_ERROR_TYPE: Partial<Record<ErrorCategory, ReflexionErrorType>> = {
  syntax_error: 'syntax_error',
  type_error: 'type_error',
  failing_assertion: 'test_failure',
  test_failure: 'test_failure',
  timeout: 'timeout',
  compilation_error: 'syntax_error',
};

export interface ReflectionInput {
  data: MemoryData;
  approach: Approach;
  threshold: number;
  similar: RecallHit[];
  /** Ω: reflections kept in the working window (seed 003), FIFO. */
  omega?: number;
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
      error: t.outcome === 'success' ? '' : errorLineOf(t),
      tests: t.testResults ? { passed: t.testResults.passed, failed: t.testResults.failed, total: t.testResults.total } : undefined,
      failingTests: (t.testResults?.failures ?? []).slice(0, 5).map(f => f.name),
    }));
}

export function warningsFor(patterns: Pattern[], a: Approach, threshold: number): string[] {
  const w = patterns.map(p => `${p.message}${p.subject && p.kind !== 'same_test_failure' ? ` (${p.subject})` : ''}`);
  if (a.status === 'exhausted') w.unshift(`This approach is exhausted: it failed ${a.failures} times (threshold ${threshold}). Do not run it again unchanged.`);
  return w;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'command';
}

const reward = (t: Attempt | undefined) =>
  t?.outcome === 'success' ? 1 : t?.testResults && t.testResults.total > 0 ? t.testResults.passed / t.testResults.total : 0;
const errorCount = (t: Attempt | undefined) => (t?.outcome === 'failure' ? Math.max(1, t.testResults?.failed ?? 1) : 0);

/**
 * The cause of an approach's failures: what recurs across the current streak, not only what the last
 * run printed; its category, the heuristic advice for it, and the tests that keep failing.
 */
function diagnose(a: Approach) {
  const last = a.attempts[a.attempts.length - 1];
  // the cause is what recurs across the streak, not only what the last run printed
  const streak = currentStreak(a);
  const cause = recurringError(streak.length ? streak : a.attempts);
  const sharedTests = recurringTests(streak.length ? streak : a.attempts);
  const sig = cause?.signature || a.lastErrorSignature || last?.errorSignature || '';
  const causeAttempt = cause?.attempt ?? last;
  const causeLine = causeAttempt ? errorLineOf(causeAttempt) : sig;
  const outputTail = causeAttempt?.output ? causeAttempt.output.slice(-4000) : '';
  let category = errorCategory(sig ? `${sig}\n${outputTail}` : outputTail);
  if (category === 'unknown' && sharedTests.length) category = 'test_failure';
  const h = HEURISTICS[category] ?? HEURISTICS.unknown;
  const lastTests = last?.testResults;
  const failingTests = sharedTests.length ? sharedTests.map(t => t.name) : (lastTests?.failures ?? []).map(f => f.name);
  const lastFailure = [...a.attempts].reverse().find(t => t.outcome === 'failure');
  const lastDiffers = !!cause && cause.count > 1 && !!lastFailure && lastFailure.errorSignature !== cause.signature;
  return { cause, sharedTests, sig, causeLine, category, h, failingTests, lastFailure, lastDiffers };
}
type Diagnosis = ReturnType<typeof diagnose>;

function insightsFor(a: Approach, d: Diagnosis, patterns: Pattern[], progress: ProgressStatus, similar: RecallHit[]): string[] {
  const insights = [...d.h.insights];
  if (patterns.some(p => p.kind === 'same_error')) insights.unshift('The last two failures had the same error: change the approach, not the flags.');
  if (d.sharedTests.length) insights.push(`Focus on the test that keeps failing: ${d.sharedTests[0].name}.`);
  if (progress === 'improving') insights.push('More tests pass each time: keep going in this direction.');
  if (progress === 'regressing') insights.push('Fewer tests pass than before: undo the last change and reconsider.');
  for (const s of similar.filter(s => s.key !== a.key && s.lesson).slice(0, 2)) insights.push(`Similar failure before (${s.label}): ${s.lesson}`);
  return insights;
}

/** The first-person account: what ran, what keeps failing, the likely cause, what to do next time. */
function reflectionTextOf(a: Approach, d: Diagnosis, progress: ProgressStatus, insights: string[]): string {
  const { cause, causeLine, sharedTests, lastFailure } = d;
  const where = a.cwd !== '.' ? ` in ${a.cwd}` : '';
  return [
    `I ran “${a.label}”${where} ${plural(a.totalAttempts, 'time')}; it failed ${plural(a.failures, 'time')} since the last success.`,
    !d.sig
      ? 'No error text was captured.'
      : cause && cause.count > 1
        ? `The error that keeps coming back (${cause.count} of ${cause.of} failures): ${causeLine}.`
        : `The error was: ${causeLine}.`,
    d.lastDiffers && lastFailure ? `The last run failed differently (${errorLineOf(lastFailure)}), but that is not the recurring cause.` : '',
    sharedTests.length ? `Tests failing again and again: ${sharedTests.slice(0, 3).map(t => t.name).join(', ')}.` : '',
    `Likely cause: ${d.h.rootCause}`,
    progress !== 'insufficient_data' ? `Progress is ${progress.replace(/_/g, ' ')}.` : '',
    `Next time: ${insights[0]}`,
  ]
    .filter(Boolean)
    .join(' ');
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
    errors: d.sig ? [{ type: REFLEXION_ERROR_TYPE[d.category] ?? 'runtime_error', message: d.causeLine || d.sig, ...(d.failingTests[0] ? { rule: d.failingTests[0] } : {}) }] : [],
    reward_signal: Math.round(reward(last) * 1000) / 1000,
    metrics: lastTests ? { tests_passed: lastTests.passed, tests_failed: lastTests.failed, tests_total: lastTests.total } : {},
  };
}

/** Builds the reflection record for an approach from memory and heuristics. */
export function buildReflection(input: ReflectionInput): ReflectionRecord {
  const { data, approach: a, threshold } = input;
  const now = (input.now ?? new Date()).toISOString();
  const omega = Math.min(10, Math.max(1, input.omega ?? 3));
  const d = diagnose(a);
  const { cause, causeLine, category, h, sig } = d;
  // the loop patterns of the current streak (none from before a resolution, none while improving),
  // the repeated error named by its real line
  const { lastFailure } = d;
  const patterns = streakPatterns(a).map(p => (p.kind === 'same_error' && lastFailure ? { ...p, subject: errorLineOf(lastFailure) } : p));
  const progress = computeProgress(a.attempts);
  const last = a.attempts[a.attempts.length - 1];
  const prev = a.attempts[a.attempts.length - 2];
  const insights = insightsFor(a, d, patterns, progress, input.similar);
  const failingIdx = a.attempts.map((t, i) => (t.outcome === 'failure' ? i : -1)).filter(i => i >= 0);
  const where = a.cwd !== '.' ? ` in ${a.cwd}` : '';

  const previous = data.reflections
    .filter((r): r is ReflectionRecord => isReflectionFor(r, a.key))
    .slice(-omega);

  return {
    loop_id: `ralph-fm-${slug(a.label)}`,
    iteration: Math.max(0, a.totalAttempts - 1),
    timestamp: now,
    task_description: `Make “${a.label}” succeed${where} without repeating a failing approach.`,
    actor_output: actorOutput(a),
    evaluator_output: evaluatorOutput(a, d),
    self_reflection: {
      reflection_text: reflectionTextOf(a, d, progress, insights),
      credit_assignment: { failing_action_indices: failingIdx, root_cause: h.rootCause, failure_category: h.category },
      causal_reasoning: sig
        ? `The error “${causeLine}” is a ${category.replace(/_/g, ' ')} error${cause && cause.count > 1 ? `, seen in ${cause.count} of ${cause.of} failures` : ''}. ${h.rootCause} Repeating the command does not change that cause.`
        : `The command exits with a failure but printed no recognizable error. ${h.rootCause}`,
      actionable_insights: insights,
      lessons_learned: [h.lesson],
      confidence: category === 'unknown' ? 0.3 : sig ? 0.6 : 0.4,
      related_reflections: previous.map(r => r.iteration),
    },
    memory_metadata: {
      omega_capacity: omega,
      current_memory_size: Math.min(omega, previous.length + 1),
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
      warnings: warningsFor(patterns, a, threshold),
      recent: recentAttempts(a),
      similar: input.similar.filter(s => s.key !== a.key).slice(0, 5),
      questions: REFLECTION_QUESTIONS,
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

const OUTCOME_WORD: Record<Attempt['outcome'], string> = { success: 'Succeeded', failure: 'Failed', interrupted: 'Interrupted', unknown: 'Exit unknown' };

/**
 * The reflection laid out in blocks of plain text (seed 000 layout): rendered as Markdown for the
 * CLI and as text in the read-only reflection view. Interrupted runs are not listed.
 */
export function reflectionDoc(r: ReflectionRecord): ReflectionDoc {
  const fm = r.failure_memory;
  const t = (text: string) => ({ text });
  const c = (text: string) => ({ text, code: true });
  const b = (text: string) => ({ text, strong: true });
  const blocks: Block[] = [];
  for (const w of fm.warnings) blocks.push({ kind: 'warning', line: [t(w)] });
  blocks.push({ kind: 'heading', level: 2, line: [t('Recent attempts')] });
  const recent = (fm.recent ?? []).filter(x => x.outcome !== 'interrupted');
  if (!recent.length) blocks.push({ kind: 'paragraph', line: [t('No finished run is left in the short-term window.')] });
  for (const x of recent) {
    const details: Line[] = [];
    if (x.tests) details.push([t(`Tests: ${x.tests.passed} of ${x.tests.total} passed`)]);
    if (x.failingTests.length) details.push([t(x.failingTests.length === 1 ? 'Failed test: ' : 'Failed tests: '), ...x.failingTests.flatMap((n, i) => (i ? [t(', '), c(n)] : [c(n)]))]);
    if (x.error) details.push([t('Error: '), c(x.error)]);
    blocks.push({
      kind: 'attempt',
      outcome: x.outcome,
      title: [b(`Attempt ${x.number}`), t(` · ${OUTCOME_WORD[x.outcome] ?? x.outcome}${x.exitCode !== null ? ` (exit ${x.exitCode})` : ''} · `), c(x.command)],
      details,
    });
  }
  const by = fm.produced_by === 'language-model' ? `by a language model${fm.model ? ` (${fm.model})` : ''}` : 'by Failure Memory';
  blocks.push({ kind: 'heading', level: 2, line: [t(`Self-reflection, ${by}`)] });
  blocks.push({ kind: 'paragraph', line: [t(r.self_reflection.reflection_text)] });
  blocks.push({
    kind: 'list',
    ordered: false,
    items: [
      [b('Root cause:'), t(` ${r.self_reflection.credit_assignment.root_cause}`)],
      [b('Category:'), t(` ${fm.error_category.replace(/_/g, ' ')} (${r.self_reflection.credit_assignment.failure_category.replace(/_/g, ' ')})`)],
    ],
  });
  blocks.push({ kind: 'heading', level: 3, line: [t('What to do differently')] });
  blocks.push({ kind: 'list', ordered: false, items: r.self_reflection.actionable_insights.map(i => [t(i)]) });
  blocks.push({ kind: 'heading', level: 3, line: [t('Lessons')] });
  blocks.push({ kind: 'list', ordered: false, items: r.self_reflection.lessons_learned.map(l => [t(l)]) });
  if (fm.similar.length) {
    blocks.push({ kind: 'heading', level: 2, line: [t('Similar past failures')] });
    blocks.push({
      kind: 'list',
      ordered: false,
      items: fm.similar.map(s => [c(s.label), t(` (${s.status}, ${Math.round(s.score * 100)}% similar)`), ...(s.errorSignature ? [t(': '), c(s.errorSignature)] : []), ...(s.lesson ? [t(` — ${s.lesson}`)] : [])]),
    });
  }
  blocks.push({ kind: 'heading', level: 2, line: [t('Before you try again, ask yourself')] });
  blocks.push({ kind: 'list', ordered: true, items: fm.questions.map(q => [t(q)]) });
  const where = fm.cwd !== '.' ? ` in ${fm.cwd}` : '';
  return {
    label: fm.label,
    summary: `${plural(fm.attempts, 'failing attempt')} of this approach${where} (threshold ${fm.threshold}) · status: ${fm.status} · progress: ${fm.progress.replace(/_/g, ' ')}`,
    blocks,
  };
}

/** The reflection as Markdown. All memory text goes into code spans or escaped plain text. */
export function reflectionToMarkdown(r: ReflectionRecord): string {
  const doc = reflectionDoc(r);
  const line = (l: Line) => l.map(s => (s.code ? `\`${code(s.text)}\`` : s.strong ? `**${text(s.text)}**` : text(s.text))).join('');
  const md: string[] = [`# Reflection: \`${code(doc.label)}\``, '', text(doc.summary), ''];
  for (const blk of doc.blocks) {
    switch (blk.kind) {
      case 'heading':
        md.push(`${'#'.repeat(blk.level)} ${line(blk.line)}`, '');
        break;
      case 'paragraph':
        md.push(line(blk.line), '');
        break;
      case 'warning':
        md.push(`> **Warning:** ${line(blk.line)}`, '');
        break;
      case 'list':
        blk.items.forEach((it, i) => md.push(`${blk.ordered ? `${i + 1}.` : '-'} ${line(it)}`));
        md.push('');
        break;
      case 'attempt':
        md.push(line(blk.title), ...blk.details.map(d => `- ${line(d)}`), '');
        break;
    }
  }
  return md.join('\n');
}

/** Memory text inside a code span: backticks cannot end it early. */
function code(s: string): string {
  return s.replace(/`/g, "'").replace(/\n/g, ' ');
}

/** Memory text as plain Markdown text: no HTML, no links, no emphasis injection. */
export function text(s: string): string {
  return s.replace(/[\\`*_[\]<>#!]/g, m => `\\${m}`).replace(/\n/g, ' ');
}
