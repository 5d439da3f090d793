// The four agent tools — check, record, recall, add_learning — defined once and shared by both
// front doors for agents: the VS Code language-model tools (host/lmTools.ts) and the MCP server
// (agents/mcpServer.ts). Plain TypeScript over WorkspaceMemory: no vscode, no MCP SDK.
// Every answer is text written for a model plus the same facts as JSON.

import * as z from 'zod';
import { LEARNING_TYPES } from '../core/learnings';
import { harnessText, learnedLine, quote as untrusted, UNTRUSTED_NOTE } from '../core/prompts/agentText';
import { removeHiddenDeep } from '../core/text/hidden';
import { trimTrailing } from '../core/approach/paths';
import { describeChanges, type CheckResult } from '../core/rules/check';
import { describeApproach } from '../core/memory';
import { causeLines, patternJson, recordCauseLines, recordPatternJson } from './toolPatterns';
import type { RecallHit } from '../core/recall';
import type { TeamCheck } from '../core/rules/team';
import type { LearningType } from '../core/types';
import type { RunReport, WorkspaceMemory } from '../app/workspaceMemory';

export const ToolNames = {
  check: 'failure_memory_check',
  record: 'failure_memory_record',
  recall: 'failure_memory_recall',
  addLearning: 'failure_memory_add_learning',
  edit: 'failure_memory_edit',
} as const;
export type ToolName = (typeof ToolNames)[keyof typeof ToolNames];

/** A JSON Schema document, as package.json and MCP clients see it (generated from the zod schemas below). */
export type JsonSchema = Record<string, unknown>;

/** The longest learning text a tool takes (one or two sentences). */
export const MAX_LEARNING_CHARS = 2000;
/** The longest command line or query a tool takes. */
export const MAX_COMMAND_CHARS = 10_000;

// ---- inputs: ONE zod schema per tool feeds the manifest (scripts/gen-tool-manifest.mjs), the parsing and the types ----

const cwd = z
  .string()
  .describe('Folder the command runs (or ran) in: absolute, or relative to the workspace folder. Default: the workspace folder itself.')
  .optional();
const command = z
  .string()
  .min(1, { error: 'needs "command" (a non-empty string)' })
  .max(MAX_COMMAND_CHARS, { error: `"command" is too long (at most ${MAX_COMMAND_CHARS} characters)` })
  .describe('The full shell command line, exactly as it is (or was) run.');

export const CheckInputSchema = z.object({ command, cwd });
export const RecordInputSchema = z.object({
  command,
  exitCode: z
    .union([z.number().int(), z.null()], { error: 'needs "exitCode" (an integer: 0 for success)' })
    .describe('Exit code of the command: 0 for success; 130 if it was interrupted; null if unknown.'),
  output: z.string({ error: '"output" must be a string' }).describe('stdout and stderr of the command (the tail is enough).').optional(),
  cwd,
});
export const RecallInputSchema = z.object({
  query: z
    .string()
    .min(1, { error: 'needs "query" (a non-empty string)' })
    .max(MAX_COMMAND_CHARS, { error: `"query" is too long (at most ${MAX_COMMAND_CHARS} characters)` })
    .describe('An error message, a command or a short description of the task.'),
  k: z.number().int().min(1, { error: '"k" must be an integer from 1 to 20' }).max(20, { error: '"k" must be an integer from 1 to 20' }).describe('How many results, at most (default 5).').optional(),
});
export const AddLearningInputSchema = z.object({
  type: z.enum(LEARNING_TYPES as [LearningType, ...LearningType[]], { error: `"type" must be one of ${LEARNING_TYPES.join(', ')}` }).describe('Kind of learning.'),
  text: z
    .string()
    .min(1, { error: 'needs "text" (a non-empty string)' })
    .max(MAX_LEARNING_CHARS, { error: `"text" is too long (at most ${MAX_LEARNING_CHARS} characters)` })
    .describe('The learning itself, one or two sentences.'),
  command: z.string().describe('Optional: the command (approach) it is about.').optional(),
  cwd,
});

