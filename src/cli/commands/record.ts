import { describeApproach } from '../../core/memory';
import type { RunReport } from '../../app/workspaceMemory';
import { errorTextOf } from '../../core/text/shownText';
import type { AttemptSource } from '../../core/types';
import { readStdinHeadTail } from '../stdin';
import { UsageError, type Command } from '../types';
import { recordCauseLines, recordPatternJson } from '../../agents/toolPatterns';

const SOURCES: readonly AttemptSource[] = ['terminal', 'task', 'cli', 'agent'];

/**
 * Exit codes a shell or a runner can report: 0–255 on POSIX, 32-bit values on Windows
 * (NTSTATUS such as 0xC000013A, also written as a negative number). Small negative numbers are
 * what some runners report for "killed by signal N" and are refused with a hint.
 */
export function parseExitCode(raw: string): number | null {
  if (raw.trim() === 'unknown') return null;
  if (!/^\s*-?\d+\s*$/.test(raw)) throw new UsageError(`--exit-code must be a whole number or "unknown", got "${raw}"`);
  const n = Number(raw);
  if (n < -2147483648 || n > 4294967295) throw new UsageError(`--exit-code ${raw} is not an exit code (out of the 32-bit range)`);
  if (n < 0 && n > -256) {
    throw new UsageError(`--exit-code ${n} looks like "killed by signal ${-n}": pass ${128 - n} (128 + the signal number) or "unknown"`);
  }
  return n;
}

export const record: Command = {
  name: 'record',
  usage: 'record --command CMD --exit-code N [--cwd DIR] [--source S]',
  summary: 'record a finished command; its output on stdin (head and tail kept)',
  journal: true,
  options: {
    command: { type: 'string', help: 'the command line as it was run' },
    'exit-code': { type: 'string', help: 'its exit code, or "unknown"' },
    cwd: { type: 'string', help: 'folder it ran in (relative to the workspace, or absolute inside it)' },
    source: { type: 'string', help: `who ran it: ${SOURCES.join(', ')} (default cli)` },
    'no-stdin': { type: 'boolean', help: 'do not read output from stdin' },
  },
  async run(ctx) {
    const command = ctx.required('command');
    const exitCode = parseExitCode(ctx.required('exit-code'));
    const source = (ctx.str('source') ?? 'cli') as AttemptSource;
    if (!SOURCES.includes(source)) throw new UsageError(`--source must be ${SOURCES.join(', ')}`);
    const input = ctx.flag('no-stdin') ? undefined : await readStdinHeadTail(ctx.io.stdin ?? process.stdin);
    const r = await ctx.memory().record({
      command,
      cwd: ctx.cwd,
      exitCode,
      source,
      output: input?.text ?? '',
      outputTruncated: input?.truncated,
      outputBytes: input?.bytes,
    });
    ctx.print(describeRecord(r), recordJson(r, ctx.memory().settings.threshold));
    return 0;
  },
};

function recordJson(r: RunReport, threshold: number) {
  const t = r.attempt;
  return {
    id: t.id,
    command: t.command,
    key: t.key,
    cwd: t.cwd,
    exitCode: t.exitCode,
    outcome: t.outcome,
    source: t.source,
    errorSignature: t.errorSignature,
    testResults: t.testResults,
    output: t.output,
    outputTruncated: t.outputTruncated,
    status: r.approach.status,
    attempts: r.approach.failures,
    threshold,
    patterns: r.patterns.map(p => p.kind),
    progress: r.progress,
    becameExhausted: r.becameExhausted,
    resolved: r.resolved,
    stored: r.stored,
    reason: r.reason,
    ...recordPatternJson(r),
  };
}

function describeRecord(r: RunReport): string {
  const t = r.attempt;
  const lines = [`recorded: ${t.command} → ${t.outcome}${t.exitCode !== null ? ` (exit ${t.exitCode})` : ''}`, `approach: ${describeApproach(r.approach)} — ${r.approach.status}, ${r.reason}`];
  if (t.errorSignature) lines.push(`error: ${errorTextOf(t)}`);
  if (t.testResults) lines.push(`tests: ${t.testResults.passed}/${t.testResults.total} passed (${t.testResults.framework})`);
  for (const p of r.patterns) lines.push(`warning: ${p.message}`);
  // [patterns] the cause it shares with other commands, and the fix that worked before
  lines.push(...recordCauseLines(r).map(l => l.replace(/^One cause/, 'one cause').replace(/^Resolved/, 'resolved')));
  return lines.join('\n');
}
