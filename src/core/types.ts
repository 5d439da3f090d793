// The vocabulary of Failure Memory (README, "What counts"): attempts, approaches, reflections, learnings.
// Plain data only: everything here is JSON-serializable and is what the store persists.

import type { Settings } from './config';

/**
 * Where an attempt came from. `agent`: an agent's run that its harness's hook saw; `reported`: a
 * result the agent reported itself (the MCP or language-model `record` tool), which nobody witnessed.
 */
export type AttemptSource = 'terminal' | 'task' | 'cli' | 'agent' | 'reported';

/**
 * What an exit code means.
 * - success: exit 0
 * - failure: any other exit code that is not an interrupt
 * - interrupted: 130 (Ctrl+C) and other signal exits (128 + n); never counts as a failure
 * - unknown: the shell could not tell; recorded, never counts toward exhaustion
 */
export type Outcome = 'success' | 'failure' | 'interrupted' | 'unknown';

export interface TestFailure {
  name: string;
  message: string;
}

/** Parsed test run. */
export interface TestResults {
  /** jest, vitest, mocha, pytest, go, cargo, node-test, surefire, rspec, dotnet */
  framework: string;
  total: number;
  passed: number;
  failed: number;
  skipped?: number;
  failures: TestFailure[];
}

/** One run of a command, as stored (already redacted and bounded). */
export interface Attempt {
  id: string;
  /** The command line as typed, redacted. */
  command: string;
  /** Approach key: same base command and folder => same approach. */
  key: string;
  /** Folder the command ran in, relative to the workspace folder ('.' for the root). */
  cwd: string;
  /** null when the shell did not report an exit code. */
  exitCode: number | null;
  outcome: Outcome;
  /** Why the outcome differs from what the exit code alone says (a probe's answer, a failure hidden by a pipe). */
  note?: string;
  source: AttemptSource;
  startedAt?: string;
  endedAt: string;
  durationMs?: number;
  /** Redacted output, head and tail kept when longer than the limit. Empty when output storage is off. */
  output: string;
  /** True when the middle of the output was dropped to respect the size limit. */
  outputTruncated: boolean;
  /** Original size of the output in bytes before bounding. */
  outputBytes: number;
  /** Most telling error line(s), normalized to be stable across runs; '' when nothing looks like an error. */
  errorSignature: string;
  /**
   * The line of the stored output the signature's first part was read from, as printed ('' when no
   * line is): found once when the run is recorded, so the gate need not search the output again.
   */
  errorLine?: string;
  /** No output line reads like an error: the signature is only the output's last line (a JSON brace, a pip notice). */
  noErrorLine?: boolean;
  testResults: TestResults | null;
  /** ISO time the attempt was recorded. */
  timestamp: string;
  /** The workspace's git state right after the run; absent without git (or when it took too long). */
  git?: GitState;
  /**
   * What the run did for its approach, cosmetics aside: the work signatures of the steps of its line
   * that are this approach, its scripts resolved (`npm test` whose script is `jest`: `jest`). Another
   * spelling of the same work later is no change.
   */
  work?: string[];
  /**
   * A failure's cause (its error concept and salient factors), found once when the run is recorded
   * (rules/causes.ts) from the whole output: carried by the journal's record, dropped once its pattern holds it.
   */
  cause?: AttemptCause;
}

/**
 * What a failure's cause is about: a service (refused, unresolved, port taken), credentials, the
 * machine's resources, the toolchain (a program, a module, a variable missing), files, or the code
 * itself. Only the first four can be systemic: nothing in the workspace's code explains them.
 */
export type CauseClass = 'service' | 'credentials' | 'resources' | 'toolchain' | 'files' | 'code';

