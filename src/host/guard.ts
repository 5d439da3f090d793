// The guard's VS Code side: when an exhausted approach starts again it is stopped at once
// (blockMode interrupt) and the help dialog says what failed and what to do. The
// decisions themselves are pure and live in core/rules/guardVerdict.ts; here they are carried out.
// Quiet by design: the modal help dialog is the only thing that asks for a decision; everything
// else (exhausted now, same error twice, resolved, who stopped a run) goes to the status bar.

import * as vscode from 'vscode';
import { matchesGlob } from '../core/approach';
import type { ExtensionConfig } from '../core/config';
import { decideStart, helpFacts, noticeKey, reactionTo, stopResult, type HelpFacts, type StopResult } from '../core/rules/guardVerdict';
import type { CheckResult } from '../core/rules/check';
import { decideGate, decideGateNow, type GateAnswer, type GateView, type TeamMerge } from '../app/gate';
import { describeApproach } from '../core/memory';
import { plainText } from '../core/text/plainText';
import type { TeamCheck } from '../core/rules/team';
import { shellEffects } from '../core/rules/shellEffects';
import type { Approach, AttemptInput, Decision, MemoryData } from '../core/types';
import type { RecordOutcome } from '../app/workspaceMemory';
import { CommandId, type ApproachRef } from './commandIds';
import type { EditWatcher } from './editWatcher';
import type { Logger } from './logger';
import type { Located, MemoryRegistry } from './registry';

/** Least recall score for a past failure to be offered as "seen before" (blended TF-IDF + embeddings). */
const SIMILAR_MIN_SCORE = 0.3;
/** How long the status bar shows what the guard did. */
const STATUS_MS = 8000;
/** A denied run that ends within this long is left alone (no Ctrl+C that could reach the next prompt). */
const STOP_GRACE_MS = 200;

export interface StartDecision {
  check: CheckResult & { team?: TeamCheck };
  blocked: boolean;
}

/** Sends the interrupt and resolves with the run's end (exit code) once it ended, or undefined when it did not end in time. */
export type Interrupt = () => Promise<{ exitCode: number | undefined } | undefined>;

/** Where a terminal run was stopped by the guard: the terminal link on `^C` says so on hover. */
export interface StopNote {
  label: string;
  failures: number;
  at: number;
  ref: ApproachRef;
}

interface StopRequest {
  source: 'terminal' | 'task';
  command: string;
  where: Located;
  data: MemoryData;
  answer: GateAnswer;
  approach: Approach | undefined;
  ref: ApproachRef;
  interrupt: Interrupt;
  rerun: (() => void) | undefined;
  terminal?: vscode.Terminal;
}

