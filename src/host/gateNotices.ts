// What was done to the gate, shown to the user in VS Code: when a folder's memory lost exhausted
// approaches behind Failure Memory's back (deleted, replaced, edited; store/gateGuard.ts restores
// them), or the copy of its state was altered, a notification says what changed, when, and after
// which command line when a hook saw it, with *Restore* (keep the restoration: the approaches stop
// runs again) and *Keep* (keep what was done: they are resolved, as the user's resolve). Each event
// is shown once in the editor; hooks and doctor say it their own way.

import * as vscode from 'vscode';
import { eventSentence, keepChange, keepLostApproaches, markEventsTold, untoldEvents } from '../app/gateEvents';
import type { GateEvent } from '../core/gateState';
import { plainText } from '../core/text/plainText';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { FolderMemory, MemoryRegistry } from './registry';

export class GateNotices extends Disposable {
  private busy = false;
  private again = false;

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
  ) {
    super();
    this.track(registry.onDidChange(() => void this.check()));
  }

  /** For each folder: a loss on disk written back (with its event), then every event not yet shown here. */
  async check(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      for (const f of this.registry.all()) await this.checkFolder(f);
    } finally {
      this.busy = false;
      if (this.again && !this.isDisposed) {
        this.again = false;
        void this.check();
      }
    }
  }

  private async checkFolder(f: FolderMemory): Promise<void> {
    try {
      if (await keepLostApproaches(f.memory)) this.log.warn('gate', `${f.folder.name}: the memory had lost exhausted approaches behind Failure Memory's back; restored from the copy of the gate's state`);
      const events = untoldEvents(f.memory, 'editor');
      if (!events.length) return;
      markEventsTold(f.memory, 'editor', events.map(e => e.id));
      for (const e of events) void this.show(f, e);
    } catch (e) {
      this.log.warn('gate', `${f.folder.name}: the gate's state could not be checked: ${(e as Error)?.message ?? e}`);
    }
  }

  private async show(f: FolderMemory, e: GateEvent): Promise<void> {
    this.log.warn('gate', `${f.folder.name}: ${eventSentence(e)} (found by ${e.via})`);
    this.log.event('gateTampered', { folder: f.folder.uri.fsPath, kind: e.kind, approaches: e.approaches.map(a => a.key), via: e.via, by: e.by ?? null });
    if (e.kind !== 'restored') {
      void vscode.window.showWarningMessage(plainText(`Failure Memory (${f.folder.name}): ${eventSentence(e)}`, 900));
      return;
    }
    const choice = await vscode.window.showWarningMessage(plainText(`Failure Memory (${f.folder.name}): ${eventSentence(e)}`, 900), 'Restore', 'Keep');
    if (choice !== 'Keep') return;
    await this.registry.write(f, m => keepChange(m, e));
    this.log.info('gate', `${f.folder.name}: the user kept the change; resolved ${e.approaches.map(a => a.label).join(', ')}`);
  }
}