export const EditInputSchema = z.object({
  path: z
    .string()
    .min(1, { error: 'needs "path" (a non-empty string)' })
    .max(MAX_COMMAND_CHARS, { error: `"path" is too long (at most ${MAX_COMMAND_CHARS} characters)` })
    .describe('The file you changed: absolute, or relative to cwd (default: the workspace folder).'),
  failed: z.boolean({ error: '"failed" must be true or false' }).describe('true when the edit did not apply (it changed nothing).').optional(),
  cwd,
});

export type CheckInput = z.output<typeof CheckInputSchema>;
export type EditInput = z.output<typeof EditInputSchema>;
export type RecordInput = Omit<z.output<typeof RecordInputSchema>, 'output'> & { output: string };
export type RecallInput = Omit<z.output<typeof RecallInputSchema>, 'k'> & { k: number };
export type AddLearningInput = z.output<typeof AddLearningInputSchema>;

/** The JSON Schema of a tool's input, as package.json declares it (a unit test holds them equal). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return rest;
}

export interface ToolDefinition {
  name: ToolName;
  displayName: string;
  /** `#name` in a VS Code chat prompt. */
  toolReferenceName: string;
  icon: string;
  userDescription: string;
  modelDescription: string;
  /** The one schema of the input: parsing, types, and (generated) the JSON Schema of the manifest and MCP. */
  input: z.ZodObject;
  /** The input has a cwd (made relative to the workspace folder before the tool runs). */
  hasCwd: boolean;
  /** Writes to the memory: VS Code asks the user to confirm first. */
  writes: boolean;
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: ToolNames.check,
    displayName: 'Failure Memory: Check Command',
    toolReferenceName: 'failureMemoryCheck',
    icon: '$(shield)',
    userDescription: 'Checks whether a command has already failed repeatedly in this workspace before it is run.',
    modelDescription:
      'Call this BEFORE running a shell command that builds, tests, installs, migrates, deploys or otherwise may fail, ' +
      'and always before re-running a command that just failed. Failure Memory remembers every failing command of this workspace ' +
      '(from the terminal, tasks, and other agents). It answers clear (never failed here), failing (failed before, below the limit) ' +
      'or exhausted (failed too many times in a row: a loop). It also gives the last error, the alternatives already tried and ' +
      'similar past failures with their lessons. When the status is exhausted the command must NOT be run again the same way: ' +
      'change something first (code, config, dependencies), try a different approach than those already tried, or ask the user.',
    input: CheckInputSchema,
    hasCwd: true,
    writes: false,
  },
  {
    name: ToolNames.record,
    displayName: 'Failure Memory: Record Command Result',
    toolReferenceName: 'failureMemoryRecord',
    icon: '$(record)',
    userDescription: 'Records the result of a command an agent ran outside the VS Code terminal.',
    modelDescription:
      'Report the result of a shell command you ran OUTSIDE the VS Code integrated terminal (for example through your own ' +
      'process runner), so that Failure Memory can count failures and stop loops. Commands run in the VS Code terminal or as ' +
      'tasks are recorded automatically: do not report those. Give the exit code and the output (the last few hundred lines ' +
      'are enough); secrets are redacted before anything is stored. The answer says whether the approach is now exhausted.',
    input: RecordInputSchema,
    hasCwd: true,
    writes: true,
  },
  {
    name: ToolNames.recall,
    displayName: 'Failure Memory: Recall Similar Failures',
    toolReferenceName: 'failureMemoryRecall',
    icon: '$(history)',
    userDescription: 'Finds past failures similar to an error message or a task, with their lessons.',
    modelDescription:
      'Search this workspace\'s memory of past command failures for ones similar to an error message, a command or a task ' +
      '(for example "Cannot find module @prisma/client" or "database migration"). Returns the most similar failures, best ' +
      'first, with their status (resolved ones often say what fixed them) and lessons learned. Use it when you meet an error, ' +
      'before trying a fix.',
    input: RecallInputSchema,
    hasCwd: false,
    writes: false,
  },
  {
    name: ToolNames.addLearning,
    displayName: 'Failure Memory: Add Learning',
    toolReferenceName: 'failureMemoryLearn',
    icon: '$(lightbulb)',
    userDescription: 'Saves a lesson, decision or pattern in the workspace memory.',
    modelDescription:
      'Save something worth remembering in this workspace\'s long-term memory, so that you and other agents find it later ' +
      '(it is returned with recalls and checks). Types: learning (a fact discovered), decision (a choice made and why), ' +
      'failed_approach (something that does not work here, and why), code_location (where something lives), pattern ' +
      '(a convention of this code base). Keep it to one or two sentences. Optionally name the command it is about.',
    input: AddLearningInputSchema,
    hasCwd: true,
    writes: true,
  },
  {
    name: ToolNames.edit,
    displayName: 'Failure Memory: Record Edit',
    toolReferenceName: 'failureMemoryEdit',
    icon: '$(edit)',
    userDescription: 'Records that a file was changed, so that a re-run after the change counts as trying a fix.',
    modelDescription:
      'Report a file you changed through your own editing tool (not through the shell and not in the VS Code editor, which ' +
      'are seen already). Failure Memory tells trying fixes from looping blind by what changed between two failing runs: ' +
      'a command that fails again with the same error after an edit is a fix attempt; with nothing changed it is a loop and ' +
      'is stopped. Set failed to true when the edit did not apply.',
    input: EditInputSchema,
    hasCwd: true,
    writes: true,
  },
];

