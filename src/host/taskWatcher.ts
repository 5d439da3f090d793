// Task capture: tasks.onDidEndTaskProcess gives the exit code; the command line and folder come
// from the task's definition (there is no output API for tasks).

import * as vscode from 'vscode';
import type { Settings } from '../core/config';
import { Disposable } from './disposable';
import type { Guard } from './guard';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';

function quoted(s: string | vscode.ShellQuotedString): string {
  if (typeof s === 'string') return s;
  return s.quoting === vscode.ShellQuoting.Strong ? `'${s.value}'` : s.quoting === vscode.ShellQuoting.Weak ? `"${s.value}"` : s.value;
}

/** The command line a task runs, as a person would type it. */
export function taskCommandLine(task: vscode.Task): string | undefined {
  const ex = task.execution;
  if (ex instanceof vscode.ShellExecution) {
    if (ex.commandLine) return ex.commandLine;
    if (ex.command) return [quoted(ex.command), ...(ex.args ?? []).map(quoted)].join(' ');
  } else if (ex instanceof vscode.ProcessExecution) {
    return [ex.process, ...ex.args].join(' ');
  }
  // custom executions and contributed task types: the definition names what runs
  const def = task.definition as Record<string, unknown>;
  if (typeof def.script === 'string') return `${task.source === 'npm' || def.type === 'npm' ? 'npm run ' : ''}${def.script}`;
  if (typeof def.command === 'string') return def.command;
  return task.name ? `task: ${task.name}` : undefined;
}

function taskFolder(task: vscode.Task): vscode.WorkspaceFolder | undefined {
  return typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
}

/** The folder a task runs in: its cwd option (with ${workspaceFolder} resolved) or its folder. */
export function taskCwd(task: vscode.Task): string | undefined {
  const folder = taskFolder(task);
  const ex = task.execution as vscode.ShellExecution | vscode.ProcessExecution | undefined;
  const cwd = ex && 'options' in ex ? ex.options?.cwd : undefined;
  if (!cwd) return folder?.uri.fsPath;
  const root = folder?.uri.fsPath ?? '';
  const resolved = cwd.replace(/\$\{workspaceFolder\}|\$\{workspaceRoot\}/g, root).replace(/\$\{workspaceFolderBasename\}/g, folder?.name ?? '');
  if (resolved.includes('${')) return folder?.uri.fsPath;
  return resolved.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(resolved) ? resolved : `${root}/${resolved}`;
}

const STOP_CONFIRM_MS = 3000;

export class TaskWatcher extends Disposable {
  private readonly started = new Map<vscode.TaskExecution, string>();
  /** Executions the guard terminated: their end is not an attempt. */
  private readonly blocked = new WeakSet<vscode.TaskExecution>();
  private readonly endWaiters = new Map<vscode.TaskExecution, () => void>();

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly guard: Guard,
    private readonly log: Logger,
    private readonly config: () => Settings,
  ) {
    super();
    this.track(vscode.tasks.onDidStartTaskProcess(e => this.onStart(e)));
    this.track(vscode.tasks.onDidEndTaskProcess(e => void this.onEnd(e)));
  }

  private onStart(e: vscode.TaskProcessStartEvent): void {
    if (!this.config()['capture.tasks']) return;
    this.started.set(e.execution, new Date().toISOString());
    const task = e.execution.task;
    const command = taskCommandLine(task);
    if (!command || this.guard.isIgnored(command)) return;
    const where = this.registry.locate(taskCwd(task));
    if (!where) return;
    // a stopped task is marked by terminate() itself: the guard may confirm with git before it stops
    this.guard.onStart('task', command, where, () => this.terminate(e.execution), () => void vscode.tasks.executeTask(task));
  }

  /** Terminates a task and waits (briefly) for its process to end: the guard only says "stopped" when it did. */
  private terminate(execution: vscode.TaskExecution): Promise<{ exitCode: number | undefined } | undefined> {
    // a task that already ended is not terminated (nothing to stop); its result is recorded as usual
    if (!this.started.has(execution)) return Promise.resolve({ exitCode: undefined });
    this.blocked.add(execution);
    return new Promise(resolve => {
      const timer = setTimeout(() => {
        this.endWaiters.delete(execution);
        resolve(undefined);
      }, STOP_CONFIRM_MS);
      // terminate() kills the task's process: an end right after it is that kill, whatever exit code the task's shell reports
      this.endWaiters.set(execution, () => {
        clearTimeout(timer);
        this.endWaiters.delete(execution);
        resolve({ exitCode: 130 });
      });
      execution.terminate();
    });
  }

  private async onEnd(e: vscode.TaskProcessEndEvent): Promise<void> {
    this.endWaiters.get(e.execution)?.();
    if (!this.config()['capture.tasks']) return;
    const task = e.execution.task;
    const startedAt = this.started.get(e.execution);
    this.started.delete(e.execution);
    if (this.blocked.has(e.execution)) {
      this.log.debug('task', `task "${task.name}" was stopped by the guard: not an attempt`);
      return;
    }
    const command = taskCommandLine(task);
    if (!command || this.guard.isIgnored(command)) return;
    const where = this.registry.locate(taskCwd(task));
    if (!where) return;
    await this.guard.record(where, { command, exitCode: e.exitCode, source: 'task', output: '', startedAt }, { task: task.name });
  }
}
