// The post hook's usual write, done by the hooks' own bundle: the run prepared (redacted, judged,
// bounded) and appended to the journal beside memory.json (./journalRun.ts, the path
// WorkspaceMemory.record takes for a hook), reading memory for that one approach only. The record
// bundle (agents/hooks/record.ts) is loaded only to fold a long journal, for team memory (its
// outbox), or for a memory.json the store must migrate or repair.

import { extractLearnings } from '../core/learnings';
import { prepareAttempt, preparedCommand } from '../core/memory';
import { createRedactor } from '../core/text/redact';
import { FOLD_BYTES, FOLD_RECORDS, readJournalSync } from '../store/journal';
import { memoryDirFor } from '../store/paths';
import { readView } from '../store/quickView';
import { scriptReader } from '../store/scriptTables';
import { keepAgentRulesCurrent } from './agentRules';
import { openJournalStore } from './stores';
import { journalRun } from './journalRun';
import { scriptTablesFor } from './scripts';
import { loadWorkspaceSettings } from './settings';

/** A command run an agent's post hook saw. */
export interface HookRecord {
  workspace: string;
  command: string;
  cwd: string;
  exitCode: number | null;
  output: string;
  /** The hook that saw it (hook:claude post): named in what the gate's copy says. */
  via?: string;
}

export interface HookRunFallback {
  /** The record bundle's full write (team memory on, or memory.json needing the store). */
  full: (r: HookRecord) => Promise<void>;
  /** The record bundle's fold of the journal into memory.json. */
  fold: (workspace: string, via?: string) => Promise<void>;
}

/** The journal still holds a fold's worth (another hook's fold since this run's append leaves it short or gone). */
function journalStillLong(dir: string): boolean {
  const j = readJournalSync(dir);
  return j.kind === 'ok' && (j.contents.entries.length >= FOLD_RECORDS || j.contents.bytes >= FOLD_BYTES);
}

export async function journalHookRun(r: HookRecord, fallback: HookRunFallback): Promise<void> {
  const settings = loadWorkspaceSettings(r.workspace);
  // team memory hears every write through its outbox: the store's own path does that
  if (settings.team.enabled) return fallback.full(r);
  // a redaction pattern over its time budget: said on stderr, where the harness logs it
  const redactor = createRedactor(settings.engine['redaction.extraPatterns'], { onOverBudget: m => void process.stderr.write(`Failure Memory hook: redaction: ${m}\n`) });
  const redact = (t: string) => redactor.redact(t).text;
  // the same script tables the gate read: `npm test` is recorded as the approach its script runs
  const tables = scriptTablesFor(preparedCommand(r.command, redactor), r.cwd, scriptReader(r.workspace), redact);
  const attempt = prepareAttempt({ command: r.command, cwd: r.cwd, exitCode: r.exitCode, output: r.output, source: 'agent' }, settings.engine, redactor, new Date(), tables);
  const dir = memoryDirFor(r.workspace);
  // the gate's copy follows what this run does to its approach (exhausted, resolved)
  const store = openJournalStore(r.workspace, redact, { via: r.via ?? 'hook', by: r.command });
  const run = await journalRun(attempt, extractLearnings(attempt.output), { workspace: r.workspace, store, settings: settings.engine, redact, git: { sync: true }, tell: 'nothing' });
  if (!run) return fallback.full(r);
  // the journal is long enough: fold it into memory.json now (the run is safe in the journal either way),
  // unless another hook already did: the store's bundle is loaded only to fold a journal still long
  if (run.fold && journalStillLong(dir)) await fallback.fold(r.workspace, r.via).catch(() => undefined);
  // a harness that reads the summary from a rules file (Cline) has it current at its next request
  if (run.journaled) await keepAgentRulesCurrent(r.workspace, settings.engine.threshold, async () => readView(dir, 'all', { redact })?.data);
}
