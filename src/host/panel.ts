// The memory panel: a webview view in the Failure Memory activity-bar container. The host owns the
// state and posts full snapshots (after the webview's `ready`, when it becomes visible, and whenever
// the memory changes — also from the CLI or another window); the webview only renders and asks.
// Every message from the webview is validated (shared/webviewMessages.ts) and checked against the memory
// before anything acts on it.

import * as vscode from 'vscode';
import { ApproachViewCache, buildSnapshot, searchResults } from '../views/panelModel';
import { plainText } from '../core/text/plainText';
import type { Approach } from '../core/types';
import type { CaptureView, HostMessage, RecallView } from '../shared/protocol';
import { validateWebviewMessage, type WebviewMessage } from '../shared/webviewMessages';
import type { ApproachActions } from './actions';
import { CommandId, type ApproachRef } from './commandIds';
import { webviewHtml } from './webviewHtml';
import { Disposable } from './disposable';
import type { TeamHub } from './team';
import type { Logger } from './logger';
import type { ReflectionView } from './reflectionView';
import type { FolderMemory, MemoryRegistry } from './registry';

/** A request the webview may make but that cannot be carried out; shown to the user in the panel. */
class Refused extends Error {}

export class MemoryPanel extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewId = 'failureMemory.panel';

  private view: vscode.WebviewView | undefined;
  private viewSubscriptions: vscode.Disposable[] = [];
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private highlight: ApproachRef | undefined;
  private searchSeq = 0;
  private readonly views = new ApproachViewCache();
  /**
   * Something the panel shows changed since the last snapshot this webview got. The webview is kept
   * while hidden: shown again with nothing changed, it already shows the memory as it is.
   */
  private stale = true;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly registry: MemoryRegistry,
    private readonly actions: ApproachActions,
    private readonly reflections: ReflectionView,
    private readonly log: Logger,
    private readonly capture: () => CaptureView,
    onCaptureChange?: vscode.Event<void>,
    private readonly team?: TeamHub,
    /** The embedding model: offered here while recall runs without it (never by a prompt). */
    private readonly model?: { readonly offered: boolean; readonly onDidChange: vscode.Event<void> },
  ) {
    super();
    const changed = () => {
      this.stale = true;
      this.scheduleSnapshot();
    };
    if (model) this.track(model.onDidChange(changed));
    this.track(vscode.window.registerWebviewViewProvider(MemoryPanel.viewId, this, { webviewOptions: { retainContextWhenHidden: true } }));
    this.track(registry.onDidChange(changed));
    if (onCaptureChange) this.track(onCaptureChange(changed));
    if (team) this.track(team.onDidChange(changed));
    this.track(vscode.workspace.onDidChangeConfiguration(e => e.affectsConfiguration('failureMemory') && changed()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
    this.view = view;
    this.ready = false;
    this.stale = true;
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')];
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: roots };
    view.webview.html = this.html(view.webview);
    this.viewSubscriptions.push(
      view.webview.onDidReceiveMessage(m => void this.onMessage(m)),
      view.onDidChangeVisibility(() => {
        this.log.debug('panel', `visible: ${view.visible}`);
        if (view.visible) this.postSnapshot();
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
        for (const d of this.viewSubscriptions.splice(0)) d.dispose();
      }),
    );
    this.log.info('panel', 'memory panel resolved');
    // Reflect and search from the panel recall: their index is built while the person reads
    setTimeout(() => this.view === view && this.actions.warmRecall(), 1000);
  }

  /** Opens the panel, optionally flashing one approach. */
  async reveal(ref?: ApproachRef): Promise<void> {
    if (ref) this.highlight = ref;
    await vscode.commands.executeCommand(`${MemoryPanel.viewId}.focus`);
    this.log.event('panelShown', { key: ref?.key });
    this.postSnapshot();
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.extensionUri, {
      lang: 'en',
      title: 'Failure Memory',
      css: 'panel.css',
      script: 'webview.js',
      body: `<div id="app" class="app"><p class="loading">${vscode.l10n.t('Loading the memory…')}</p></div>`,
    });
  }

  private post(message: HostMessage): void {
    if (!this.view) return;
    this.view.webview.postMessage(message).then(undefined, e => this.log.debug('panel', `post failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private scheduleSnapshot(delayMs = 30): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.postSnapshot();
    }, delayMs);
  }

  /**
   * Posts the whole state; skipped until the webview said `ready`, while hidden (sent again when
   * shown), and when the webview already shows it (nothing changed, no approach to show).
   */
  private postSnapshot(): void {
    if (!this.view || !this.ready || !this.view.visible) return;
    if (!this.stale && !this.highlight) return;
    const t0 = Date.now();
    const snapshot = buildSnapshot(
      this.registry.all().map(f => ({
        uri: f.folder.uri.toString(),
        name: f.folder.name,
        private: f.private,
        data: f.data,
        threshold: f.memory.settings.threshold,
        team: this.team?.stateOf(f.folder.uri.fsPath),
      })),
      this.capture(),
      { highlight: this.highlight, cache: this.views },
    );
    if (this.model?.offered) snapshot.offerModel = true;
    this.highlight = undefined;
    this.stale = false;
    this.post({ type: 'snapshot', snapshot });
    const counts = {
      exhausted: snapshot.exhausted.length,
      failing: snapshot.failing.length,
      resolved: snapshot.resolved.length,
      reflections: snapshot.reflections.length,
      learnings: snapshot.learnings.length,
    };
    this.log.debug('panel', `snapshot posted in ${Date.now() - t0} ms ${JSON.stringify(counts)}`);
    this.log.event('panelSnapshot', counts);
  }

  private folder(uri: string): FolderMemory {
    const f = this.registry.byFolderUri(uri);
    if (!f) throw new Refused(vscode.l10n.t('That workspace folder is not open any more.'));
    return f;
  }

  private approach(folder: string, key: string): { f: FolderMemory; a: Approach } {
    this.folder(folder);
    const target = this.actions.resolveRef({ folder, key });
    if (!target) throw new Refused(vscode.l10n.t('That approach is no longer in memory.'));
    return target;
  }

  private learning(folder: string, id: string): FolderMemory {
    const f = this.folder(folder);
    if (!f.data.learnings.some(l => l.id === id)) throw new Refused(vscode.l10n.t('That learning is no longer in memory.'));
    return f;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const v = validateWebviewMessage(raw);
    if (!v.ok) {
      this.log.warn('panel', `ignored a message from the webview: ${v.reason}`);
      this.log.event('panelRejected', { reason: v.reason });
      return;
    }
    const m = v.message;
    if (m.type === 'ready') {
      this.ready = true;
      this.stale = true;
      this.log.debug('panel', 'webview ready');
      this.postSnapshot();
      return;
    }
    const t0 = Date.now();
    try {
      const detail = await this.act(m);
      this.log.event('panelAction', { action: m.type, ok: true, ms: Date.now() - t0, ...detail });
      // the webview waits on its button until the next snapshot: one comes also when nothing in memory changed (a copy)
      if (m.type !== 'search') {
        this.stale = true;
        this.scheduleSnapshot();
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof Refused) this.log.warn('panel', `${m.type} refused: ${message}`);
      else this.log.error('panel', `${m.type} failed`, e);
      this.log.event('panelAction', { action: m.type, ok: false, error: message });
      this.post({ type: 'error', message: e instanceof Refused ? message : vscode.l10n.t('That did not work ({0}): {1}', m.type, message) });
      this.stale = true;
      this.postSnapshot();
    }
  }

  private async act(m: Exclude<WebviewMessage, { type: 'ready' }>): Promise<Record<string, unknown>> {
    switch (m.type) {
      case 'resolve': {
        const target = this.approach(m.folder, m.key);
        if (target.a.status === 'resolved') throw new Refused(vscode.l10n.t('“{0}” is already resolved.', target.a.label));
        await this.actions.markResolved(target);
        return { key: m.key };
      }
      case 'runAnywayOnce': {
        const target = this.approach(m.folder, m.key);
        if (target.a.status !== 'exhausted') throw new Refused(vscode.l10n.t('“{0}” is not exhausted: it may run already.', target.a.label));
        await this.actions.runAnywayOnce(target);
        vscode.window.setStatusBarMessage(`$(debug-continue) ${vscode.l10n.t('The next run of “{0}” is let through', plainText(target.a.label, 80))}`, 5000);
        return { key: m.key };
      }
      case 'reflect': {
        const record = await this.actions.reflect(this.approach(m.folder, m.key), r => this.reflections.show(r, m.folder));
        return { key: m.key, id: record?.failure_memory.id };
      }
      case 'copyCommand': {
        const { a } = this.approach(m.folder, m.key);
        await vscode.env.clipboard.writeText(a.command);
        vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied: {0}', plainText(a.command, 60))}`, 3000);
        return { key: m.key };
      }
      case 'copyBrief': {
        this.approach(m.folder, m.key);
        await vscode.commands.executeCommand(CommandId.CopyBrief, { folder: m.folder, key: m.key });
        return { key: m.key };
      }
      case 'search':
        return this.search(m.query);
      case 'addLearning': {
        const f = this.folder(m.folder);
        if (m.key !== undefined) this.approach(m.folder, m.key);
        const l = await this.registry.write(f, mem => mem.addLearning(m.learningType, m.text, { key: m.key, source: 'user' }));
        this.log.info('panel', `learning added (${l.type})`);
        return { id: l.id, learningType: l.type };
      }
      case 'updateLearning': {
        const f = this.learning(m.folder, m.id);
        await this.registry.write(f, mem => mem.updateLearning(m.id, { type: m.learningType, text: m.text }));
        return { id: m.id };
      }
      case 'deleteLearning': {
        const f = this.learning(m.folder, m.id);
        await this.registry.write(f, mem => mem.deleteLearning(m.id));
        return { id: m.id };
      }
      case 'openLog':
        this.log.show();
        return {};
      case 'downloadModel':
        await vscode.commands.executeCommand(CommandId.DownloadModel);
        return {};
    }
  }

  /** Recall over every folder (lexical today, semantic when the embeddings scorer is plugged in); the latest query wins. */
  private async search(query: string): Promise<Record<string, unknown>> {
    const seq = ++this.searchSeq;
    const q = query.trim();
    let results: RecallView[] = [];
    if (q.length >= 2) {
      results = searchResults(await Promise.all(this.registry.all().map(async f => ({ folder: f.folder.uri.toString(), hits: await f.memory.recall(q, 5) }))));
    }
    if (seq === this.searchSeq) this.post({ type: 'recallResults', query, results });
    return { results: results.length, top: results[0]?.key };
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
    super.dispose();
  }
}
