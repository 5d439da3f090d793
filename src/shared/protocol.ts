// The one message protocol between the memory panel's webview and the extension host.
// Plain TypeScript shared by both sides: no vscode, no DOM, nothing of core (the webview bundle
// imports this file only). Every message is a named kind; each side validates what it receives:
// the host treats every webview message as untrusted, the webview drops host messages it cannot read.

// ---- vocabulary (mirrors core/types.ts; the host's snapshot builder checks they stay in sync) ----

export const APPROACH_STATUSES = ['active', 'exhausted', 'resolved'] as const;
export type ApproachStatusView = (typeof APPROACH_STATUSES)[number];

export const LEARNING_TYPES = ['decision', 'learning', 'failed_approach', 'code_location', 'pattern'] as const;
export type LearningTypeView = (typeof LEARNING_TYPES)[number];

export const PROGRESS_STATUSES = ['improving', 'regressing', 'mixed', 'stable', 'insufficient_data'] as const;
export type ProgressView = (typeof PROGRESS_STATUSES)[number];

export const PRODUCERS = ['heuristics', 'language-model'] as const;
export type ProducerView = (typeof PRODUCERS)[number];

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

// ---- snapshot: the whole state the panel shows ----

export interface CaptureView {
  terminal: boolean;
  tasks: boolean;
  terminalsWithIntegration: number;
  terminals: number;
  /** Capture paused from the palette or the status bar. */
  paused?: boolean;
}

export interface FolderView {
  /** Workspace folder URI: what every action names. */
  uri: string;
  name: string;
  /** Memory kept in extension storage (untrusted workspace). */
  private: boolean;
  /** Failures after which an approach of this folder is exhausted. */
  threshold: number;
}

export interface TestPoint {
  passed: number;
  failed: number;
  total: number;
}

export interface ApproachView {
  folder: string;
  key: string;
  label: string;
  command: string;
  cwd: string;
  status: ApproachStatusView;
  /** Failures since the last success. */
  failures: number;
  totalAttempts: number;
  /** Runs of the current streak that ran to an end (interrupted runs are not counted). */
  runs: number;
  threshold: number;
  /** The count as the badge shows it ("3/5" while failing, "11×" once exhausted) and as it is read out. */
  badge: string;
  badgeLabel: string;
  /** The streak in words: "failed 11 times in a row (the limit is 5) · the same error came 11 times". */
  summary: string;
  /** Tests that failed in the last failing run. */
  failingTests: string[];
  lastErrorSignature: string;
  /** The last error as the output printed it (redacted); the signature when no output was kept. */
  lastError: string;
  alternativesTried: string[];
  lastFailure?: string;
  resolvedAt?: string;
  resolvedBy?: 'success' | 'manual';
  allowOnce: boolean;
  progress: ProgressView;
  /** Test counts of the attempts in the short-term window, oldest first; null where none were parsed. */
  tests: Array<TestPoint | null>;
  /** Loop-pattern warnings (same error twice, ...). */
  patterns: string[];
  /** [ledger] run history, what changed since the last pass, what fixed it, flakiness: one line each. */
  history?: string[];
}

export interface ReflectionView {
  folder: string;
  id: string;
  key: string;
  label: string;
  timestamp: string;
  producedBy: ProducerView;
  model?: string;
  status: ApproachStatusView;
  attempts: number;
  threshold: number;
  progress: ProgressView;
  warnings: string[];
  reflectionText: string;
  rootCause: string;
  insights: string[];
  lessons: string[];
}

export interface LearningView {
  folder: string;
  id: string;
  type: LearningTypeView;
  text: string;
  key?: string;
  source: string;
  createdAt: string;
  updatedAt?: string;
}

export interface RecallView {
  folder: string;
  key: string;
  label: string;
  command: string;
  status: ApproachStatusView;
  score: number;
  errorSignature: string;
  /** The last error as the output printed it (what the panel shows; the signature is only for matching). */
  errorText: string;
  attempts: number;
  lesson?: string;
}

/** An approach failing elsewhere in the team (other machines, agents, CI), from the cached team view. */
export interface TeamFailureView {
  folder: string;
  key: string;
  label: string;
  command: string;
  cwd: string;
  failures: number;
  machines: number;
  ci: boolean;
  lastError: string;
  lastFailure?: string;
  /** "failed 7 times this week on 3 machines, including CI, last error: …" */
  summary: string;
  /** Also failing or exhausted in this folder's own memory. */
  local: boolean;
}

/** Team memory of one folder: sync state and what fails in the team. */
export interface TeamPanelView {
  folder: string;
  project: string;
  state: 'online' | 'offline' | 'never';
  waiting: number;
  error?: string;
  pulledAt?: string;
  failures: TeamFailureView[];
}

