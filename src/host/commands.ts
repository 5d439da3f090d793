// Palette commands (category "Failure Memory"). Each takes an optional ApproachRef so the help
// dialog, notifications, terminal links and the panel can aim it at one approach.

import * as vscode from 'vscode';
import { describeApproach } from '../core/memory';
import { reflectionToMarkdown, type ReflectionRecord } from '../core/reflection';
import type { Approach } from '../core/types';
import { Disposable } from './disposable';
import { Commands, type ApproachRef } from './guard';
import type { Logger } from './logger';
import type { FolderMemory, MemoryRegistry } from './registry';

interface Target {
  f: FolderMemory;
  a: Approach;
}

export function isApproachRef(v: unknown): v is ApproachRef {
  return typeof v === 'object' && v !== null && typeof (v as ApproachRef).folder === 'string' && typeof (v as ApproachRef).key === 'string';
}

/** Produces the self-reflection (the engine's heuristics, or a language model when allowed). */
export type ReflectionWriter = (record: ReflectionRecord, f: FolderMemory) => Promise<ReflectionRecord>;

export class CommandHandlers extends Disposable {
  /** Shows a reflection record; the panel replaces the default (a Markdown document). */
  showReflection: (record: ReflectionRecord) => Promise<void> = async r => {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: reflectionToMarkdown(r) });
    await vscode.window.showTextDocument(doc, { preview: false });
  };
  /** Shows the memory; the panel replaces the default (a Quick Pick). */
  showMemory: (ref?: ApproachRef) => Promise<void> = ref => this.pickAndAct(ref);
  writeReflection: ReflectionWriter = async r => r;

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
  ) {
    super();
    const reg = (id: string, fn: (...args: unknown[]) => unknown) => this.track(vscode.commands.registerCommand(id, fn));
    reg(Commands.Reflect, ref => this.reflect(isApproachRef(ref) ? ref : undefined));
    reg(Commands.ShowMemory, ref => this.showMemory(isApproachRef(ref) ? ref : undefined));
    reg(Commands.MarkResolved, ref => this.markResolved(isApproachRef(ref) ? ref : undefined));
    reg(Commands.RunAnywayOnce, ref => this.runAnywayOnce(isApproachRef(ref) ? ref : undefined));
    reg(Commands.ClearMemory, () => this.clear());
    reg(Commands.ExportMemory, () => this.export());
    reg(Commands.OpenLog, () => this.log.show());
    reg(Commands.CopyBrief, ref => this.copyBrief(isApproachRef(ref) ? ref : undefined));
  }

  resolveRef(ref: ApproachRef | undefined): Target | undefined {
    if (!ref) return undefined;
    const f = this.registry.byFolderUri(ref.folder);
    const a = f?.data.approaches[ref.key];
    return f && a ? { f, a } : undefined;
  }

  /** Failing and exhausted approaches of every folder, most recently failed first. */
  private failingTargets(filter: (a: Approach) => boolean = a => a.status === 'exhausted' || (a.status === 'active' && a.failures > 0)): Target[] {
    return this.registry
      .all()
      .flatMap(f => Object.values(f.data.approaches).filter(filter).map(a => ({ f, a })))
      .sort((x, y) => ((y.a.lastFailure ?? '') > (x.a.lastFailure ?? '') ? 1 : -1));
  }

  private async pick(targets: Target[], placeHolder: string): Promise<Target | undefined> {
    if (targets.length <= 1) return targets[0];
    const multi = this.registry.all().length > 1;
    const items = targets.map(t => ({
      label: `${t.a.status === 'exhausted' ? '$(error)' : t.a.status === 'resolved' ? '$(pass)' : '$(history)'} ${t.a.label}`,
      description: `${t.a.failures} failure(s)${t.a.cwd !== '.' ? ` · ${t.a.cwd}` : ''}${multi ? ` · ${t.f.folder.name}` : ''}`,
      detail: t.a.lastErrorSignature || undefined,
      t,
    }));
    return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true }))?.t;
  }

  async reflect(ref?: ApproachRef): Promise<ReflectionRecord | undefined> {
    const target = this.resolveRef(ref) ?? (await this.pick(this.failingTargets(), 'Reflect on which approach? (most recent first)'));
    if (!target) {
      void vscode.window.showInformationMessage('Failure Memory: nothing to reflect on — no command is failing.');
      return undefined;
    }
    const t0 = Date.now();
    let record = await target.f.memory.reflect(target.a.key, undefined, { store: false });
    if (!record) return undefined;
    record = await this.writeReflection(record, target.f);
    await this.registry.write(target.f, m => m.saveReflection(record!));
    this.log.info('reflect', `reflection on ${describeApproach(target.a)} (${record.failure_memory.produced_by}) in ${Date.now() - t0} ms`);
    this.log.event('reflected', { key: target.a.key, producedBy: record.failure_memory.produced_by, id: record.failure_memory.id });
    await this.showReflection(record);
    return record;
  }

  async markResolved(ref?: ApproachRef): Promise<void> {
    const target = this.resolveRef(ref) ?? (await this.pick(this.failingTargets(), 'Mark which approach resolved?'));
    if (!target) {
      void vscode.window.showInformationMessage('Failure Memory: no failing approach to resolve.');
      return;
    }
    await this.registry.write(target.f, m => m.resolve(target.a.key));
    this.log.info('commands', `marked resolved: ${describeApproach(target.a)}`);
    this.log.event('resolved', { key: target.a.key, by: 'manual' });
    vscode.window.setStatusBarMessage(`$(check) Failure Memory: "${target.a.label}" marked resolved`, 4000);
  }

  /** "Copy as Prompt": a redacted markdown brief of the approach on the clipboard, for a chat or an issue. */
  async copyBrief(ref?: ApproachRef): Promise<string | undefined> {
    const target = this.resolveRef(ref) ?? (await this.pick(this.failingTargets(), 'Copy a brief of which approach? (most recent first)'));
    if (!target) {
      void vscode.window.showInformationMessage('Failure Memory: nothing to brief — no command is failing.');
      return undefined;
    }
    const brief = await target.f.memory.brief(target.a.key);
    if (!brief) return undefined;
    await vscode.env.clipboard.writeText(brief);
    this.log.info('commands', `brief copied: ${describeApproach(target.a)} (${brief.length} characters)`);
    this.log.event('briefCopied', { key: target.a.key, chars: brief.length });
    vscode.window.setStatusBarMessage(`$(comment-discussion) Failure Memory: a brief of "${target.a.label}" is on the clipboard`, 4000);
    return brief;
  }

  async runAnywayOnce(ref?: ApproachRef): Promise<void> {
    const target = this.resolveRef(ref) ?? (await this.pick(this.failingTargets(a => a.status === 'exhausted'), 'Let which exhausted approach run once?'));
    if (!target) return;
    await this.registry.write(target.f, m => m.allowOnce(target.a.key));
    this.log.info('commands', `run anyway once: ${describeApproach(target.a)}`);
    this.log.event('allowOnce', { key: target.a.key });
  }

  private async pickAndAct(ref?: ApproachRef): Promise<void> {
    const all = this.failingTargets(() => true);
    const chosen = this.resolveRef(ref) ?? (await this.pick(all, all.length ? 'Failure Memory: remembered approaches' : ''));
    if (!chosen) {
      void vscode.window.showInformationMessage('Failure Memory: nothing remembered yet. Failing terminal commands and tasks show up here.');
      return;
    }
    const r: ApproachRef = { folder: chosen.f.folder.uri.toString(), key: chosen.a.key };
    const actions = ['Reflect on Failures', 'Mark Resolved', ...(chosen.a.status === 'exhausted' ? ['Run Anyway Once'] : []), 'Copy Command'];
    const pick = await vscode.window.showQuickPick(actions, { placeHolder: `${describeApproach(chosen.a)} — ${chosen.a.status}, ${chosen.a.failures} failure(s)` });
    if (pick === 'Reflect on Failures') await this.reflect(r);
    else if (pick === 'Mark Resolved') await this.markResolved(r);
    else if (pick === 'Run Anyway Once') await this.runAnywayOnce(r);
    else if (pick === 'Copy Command') await vscode.env.clipboard.writeText(chosen.a.command);
  }

  private async clear(): Promise<void> {
    const folders = this.registry.all();
    if (!folders.length) return;
    const names = folders.map(f => f.folder.name).join(', ');
    const ok = await vscode.window.showWarningMessage(
      `Clear all Failure Memory of ${names}?`,
      { modal: true, detail: 'Every remembered failure, reflection and learning of this workspace is deleted. This cannot be undone (export it first if you want a copy).' },
      'Clear Memory',
    );
    if (ok !== 'Clear Memory') return;
    for (const f of folders) await this.registry.write(f, m => m.clear());
    this.log.info('commands', `memory cleared for ${names}`);
    this.log.event('cleared', { folders: folders.length });
  }

  private async export(): Promise<void> {
    const folders = this.registry.all();
    if (!folders.length) return;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(folders[0].folder.uri, 'failure-memory-export.json'),
      filters: { JSON: ['json'] },
      saveLabel: 'Export Memory',
    });
    if (!target) return;
    const payload = {
      exportedAt: new Date().toISOString(),
      folders: await Promise.all(folders.map(async f => ({ name: f.folder.name, memory: await f.memory.read() }))),
    };
    await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(payload, null, 2), 'utf8'));
    this.log.info('commands', `memory exported to ${target.fsPath}`);
    void vscode.window.showInformationMessage(`Failure Memory exported to ${target.fsPath}.`);
  }
}
