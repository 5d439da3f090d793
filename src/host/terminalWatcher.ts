// Terminal capture through shell integration: each finished command becomes an attempt.
// Output is read from the very start of the execution (earlier output is lost otherwise) and
// bounded while streaming, so a command printing 50 MB costs no more than a few hundred KB.

import * as vscode from 'vscode';
import { OutputBuffer } from '../core/text/output';
import { plainText } from '../core/text/plainText';
import type { Settings } from '../core/config';
import type { RunEnd } from '../core/rules/guardVerdict';
import { claimAgentRun, finishAgentRun, handedOutput } from '../app/agentRuns';
import { memoryDirFor } from '../store/paths';
import { Disposable } from './disposable';
import type { EnterGate } from './enterGate';
import { foregroundGroup, groupAlive, interruptGroup } from './foreground';
import type { Guard } from './guard';
import type { Logger } from './logger';
import type { Located, MemoryRegistry } from './registry';

interface Running {
  buffer: OutputBuffer;
  reading: Promise<void>;
  startedAt: string;
  /** When the start event came (ms since the epoch): how long a stopped run lasted. */
  startMs: number;
}

/** How long the end handler waits for the output stream to finish. */
const READ_GRACE_MS = 3000;
/** How long a run may take to end after Ctrl+C before the guard says it could not be stopped. */
const STOP_CONFIRM_MS = 3000;
/**
 * Where the foreground group cannot be read (not Linux): a run that ends within this long is left
 * alone, since a Ctrl+C typed as it ends would land in the next prompt.
 */
const STOP_GRACE_MS = 200;
/** The shell itself is in front: how long its run's end event may take to arrive before Ctrl+C is typed. */
const END_EVENT_WAIT_MS = 150;
/** How long the end handler waits for the output VS Code's agent hook hands over (it comes right after the run). */
const HANDED_OUTPUT_WAIT_MS = 5000;
/** How long a new terminal may take to report shell integration before the user is told. */
const SHELL_INTEGRATION_WAIT_MS = 10_000;
const NOTICE_KEY = 'failureMemory.shellIntegrationNoticeShown';

/** VS Code's task terminals report the task as a command line "*  Executing task: …". */
export function isTaskBanner(commandLine: string): boolean {
  return /^\*\s+Executing task\b/.test(commandLine);
}

/**
 * Where a command ran: the execution's cwd when the shell reported it, else the terminal's
 * current cwd, else the folder the terminal was created in (multi-root terminals pick one).
 */
function cwdOf(execution: vscode.TerminalShellExecution, terminal: vscode.Terminal): vscode.Uri | string | undefined {
  if (execution.cwd) return execution.cwd;
  if (terminal.shellIntegration?.cwd) return terminal.shellIntegration.cwd;
  const opts = terminal.creationOptions as vscode.TerminalOptions;
  return 'cwd' in opts ? opts.cwd : undefined;
}

