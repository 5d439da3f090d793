// The failure summary as a rules file, for a harness whose hooks cannot add context before its
// first model request (Cline CLI reads .clinerules/*.md into its system prompt; it ignores a
// TaskStart hook's contextModification). setup-agents writes it, the harness's hooks rewrite it
// after each recorded result and at each session start, `setup-agents --remove` deletes it.

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularSync } from '../../store/regularFile';

/** Marks the file as Failure Memory's own (rewritten and removed by us, never a user's file). */
export const RULES_MARKER = '<!-- failure-memory: written by `failure-memory setup-agents`; kept current by its hooks; `setup-agents --remove` deletes it -->';

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
  if (!before.startsWith(RULES_MARKER)) return;
  const next = rulesText(summary);
  if (next === before) return;
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, next);
  renameSync(tmp, abs);
}
