// The one message protocol between the memory panel's webview and the extension host.
// Shared by both sides: no vscode, no DOM, nothing of core (the webview bundle imports this file
// and zod/mini only). Every message is a named kind; each side validates what it receives:
// the host treats every webview message as untrusted, the webview drops host messages it cannot read.

import * as z from 'zod/mini';

// ---- vocabulary (mirrors core/types.ts; the host's snapshot builder checks they stay in sync) ----

export const APPROACH_STATUSES = ['active', 'exhausted', 'resolved'] as const;

export const LEARNING_TYPES = ['decision', 'learning', 'failed_approach', 'code_location', 'pattern'] as const;
export type LearningTypeView = (typeof LEARNING_TYPES)[number];

export const PROGRESS_STATUSES = ['improving', 'regressing', 'mixed', 'stable', 'insufficient_data'] as const;
export type ProgressView = (typeof PROGRESS_STATUSES)[number];

export const PRODUCERS = ['heuristics', 'language-model'] as const;

/** Size limits of what the webview may send. */
export const LIMITS = {
  folder: 4096,
  key: 2048,
  id: 128,
  query: 500,
  learningText: 2000,
  /** Own properties a message may have (the widest kind has 5). */
  fields: 6,
} as const;

// ---- host → webview: one zod schema per view, the source of both its type and its check ----
// The host is a trusted source, yet the webview checks every message (and the state getState gives
// back, which an older version may have saved) so that a bad snapshot never half-renders.
// zod/mini keeps the webview bundle small; jitless because the webview's CSP forbids eval and
// new Function (zod would otherwise probe for them and log a CSP violation).
z.config({ jitless: true });

/** Keys that would reach an object's prototype: refused in names and in data from the other side. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A plain data object (what structured clone or JSON.parse gives), without prototype-pollution keys. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return !Object.getOwnPropertyNames(v).some(k => FORBIDDEN_KEYS.has(k));
}

/**
 * An object of the given fields that is plain data. The plain-object check runs on the input,
 * before zod builds its output (which would no longer hold a `__proto__` key to find); extra
 * fields are allowed, as a newer host may add some.
 */
function plain<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.pipe(z.custom<unknown>(isPlainObject, { error: 'not a plain object' }), z.object(shape));
}

const MAX_ITEMS = 5000;
const str = (max?: number) => (max === undefined ? z.string() : z.string().check(z.maxLength(max)));
const strs = (maxItems = 10_000) => z.array(z.string()).check(z.maxLength(maxItems));
const list = <T extends z.core.SomeType>(item: T, max = MAX_ITEMS) => z.array(item).check(z.maxLength(max));
// zod's number already refuses NaN and ±Infinity: every count and score is finite
const num = z.number();
const bool = z.boolean();
const approachStatus = z.enum(APPROACH_STATUSES);
const progress = z.enum(PROGRESS_STATUSES);
const DECISIONS = ['allow', 'warn', 'ask', 'deny'] as const;

export const testPointSchema = plain({ passed: num, failed: num, total: num });
export type TestPoint = z.infer<typeof testPointSchema>;

export const captureViewSchema = plain({
  terminal: bool,
  tasks: bool,
  terminalsWithIntegration: num,
  terminals: num,
  /** Capture paused from the palette or the status bar. */
  paused: z.optional(bool),
});
export type CaptureView = z.infer<typeof captureViewSchema>;

export const folderViewSchema = plain({
  /** Workspace folder URI: what every action names. */
  uri: str(),
  name: str(),
  /** Memory kept in extension storage (untrusted workspace). */
  private: bool,
  /** Failures after which an approach of this folder is exhausted. */
  threshold: num,
});

export const approachViewSchema = plain({
  folder: str(),
  key: str(),
  label: str(),
  command: str(),
  cwd: str(),
  status: approachStatus,
  /** Failures since the last success. */
  failures: num,
  totalAttempts: num,
  /** Runs of the current streak that ran to an end (interrupted runs are not counted). */
  runs: num,
  threshold: num,
  /** The count as the badge shows it ("3/5" while failing, "11×" once exhausted) and as it is read out. */
  badge: str(),
  badgeLabel: str(),
  /** The streak in words: "failed 11 times in a row (the limit is 5) · the same error came 11 times". */
  summary: str(),
  /** Tests that failed in the last failing run. */
  failingTests: strs(),
  lastErrorSignature: str(),
  /** The last error as the output printed it (redacted); the signature when no output was kept. */
  lastError: str(),
  alternativesTried: strs(),
  lastFailure: z.optional(str()),
  resolvedAt: z.optional(str()),
  resolvedBy: z.optional(z.enum(['success', 'manual'])),
  allowOnce: bool,
  progress,
  /** Test counts of the attempts in the short-term window, oldest first; null where none were parsed. */
  tests: list(z.nullable(testPointSchema), 1000),
  /** Loop-pattern warnings (same error twice, ...). */
  patterns: strs(),
  /** [ledger] run history, what changed since the last pass, what fixed it, flakiness: one line each. */
  history: z.optional(strs()),
});
export type ApproachView = z.infer<typeof approachViewSchema>;