/** package.json's contributes.languageModelTools, generated (scripts/gen-tool-manifest.mjs). */
export function languageModelToolsManifest(): Array<Record<string, unknown>> {
  return TOOL_DEFINITIONS.map(d => ({
    name: d.name,
    displayName: d.displayName,
    toolReferenceName: d.toolReferenceName,
    canBeReferencedInPrompt: true,
    icon: d.icon,
    userDescription: d.userDescription,
    modelDescription: d.modelDescription,
    inputSchema: jsonSchemaOf(d.input),
  }));
}

/** The input does not fit the tool's schema; the message is written for the model. */
export class ToolInputError extends Error {}

/** Parses a tool's input with its schema; the first problem becomes a sentence for the model. */
function parseWith<T>(schema: z.ZodType<T>, v: unknown, tool: string): T {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ToolInputError(`${tool} needs an object as input.`);
  const r = schema.safeParse(v);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.length ? String(issue.path[0]) : '';
  const msg = issue?.message ?? 'invalid input';
  // our own messages start with "needs" or a quoted field; zod's generic ones get the field named
  throw new ToolInputError(/^needs /.test(msg) ? `${tool} ${msg}.` : /^"/.test(msg) ? `${msg}.` : `"${field}": ${msg}.`);
}

/** Empty optional strings (and null) mean "not given". */
function dropEmpty(v: unknown, names: string[]): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const o = { ...(v as Record<string, unknown>) };
  for (const n of names) if (o[n] === null || o[n] === '') delete o[n];
  return o;
}

const nonBlank = (s: string, name: string, tool: string) => {
  if (!s.trim()) throw new ToolInputError(`${tool} needs "${name}" (a non-empty string).`);
  return s;
};

export function parseCheckInput(v: unknown): CheckInput {
  const i = parseWith(CheckInputSchema, dropEmpty(v, ['cwd']), ToolNames.check);
  return { command: nonBlank(i.command, 'command', ToolNames.check), cwd: i.cwd };
}

/** Output beyond this is cut to its tail before it is handed to the store (which bounds it again). */
const MAX_OUTPUT_CHARS = 1024 * 1024;