/** A failure's cause: its error concept and the factors that tell one instance of it from another. */
export interface AttemptCause {
  /** The error concept: conn_refused, addr_in_use, command_missing, module_missing, … or `error` (the code's own error). */
  kind: string;
  cls: CauseClass;
  /** What failures of one cause share (the cluster key): the kind and its salient factor, `conn_refused|localhost:5432`. */
  key: string;
  /** The salient factors: host, port, service, program, module, variable, file, and the exit code's family (exit). */
  factors: Record<string, string>;
}

/** One approach a pattern touched: how often it failed with the cause in the pattern's current stretch, and when last. */
export interface PatternApproach {
  key: string;
  label: string;
  cwd: string;
  /** Failures with this cause since the pattern became active (0: only before, in an earlier stretch). */
  failures: number;
  lastSeen: string;
}

/** How a pattern was resolved: the run that passed, the files changed, the command that fixed it. */
export interface PatternResolution {
  at: string;
  /** success: a run that needed the same thing passed; manual: the user marked one of its approaches resolved; team: a teammate's resolution. */
  by: 'success' | 'manual' | 'team';
  /** The passing run's id, its command line and approach. */
  run?: string;
  command?: string;
  key?: string;
  /** Files changed between the pattern's last failure and the resolution (bounded). */
  files?: string[];
  /** The command run in between that fixed it (a service started, an install, a login), when one was. */
  fix?: string;
}

/** A fix that worked for a pattern, reinforced each time it works again (the root cause → fix mapping). */
export interface PatternFix {
  command: string;
  worked: number;
  lastWorked: string;
}

/**
 * A pattern record: one cause failing one or several approaches. Clustered
 * by the cause's key (rules/patternRecords.ts): different causes never merge, and a factor like the
 * port keeps two services apart. Self-contained: deciding with it never reads another approach.
 */
export interface PatternRecord {
  /** A stable id derived from the cause key (the same cause has the same id on every machine). */
  id: string;
  cause: string;
  kind: string;
  cls: CauseClass;
  /** The cause in words: "the database at localhost:5432", "`ffmpeg` (not installed)". */
  subject: string;
  /** What every occurrence had in common: the cause's own factors, and those shared by chance (folder, exit family). */
  factors: Record<string, string>;
  /** Approaches it failed, most recent last (bounded). */
  approaches: PatternApproach[];
  /** Ids of its latest failing runs, oldest first (bounded). */
  runs: string[];
  /** Failures with this cause ever recorded here. */
  occurrences: number;
  /** Failures since it became active (what the gate counts). */
  failures: number;
  firstSeen: string;
  /** The first failure of the current stretch. */
  since: string;
  lastSeen: string;
  /** The git fingerprint at its last failure (a changed working tree lifts its stops). */
  lastGit?: string;
  /** The last error line as printed (redacted, bounded). */
  lastError: string;
  /** Spans several approaches and nothing in the workspace's code explains it (service, credentials, resources, toolchain). */
  systemic: boolean;
  status: 'active' | 'resolved';
  resolvedAt?: string;
  /** The latest resolution: kept when the cause comes back, as "last time: …". */
  resolution?: PatternResolution;
  /** Fixes that worked, most reinforced first (bounded). */
  fixes?: PatternFix[];
  /** Commands that could fix it, run while it was active: a service started, an install, a login (bounded, newest last). */
  tried?: Array<{ command: string; at: string }>;
}

/**
 * The git state of a workspace at one run, cheap and bounded: HEAD, branch, and a fingerprint of the
 * uncommitted changes (each changed path with a short hash of its content, at most MAX_DIRTY_FILES).
 */
export interface GitState {
  /** Commit id of HEAD ('' before the first commit). */
  head: string;
  branch?: string;
  /** Hash of HEAD plus every changed path and content hash: equal fingerprints = same code. */
  fingerprint: string;
  /** Changed (uncommitted or untracked) paths, relative to the repository root → short content hash. */
  dirty: Record<string, string>;
  /** More paths were changed than kept in `dirty`. */
  dirtyTruncated?: boolean;
  /** Files committed between an earlier run's HEAD and this one (filled by the store when HEAD moved). */
  committed?: { from: string; files: string[] };
}