export const reflectionViewSchema = plain({
  folder: str(),
  id: str(),
  key: str(),
  label: str(),
  timestamp: str(),
  producedBy: z.enum(PRODUCERS),
  model: z.optional(str()),
  status: approachStatus,
  attempts: num,
  threshold: num,
  progress,
  warnings: strs(),
  reflectionText: str(),
  rootCause: str(),
  insights: strs(),
  lessons: strs(),
});
export type ReflectionView = z.infer<typeof reflectionViewSchema>;

export const learningViewSchema = plain({
  folder: str(),
  id: str(),
  type: z.enum(LEARNING_TYPES),
  text: str(),
  key: z.optional(str()),
  source: str(),
  createdAt: str(),
  updatedAt: z.optional(str()),
});
export type LearningView = z.infer<typeof learningViewSchema>;

export const recallViewSchema = plain({
  folder: str(),
  key: str(),
  label: str(),
  command: str(),
  status: approachStatus,
  score: num,
  errorSignature: str(),
  /** The last error as the output printed it (what the panel shows; the signature is only for matching). */
  errorText: str(),
  attempts: num,
  lesson: z.optional(str()),
});
export type RecallView = z.infer<typeof recallViewSchema>;

/** An approach failing elsewhere in the team (other machines, agents, CI), from the cached team view. */
export const teamFailureViewSchema = plain({
  folder: str(),
  key: str(),
  label: str(),
  command: str(),
  cwd: str(),
  failures: num,
  machines: num,
  ci: bool,
  lastError: str(),
  lastFailure: z.optional(str()),
  /** "failed 7 times this week on 3 machines, including CI, last error: …" */
  summary: str(),
  /** Also failing or exhausted in this folder's own memory. */
  local: bool,
});
export type TeamFailureView = z.infer<typeof teamFailureViewSchema>;

/** Team memory of one folder: sync state and what fails in the team. */
export const teamPanelViewSchema = plain({
  folder: str(),
  project: str(),
  state: z.enum(['online', 'offline', 'never']),
  waiting: num,
  error: z.optional(str()),
  pulledAt: z.optional(str()),
  failures: list(teamFailureViewSchema),
});
export type TeamPanelView = z.infer<typeof teamPanelViewSchema>;

/** One ask or deny of the gate (or one shadow mode only recorded), with the rule that decided. */
export const decisionViewSchema = plain({
  folder: str(),
  at: str(),
  label: str(),
  command: str(),
  cwd: str(),
  /** What was answered. */
  decision: z.enum(DECISIONS),
  /** What the policy said before the strongest-answer setting (differs in shadow mode). */
  policy: z.enum(DECISIONS),
  code: str(100),
  reason: str(),
  via: str(100),
});
export type DecisionView = z.infer<typeof decisionViewSchema>;

export const snapshotSchema = plain({
  folders: list(folderViewSchema),
  exhausted: list(approachViewSchema),
  failing: list(approachViewSchema),
  resolved: list(approachViewSchema),
  /** Latest first. */
  reflections: list(reflectionViewSchema),
  /** Latest first. */
  learnings: list(learningViewSchema),
  /** The gate's recent asks and denies (also those shadow mode only recorded), latest first. */
  decisions: z.optional(list(decisionViewSchema)),
  capture: captureViewSchema,
  /** Team memory, per folder where it is on (absent: off everywhere). */
  team: z.optional(list(teamPanelViewSchema)),
  /** Approach to scroll to and flash (Show Memory aimed at one approach). */
  highlight: z.optional(plain({ folder: str(), key: str() })),
  /** Reflection to open and scroll to (a reflection was just made). */
  highlightReflection: z.optional(str()),
  /** Recall runs on the offline embedder and the model can be downloaded: the panel offers it. */
  offerModel: z.optional(bool),
  generatedAt: str(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export const hostMessageSchema = z.pipe(
  z.custom<unknown>(isPlainObject, { error: 'not a plain object' }),
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('snapshot'), snapshot: snapshotSchema }),
    z.object({ type: z.literal('recallResults'), query: str(), results: list(recallViewSchema, 100) }),
    z.object({ type: z.literal('error'), message: str(10_000) }),
  ]),
);
export type HostMessage = z.infer<typeof hostMessageSchema>;

// The checks answer about the value given, not zod's copy of it: the webview keeps the original.
export const isSnapshot = (v: unknown): v is Snapshot => snapshotSchema.safeParse(v).success;
export const isHostMessage = (v: unknown): v is HostMessage => hostMessageSchema.safeParse(v).success;

// ---- webview → host ----

// The messages themselves: one zod schema per kind in ./webviewMessages.ts (the host validates with
// them; the webview, which only sends, needs nothing but the type)
export type { WebviewMessage } from './webviewMessages';
