// The failure summary as a rules file, for a harness whose hooks cannot add context before its first
// model request (Cline CLI reads .clinerules/*.md into its system prompt; it ignores a TaskStart
// hook's context, and reads the file before that hook could rewrite it). setup-agents writes it;
// every writer of memory keeps it current (the hooks of any harness, the CLI, the extension's
// terminal, MCP): after a write that changes what the summary says, when the file is there (one stat
// otherwise); `setup-agents --remove` deletes it.

import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentSummary } from '../core/prompts/agentContext';
import type { MemoryData } from '../core/types';
import { readRegularSync } from '../store/regularFile';

/** Marks the file as Failure Memory's own (rewritten and removed by us, never a user's file). */
export const RULES_MARKER = '<!-- failure-memory: written by `failure-memory setup-agents`; kept current by every write to the memory; `setup-agents --remove` deletes it -->';
/** What every version of the marker starts with: the file is ours. */
const MARKER_START = '<!-- failure-memory: written by `failure-memory setup-agents`;';
export const isOurRules = (text: string): boolean => text.startsWith(MARKER_START);

/** The rules files a harness reads its context from, relative to the workspace (Cline's). */
export const AGENT_RULES_FILES = ['.clinerules/failure-memory.md'] as const;

export function rulesText(summary: string): string {
  return [
    RULES_MARKER,
    '# Failure Memory',
    '',
    summary.trim() || 'No command has failed in this workspace yet (Failure Memory records each shell command you run and refuses ones that failed too often in a row).',
    '',
  ].join('\n');
}

/** Rewrites the rules file when it is ours and its text changed; a missing or foreign file is left alone. */
export function refreshRules(workspace: string, file: string, summary: string): void {
  const abs = join(workspace, file);
  let before: string;
  try {
    before = readRegularSync(abs, 'utf8', { noFollow: true });
  } catch {
    return;
  }
  if (!isOurRules(before)) return;
  const next = rulesText(summary);
  if (next === before) return;
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, next);
  renameSync(tmp, abs);
}

/** The rules files present in a workspace (a stat each: what every write pays when there are none). */
export function agentRulesPresent(workspace: string): string[] {
  return AGENT_RULES_FILES.filter(f => existsSync(join(workspace, f)));
}

/**
 * After a write: the rules files, when there are any, say what memory says now. `read`: memory as it
 * stands (asked only when a file is there). Never throws: a rules file is context, never a reason to
 * lose or fail a write.
 */
export async function keepAgentRulesCurrent(workspace: string, threshold: number, read: () => Promise<MemoryData | undefined>): Promise<void> {
  try {
    const files = agentRulesPresent(workspace);
    if (!files.length) return;
    const data = await read();
    if (!data) return;
    const summary = agentSummary(data, threshold);
    for (const f of files) refreshRules(workspace, f, summary);
  } catch {
    // read-only folder, a file being replaced: the next write tries again
  }
}
