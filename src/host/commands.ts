// Palette commands (category "Failure Memory"). Each takes an optional ApproachRef so the help
// dialog, the panel and terminal links can aim it at one approach; without one, it asks.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeApproach } from '../core/memory';
import { plainText } from '../core/text/plainText';
import type { ReflectionRecord } from '../core/reflection';
import type { ApproachActions } from './actions';
import { CommandId, isApproachRef, type ApproachRef } from './commandIds';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';

/** Where the commands show things: the memory panel and the reflection view. */
export interface Views {
  showMemory(ref?: ApproachRef): Promise<void>;
  /** Shows a reflection on an approach of a workspace folder (its URI). */
  showReflection(record: ReflectionRecord, folder: string): Promise<void>;
  /** The memory was exported (the walkthrough's step). */
  exported?(): void;
}

export class CommandHandlers extends Disposable {
  constructor(
    private readonly registry: MemoryRegistry,
    private readonly actions: ApproachActions,
    private readonly views: Views,
    private readonly log: Logger,
  ) {
    super();
    const reg = (id: CommandId, fn: (...args: unknown[]) => unknown) => this.track(vscode.commands.registerCommand(id, fn));
    const ref = (v: unknown) => (isApproachRef(v) ? v : undefined);
    reg(CommandId.Reflect, r => this.reflect(ref(r)));
    reg(CommandId.ShowMemory, r => this.views.showMemory(ref(r)));
    reg(CommandId.MarkResolved, r => this.markResolved(ref(r)));
    reg(CommandId.RunAnywayOnce, r => this.runAnywayOnce(ref(r)));
    reg(CommandId.ClearMemory, () => this.clear());
    reg(CommandId.ExportMemory, () => this.export());
    reg(CommandId.OpenLog, () => this.log.show());
    reg(CommandId.CopyBrief, r => this.copyBrief(ref(r)));
  }

  async reflect(ref?: ApproachRef): Promise<ReflectionRecord | undefined> {
    let target = this.actions.resolveRef(ref);
    if (!target) {
      const targets = this.actions.targets();
      if (!targets.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to reflect on: no command is failing.'));
        return undefined;
      }
      const picked = this.actions.pick(targets, vscode.l10n.t('Reflect on which approach? (most recent first)'));
      // the recall index is built while the person picks (it is what makes a first reflection slow),
      // once the pick is on its way to the window
      setTimeout(() => this.actions.warmRecall(), 50);
      target = await picked;
      if (!target) return undefined; // the pick was dismissed
    }
    const folder = target.f.folder.uri.toString();
    return this.actions.reflect(target, record => this.views.showReflection(record, folder));
  }

  async markResolved(ref?: ApproachRef): Promise<void> {
    const target = this.actions.resolveRef(ref) ?? (await this.actions.pick(this.actions.targets(), vscode.l10n.t('Mark which approach resolved?')));
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No failing approach to mark resolved.'));
      return;
    }
    await this.actions.markResolved(target);
  }

  /** "Copy as Prompt": a redacted markdown brief of the approach on the clipboard, for a chat or an issue. */
  async copyBrief(ref?: ApproachRef): Promise<string | undefined> {
    const target = this.actions.resolveRef(ref) ?? (await this.actions.pick(this.actions.targets(), vscode.l10n.t('Copy a brief of which approach? (most recent first)')));
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to brief: no command is failing.'));
      return undefined;
    }
    const brief = await target.f.memory.brief(target.a.key);
    if (!brief) return undefined;
    await vscode.env.clipboard.writeText(brief);
    this.log.info('commands', `brief copied: ${describeApproach(target.a)} (${brief.length} characters)`);
    this.log.event('briefCopied', { key: target.a.key, chars: brief.length });
    vscode.window.setStatusBarMessage(`$(comment-discussion) ${vscode.l10n.t('A brief of “{0}” is on the clipboard', plainText(target.a.label, 80))}`, 4000);
    return brief;
  }

  async runAnywayOnce(ref?: ApproachRef): Promise<void> {
    const target =
      this.actions.resolveRef(ref) ?? (await this.actions.pick(this.actions.targets(a => a.status === 'exhausted'), vscode.l10n.t('Let which exhausted approach run once?')));
    if (!target) return;
    await this.actions.runAnywayOnce(target);
    vscode.window.setStatusBarMessage(`$(debug-continue) ${vscode.l10n.t('The next run of “{0}” is let through', plainText(describeApproach(target.a), 80))}`, 5000);
  }

  private async clear(): Promise<void> {
    const folders = this.registry.all();
    if (!folders.length) return;
    const names = folders.map(f => f.folder.name).join(', ');
    const clearLabel = vscode.l10n.t('Clear Memory');
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Clear all Failure Memory of {0}?', names),
      {
        modal: true,
        detail: vscode.l10n.t('Every remembered failure, reflection and learning of this workspace is deleted. This cannot be undone (export it first if you want a copy).'),
      },
      clearLabel,
    );
    if (ok !== clearLabel) return;
    for (const f of folders) await this.registry.write(f, m => m.clear());
    this.log.info('commands', `memory cleared for ${names}`);
    this.log.event('cleared', { folders: folders.length });
  }

  private async export(): Promise<void> {
    const folders = this.registry.all();
    if (!folders.length) return;
    // asks where, offering the home folder: an export in the repository would be committed, and
    // would show up as a change of the user's
    const name = `failure-memory-export-${folders[0].folder.name.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().slice(0, 10)}.json`;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(os.homedir(), name)),
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Export Memory'),
      title: vscode.l10n.t('Export the memory of this workspace to'),
    });
    if (!target) return;
    const payload = {
      exportedAt: new Date().toISOString(),
      folders: await Promise.all(folders.map(async f => ({ name: f.folder.name, memory: await f.memory.read() }))),
    };
    await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(payload, null, 2), 'utf8'));
    this.log.info('commands', `memory exported to ${target.fsPath}`);
    this.views.exported?.();
    void vscode.window.showInformationMessage(vscode.l10n.t('Memory exported to {0}.', target.fsPath));
  }
}
