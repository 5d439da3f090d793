// Pause and resume capture (palette and status bar). While paused, terminal commands and tasks are
// neither recorded nor stopped: the watchers see capture as off. Kept per workspace across reloads.

import * as vscode from 'vscode';
import type { Settings } from '../core/config';
import { Disposable } from './disposable';
import { CommandId } from './commandIds';
import type { Logger } from './logger';

const STATE_KEY = 'failureMemory.capturePaused';

export class CapturePause extends Disposable {
  private readonly changed = this.track(new vscode.EventEmitter<boolean>());
  readonly onDidChange = this.changed.event;
  private _paused: boolean;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
  ) {
    super();
    this._paused = context.workspaceState.get<boolean>(STATE_KEY) === true;
    this.track(vscode.commands.registerCommand(CommandId.PauseCapture, () => this.set(true)));
    this.track(vscode.commands.registerCommand(CommandId.ResumeCapture, () => this.set(false)));
    void vscode.commands.executeCommand('setContext', 'failureMemory.capturePaused', this._paused);
  }

  get paused(): boolean {
    return this._paused;
  }

  /** The configuration the watchers act on: capture off while paused. */
  apply(config: Settings): Settings {
    return this._paused ? { ...config, 'capture.terminal': false, 'capture.tasks': false } : config;
  }

  async set(paused: boolean): Promise<void> {
    if (paused === this._paused) return;
    this._paused = paused;
    await this.context.workspaceState.update(STATE_KEY, paused);
    await vscode.commands.executeCommand('setContext', 'failureMemory.capturePaused', paused);
    this.log.info('capture', paused ? 'capture paused: nothing is recorded or stopped until it is resumed' : 'capture resumed');
    this.log.event('capturePaused', { paused });
    this.changed.fire(paused);
    vscode.window.setStatusBarMessage(paused ? '$(debug-pause) Failure Memory: capture paused' : '$(record) Failure Memory: capture resumed', 3000);
  }
}
