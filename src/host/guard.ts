// The guard: when an exhausted approach starts again it is stopped at once (blockMode interrupt)
// and the help dialog says what failed, how often, and what to do instead (seed 001).
// It also reacts to what recording decided: "same error twice", "now exhausted".

import * as vscode from 'vscode';
import { matchesGlob } from '../core/approach';
import { checkCommand, describeApproach, type CheckResult } from '../core/memory';
import type { TeamCheck } from '../core/team';
import type { AttemptInput } from '../core/types';
import type { RecordOutcome } from '../store/workspaceMemory';
import type { ExtensionConfig } from './config';
import type { Logger } from './logger';
import type { Located, MemoryRegistry } from './registry';

export const enum Commands {
  Reflect = 'failureMemory.reflect',
  ShowMemory = 'failureMemory.showMemory',
  MarkResolved = 'failureMemory.markResolved',
  RunAnywayOnce = 'failureMemory.runAnywayOnce',
  ClearMemory = 'failureMemory.clearMemory',
  ExportMemory = 'failureMemory.exportMemory',
  OpenLog = 'failureMemory.openLog',
  CopyBrief = 'failureMemory.copyBrief',
  PauseCapture = 'failureMemory.pauseCapture',
  ResumeCapture = 'failureMemory.resumeCapture',
}

/** Reference to one approach in one folder, as commands receive it. */
export interface ApproachRef {
  folder: string;
  key: string;
}

/** Least recall score for a past failure to be offered as "seen before" (blended TF-IDF + embeddings). */
const SIMILAR_MIN_SCORE = 0.3;

export interface StartDecision {
  check: CheckResult & { team?: TeamCheck };
  blocked: boolean;
}