/** One run in an approach's ledger: passes included (a bounded history, newest last). */
export interface LedgerRun {
  at: string;
  outcome: Outcome;
  exitCode: number | null;
  signature: string;
  tests?: { passed: number; failed: number; total: number };
  git?: GitState;
}

/** What made a failing approach pass: the files changed between its last failure and the passing run. */
export interface FixRecord {
  files: string[];
  /** More files changed than listed. */
  more?: number;
  /** The error it fixed. */
  signature: string;
  at: string;
}

export type ApproachStatus = 'active' | 'exhausted' | 'resolved';

/** One approach (a "failed command" as a user says it): all attempts that share an approach key. */
export interface Approach {
  key: string;
  /** The most recent command line of this approach (redacted), for display. */
  command: string;
  /** Human label of the approach key, e.g. "prisma generate". */
  label: string;
  cwd: string;
  status: ApproachStatus;
  /** Failures since the last success (what exhaustion counts). */
  failures: number;
  /** Every attempt ever recorded for this key, successes included. */
  totalAttempts: number;
  firstFailure?: string;
  lastFailure?: string;
  lastSuccess?: string;
  lastErrorSignature: string;
  /** Other approach keys that failed in the same stretch (labels, most recent last). */
  alternativesTried: string[];
  /** Primary error of each failure since the last success, oldest first (bounded): tells a loop from progress. */
  streakErrors?: string[];
  /**
   * Beside streakErrors, one per failure: whether something changed since the failure before it (an edit
   * event, the git state, an edit chained in the command line). Tells trying fixes from looping blind.
   */
  streakChanged?: boolean[];
  /** Free-text facts learned about this approach. */
  learnedFacts: string[];
  /** Short-term memory: the last N attempts (FIFO, N = window setting). */
  attempts: Attempt[];
  exhaustedAt?: string;
  resolvedAt?: string;
  /** How it got resolved: 'success' (a run passed) or 'manual' (user marked it). */
  resolvedBy?: 'success' | 'manual';
  /** When true the next run of this approach is let through once even though it is exhausted. */
  allowOnce?: boolean;
  /** Run ledger: the last LEDGER_SIZE runs, passes included (see ledger.ts). Kept from the first failure on. */
  ledger?: LedgerRun[];
  /** Files changed since the last passing run, when a run that used to pass fails. */
  changedSinceLastPass?: { files: string[]; more?: number; since: string };
  /** What fixed it the last time it went from failing to passing. */
  fix?: FixRecord;
  updatedAt: string;
}

export type LearningType = 'decision' | 'learning' | 'failed_approach' | 'code_location' | 'pattern';

export interface Learning {
  id: string;
  type: LearningType;
  text: string;
  /** Approach key it relates to, if any. */
  key?: string;
  source: 'reflection' | 'note' | 'output' | 'user' | 'agent' | 'fix';
  createdAt: string;
  updatedAt?: string;
}

/** Where an edit event came from. */
export type EditSource = 'save' | 'agent' | 'cli' | 'shell';

/**
 * A file changed in the workspace (seen by an editor save, an agent's edit tool, `failure-memory edit`, or a
 * shell command that writes files). `ok: false`: the edit failed (the harness said so) and changed nothing.
 */
export interface EditEvent {
  at: string;
  /** Relative to the workspace when inside it, else absolute; '/' separated, redacted. */
  path: string;
  ok: boolean;
  source: EditSource;
  /** The tool that made it (Edit, write_file, apply_patch, sed…), when known. */
  tool?: string;
  /** A hash of the file's content after the edit ('deleted': gone), when the recorder read it: the same bytes again is no change. */
  hash?: string;
}

/** Something started that a status probe may be waiting for: a background job or a service command. */
export interface StartEvent {
  at: string;
  /** The command line that started it (redacted, bounded). */
  command: string;
}