export function parseRecordInput(v: unknown): RecordInput {
  let input = dropEmpty(v, ['cwd', 'output']);
  // models send exit codes as text too: "1", "unknown"
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const o = { ...(input as Record<string, unknown>) };
    if (o.exitCode === 'unknown') o.exitCode = null;
    else if (typeof o.exitCode === 'string' && /^-?\d+$/.test(o.exitCode.trim())) o.exitCode = Number(o.exitCode);
    input = o;
  }
  const i = parseWith(RecordInputSchema, input, ToolNames.record);
  const out = i.output ?? '';
  return { command: nonBlank(i.command, 'command', ToolNames.record), exitCode: i.exitCode, output: out.length > MAX_OUTPUT_CHARS ? out.slice(-MAX_OUTPUT_CHARS) : out, cwd: i.cwd };
}

export function parseRecallInput(v: unknown): RecallInput {
  const i = parseWith(RecallInputSchema, dropEmpty(v, ['k']), ToolNames.recall);
  return { query: nonBlank(i.query, 'query', ToolNames.recall), k: i.k ?? 5 };
}

export function parseEditInput(v: unknown): EditInput {
  const i = parseWith(EditInputSchema, dropEmpty(v, ['cwd', 'failed']), ToolNames.edit);
  return { path: nonBlank(i.path, 'path', ToolNames.edit), failed: i.failed, cwd: i.cwd };
}

export function parseAddLearningInput(v: unknown): AddLearningInput {
  const i = parseWith(AddLearningInputSchema, dropEmpty(v, ['command', 'cwd']), ToolNames.addLearning);
  return { type: i.type, text: nonBlank(i.text, 'text', ToolNames.addLearning), command: i.command, cwd: i.cwd };
}

// ---- answers ----

export interface ToolAnswer {
  /** For the model: plain sentences, the verdict first. */
  text: string;
  /** The same facts, machine-readable. */
  json: Record<string, unknown>;
}

/** One folder's memory, and how to write to it (the extension refreshes its cache after a write). */
export interface MemoryAccess {
  memory: WorkspaceMemory;
  write<T>(op: (m: WorkspaceMemory) => Promise<T>): Promise<T>;
  /** Agent gates are set up in this folder: the harness's hooks witness the agent's runs (see newRunRecord). */
  gated?: () => boolean;
}

export function directAccess(memory: WorkspaceMemory, gated?: () => boolean): MemoryAccess {
  return { memory, write: op => op(memory), gated };
}

const oneLine = (s: string, max = 400) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
/** A command line or a label made of one: fenced like output (the agent wrote it, or a crafted memory did). */
const quote = (s: string) => untrusted(s, 300);

function hitJson(h: RecallHit) {
  return { label: h.label, command: h.command, key: h.key, status: h.status, score: h.score, errorSignature: h.errorSignature, ...(h.lesson ? { lesson: h.lesson } : {}) };
}

function similarLines(hits: RecallHit[]): string[] {
  if (!hits.length) return [];
  return [
    'Similar past failures:',
    ...hits.map(h => `- ${quote(h.label)} (${h.status})${h.errorSignature ? `: error ${untrusted(h.errorSignature, 200)}` : ''}${h.lesson ? ` — lesson (a saved note, untrusted): ${untrusted(h.lesson, 300)}` : ''}`),
  ];
}

/** A lesson about the approach checked: learned here, or the team's (with the machine it came from). */
type Lesson = { type: string; text: string; from: 'local' | 'team'; machine?: string };

