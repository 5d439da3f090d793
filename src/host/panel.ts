// The memory panel: a webview view in the Failure Memory activity-bar container. The host owns the
// state and posts full snapshots (after the webview's `ready`, when it becomes visible, and whenever
// the memory changes — also from the CLI or another window); the webview only renders and asks.
// Every message from the webview is validated (shared/protocol.ts) and checked against the memory
// before anything acts on it.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ReflectionRecord } from '../core/reflection';
import type { Approach } from '../core/types';
import { validateWebviewMessage, type HostMessage, type RecallView, type WebviewMessage } from '../shared/protocol';
import type { CommandHandlers } from './commands';
import { Disposable } from './disposable';
import type { ApproachRef } from './guard';
import type { TeamHub } from './team';
import type { Logger } from './logger';
import { buildSnapshot, recallView } from './panelModel';
import type { FolderMemory, MemoryRegistry } from './registry';
import type { CaptureState } from './statusBar';

/** A request the webview may make but that cannot be carried out; shown to the user in the panel. */
class Refused extends Error {}

export class MemoryPanel extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewId = 'failureMemory.panel';

  private view: vscode.WebviewView | undefined;
  private viewSubscriptions: vscode.Disposable[] = [];
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private highlight: ApproachRef | undefined;
  private highlightReflection: string | undefined;
  private searchSeq = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly registry: MemoryRegistry,
    private readonly commands: CommandHandlers,
    private readonly log: Logger,
    private readonly capture: () => CaptureState,
    onCaptureChange?: vscode.Event<void>,
    private readonly team?: TeamHub,
  ) {
    super();
    this.track(vscode.window.registerWebviewViewProvider(MemoryPanel.viewId, this));
    this.track(registry.onDidChange(() => this.scheduleSnapshot()));
    if (onCaptureChange) this.track(onCaptureChange(() => this.scheduleSnapshot()));
    if (team) this.track(team.onDidChange(() => this.scheduleSnapshot()));
    this.track(vscode.workspace.onDidChangeConfiguration(e => e.affectsConfiguration('failureMemory') && this.scheduleSnapshot()));

    // Show Memory now opens the panel; reflections show in the panel and still as a Markdown document
    commands.showMemory = ref => this.reveal(ref);
    const showDocument = commands.showReflection;
    commands.showReflection = async record => {
      await this.revealReflection(record);
      await showDocument(record);
    };
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
    this.view = view;
    this.ready = false;
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
  }

  /** Opens the panel, optionally flashing one approach. */
  async reveal(ref?: ApproachRef): Promise<void> {
    if (ref) this.highlight = ref;
    await vscode.commands.executeCommand(`${MemoryPanel.viewId}.focus`);
    this.log.event('panelShown', { key: ref?.key });
    this.postSnapshot();
  }

  private async revealReflection(record: ReflectionRecord): Promise<void> {
    this.highlightReflection = record.failure_memory.id;
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${MemoryPanel.viewId}.focus`);
    this.postSnapshot();
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...p)).toString();
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('dist', 'codicon.css')}">
<link rel="stylesheet" href="${uri('media', 'panel.css')}">
<title>Failure Memory</title>
</head>
<body>
<div id="app" class="app"><p class="loading">Loading the memory…</p></div>
<script nonce="${nonce}" src="${uri('dist', 'webview.js')}"></script>
</body>
</html>`;
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

  /** Posts the whole state; skipped until the webview said `ready`, and while hidden (sent again when shown). */
  private postSnapshot(): void {
    if (!this.view || !this.ready || !this.view.visible) return;
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
      { highlight: this.highlight, highlightReflection: this.highlightReflection },
    );
    this.highlight = undefined;
    this.highlightReflection = undefined;
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
    if (!f) throw new Refused('That workspace folder is not open any more.');
    return f;
  }

  private approach(folder: string, key: string): { f: FolderMemory; a: Approach } {
    const f = this.folder(folder);
    // own properties only: a key such as "__proto__" must never reach Object.prototype
    const a = Object.prototype.hasOwnProperty.call(f.data.approaches, key) ? f.data.approaches[key] : undefined;
    if (!a) throw new Refused('That approach is no longer in memory.');
    return { f, a };
  }

  private learning(folder: string, id: string): FolderMemory {
    const f = this.folder(folder);
    if (!f.data.learnings.some(l => l.id === id)) throw new Refused('That learning is no longer in memory.');
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
      this.log.debug('panel', 'webview ready');
      this.postSnapshot();
      return;
    }
    const t0 = Date.now();
    try {
      const detail = await this.act(m);
      this.log.event('panelAction', { action: m.type, ok: true, ms: Date.now() - t0, ...detail });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof Refused) this.log.warn('panel', `${m.type} refused: ${message}`);
      else this.log.error('panel', `${m.type} failed`, e);
      this.log.event('panelAction', { action: m.type, ok: false, error: message });
      this.post({ type: 'error', message: e instanceof Refused ? message : `Failure Memory could not ${m.type}: ${message}` });
      this.postSnapshot();
    }
  }

  private async act(m: Exclude<WebviewMessage, { type: 'ready' }>): Promise<Record<string, unknown>> {
    switch (m.type) {
      case 'resolve': {
        const { a } = this.approach(m.folder, m.key);
        if (a.status === 'resolved') throw new Refused(`"${a.label}" is already resolved.`);
        await this.commands.markResolved({ folder: m.folder, key: m.key });
        return { key: m.key };
      }
      case 'runAnywayOnce': {
        const { a } = this.approach(m.folder, m.key);
        if (a.status !== 'exhausted') throw new Refused(`"${a.label}" is not exhausted: it may run already.`);
        await this.commands.runAnywayOnce({ folder: m.folder, key: m.key });
        vscode.window.setStatusBarMessage(`$(debug-continue) Failure Memory: the next run of "${a.label}" is let through`, 5000);
        return { key: m.key };
      }
      case 'reflect': {
        this.approach(m.folder, m.key);
        const record = await this.commands.reflect({ folder: m.folder, key: m.key });
        return { key: m.key, id: record?.failure_memory.id };
      }
      case 'copyCommand': {
        const { a } = this.approach(m.folder, m.key);
        await vscode.env.clipboard.writeText(a.command);
        vscode.window.setStatusBarMessage(`$(copy) Copied: ${a.command.length > 60 ? `${a.command.slice(0, 60)}…` : a.command}`, 3000);
        return { key: m.key };
      }
      case 'copyBrief': {
        this.approach(m.folder, m.key);
        await this.commands.copyBrief({ folder: m.folder, key: m.key });
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
    }
  }

  /** Recall over every folder (lexical today, semantic when the embeddings scorer is plugged in); the latest query wins. */
  private async search(query: string): Promise<Record<string, unknown>> {
    const seq = ++this.searchSeq;
    const q = query.trim();
    let results: RecallView[] = [];
    if (q.length >= 2) {
      const perFolder = await Promise.all(
        this.registry.all().map(async f => (await f.memory.recall(q, 5)).map(h => recallView(f.folder.uri.toString(), h))),
      );
      results = perFolder.flat().sort((a, b) => b.score - a.score).slice(0, 8);
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