/** The gate's graded answer: allow, warn (run it, say so), ask (a person decides), deny (not run). */
export type Decision = 'allow' | 'warn' | 'ask' | 'deny';

/** The strongest answer the gate may give (failureMemory.gate.strongestAnswer); `warn` is shadow mode. */
export type GateAnswer = 'deny' | 'ask' | 'warn';

/** A decision the gate took (or, capped by the setting, would have taken), with the rule that decided. */
export interface DecisionRecord {
  at: string;
  command: string;
  key: string;
  label: string;
  cwd: string;
  /** What the caller was answered. */
  decision: Decision;
  /** What the policy said before the strongest-answer setting capped it (differs in shadow mode). */
  policy: Decision;
  /** The rule that decided (a short reason code). */
  code: string;
  reason: string;
  /** Who asked: terminal, task, cli, mcp, hook:<harness>. */
  via: string;
}

/** The whole workspace memory document (memory.json). */
export interface MemoryData {
  schemaVersion: number;
  approaches: Record<string, Approach>;
  /** Episodic memory: reflection records (the Reflexion record schema), newest last. */
  reflections: unknown[];
  learnings: Learning[];
  /** Recent edit events of the workspace, oldest first (bounded: MAX_EDITS). */
  edits?: EditEvent[];
  /** Recent background jobs and service commands started, oldest first (bounded). */
  starts?: StartEvent[];
  /** Recent asks and denies of the gate, also those shadow mode only recorded, oldest first (bounded). */
  decisions?: DecisionRecord[];
  /** Pattern records: one cause across approaches (bounded; see rules/patternRecords.ts). */
  patterns?: PatternRecord[];
  updatedAt: string;
  /** What of the hooks' journal (journal.jsonl) this memory already holds (see core/journal.ts). */
  journal?: JournalState;
}

/**
 * The journal as memory.json knows it. `folded`: the journals (by their id) whose first `bytes` bytes
 * are in this memory, newest last, so a reader that read a journal just before it was folded does
 * not apply it twice. `carried`: records of a kind this version cannot apply (written by a newer
 * Failure Memory), kept until one that can folds them.
 */
export interface JournalState {
  folded: Array<{ id: string; bytes: number }>;
  carried?: Array<{ kind: string; id: string } & Record<string, unknown>>;
}

export const SCHEMA_VERSION = 4;

export function emptyMemory(now: string = new Date().toISOString()): MemoryData {
  return { schemaVersion: SCHEMA_VERSION, approaches: {}, reflections: [], learnings: [], edits: [], starts: [], decisions: [], patterns: [], updatedAt: now };
}

/**
 * What the engine runs with: every setting by its declared name (core/config.ts, from package.json),
 * and the caps per workspace. The extension reads it from VS Code's configuration, every other door
 * from .vscode/settings.json (app/settings.ts).
 */
export type EngineSettings = Settings & { limits: MemoryLimits };

/** What recording a run is judged with: the recorder's threshold, window and caps. */
export type JudgingSettings = Pick<EngineSettings, 'threshold' | 'shortTermWindow' | 'limits'>;

/** Caps per workspace: the oldest resolved approaches are evicted first. */
export interface MemoryLimits {
  maxApproaches: number;
  maxTotalBytes: number;
  maxReflections: number;
  maxLearnings: number;
}

export { DEFAULT_SETTINGS } from './config';

/** What a caller hands the engine to record a run. Raw: not yet redacted or bounded. */
export interface AttemptInput {
  command: string;
  cwd?: string;
  exitCode: number | null | undefined;
  source: AttemptSource;
  output?: string;
  /** Set when the host already had to drop output while streaming. */
  outputTruncated?: boolean;
  /** Real size of the output when the caller already bounded it. */
  outputBytes?: number;
  /**
   * Agent gates are set up, so the harness's hooks see the agent's real runs: a success the agent
   * reports itself (`reported`) does not clear an approach's failures.
   */
  witnessRequired?: boolean;
  startedAt?: string;
  endedAt?: string;
}