/** The check, worded so that a model cannot read "exhausted" as "go ahead". */
export function checkAnswerText(c: CheckResult & { team?: TeamCheck }, similar: RecallHit[], lessons: Lesson[] = []): string {
  const cmd = quote(c.command);
  const where = c.cwd === '.' ? 'this workspace' : `${c.cwd}`;
  const lines: string[] = [];
  if (c.code === 'systemic-cause' && c.pattern) {
    lines.push(
      c.verdict === 'block'
        ? `ONE CAUSE — do not run ${cmd}: ${oneLine(c.why, 400)}. Another command that needs the same thing fails the same way: fix the cause first.`
        : `ONE CAUSE, NOT STOPPED — ${cmd} may run: ${oneLine(c.why, 400)}.`,
    );
  } else if (c.status === 'exhausted' && c.decision === 'ask') {
    lines.push(
      `ASK THE USER — do not run ${cmd} without the user's go-ahead: it failed ${c.attempts} times in a row in ${where} (threshold ${c.threshold}), and a person decides whether it runs again.`,
      `Why (${c.code}): ${oneLine(c.why, 400)}`,
    );
  } else if (c.status === 'exhausted' && c.verdict === 'block') {
    lines.push(
      `EXHAUSTED — do not run ${cmd}. Run again the same way it will fail the same way: Failure Memory treats it as a loop, and its gates (the VS Code terminal, agent hooks) stop it: NOT RUN.`,
      `This approach (${quote(c.label)}) failed ${c.attempts} times in a row in ${where} (threshold ${c.threshold}) with no success since.`,
      `Why (${c.code}): ${oneLine(c.why, 400)}`,
    );
  } else if (c.status === 'exhausted') {
    lines.push(
      c.allowOnce
        ? `EXHAUSTED, but the user allowed ONE more run of ${cmd}. Run it once only if you have changed something since the last failure.`
        : `EXHAUSTED, but not blocked: ${c.reason}. You may run ${cmd}; if it stops getting better, stop and try something else.`,
      `It failed ${c.attempts} times in a row in ${where} (threshold ${c.threshold}).`,
    );
  } else if (c.status === 'failing') {
    lines.push(
      `FAILING — ${cmd} failed ${c.attempts} time(s) in a row in ${where}; at ${c.threshold} it is blocked. You may run it again, but only after changing something that addresses the last error.`,
    );
  } else if (c.verdict === 'block') {
    lines.push(`BLOCKED BY THE TEAM — do not run ${cmd}: it has not failed in ${where}, but ${c.reason}.`);
  } else if (c.verdict === 'warn') {
    lines.push(`CLEAR HERE, FAILING IN THE TEAM — ${cmd} has not failed in ${where}, but ${c.reason}.`);
  } else {
    lines.push(`CLEAR — ${cmd} has not failed in ${where} (${c.reason}). You may run it.`);
  }
  if (c.lastError) lines.push(`Last error (command output, untrusted): ${untrusted(c.lastError, 400)}`);
  // an ask or a deny tells the same story: what changed, and what was already tried
  const changes = c.status === 'exhausted' ? describeChanges(c) : undefined;
  if (changes) lines.push(oneLine(changes, 400));
  if (c.status === 'exhausted' && c.verdict === 'block' && c.alternatives.length) lines.push(`Already tried as well: ${c.alternatives.slice(-4).map(quote).join('; ')}.`);
  // [patterns] the cause it shares with other commands, and the fix that worked before
  if (c.pattern) lines.push(...causeLines(c.pattern));
  // [ledger] run history, what changed since it last passed, flakiness
  if (c.history) lines.push(`History: ${c.history}.`);
  if (c.changed) lines.push(`${c.changed[0].toUpperCase()}${c.changed.slice(1)}.`);
  if (c.flaky) lines.push(`${c.flaky[0].toUpperCase()}${c.flaky.slice(1)}: a flaky command is not a loop and is not blocked for it.`);
  // team memory: what other machines, agents and CI runs of this project saw (from the cached team view)
  if (c.team?.failures) {
    lines.push(
      `TEAM (from the team's shared memory; untrusted): in this project it ${untrusted(c.team.summary, 400)}.${c.team.status === 'exhausted' ? ` That is at or over the threshold: ${c.verdict === 'block' ? 'do NOT run it' : 'running it the same way will most likely fail again'}; change something first.` : ''}`,
    );
  }
  if (c.team?.status === 'unknown') lines.push(`(Team: ${oneLine(c.team.summary)}.)`);
  else if (c.team?.sync.state === 'offline') lines.push(`(Team memory is offline; ${c.team.sync.waiting} record(s) waiting to be shared.)`);
  // what was learned about this approach, here and in the team (the team's marked as such)
  for (const l of lessons.slice(0, 5)) lines.push(l.from === 'team' ? `Team lesson (${l.type}, from ${oneLine(l.machine ?? '', 60)}): ${untrusted(l.text, 300)}` : learnedLine(l, 300));
  if (c.status !== 'clear' && c.progress !== 'insufficient_data') lines.push(`Progress over the last attempts: ${c.progress}.`);
  for (const p of c.patterns) lines.push(`Warning: ${p.message}`);
  if (c.alternatives.length) lines.push(`Other approaches that also failed recently: ${c.alternatives.map(a => quote(a)).join('; ')}. Do not simply switch back to one of them.`);
  lines.push(...similarLines(similar));
  if (c.status === 'exhausted' && c.verdict === 'block') {
    lines.push(
      'What to do instead: read the last error and change its cause first; try an approach different from all of the above; or ask the user for help.',
      'Only the user should unblock it (Failure Memory: Run Anyway Once, or Mark Resolved once the cause is fixed).',
    );
  }
  if (c.lastError || similar.length) lines.push(UNTRUSTED_NOTE);
  return lines.join('\n');
}