export class TerminalWatcher extends Disposable {
  private readonly running = new Map<vscode.TerminalShellExecution, Running>();
  /** Runs that ended, with their exit code (a late stop must not send Ctrl+C to the next prompt). */
  private readonly ended = new WeakMap<vscode.TerminalShellExecution, { exitCode: number | undefined; at: number }>();
  /** Interrupted runs waiting for their end event (to confirm Ctrl+C stopped them). */
  private readonly endWaiters = new Map<vscode.TerminalShellExecution, (end: { exitCode: number | undefined; at: number }) => void>();
  private readonly withIntegration = new Set<vscode.Terminal>();
  private readonly pending = new Map<vscode.Terminal, ReturnType<typeof setTimeout>>();
  private readonly stateChanged = this.track(new vscode.EventEmitter<void>());
  readonly onDidChangeState = this.stateChanged.event;
  private noticeShown: boolean;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly registry: MemoryRegistry,
    private readonly guard: Guard,
    private readonly log: Logger,
    private readonly config: () => Settings,
    /** The Enter gate, which may have decided a run before it started. */
    private readonly enterGate?: EnterGate,
  ) {
    super();
    this.noticeShown = context.globalState.get<boolean>(NOTICE_KEY, false);
    this.track(vscode.window.onDidStartTerminalShellExecution(e => this.onStart(e)));
    this.track(vscode.window.onDidEndTerminalShellExecution(e => void this.onEnd(e)));
    this.track(vscode.window.onDidChangeTerminalShellIntegration(e => this.onIntegration(e.terminal)));
    this.track(vscode.window.onDidOpenTerminal(t => this.watchIntegration(t)));
    this.track(vscode.window.onDidCloseTerminal(t => this.forget(t)));
    for (const t of vscode.window.terminals) {
      if (t.shellIntegration) this.onIntegration(t);
      else this.watchIntegration(t);
    }
  }

  /** Terminals whose shell integration is active. */
  get activeCount(): number {
    return this.withIntegration.size;
  }

  get terminalCount(): number {
    return vscode.window.terminals.length;
  }

  private onIntegration(t: vscode.Terminal): void {
    const timer = this.pending.get(t);
    if (timer) clearTimeout(timer);
    this.pending.delete(t);
    if (this.withIntegration.has(t)) return;
    this.withIntegration.add(t);
    this.log.info('terminal', `shell integration active in "${t.name}"`);
    this.log.event('shellIntegration', { terminal: t.name });
    this.stateChanged.fire();
  }

  private watchIntegration(t: vscode.Terminal): void {
    if (t.shellIntegration) return this.onIntegration(t);
    const opts = t.creationOptions as vscode.TerminalOptions & vscode.ExtensionTerminalOptions;
    if ('pty' in opts && opts.pty) return; // extension pseudo-terminals have no shell
    if (this.pending.has(t)) return;
    this.pending.set(
      t,
      setTimeout(() => {
        this.pending.delete(t);
        if (t.shellIntegration || t.exitStatus || this.withIntegration.has(t)) return;
        this.log.warn('terminal', `no shell integration in "${t.name}": its commands cannot be recorded`);
        this.stateChanged.fire();
        void this.tellOnce(t.name);
      }, SHELL_INTEGRATION_WAIT_MS),
    );
  }

  private async tellOnce(name: string): Promise<void> {
    if (this.noticeShown || !this.config()['capture.terminal']) return;
    this.noticeShown = true;
    await this.context.globalState.update(NOTICE_KEY, true);
    const openSetting = vscode.l10n.t('Open Setting');
    const learnMore = vscode.l10n.t('Learn More');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Failure Memory cannot see commands in terminal “{0}”: shell integration is not active there. Turn it on (or use bash, zsh, fish or PowerShell) to have failing commands remembered.',
        plainText(name, 80),
      ),
      openSetting,
      learnMore,
    );
    if (pick === openSetting) await vscode.commands.executeCommand('workbench.action.openSettings', 'terminal.integrated.shellIntegration.enabled');
    else if (pick === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/terminal/shell-integration'));
  }

  private forget(t: vscode.Terminal): void {
    const timer = this.pending.get(t);
    if (timer) clearTimeout(timer);
    this.pending.delete(t);
    if (this.withIntegration.delete(t)) this.stateChanged.fire();
  }

  private onStart(e: vscode.TerminalShellExecutionStartEvent): void {
    const cfg = this.config();
    if (!cfg['capture.terminal']) return;
    this.onIntegration(e.terminal);
    const execution = e.execution;
    // read() must be called right away, in this very listener
    const buffer = new OutputBuffer(Math.max(cfg.maxOutputBytes * 4, 64 * 1024));
    const stream = execution.read();
    const reading = (async () => {
      try {
        for await (const chunk of stream) buffer.append(chunk);
      } catch (err) {
        this.log.debug('terminal', `output stream ended with ${String(err)}`);
      }
    })();
    const startMs = Date.now();
    this.running.set(execution, { buffer, reading, startedAt: new Date(startMs).toISOString(), startMs });

    const command = execution.commandLine.value.trim();
    if (!command || isTaskBanner(command) || this.guard.isIgnored(command)) return;
    const where = this.registry.locate(cwdOf(execution, e.terminal));
    if (!where) return;
    const canRerun = execution.commandLine.isTrusted && execution.commandLine.confidence === vscode.TerminalShellExecutionCommandLineConfidence.High;
    const checkedAtEnter = this.enterGate?.takeChecked(e.terminal) ?? false;
    this.guard.onStart('terminal', command, where, () => this.interrupt(e.terminal, execution), canRerun ? () => e.terminal.sendText(command, true) : undefined, e.terminal, checkedAtEnter);
  }

  /**
   * Interrupts a run and waits (briefly) for its end event: only an end with an interrupt exit code
   * lets the guard say "stopped" (with how long it ran). A run that already ended gets nothing. On
   * Linux the interrupt is SIGINT to the terminal's foreground process group, what Ctrl+C does, but
   * never the shell's: when the shell is in front the run has ended (its end event is on its way) or
   * is the shell's own loop, and only then is Ctrl+C typed. Elsewhere Ctrl+C is typed after a grace.
   * Resolves undefined when the run did not end in time and is still there.
   */
  private async interrupt(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<RunEnd | undefined> {
    const startMs = this.running.get(execution)?.startMs;
    const ranMs = (at: number) => (startMs === undefined ? undefined : at - startMs);
    const done = () => {
      const ended = this.ended.get(execution);
      return ended || !this.running.has(execution) ? { exitCode: ended?.exitCode, ...(ended ? { ranMs: ranMs(ended.at) } : {}) } : undefined;
    };
    const before = done();
    if (before) return before;
    const shellPid = await Promise.race([Promise.resolve(terminal.processId).catch(() => undefined), new Promise<undefined>(r => setTimeout(() => r(undefined), 500))]);
    const front = shellPid ? foregroundGroup(shellPid) : undefined;
    if (front === undefined) await new Promise(r => setTimeout(r, STOP_GRACE_MS));
    const after = done();
    if (after) return after;
    const ending = this.waitForEnd(execution, STOP_CONFIRM_MS);
    if (front !== undefined && front !== shellPid) {
      interruptGroup(front);
    } else {
      if (front !== undefined) {
        const end = await this.waitForEnd(execution, END_EVENT_WAIT_MS);
        if (end) return { exitCode: end.exitCode, ranMs: ranMs(end.at) };
      }
      if (done()) return done();
      terminal.sendText('\x03', false);
    }
    const end = await ending;
    if (end) return { exitCode: end.exitCode, ranMs: ranMs(end.at) };
    // no end event: a group that is gone has ended all the same (by what, nobody can tell)
    if (front !== undefined && front !== shellPid && !groupAlive(front)) return { exitCode: undefined, gone: true };
    return undefined;
  }

  /** The run's end event within `ms`, or undefined. */
  private waitForEnd(execution: vscode.TerminalShellExecution, ms: number): Promise<{ exitCode: number | undefined; at: number } | undefined> {
    const ended = this.ended.get(execution);
    if (ended) return Promise.resolve(ended);
    return new Promise(resolve => {
      const previous = this.endWaiters.get(execution);
      const timer = setTimeout(() => {
        if (this.endWaiters.get(execution) === onEnd) {
          if (previous) this.endWaiters.set(execution, previous);
          else this.endWaiters.delete(execution);
        }
        resolve(undefined);
      }, ms);
      const onEnd = (end: { exitCode: number | undefined; at: number }) => {
        clearTimeout(timer);
        previous?.(end);
        resolve(end);
      };
      this.endWaiters.set(execution, onEnd);
    });
  }

  private async onEnd(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const execution = e.execution;
    const end = { exitCode: e.exitCode, at: Date.now() };
    this.ended.set(execution, end);
    const waiter = this.endWaiters.get(execution);
    this.endWaiters.delete(execution);
    waiter?.(end);
    const run = this.running.get(execution);
    this.running.delete(execution);
    if (!run) return; // capture was off when it started
    const command = execution.commandLine.value.trim();
    if (!command) {
      this.log.debug('terminal', 'a command ended but its command line is unknown: not recorded');
      return;
    }
    if (isTaskBanner(command)) {
      // a task's own terminal: the task watcher records it (with the task's real command line)
      this.log.debug('terminal', `task terminal "${e.terminal.name}": left to the task watcher`);
      return;
    }
    if (this.guard.isIgnored(command)) {
      this.log.debug('terminal', `ignored by failureMemory.ignoreCommands: ${command}`);
      return;
    }
    const cwd = cwdOf(execution, e.terminal);
    const where = this.registry.locate(cwd);
    if (!where) {
      this.log.debug('terminal', `not in a workspace folder (${typeof cwd === 'string' ? cwd : (cwd?.fsPath ?? 'unknown cwd')}): not recorded`);
      return;
    }
    // a run of VS Code's agent terminal tool: its hooks wait until it is recorded, and hand its output
    const agentRun = this.claimAgentRun(where, command, run.startedAt);
    try {
      await Promise.race([run.reading, new Promise(r => setTimeout(r, READ_GRACE_MS))]);
      let output = run.buffer.toString();
      if (agentRun && !output.trim()) output = (await this.outputHandedOver(agentRun)) ?? output;
      await this.guard.record(
        where,
        {
          command,
          exitCode: e.exitCode,
          source: 'terminal',
          output,
          outputTruncated: run.buffer.truncated,
          outputBytes: Math.max(run.buffer.totalBytes, Buffer.byteLength(output)),
          startedAt: run.startedAt,
        },
        { terminal: e.terminal.name },
      );
    } finally {
      if (agentRun) finishAgentRun(agentRun.dir, agentRun.id);
    }
  }

  /** The agent hook's call that ran this command, claimed (never in an untrusted workspace: its memory is elsewhere). */
  private claimAgentRun(where: Located, command: string, startedAt: string): { dir: string; id: string } | undefined {
    if (where.private) return undefined;
    const dir = memoryDirFor(where.folder.uri.fsPath);
    try {
      const id = claimAgentRun(dir, command, Date.parse(startedAt));
      return id ? { dir, id } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The output the agent's post hook handed over (bounded wait: the hook runs right after the run). */
  private async outputHandedOver(run: { dir: string; id: string }): Promise<string | undefined> {
    for (const end = Date.now() + HANDED_OUTPUT_WAIT_MS; Date.now() < end; ) {
      const output = handedOutput(run.dir, run.id);
      if (output !== undefined) {
        this.log.debug('terminal', `output of the agent's run handed over by its hook (${output.length} chars)`);
        return output;
      }
      await new Promise(r => setTimeout(r, 50));
    }
    return undefined;
  }

  override dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    super.dispose();
  }
}