/** One ask or deny of the gate (or one shadow mode only recorded), with the rule that decided. */
export interface DecisionView {
  folder: string;
  at: string;
  label: string;
  command: string;
  cwd: string;
  /** What was answered. */
  decision: 'allow' | 'warn' | 'ask' | 'deny';
  /** What the policy said before the strongest-answer setting (differs in shadow mode). */
  policy: 'allow' | 'warn' | 'ask' | 'deny';
  code: string;
  reason: string;
  via: string;
}

export interface Snapshot {
  folders: FolderView[];
  exhausted: ApproachView[];
  failing: ApproachView[];
  resolved: ApproachView[];
  /** Latest first. */
  reflections: ReflectionView[];
  /** Latest first. */
  learnings: LearningView[];
  /** The gate's recent asks and denies (also those shadow mode only recorded), latest first. */
  decisions?: DecisionView[];
  capture: CaptureView;
  /** Team memory, per folder where it is on (absent: off everywhere). */
  team?: TeamPanelView[];
  /** Approach to scroll to and flash (Show Memory aimed at one approach). */
  highlight?: { folder: string; key: string };
  /** Reflection to open and scroll to (a reflection was just made). */
  highlightReflection?: string;
  /** Recall runs on the offline embedder and the model can be downloaded: the panel offers it. */
  offerModel?: boolean;
  generatedAt: string;
}

// ---- host → webview ----

export type HostMessage =
  | { type: 'snapshot'; snapshot: Snapshot }
  | { type: 'recallResults'; query: string; results: RecallView[] }
  | { type: 'error'; message: string };

// ---- webview → host ----

export interface ApproachTarget {
  folder: string;
  key: string;
}

// The messages themselves: one zod schema per kind in ./webviewMessages.ts (the host validates with
// them; the webview, which only sends, needs nothing but the type)
export type { WebviewMessage, WebviewMessageType } from './webviewMessages';

// ---- validation helpers ----

type Obj = Record<string, unknown>;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A plain data object (what structured clone or JSON.parse gives), without prototype-pollution keys. */
function isPlainObject(v: unknown): v is Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return !Object.getOwnPropertyNames(v).some(k => FORBIDDEN_KEYS.has(k));
}

const isStr = (v: unknown, max = Infinity): v is string => typeof v === 'string' && v.length <= max;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === 'string' && (list as readonly string[]).includes(v);
const isStrArray = (v: unknown, maxItems = 10_000): v is string[] =>
  Array.isArray(v) && v.length <= maxItems && v.every(x => typeof x === 'string');
const optional = <T>(v: unknown, check: (x: unknown) => x is T): boolean => v === undefined || check(v);

export function isLearningTypeView(v: unknown): v is LearningTypeView {
  return oneOf(LEARNING_TYPES, v);
}

// ---- host → webview: trusted source, still checked so a bad snapshot never half-renders ----

const MAX_ITEMS = 5000;
const isArrayOf = <T>(v: unknown, check: (x: unknown) => x is T, max = MAX_ITEMS): v is T[] =>
  Array.isArray(v) && v.length <= max && v.every(check);

function isTestPoint(v: unknown): v is TestPoint | null {
  if (v === null) return true;
  return isPlainObject(v) && isNum(v.passed) && isNum(v.failed) && isNum(v.total);
}

export function isApproachView(v: unknown): v is ApproachView {
  return (
    isPlainObject(v) &&
    isStr(v.folder) &&
    isStr(v.key) &&
    isStr(v.label) &&
    isStr(v.command) &&
    isStr(v.cwd) &&
    oneOf(APPROACH_STATUSES, v.status) &&
    isNum(v.failures) &&
    isNum(v.totalAttempts) &&
    isNum(v.runs) &&
    isNum(v.threshold) &&
    isStr(v.badge) &&
    isStr(v.badgeLabel) &&
    isStr(v.summary) &&
    isStrArray(v.failingTests) &&
    isStr(v.lastErrorSignature) &&
    isStr(v.lastError) &&
    isStrArray(v.alternativesTried) &&
    optional(v.lastFailure, isStr) &&
    optional(v.resolvedAt, isStr) &&
    (v.resolvedBy === undefined || v.resolvedBy === 'success' || v.resolvedBy === 'manual') &&
    isBool(v.allowOnce) &&
    oneOf(PROGRESS_STATUSES, v.progress) &&
    isArrayOf(v.tests, isTestPoint, 1000) &&
    isStrArray(v.patterns) &&
    optional(v.history, isStrArray)
  );
}