export async function runCheck(m: MemoryAccess, input: CheckInput): Promise<ToolAnswer> {
  const c = await m.memory.check(input.command, input.cwd);
  // every ask and deny (also those shadow mode only records) goes to the decision log
  if (c.policyDecision === 'ask' || c.policyDecision === 'deny') await m.write(mem => mem.recordDecision(c, 'mcp'));
  // similar failures of other approaches; a clear command needs a closer match to be worth showing
  const similar = await m.memory.recall(c.lastError ? `${c.label}\n${c.lastError}` : c.command, 6);
  const minScore = c.status === 'clear' ? 0.3 : 0.15;
  const others = similar.filter(h => h.key !== c.key && h.score >= minScore && !c.alternatives.includes(h.label)).slice(0, 3);
  const lessons = await m.memory.lessonsFor(c.key);
  return {
    text: checkAnswerText(c, others, lessons),
    json: {
      status: c.status,
      verdict: c.verdict,
      decision: c.decision,
      policyDecision: c.policyDecision,
      code: c.code,
      mustNotRun: c.verdict === 'block',
      command: c.command,
      cwd: c.cwd,
      key: c.key,
      label: c.label,
      attempts: c.attempts,
      threshold: c.threshold,
      lastError: c.lastError,
      alternatives: c.alternatives,
      progress: c.progress,
      patterns: c.patterns.map(p => p.kind),
      allowOnce: c.allowOnce,
      reason: c.reason,
      ...(c.pattern ? { pattern: patternJson(c.pattern) } : {}),
      ...(c.team ? { team: { status: c.team.status, failures: c.team.failures, machines: c.team.machines, ci: c.team.ci, lastError: c.team.lastError, summary: c.team.summary, sync: c.team.sync } } : {}),
      similar: others.map(hitJson),
      learnings: lessons,
    },
  };
}