export class Guard {
  /** Exhausted-but-progressing streaks already told about (one notice each, not one per run). */
  private readonly noticed = new Set<string>();

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
    private config: () => ExtensionConfig,
  ) {}

  isIgnored(command: string): boolean {
    const globs = this.config().ignoreCommands;
    return globs.length > 0 && matchesGlob(command, globs);
  }

  /**
   * Decides on a starting command from the cached memory (no disk access: the interrupt must be
   * immediate). `interrupt` stops it; `rerun` starts it again after "Run Anyway Once".
   */
  onStart(
    source: 'terminal' | 'task',
    command: string,
    where: Located,
    interrupt: () => void,
    rerun: (() => void) | undefined,
  ): StartDecision | undefined {
    const cfg = this.config();
    const local = checkCommand(where.data, where.memory.redact(command), where.relCwd, where.memory.settings);
    // team memory: the cached team view only (no disk, no network)
    const check: CheckResult & { team?: TeamCheck } = where.memory.team?.mergeCheckCached(local, where.data.approaches[local.key]) ?? local;
    if (check.status === 'clear' && check.verdict === 'allow') return { check, blocked: false };
    const ref: ApproachRef = { folder: where.folder.uri.toString(), key: check.key };
    if (check.verdict === 'allow' && check.allowOnce) {
      this.log.info('guard', `let through once: ${check.label} (${source}) — ${check.reason}`);
      this.log.event('allowedOnce', { key: check.key, command });
      return { check, blocked: false };
    }
    if (check.verdict !== 'block') {
      this.log.debug('guard', `${check.status}: ${check.label} — ${check.reason}`);
      // exhausted but not a loop (tests improving, a status probe being polled): say so once per streak
      const notice = `${ref.folder}\u0000${check.key}\u0000${where.data.approaches[check.key]?.firstFailure ?? ''}`;
      if (check.status === 'exhausted' && !this.noticed.has(notice)) {
        this.noticed.add(notice);
        void vscode.window.showWarningMessage(`Failure Memory: "${check.label}" is ${check.reason}. Not stopped.`);
      }
      // failing in the team (other machines, agents, CI) though not exhausted here: say so once per team streak
      const teamNotice = `${ref.folder}\u0000${check.key}\u0000team\u0000${check.team?.lastFailure ?? ''}`;
      if (check.team?.status === 'exhausted' && check.status !== 'exhausted' && !this.noticed.has(teamNotice)) {
        this.noticed.add(teamNotice);
        this.log.event('teamWarned', { key: check.key, failures: check.team.failures, machines: check.team.machines });
        void this.offer(`Failure Memory: "${check.label}" ${check.team.summary}. Not stopped.`, ref, ['Show Memory']);
      }
      return { check, blocked: false };
    }
    if (cfg.blockMode === 'off') {
      this.log.info('guard', `exhausted approach started, blockMode off: ${check.label}`);
      this.log.event('notBlocked', { key: check.key, command, blockMode: 'off' });
      return { check, blocked: false };
    }
    const interrupted = cfg.blockMode === 'interrupt';
    if (interrupted) {
      try {
        interrupt();
      } catch (e) {
        this.log.error('guard', 'could not interrupt', e);
      }
    }
    this.log.warn('guard', `${interrupted ? 'BLOCKED (interrupted)' : 'WARNED'} ${source} \`${command}\`: ${check.reason}`);
    this.log.event('blocked', { key: check.key, command, source, interrupted, attempts: check.attempts, folder: where.folder.name });
    void this.showHelp(check, ref, interrupted ? rerun : undefined, interrupted, where);
    return { check, blocked: interrupted };
  }

  /** The help dialog (modal: it steps in only when an exhausted approach is run again). */
  async showHelp(check: CheckResult & { team?: TeamCheck }, ref: ApproachRef, rerun: (() => void) | undefined, interrupted: boolean, where?: Located): Promise<void> {
    const seen = where ? await this.similarLesson(check, where) : undefined;
    const teamOnly = !!check.team && check.status !== 'exhausted';
    const detail = [
      ...(check.team?.failures ? [`${teamOnly && interrupted ? 'It was stopped: ' : ''}In the team it ${check.team.summary}.`] : []),
      teamOnly ? `Here it failed ${check.attempts} times.` : `${interrupted ? 'It was stopped: ' : ''}it failed ${check.attempts} times${check.cwd !== '.' ? ` in ${check.cwd}` : ''} (threshold ${check.threshold}) with no success since.`,
      check.lastError ? `Last error: ${check.lastError}` : 'No error output was captured.',
      check.alternatives.length ? `Also tried: ${check.alternatives.join('; ')}` : 'No alternative has been tried yet.',
      ...(seen ? [`Similar failure seen before (${seen.label}): ${seen.lesson}`] : []),
      ...[check.history && `History: ${check.history}.`, check.changed, check.flaky].filter((l): l is string => !!l),
      '',
      'Running it again the same way will most likely fail the same way. Reflect on the failures, try something else, or run it anyway once.',
    ].join('\n');
    const items: Array<vscode.MessageItem & { id: string }> = [
      { title: 'Reflect on Failures', id: 'reflect' },
      { title: 'Show Memory', id: 'show' },
      { title: 'Run Anyway Once', id: 'once' },
      { title: 'Mark Resolved', id: 'resolve' },
      { title: 'Copy as Prompt', id: 'brief' },
      { title: 'Dismiss', id: 'dismiss', isCloseAffordance: true },
    ];
    this.log.event('helpDialog', { key: check.key });
    const pick = await vscode.window.showWarningMessage(
      `Failure Memory ${interrupted ? 'stopped' : 'warns about'} "${check.label}": an exhausted approach`,
      { modal: true, detail },
      ...items,
    );
    this.log.event('helpDialogChoice', { key: check.key, choice: pick?.id ?? 'dismiss' });
    switch (pick?.id) {
      case 'reflect':
        await vscode.commands.executeCommand(Commands.Reflect, ref);
        break;
      case 'show':
        await vscode.commands.executeCommand(Commands.ShowMemory, ref);
        break;
      case 'once':
        await vscode.commands.executeCommand(Commands.RunAnywayOnce, ref);
        rerun?.();
        break;
      case 'resolve':
        await vscode.commands.executeCommand(Commands.MarkResolved, ref);
        break;
      case 'brief':
        await vscode.commands.executeCommand(Commands.CopyBrief, ref);
        break;
    }
  }

  /**
   * "Similar failure seen before — this fixed it": the best other approach memory recalls for this
   * error that has a lesson. Bounded in time: the dialog never waits long for recall.
   */
  private async similarLesson(check: CheckResult, where: Located): Promise<{ label: string; lesson: string } | undefined> {
    try {
      const hits = await Promise.race([
        where.memory.recall(`${check.label}\n${check.lastError}`, 5),
        new Promise<[]>(r => setTimeout(() => r([]), 500)),
      ]);
      const hit = hits.find(h => h.key !== check.key && h.lesson && h.score >= SIMILAR_MIN_SCORE);
      if (hit?.lesson) this.log.event('similarShown', { key: check.key, similar: hit.key, score: hit.score });
      return hit?.lesson ? { label: hit.label, lesson: hit.lesson } : undefined;
    } catch (e) {
      this.log.debug('guard', `recall for the help dialog failed: ${String(e)}`);
      return undefined;
    }
  }

  /**
   * Records a finished command or task in its folder's memory, logs the decision with its reason,
   * and tells the user what it means (exhausted now, same error twice…). Never throws.
   */
  async record(where: Located, input: AttemptInput, details: Record<string, unknown> = {}): Promise<RecordOutcome | undefined> {
    try {
      const r = await this.registry.write(where, m => m.record({ ...input, cwd: where.relCwd }));
      const t = r.attempt;
      this.log[t.outcome === 'failure' ? 'info' : 'debug'](input.source, `\`${t.command}\` → ${t.outcome} (exit ${t.exitCode ?? 'unknown'}), ${r.reason}`);
      this.log.event('recorded', {
        source: input.source,
        command: t.command,
        key: r.approach.key,
        exitCode: t.exitCode,
        outcome: t.outcome,
        status: r.approach.status,
        attempts: r.approach.failures,
        stored: r.stored,
        outputChars: t.output.length,
        errorSignature: t.errorSignature,
        folder: where.folder.name,
        cwd: where.relCwd,
        ...(r.ledger.fix ? { fixedBy: r.ledger.fix.files } : {}),
        ...details,
      });
      if (r.stored) this.react(r, where);
      return r;
    } catch (err) {
      this.log.error(input.source, `could not record \`${input.command}\``, err);
      return undefined;
    }
  }

  /** Tells the user what recording found: exhausted now, or the same error/test twice. */
  react(r: RecordOutcome, where: Located): void {
    const cfg = this.config();
    const ref: ApproachRef = { folder: where.folder.uri.toString(), key: r.approach.key };
    const name = describeApproach(r.approach);
    if (r.becameExhausted) {
      void this.offer(
        `Failure Memory: "${name}" failed ${r.approach.failures} times — this approach is exhausted. ${cfg.blockMode === 'interrupt' ? 'Running it again will be stopped.' : ''}`,
        ref,
        ['Reflect on Failures', 'Show Memory', 'Mark Resolved'],
      );
      return;
    }
    if (r.resolved) {
      vscode.window.setStatusBarMessage(`$(check) Failure Memory: "${name}" succeeded — resolved`, 5000);
      return;
    }
    if (!cfg.notifySameError || r.approach.status === 'exhausted') return;
    const sameTest = r.patterns.find(p => p.kind === 'same_test_failure');
    const sameError = r.patterns.find(p => p.kind === 'same_error');
    if (sameError || sameTest) {
      const msg = sameError
        ? `Same error twice — try a different approach. "${name}": ${sameError.subject ?? ''}`
        : `Same test failing twice — focus on it. "${name}": ${sameTest?.subject ?? ''}`;
      this.log.event('warned', { key: r.approach.key, pattern: sameError ? 'same_error' : 'same_test_failure' });
      void this.offer(`Failure Memory: ${msg}`, ref, ['Reflect on Failures', 'Show Memory']);
    }
  }

  private async offer(message: string, ref: ApproachRef, actions: string[]): Promise<void> {
    const pick = await vscode.window.showWarningMessage(message.length > 400 ? `${message.slice(0, 400)}…` : message, ...actions);
    if (pick === 'Reflect on Failures') await vscode.commands.executeCommand(Commands.Reflect, ref);
    else if (pick === 'Show Memory') await vscode.commands.executeCommand(Commands.ShowMemory, ref);
    else if (pick === 'Mark Resolved') await vscode.commands.executeCommand(Commands.MarkResolved, ref);
  }
}