export function isReflectionView(v: unknown): v is ReflectionView {
  return (
    isPlainObject(v) &&
    isStr(v.folder) &&
    isStr(v.id) &&
    isStr(v.key) &&
    isStr(v.label) &&
    isStr(v.timestamp) &&
    oneOf(PRODUCERS, v.producedBy) &&
    optional(v.model, isStr) &&
    oneOf(APPROACH_STATUSES, v.status) &&
    isNum(v.attempts) &&
    isNum(v.threshold) &&
    oneOf(PROGRESS_STATUSES, v.progress) &&
    isStrArray(v.warnings) &&
    isStr(v.reflectionText) &&
    isStr(v.rootCause) &&
    isStrArray(v.insights) &&
    isStrArray(v.lessons)
  );
}

export function isLearningView(v: unknown): v is LearningView {
  return (
    isPlainObject(v) &&
    isStr(v.folder) &&
    isStr(v.id) &&
    isLearningTypeView(v.type) &&
    isStr(v.text) &&
    optional(v.key, isStr) &&
    isStr(v.source) &&
    isStr(v.createdAt) &&
    optional(v.updatedAt, isStr)
  );
}

export function isRecallView(v: unknown): v is RecallView {
  return (
    isPlainObject(v) &&
    isStr(v.folder) &&
    isStr(v.key) &&
    isStr(v.label) &&
    isStr(v.command) &&
    oneOf(APPROACH_STATUSES, v.status) &&
    isNum(v.score) &&
    isStr(v.errorSignature) &&
    isStr(v.errorText) &&
    isNum(v.attempts) &&
    optional(v.lesson, isStr)
  );
}

function isFolderView(v: unknown): v is FolderView {
  return isPlainObject(v) && isStr(v.uri) && isStr(v.name) && isBool(v.private) && isNum(v.threshold);
}

function isCaptureView(v: unknown): v is CaptureView {
  return isPlainObject(v) && isBool(v.terminal) && isBool(v.tasks) && isNum(v.terminalsWithIntegration) && isNum(v.terminals) && optional(v.paused, isBool);
}

function isTeamFailureView(v: unknown): v is TeamFailureView {
  return (
    isPlainObject(v) && isStr(v.folder) && isStr(v.key) && isStr(v.label) && isStr(v.command) && isStr(v.cwd) && isNum(v.failures) && isNum(v.machines) &&
    isBool(v.ci) && isStr(v.lastError) && optional(v.lastFailure, isStr) && isStr(v.summary) && isBool(v.local)
  );
}

function isTeamPanelView(v: unknown): v is TeamPanelView {
  return (
    isPlainObject(v) && isStr(v.folder) && isStr(v.project) && (v.state === 'online' || v.state === 'offline' || v.state === 'never') &&
    isNum(v.waiting) && optional(v.error, isStr) && optional(v.pulledAt, isStr) && isArrayOf(v.failures, isTeamFailureView)
  );
}

const DECISIONS = new Set(['allow', 'warn', 'ask', 'deny']);

function isDecisionView(v: unknown): v is DecisionView {
  return (
    isPlainObject(v) && isStr(v.folder) && isStr(v.at) && isStr(v.label) && isStr(v.command) && isStr(v.cwd) && isStr(v.code, 100) &&
    isStr(v.reason) && isStr(v.via, 100) && DECISIONS.has(v.decision as string) && DECISIONS.has(v.policy as string)
  );
}

export function isSnapshot(v: unknown): v is Snapshot {
  return (
    isPlainObject(v) &&
    isArrayOf(v.folders, isFolderView) &&
    isArrayOf(v.exhausted, isApproachView) &&
    isArrayOf(v.failing, isApproachView) &&
    isArrayOf(v.resolved, isApproachView) &&
    isArrayOf(v.reflections, isReflectionView) &&
    isArrayOf(v.learnings, isLearningView) &&
    (v.decisions === undefined || isArrayOf(v.decisions, isDecisionView)) &&
    isCaptureView(v.capture) &&
    (v.team === undefined || isArrayOf(v.team, isTeamPanelView)) &&
    (v.highlight === undefined || (isPlainObject(v.highlight) && isStr(v.highlight.folder) && isStr(v.highlight.key))) &&
    optional(v.highlightReflection, isStr) &&
    optional(v.offerModel, isBool) &&
    isStr(v.generatedAt)
  );
}

export function isHostMessage(v: unknown): v is HostMessage {
  if (!isPlainObject(v)) return false;
  switch (v.type) {
    case 'snapshot':
      return isSnapshot(v.snapshot);
    case 'recallResults':
      return isStr(v.query) && isArrayOf(v.results, isRecallView, 100);
    case 'error':
      return isStr(v.message, 10_000);
    default:
      return false;
  }
}