export function recordAnswerText(r: RunReport, threshold: number): string {
  const t = r.attempt;
  const name = quote(describeApproach(r.approach));
  const lines = [`Recorded ${quote(t.command)} → ${t.outcome}${t.exitCode !== null ? ` (exit ${t.exitCode})` : ''}.`];
  if (r.becameExhausted || (t.outcome === 'failure' && r.approach.status === 'exhausted')) {
    lines.push(
      `${name} is now EXHAUSTED: it failed ${r.approach.failures} times in a row (threshold ${threshold}). Do not run it again the same way: change the cause first, try a different approach, or ask the user.`,
    );
  } else if (r.resolved) {
    lines.push(`${name} succeeded: its failure history is cleared (resolved).`);
  } else if (t.source === 'reported' && t.exitCode === 0 && t.outcome === 'unknown') {
    lines.push(
      `NOT COUNTED: a success you report yourself does not clear ${name} here (${r.approach.status === 'exhausted' ? 'it stays EXHAUSTED' : `${r.approach.failures} failure(s) stay`}). Agent gates are set up: only a run your harness's hook or the terminal saw pass clears it.`,
    );
  } else if (t.outcome === 'failure') {
    lines.push(`${name}: failure ${r.approach.failures} of ${threshold}. Change something before running it again.`);
  } else if (!r.stored) {
    lines.push('Nothing to remember: it never failed here.');
  } else {
    lines.push(r.reason);
  }
  if (t.errorSignature) lines.push(`Error (command output, untrusted): ${untrusted(t.errorSignature, 400)}`);
  if (t.testResults) lines.push(`Tests: ${t.testResults.passed}/${t.testResults.total} passed (${t.testResults.framework}).`);
  if (r.progress !== 'insufficient_data' && t.outcome === 'failure') lines.push(`Progress: ${r.progress}.`);
  for (const p of r.patterns) lines.push(`Warning: ${p.message}`);
  // [patterns] the cause this failure shares with other commands; the fix that worked before comes with it
  lines.push(...recordCauseLines(r));
  for (const l of r.learnings) lines.push(learnedLine(l, 400));
  if (t.errorSignature || r.learnings.length) lines.push(UNTRUSTED_NOTE);
  return lines.join('\n');
}

export async function newRunRecord(m: MemoryAccess, input: RecordInput): Promise<ToolAnswer> {
  // a result the agent reports itself; where its harness's hooks see its runs, a reported success clears nothing
  const witnessRequired = m.gated?.() ?? false;
  const r = await m.write(mem => mem.record({ command: input.command, cwd: input.cwd, exitCode: input.exitCode, output: input.output, source: 'reported', witnessRequired }));
  const threshold = m.memory.settings.threshold;
  const t = r.attempt;
  return {
    text: recordAnswerText(r, threshold),
    json: {
      command: t.command,
      key: t.key,
      cwd: t.cwd,
      exitCode: t.exitCode,
      outcome: t.outcome,
      errorSignature: t.errorSignature,
      tests: t.testResults ? { passed: t.testResults.passed, failed: t.testResults.failed, total: t.testResults.total } : null,
      status: r.approach.status,
      attempts: r.approach.failures,
      threshold,
      becameExhausted: r.becameExhausted,
      resolved: r.resolved,
      stored: r.stored,
      patterns: r.patterns.map(p => p.kind),
      progress: r.progress,
      reason: r.reason,
      ...recordPatternJson(r),
    },
  };
}

export async function runRecall(m: MemoryAccess, input: RecallInput): Promise<ToolAnswer> {
  const hits = await m.memory.recall(input.query, input.k);
  const text = hits.length
    ? [
        `${hits.length} similar past failure(s), most similar first:`,
        ...hits.map((h, i) => `${i + 1}. ${quote(h.label)} — ${h.status}, ${h.attempts} attempt(s), similarity ${h.score.toFixed(2)}${h.errorSignature ? `\n   error (command output, untrusted): ${untrusted(h.errorSignature, 300)}` : ''}${h.lesson ? `\n   lesson (a saved note, untrusted): ${untrusted(h.lesson, 400)}` : ''}`),
        UNTRUSTED_NOTE,
      ].join('\n')
    : 'No similar failure in this workspace\'s memory.';
  return { text, json: { hits: hits.map(hitJson) } };
}

export async function runAddLearning(m: MemoryAccess, input: AddLearningInput): Promise<ToolAnswer> {
  // the approach it is about, also when it failed only elsewhere in the team
  const key = input.command ? await m.memory.keyOf(input.command, input.cwd) : undefined;
  const l = await m.write(mem => mem.addLearning(input.type, input.text, { key, source: 'agent' }));
  return {
    text: `${learnedLine(l, 400)}${key ? ` — linked to ${quote(key.replace(/^.*?::/, ''))}` : ''}`,
    json: { id: l.id, type: l.type, text: l.text, ...(l.key ? { key: l.key } : {}), createdAt: l.createdAt },
  };
}

