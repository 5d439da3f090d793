// The guard's VS Code side: when an exhausted approach starts again it is stopped at once
// (blockMode interrupt) and the help dialog says what failed and what to do. The
// decisions themselves are pure and live in core/rules/guardVerdict.ts; here they are carried out.
// Quiet by design: the modal help dialog is the only thing that asks for a decision; everything
// else (exhausted now, same error twice, resolved, who stopped a run) goes to the status bar.

import * as vscode from 'vscode';
import { matchesGlob } from '../core/approach';
import type { Settings } from '../core/config';
import { decideStart, helpFacts, noticeKey, notRunLine, reactionTo, stopResult, type HelpFacts, type RunEnd, type StartAction, type StopResult } from '../core/rules/guardVerdict';
import type { CheckResult } from '../core/rules/check';
import { decideGate, decideGateNow, type GateAnswer, type GateView, type TeamMerge } from '../app/gate';
import { describeApproach } from '../core/memory';
import { plainText } from '../core/text/plainText';
import type { TeamCheck } from '../core/rules/team';
import { shellEffects } from '../core/rules/shellEffects';
import type { Approach, AttemptInput, Decision, GitState, MemoryData } from '../core/types';
import type { RecordOutcome } from '../app/workspaceMemory';
import type { ApproachRef } from './commandIds';
import type { EditWatcher } from './editWatcher';
import { showHelpDialog } from './helpDialog';
import type { Logger } from './logger';
import type { Located, MemoryRegistry } from './registry';

/** Least recall score for a past failure to be offered as "seen before" (blended TF-IDF + embeddings). */
const SIMILAR_MIN_SCORE = 0.3;
/** Recall answers kept for the help dialog (one per streak and set of lessons). */
const MAX_SIMILAR_KEPT = 256;
/** Approaches whose lesson is kept asked ahead while the memory changes (the ones looped on lately). */
const MAX_HOT = 16;

interface Lesson {
  key: string;
  label: string;
  lesson: string;
  score: number;
}
/** How long the status bar shows what the guard did. */
const STATUS_MS = 8000;
/**
 * How long the Enter gate waits for git to confirm a deny. The shell waits meanwhile; past this the
 * line runs and the start event's interrupt, which waits for git as long as it takes, is the fallback.
 */
const ENTER_GIT_BUDGET_MS = 700;
/**
 * How long the help dialog waits for recall's "a similar failure was fixed before" when it is not ready
 * yet: it is asked ahead (one failure before an approach is exhausted), so it is mostly ready; a cold
 * recall at 500 approaches takes most of a second, which the dialog does not wait for.
 */
const SIMILAR_WAIT_MS = 60;

export interface StartDecision {
  check: CheckResult & { team?: TeamCheck };
  blocked: boolean;
}

/** Sends the interrupt and resolves with the run's end once it ended, or undefined when it did not end in time. */
export type Interrupt = () => Promise<RunEnd | undefined>;

/**
 * The Enter gate's answer for a line. `checked`: the guard decided it (a run that starts from it
 * needs no second decision at its start); false when it could not decide in time (git too slow).
 */
export interface EnterVerdict {
  verdict: 'run' | 'block';
  /** For a blocked line: what the shell prints. */
  line?: string;
  checked: boolean;
}

/** What the gate decided for a command, before anything is done about it. */
interface GateCall {
  redacted: string;
  data: MemoryData;
  answer: GateAnswer;
  check: CheckResult & { team?: TeamCheck };
  action: StartAction;
  approach: Approach | undefined;
  ref: ApproachRef;
}

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

const TIMED_OUT = Symbol('timed out');