export class Guard {
  /** Exhausted-but-progressing streaks already told about (one notice each, not one per run). */
  private readonly noticed = new Set<string>();
  /** The last status-bar message: a new one replaces it. */
  private status: vscode.Disposable | undefined;
  /** Terminals the guard stopped a run in, with what it stopped (for the `^C` link's hover). */
  readonly stops = new WeakMap<vscode.Terminal, StopNote>();

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
    private readonly config: () => ExtensionConfig,
    /** Saves not written yet (a command started right after Ctrl+S must see them). */
    private readonly edits?: EditWatcher,
  ) {}

  isIgnored(command: string): boolean {
    const globs = this.config().ignoreCommands;
    return globs.length > 0 && matchesGlob(command, globs);
  }

  /** Shows one status-bar message, replacing the previous one. */
  private say(text: string): void {
    this.status?.dispose();
    this.status = vscode.window.setStatusBarMessage(text, STATUS_MS);
  }

  /**
   * Decides on a starting command from the cached memory (no disk access: the decision is immediate) and
   * the saves not written yet. A deny is confirmed with git first (has anything changed that no save
   * showed?), then `interrupt` stops the run if it still runs; `rerun` starts it again after "Run Anyway Once".
   */
  onStart(
    source: 'terminal' | 'task',
    command: string,
    where: Located,
    interrupt: Interrupt,
    rerun: (() => void) | undefined,
    terminal?: vscode.Terminal,
  ): StartDecision | undefined {
    const cfg = this.config();
    const redacted = where.memory.redact(command);
    const data = this.withUnwritten(where);
    const answer = decideGateNow(command, where.relCwd, this.gateView(where, data), this.teamOf(where));
    const check = answer.check;
    const ref: ApproachRef = { folder: where.folder.uri.toString(), key: check.key };
    const approach = Object.prototype.hasOwnProperty.call(where.data.approaches, check.key) ? where.data.approaches[check.key] : undefined;
    // a service or a background job started here: a probe may wait for it
    if (shellEffects(redacted).starts) void this.registry.write(where, m => m.recordStart(redacted)).catch(() => undefined);
    const action = decideStart(check, cfg.blockMode);
    const label = plainText(check.label, 80);
    if (action !== 'stop') this.noteDecision(where, check, source, action === 'warn' ? 'ask' : action === 'remember' ? 'deny' : 'warn');
    switch (action) {
      case 'run': {
        if (check.status !== 'clear') this.log.debug('guard', `${check.status}: ${check.label} — ${check.reason}`);
        // failing in the team (other machines, agents, CI) though not exhausted here: say so once per team streak
        const teamNotice = `${ref.folder}\u0000${check.key}\u0000team\u0000${check.team?.lastFailure ?? ''}`;
        if (check.team?.status === 'exhausted' && check.status !== 'exhausted' && !this.noticed.has(teamNotice)) {
          this.noticed.add(teamNotice);
          this.log.event('teamWarned', { key: check.key, failures: check.team.failures, machines: check.team.machines });
          this.say(`$(organization) ${vscode.l10n.t('Failure Memory: “{0}” {1}. Not stopped.', label, plainText(check.team.summary, 200))}`);
        }
        return { check, blocked: false };
      }
      case 'runOnce':
        this.log.info('guard', `let through once: ${check.label} (${source}) — ${check.reason}`);
        this.log.event('allowedOnce', { key: check.key, command: check.command });
        return { check, blocked: false };
      case 'notice':
        this.notice(ref.folder, check, approach);
        return { check, blocked: false };
      case 'remember':
        this.log.info('guard', `denied, blockMode off: ${check.label}`);
        this.log.event('notBlocked', { key: check.key, blockMode: 'off', code: check.code });
        return { check, blocked: false };
      case 'warn':
        this.log.warn('guard', `WARNED ${source} approach ${check.label} (${check.decision}, ${check.code}): ${check.reason}`);
        this.log.event('blocked', { key: check.key, command: check.command, source, interrupted: false, decision: check.decision, code: check.code, attempts: check.attempts, folder: where.folder.name });
        void this.afterBlock(check, this.facts(check, approach), ref, undefined, rerun, where);
        return { check, blocked: false };
      case 'stop':
        void this.stopUnlessChanged({ source, command, where, data, answer, approach, ref, interrupt, rerun, terminal });
        return { check, blocked: true };
    }
  }

  /** The folder's memory with the saves the edit watcher has not written yet. */
  private withUnwritten(where: Located): MemoryData {
    const unwritten = this.edits?.unwritten(where.folder) ?? [];
    return unwritten.length ? { ...where.data, edits: [...(where.data.edits ?? []), ...unwritten] } : where.data;
  }

  /** What the gate reads here: the folder's cached memory (no disk access: the decision is immediate). */
  private gateView(where: Located, data: MemoryData): GateView {
    return { data, settings: where.memory.settings, redact: t => where.memory.redact(t) };
  }

  /** Team memory: the cached team view only (no disk, no network). */
  private teamOf(where: Located): { team?: TeamMerge } {
    const team = where.memory.team;
    return team ? { team: (c, a) => team.mergeCheckCached(c, a) } : {};
  }

  /** Every ask and deny (also the ones shadow mode only records) goes to the decision log. */
  /** `answered`: what the terminal did (interrupted: deny; the dialog: ask; let it run: warn). */
  private noteDecision(where: Located, check: CheckResult, source: 'terminal' | 'task', answered: Decision): void {
    if (check.policyDecision !== 'ask' && check.policyDecision !== 'deny') return;
    void this.registry.write(where, m => m.recordDecision(check, source, answered)).catch(e => this.log.debug('guard', `decision not recorded: ${String(e)}`));
  }

  /** Let through though exhausted: one quiet status-bar line per streak, saying why. */
  private notice(folder: string, check: CheckResult, approach: Approach | undefined): void {
    this.log.debug('guard', `${check.status}: ${check.label} — ${check.decision} (${check.code}): ${check.reason}`);
    const key = noticeKey(folder, check, approach);
    if (this.noticed.has(key)) return;
    this.noticed.add(key);
    const label = plainText(check.label, 80);
    const t = vscode.l10n.t;
    const changed = check.evidence && check.evidence.change !== 'none';
    this.say(
      check.policyDecision !== check.decision
        ? `$(eye) ${t('Failure Memory would have stopped “{0}” (shadow mode): recorded.', label)}`
        : changed && (check.code.startsWith('same-error') || check.code === 'input-changed' || check.code === 'edit-chained')
          ? `$(pass) ${t('Failure Memory let “{0}” run: something changed since its last failure.', label)}`
          : `$(pass) ${t('Failure Memory let “{0}” run: it is making progress, not looping.', label)}`,
    );
  }

  private facts(check: CheckResult & { team?: TeamCheck }, approach: Approach | undefined): HelpFacts {
    return { ...helpFacts(check, approach), ...(check.team ? { team: { summary: check.team.summary, teamOnly: check.status !== 'exhausted' } } : {}) };
  }

  /**
   * The terminal interrupts only a loop repeated with nothing changed: when the last failure has a git
   * state, git is read first and a changed working tree lets the run go (quietly). Then the run is
   * interrupted if it still runs — never a `^C` after it ended.
   */
  private async stopUnlessChanged(s: StopRequest): Promise<void> {
    let check = s.answer.check;
    if (s.answer.needsGit) {
      const gated = await decideGate(s.command, s.where.relCwd, this.gateView(s.where, s.data), { ...this.teamOf(s.where), git: () => s.where.memory.gitState() });
      check = gated.check;
      if (check.decision !== 'deny') {
        this.noteDecision(s.where, check, s.source, 'warn');
        this.notice(s.ref.folder, check, s.approach);
        return;
      }
    }
    this.noteDecision(s.where, check, s.source, 'deny');
    // a run that ends within a moment is not interrupted: a Ctrl+C sent as it ends would land in the next prompt
    await new Promise(r => setTimeout(r, STOP_GRACE_MS));
    let stopped: Promise<StopResult>;
    try {
      stopped = s.interrupt().then(stopResult, () => stopResult(undefined));
    } catch (e) {
      this.log.error('guard', 'could not interrupt', e);
      stopped = Promise.resolve(stopResult(undefined));
    }
    if (s.terminal) this.stops.set(s.terminal, { label: check.label, failures: check.attempts, at: Date.now(), ref: s.ref });
    this.log.warn('guard', `DENIED (interrupted) ${s.source} approach ${check.label} (${check.code}): ${check.reason}`);
    this.log.event('blocked', { key: check.key, command: check.command, source: s.source, interrupted: true, decision: check.decision, code: check.code, attempts: check.attempts, folder: s.where.folder.name });
    await this.afterBlock(check, this.facts(check, s.approach), s.ref, stopped, s.rerun, s.where);
  }

  /** Waits for the interrupt to be confirmed (or not), says so in the status bar, then shows the dialog. */
  private async afterBlock(
    check: CheckResult,
    facts: HelpFacts,
    ref: ApproachRef,
    stopped: Promise<StopResult> | undefined,
    rerun: (() => void) | undefined,
    where: Located,
  ): Promise<void> {
    // recall runs while the interrupt is confirmed: the dialog waits for the slower of the two, bounded
    const seen = this.similarLesson(check, where);
    const result = stopped ? await stopped : undefined;
    const label = plainText(check.label, 80);
    if (result) {
      this.log.event('stopResult', { key: check.key, result: result.kind });
      if (result.kind === 'stopped') this.say(`$(debug-stop) ${vscode.l10n.t('Failure Memory stopped “{0}”: it failed {1} times in a row with nothing changed.', label, check.attempts)}`);
      else if (result.kind === 'stillRunning') this.say(`$(warning) ${vscode.l10n.t('Failure Memory could not stop “{0}”: it is still running.', label)}`);
      else {
        // it ended on its own before the stop: nothing was interrupted, nothing is asked; the result is recorded
        this.say(`$(info) ${vscode.l10n.t('“{0}” failed again with nothing changed since its last failure: change something before the next run.', label)}`);
        return;
      }
    }
    await this.showHelp(facts, ref, result, result?.kind === 'stopped' ? rerun : undefined, await seen);
  }

  /** The help dialog (modal: it steps in only when an exhausted approach is run again). */
  async showHelp(
    facts: HelpFacts,
    ref: ApproachRef,
    stop: StopResult | undefined,
    rerun: (() => void) | undefined,
    seen: { label: string; lesson: string } | undefined,
  ): Promise<void> {
    const t = vscode.l10n.t;
    const label = plainText(facts.label, 120);
    const title = !stop
      ? t('“{0}” has failed too often', label)
      : stop.kind === 'stopped'
        ? t('Failure Memory stopped “{0}”', label)
        : stop.kind === 'stillRunning'
          ? t('Failure Memory could not stop “{0}”', label)
          : t('“{0}” ended before Failure Memory could stop it', label);
    const lines: string[] = [];
    // team memory: what the team saw (other machines, agents, CI), in the team's own words
    if (facts.team) lines.push(t('In the team it {0}.', plainText(facts.team.summary, 400)));
    lines.push(
      facts.team?.teamOnly
        ? t('Here it failed {0} times.', facts.failures)
        : facts.cwd !== '.'
        ? t('It failed {0} times in a row in {1} (the limit is {2}).', facts.failures, plainText(facts.cwd, 120), facts.threshold)
        : t('It failed {0} times in a row (the limit is {1}).', facts.failures, facts.threshold),
    );
    if (stop?.kind === 'stillRunning') lines.push(t('It is still running: press Ctrl+C in the terminal to stop it.'));
    if (stop?.kind === 'endedFirst') lines.push(stop.exitCode === undefined ? t('It ended on its own; its result is recorded.') : t('It ended on its own with exit code {0}; its result is recorded.', stop.exitCode));
    // the failing tests by name: what to open first
    if (facts.failingTests.length) {
      const names = facts.failingTests.slice(0, 3).map(n => plainText(n, 120));
      const more = facts.failingTests.length - names.length;
      lines.push(
        facts.failingTests.length === 1 ? t('Failing test: {0}', names[0]) : more > 0 ? t('Failing tests: {0} and {1} more', names.join(' · '), more) : t('Failing tests: {0}', names.join(' · ')),
      );
    }
    lines.push(facts.lastErrorLine ? t('Last error: {0}', plainText(facts.lastErrorLine, 400)) : t('No error output was captured.'));
    if (facts.lastErrorCame) lines.push(t('The same error {0}.', facts.lastErrorCame));
    if (facts.variants.length) lines.push(t('Also run as: {0}', facts.variants.map(v => plainText(v, 120)).join(' · ')));
    if (facts.alternatives.length) lines.push(t('Other approaches tried: {0}', facts.alternatives.map(v => plainText(v, 120)).join(' · ')));
    if (seen) lines.push(t('A similar failure was fixed before ({0}): {1}', plainText(seen.label, 120), plainText(seen.lesson, 400)));
    for (const h of facts.history) lines.push(plainText(h, 400));
    lines.push('', t('Running it again unchanged will fail the same way: change the code, the configuration or the command first.'));
    const items: Array<vscode.MessageItem & { id: string }> = [
      { title: t('Reflect on Failures'), id: 'reflect' },
      { title: t('Show Memory'), id: 'show' },
      ...(stop?.kind === 'stopped' || !stop ? [{ title: t('Run Anyway Once'), id: 'once' }] : []),
      { title: t('Mark Resolved'), id: 'resolve' },
      { title: t('Copy as Prompt'), id: 'brief' },
      { title: t('Dismiss'), id: 'dismiss', isCloseAffordance: true },
    ];
    this.log.event('helpDialog', { key: ref.key, stop: stop?.kind ?? 'warned', lastErrorLine: facts.lastErrorLine ? 'real' : 'none' });
    const pick = await vscode.window.showWarningMessage(title, { modal: true, detail: lines.join('\n') }, ...items);
    this.log.event('helpDialogChoice', { key: ref.key, choice: pick?.id ?? 'dismiss' });
    switch (pick?.id) {
      case 'reflect':
        await vscode.commands.executeCommand(CommandId.Reflect, ref);
        break;
      case 'show':
        await vscode.commands.executeCommand(CommandId.ShowMemory, ref);
        break;
      case 'once':
        await vscode.commands.executeCommand(CommandId.RunAnywayOnce, ref);
        rerun?.();
        break;
      case 'resolve':
        await vscode.commands.executeCommand(CommandId.MarkResolved, ref);
        break;
      case 'brief':
        await vscode.commands.executeCommand(CommandId.CopyBrief, ref);
        break;
    }
  }

  /**
   * "Similar failure seen before — this fixed it": the best other approach memory recalls for this
   * error that has a lesson. Bounded in time: the dialog never waits long for recall.
   */
  private async similarLesson(check: CheckResult, where: Located): Promise<{ label: string; lesson: string } | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const hits = await Promise.race([
        where.memory.recall(`${check.label}\n${check.lastError}`, 5),
        new Promise<[]>(r => (timer = setTimeout(() => r([]), 500))),
      ]);
      const hit = hits.find(h => h.key !== check.key && h.lesson && h.score >= SIMILAR_MIN_SCORE);
      if (hit?.lesson) this.log.event('similarShown', { key: check.key, similar: hit.key, score: hit.score });
      return hit?.lesson ? { label: hit.label, lesson: hit.lesson } : undefined;
    } catch (e) {
      this.log.debug('guard', `recall for the help dialog failed: ${String(e)}`);
      return undefined;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /**
   * Records a finished command or task in its folder's memory, logs the decision with its reason,
   * and tells the user what it means (in the status bar). Never throws.
   */
  async record(where: Located, input: AttemptInput, details: Record<string, unknown> = {}): Promise<RecordOutcome | undefined> {
    try {
      const r = await this.registry.write(where, m => m.record({ ...input, cwd: where.relCwd }));
      const t = r.attempt;
      this.log[t.outcome === 'failure' ? 'info' : 'debug'](input.source, `${r.approach.label} → ${t.outcome} (exit ${t.exitCode ?? 'unknown'}), ${r.reason}`);
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
        folder: where.folder.name,
        cwd: where.relCwd,
        ...(r.ledger.fix ? { fixedBy: r.ledger.fix.files } : {}),
        ...details,
      });
      if (this.react(r) === 'exhausted') {
        // the help dialog will want similar failures soon: build recall's index now, off the hot path
        void where.memory.recall(r.approach.label, 1).catch(e => this.log.debug('guard', `recall warm-up failed: ${String(e)}`));
      }
      return r;
    } catch (err) {
      this.log.error(input.source, `could not record a ${input.source} run`, err);
      return undefined;
    }
  }

  /** Tells the user what recording found, in the status bar: exhausted now, resolved, the same error or test twice. */
  react(r: RecordOutcome): ReturnType<typeof reactionTo>['kind'] {
    const cfg = this.config();
    const reaction = reactionTo(r, cfg.notifySameError);
    const name = plainText(describeApproach(r.approach), 80);
    const t = vscode.l10n.t;
    switch (reaction.kind) {
      case 'none':
        return reaction.kind;
      case 'exhausted':
        this.say(
          `$(error) ${
            cfg.blockMode === 'interrupt'
              ? t('“{0}” failed {1} times in a row: running it again will be stopped.', name, reaction.failures)
              : t('“{0}” failed {1} times in a row.', name, reaction.failures)
          }`,
        );
        break;
      case 'resolved':
        this.say(`$(check) ${t('“{0}” succeeded: its failures are cleared.', name)}`);
        break;
      case 'sameError':
        this.say(`$(warning) ${t('Same error twice in “{0}”: {1}', name, plainText(reaction.line, 160))}`);
        break;
      case 'sameTest':
        this.say(`$(warning) ${t('The same test failed twice in “{0}”: {1}', name, plainText(reaction.test, 160))}`);
        break;
    }
    this.log.event('reacted', { key: r.approach.key, reaction: reaction.kind });
    return reaction.kind;
  }

  dispose(): void {
    this.status?.dispose();
  }
}