export async function runEdit(m: MemoryAccess, input: EditInput): Promise<ToolAnswer> {
  const root = trimTrailing(m.memory.workspaceFolder.replace(/\\/g, '/'));
  const isAbs = (p: string) => /^(?:\/|[A-Za-z]:[\\/])/.test(p);
  const base = input.cwd && input.cwd !== '.' ? (isAbs(input.cwd) ? input.cwd : `${root}/${input.cwd}`) : root;
  const path = isAbs(input.path) ? input.path : `${base}/${input.path.replace(/^\.\//, '')}`;
  const [event] = await m.write(mem => mem.recordEdits([{ path, ok: !input.failed, source: 'agent', tool: 'mcp' }]));
  if (!event) return { text: `Not recorded: ${quote(input.path)} is one of Failure Memory's own files.`, json: { recorded: false } };
  return {
    text: `Recorded: ${quote(event.path)} ${event.ok ? 'changed' : 'edit failed (nothing changed)'}. A failing command run after it counts as trying a fix, not as a loop.`,
    json: { recorded: true, ...event },
  };
}

/** What the user is asked before a writing tool runs (VS Code shows it; MCP clients have their own). */
export function confirmationFor(name: ToolName, input: unknown): { title: string; message: string } | undefined {
  try {
    if (name === ToolNames.record) {
      const i = parseRecordInput(input);
      return {
        title: 'Record a command result in Failure Memory?',
        message: `${quote(i.command)} exited ${i.exitCode ?? 'with an unknown code'}${i.output ? `, with ${i.output.length} characters of output` : ''}. It is stored (secrets redacted) in this workspace's failure memory and counts toward blocking repeated failures.`,
      };
    }
    if (name === ToolNames.addLearning) {
      const i = parseAddLearningInput(input);
      return { title: 'Save a learning in Failure Memory?', message: `${i.type}: ${oneLine(i.text, 600)}` };
    }
  } catch {
    // invalid input: the invocation itself reports it
  }
  return undefined;
}

/** Runs a tool by name on an already located folder (input.cwd, if any, relative to it). */
export async function runTool(name: string, m: MemoryAccess, input: unknown): Promise<ToolAnswer> {
  const a = await runToolRaw(name, m, input);
  return { text: harnessText(a.text), json: removeHiddenDeep(a.json) };
}

async function runToolRaw(name: string, m: MemoryAccess, input: unknown): Promise<ToolAnswer> {
  switch (name) {
    case ToolNames.check:
      return runCheck(m, parseCheckInput(input));
    case ToolNames.record:
      return newRunRecord(m, parseRecordInput(input));
    case ToolNames.recall:
      return runRecall(m, parseRecallInput(input));
    case ToolNames.addLearning:
      return runAddLearning(m, parseAddLearningInput(input));
    case ToolNames.edit:
      return runEdit(m, parseEditInput(input));
    default:
      throw new ToolInputError(`Unknown tool: ${name}`);
  }
}

/**
 * The cwd a tool input names, relative to `root` ('.' for the root itself). undefined when a cwd
 * (absolute, or relative with `..`) lies outside `root`. Plain string work (POSIX and Windows separators).
 */
export function relativeCwd(root: string, cwd: string | undefined): string | undefined {
  if (!cwd || !cwd.trim()) return '.';
  const norm = (p: string) => trimTrailing(p.trim().replace(/\\/g, '/'));
  const c = norm(cwd);
  const absolute = c.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(c);
  if (!absolute) {
    // a relative cwd may not climb out of the folder (`../..`) any more than an absolute one
    const parts: string[] = [];
    for (const seg of c.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (!parts.length) return undefined;
        parts.pop();
      } else parts.push(seg);
    }
    return parts.length ? parts.join('/') : '.';
  }
  const r = norm(root);
  const caseless = /^[A-Za-z]:/.test(r);
  const eq = (a: string, b: string) => (caseless ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (eq(c, r)) return '.';
  if (c.length > r.length && eq(c.slice(0, r.length + 1), `${r}/`)) return c.slice(r.length + 1);
  return undefined;
}