/** `p`'s value, or TIMED_OUT when it takes longer than `ms` (a rejection counts as undefined). */
async function withinMs<T>(p: Promise<T>, ms: number): Promise<T | undefined | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p.catch(() => undefined), new Promise<typeof TIMED_OUT>(r => (timer = setTimeout(() => r(TIMED_OUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export class Guard {
  /** Exhausted-but-progressing streaks already told about (one notice each, not one per run). */
  private readonly noticed = new Set<string>();
  /** The last status-bar message: a new one replaces it. */
  private status: vscode.Disposable | undefined;
  /** Terminals the guard stopped a run in, with what it stopped (for the `^C` link's hover). */
  readonly stops = new WeakMap<vscode.Terminal, StopNote>();
  /** Recall's lessons for the help dialog, asked ahead (see askSimilar). */
  private readonly similar = new Map<string, Promise<Lesson | undefined>>();
  /** Approaches at or near exhaustion here lately: their lesson is asked again when the memory changes (a lesson learned). */
  private readonly hot = new Map<string, { folder: string; key: string }>();
  private readonly memoryChanged: vscode.Disposable;
  private rewarm: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
    private readonly config: () => Settings,
    /** Saves not written yet (a command started right after Ctrl+S must see them). */
    private readonly edits?: EditWatcher,
  ) {
    this.memoryChanged = registry.onDidChange(() => {
      if (!this.hot.size) return;
      clearTimeout(this.rewarm);
      this.rewarm = setTimeout(() => this.askHotAgain(), 200);
    });
  }

  /** After the memory changed: the lessons of the approaches looped on lately, asked again if their inputs changed. */
  private askHotAgain(): void {
    for (const { folder, key } of this.hot.values()) {
      const f = this.registry.byFolderUri(folder);
      const a = f && Object.prototype.hasOwnProperty.call(f.data.approaches, key) ? f.data.approaches[key] : undefined;
      const where = f && this.registry.locate(f.folder.uri.fsPath);
      if (a && where && a.failures > 0) void this.askSimilar(where, key, a.label, a.lastErrorSignature ?? '');
    }
  }

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
   * The gate's decision for a command, from the cached memory (no disk access: it is immediate) and the
   * saves not written yet. The one place the terminal and tasks ask the gate.
   */
  private decide(command: string, where: Located, gitNow?: GitState): GateCall {
    const redacted = where.memory.redact(command);
    const data = this.withUnwritten(where);
    const answer = decideGateNow(command, where.relCwd, this.gateView(where, data), { ...this.teamOf(where), ...(gitNow ? { gitNow } : {}) });
    const check = answer.check;
    const approach = Object.prototype.hasOwnProperty.call(where.data.approaches, check.key) ? where.data.approaches[check.key] : undefined;
    return { redacted, data, answer, check, action: decideStart(check, this.config().blockMode), approach, ref: { folder: where.folder.uri.toString(), key: check.key } };
  }

  /**
   * Decides on a starting command. A deny is confirmed with git first (has anything changed that no
   * save showed?), then `interrupt` stops the run if it still runs; `rerun` starts it again after
   * "Run Anyway Once". `checkedAtEnter`: the Enter gate already decided this run (only its start is noted).
   */
  onStart(
    source: 'terminal' | 'task',
    command: string,
    where: Located,
    interrupt: Interrupt,
    rerun: (() => void) | undefined,
    terminal?: vscode.Terminal,
    checkedAtEnter = false,
  ): StartDecision | undefined {
    const redacted = where.memory.redact(command);
    // a service or a background job started here: a probe may wait for it
    if (shellEffects(redacted).starts) void this.registry.write(where, m => m.recordStart(redacted)).catch(() => undefined);
    if (checkedAtEnter) return undefined;
    const call = this.decide(command, where);
    if (call.action !== 'stop') {
      this.carryOut(call, source, where, rerun);
      return { check: call.check, blocked: false };
    }
    void this.stopUnlessChanged({ source, command, where, data: call.data, answer: call.answer, approach: call.approach, ref: call.ref, interrupt, rerun, terminal });
    return { check: call.check, blocked: true };
  }

  /**
   * The Enter gate: may this line start? Decided like a start (the same decision, the same notices),
   * but a deny keeps the line from running at all, and the help dialog comes at once. A deny reached
   * after `deadline` (ms since the epoch) would reach a shell that already ran the line: it is left to
   * the start event instead. Never throws.
   */
  async atEnter(command: string, where: Located, rerun: (() => void) | undefined, deadline = Number.POSITIVE_INFINITY): Promise<EnterVerdict> {
    let call = this.decide(command, where);
    if (call.action !== 'stop') {
      this.carryOut(call, 'terminal', where, rerun);
      return { verdict: 'run', checked: true };
    }
    if (call.answer.needsGit) {
      const gitNow = await withinMs(where.memory.gitState(), ENTER_GIT_BUDGET_MS);
      if (gitNow === TIMED_OUT) {
        this.log.info('guard', `git did not answer within ${ENTER_GIT_BUDGET_MS} ms: "${call.check.label}" is left to the start event`);
        return { verdict: 'run', checked: false };
      }
      if (gitNow) call = this.decide(command, where, gitNow);
      if (call.check.decision !== 'deny') {
        this.noteDecision(where, call.check, 'terminal', 'warn');
        this.notice(call.ref.folder, call.check, call.approach);
        return { verdict: 'run', checked: true };
      }
    }
    const check = call.check;
    if (Date.now() > deadline) {
      this.log.info('guard', `the deny of "${check.label}" came too late for the shell: left to the start event`);
      return { verdict: 'run', checked: false };
    }
    this.noteDecision(where, check, 'terminal', 'deny');
    this.log.warn('guard', `DENIED (not run) terminal approach ${check.label} (${check.code}): ${check.reason}`);
    this.log.event('blocked', { key: check.key, command: check.command, source: 'terminal', at: 'enter', interrupted: false, decision: check.decision, code: check.code, attempts: check.attempts, folder: where.folder.name });
    void this.afterBlock(check, this.facts(check, call.approach), call.ref, Promise.resolve({ kind: 'notStarted' }), rerun, where);
    const cause = check.code === 'systemic-cause' && check.pattern ? plainText(check.pattern.subject, 80) : undefined;
    return { verdict: 'block', line: notRunLine(check.attempts, plainText(check.label, 80), cause), checked: true };
  }

  /** Everything but a stop: let it run, and say what there is to say (once per streak). */
  private carryOut(call: GateCall, source: 'terminal' | 'task', where: Located, rerun: (() => void) | undefined): void {
    const { check, action, ref } = call;
    this.noteDecision(where, check, source, action === 'warn' ? 'ask' : action === 'remember' ? 'deny' : 'warn');
    switch (action) {
      case 'run': {
        if (check.status !== 'clear') this.log.debug('guard', `${check.status}: ${check.label} — ${check.reason}`);
        // failing in the team (other machines, agents, CI) though not exhausted here: say so once per team streak
        const teamNotice = `${ref.folder}\u0000${check.key}\u0000team\u0000${check.team?.lastFailure ?? ''}`;
        if (check.team?.status === 'exhausted' && check.status !== 'exhausted' && !this.noticed.has(teamNotice)) {
          this.noticed.add(teamNotice);
          this.log.event('teamWarned', { key: check.key, failures: check.team.failures, machines: check.team.machines });
          this.say(`$(organization) ${vscode.l10n.t('Failure Memory: “{0}” {1}. Not stopped.', plainText(check.label, 80), plainText(check.team.summary, 200))}`);
        }
        return;
      }
      case 'runOnce':
        this.log.info('guard', `let through once: ${check.label} (${source}) — ${check.reason}`);
        this.log.event('allowedOnce', { key: check.key, command: check.command });
        return;
      case 'notice':
        this.notice(ref.folder, check, call.approach);
        return;
      case 'remember':
        this.log.info('guard', `denied, blockMode off: ${check.label}`);
        this.log.event('notBlocked', { key: check.key, blockMode: 'off', code: check.code });
        return;
      case 'warn':
        this.log.warn('guard', `WARNED ${source} approach ${check.label} (${check.decision}, ${check.code}): ${check.reason}`);
        this.log.event('blocked', { key: check.key, command: check.command, source, interrupted: false, decision: check.decision, code: check.code, attempts: check.attempts, folder: where.folder.name });
        void this.afterBlock(check, this.facts(check, call.approach), ref, undefined, rerun, where);
        return;
      case 'stop':
        return;
    }
  }

  /** The folder's memory with the saves the edit watcher has not written yet. */
  private withUnwritten(where: Located): MemoryData {
    const unwritten = this.edits?.unwritten(where.folder) ?? [];
    return unwritten.length ? { ...where.data, edits: [...(where.data.edits ?? []), ...unwritten] } : where.data;
  }

  /** What the gate reads here: the folder's cached memory (no disk access: the decision is immediate). */
  private gateView(where: Located, data: MemoryData): GateView {
    return { data, settings: where.memory.settings, redact: t => where.memory.redact(t), ...(where.memory.scripts ? { scripts: where.memory.scripts } : {}) };
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
    const t = vscode.l10n.t;
    if (result) {
      this.log.event('stopResult', { key: check.key, result: result.kind, ...(result.kind === 'stopped' && result.afterMs !== undefined ? { afterMs: result.afterMs } : {}) });
      switch (result.kind) {
        case 'notStarted':
          this.say(
            facts.cause?.stops
              ? `$(debug-stop) ${t('Failure Memory did not run “{0}”: {1}.', label, plainText(facts.cause.headline, 120))}`
              : `$(debug-stop) ${t('Failure Memory did not run “{0}”: it failed {1} times in a row with nothing changed.', label, check.attempts)}`,
          );
          break;
        case 'stopped':
          if (facts.cause?.stops) {
            this.say(`$(debug-stop) ${t('Failure Memory stopped “{0}”: {1}.', label, plainText(facts.cause.headline, 120))}`);
            break;
          }
          this.say(
            `$(debug-stop) ${
              result.afterMs !== undefined
                ? t('Failure Memory stopped “{0}” after {1} ms: it failed {2} times in a row with nothing changed.', label, result.afterMs, check.attempts)
                : t('Failure Memory stopped “{0}”: it failed {1} times in a row with nothing changed.', label, check.attempts)
            }`,
          );
          break;
        case 'stillRunning':
          this.say(`$(warning) ${t('Failure Memory could not stop “{0}”: it is still running.', label)}`);
          break;
        case 'ended':
        case 'endedFirst':
          // it ended on its own before the stop, or nobody can tell: nothing is asked; the result is recorded
          this.say(`$(info) ${t('“{0}” failed again with nothing changed since its last failure: change something before the next run.', label)}`);
          return;
      }
    }
    // only a line that did not run, or was stopped, is typed again (a warned run is running already)
    const rerunnable = result?.kind === 'stopped' || result?.kind === 'notStarted';
    await this.showHelp(facts, ref, result, rerunnable ? rerun : undefined, await seen);
  }

  /** The help dialog (modal: it steps in only when an exhausted approach is run again). */
  showHelp(facts: HelpFacts, ref: ApproachRef, stop: StopResult | undefined, rerun: (() => void) | undefined, seen: Pick<Lesson, 'label' | 'lesson'> | undefined): Promise<void> {
    return showHelpDialog(this.log, facts, ref, stop, rerun, seen);
  }

  /**
   * "Similar failure seen before — this fixed it": the best other approach memory recalls for this
   * error that has a lesson. Asked once per streak and per set of lessons (kept, so a dialog never
   * waits for it twice, and asked ahead when an approach becomes exhausted); the dialog waits for it
   * only briefly.
   */
  private async similarLesson(check: CheckResult, where: Located): Promise<Lesson | undefined> {
    const asked = this.askSimilar(where, check.key, check.label, check.lastError);
    const hit = await withinMs(asked, SIMILAR_WAIT_MS);
    if (hit === TIMED_OUT) {
      this.log.debug('guard', `recall for the help dialog took over ${SIMILAR_WAIT_MS} ms: the dialog goes without it`);
      return undefined;
    }
    if (hit) this.log.event('similarShown', { key: check.key, similar: hit.key, score: hit.score });
    return hit;
  }

  /** Recall's lesson for an approach's error, asked once per streak and set of lessons. */
  private askSimilar(where: Located, key: string, label: string, lastError: string): Promise<Lesson | undefined> {
    const approach = Object.prototype.hasOwnProperty.call(where.data.approaches, key) ? where.data.approaches[key] : undefined;
    const id = [where.folder.uri.toString(), key, approach?.firstFailure ?? '', approach?.lastFailure ?? '', where.data.learnings.length].join('\u0000');
    let asked = this.similar.get(id);
    if (!asked) {
      asked = where.memory.recall(`${label}\n${lastError}`, 5).then(
        hits => {
          const hit = hits.find(h => h.key !== key && h.lesson && h.score >= SIMILAR_MIN_SCORE);
          this.log.event('similarReady', { key, found: !!hit?.lesson });
          return hit?.lesson ? { key: hit.key, label: hit.label, lesson: hit.lesson, score: hit.score } : undefined;
        },
        e => {
          this.log.debug('guard', `recall for the help dialog failed: ${String(e)}`);
          return undefined;
        },
      );
      // a memory of 500 approaches has at most that many streaks: the oldest answers go first
      if (this.similar.size >= MAX_SIMILAR_KEPT) this.similar.delete(this.similar.keys().next().value as string);
      this.similar.set(id, asked);
    }
    return asked;
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
      this.react(r);
      // the help dialog will soon want a similar failure's lesson: ask recall now (one failure before the
      // approach is exhausted, so that a cold recall is warm by then), off the hot path
      if (t.outcome === 'failure' && r.approach.failures >= where.memory.settings.threshold - 1) {
        const now = this.registry.locate(where.folder.uri.fsPath);
        if (now) void this.askSimilar(now, r.approach.key, r.approach.label, r.approach.lastErrorSignature ?? '');
        const id = `${where.folder.uri.toString()}\u0000${r.approach.key}`;
        this.hot.delete(id);
        this.hot.set(id, { folder: where.folder.uri.toString(), key: r.approach.key });
        if (this.hot.size > MAX_HOT) this.hot.delete(this.hot.keys().next().value as string);
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
    const reaction = reactionTo(r, cfg['notifications.sameError']);
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
        this.say(`$(warning) ${reaction.times === 2 ? t('Same error twice in “{0}”: {1}', name, plainText(reaction.line, 160)) : t('Same error {2} times in a row in “{0}”: {1}', name, plainText(reaction.line, 160), reaction.times)}`);
        break;
      case 'sameTest':
        this.say(`$(warning) ${t('The same test failed twice in “{0}”: {1}', name, plainText(reaction.test, 160))}`);
        break;
    }
    this.log.event('reacted', { key: r.approach.key, reaction: reaction.kind });
    return reaction.kind;
  }

  dispose(): void {
    clearTimeout(this.rewarm);
    this.memoryChanged.dispose();
    this.status?.dispose();
  }
}
