// The reflection, shown read-only and rendered (not an Untitled Markdown file that asks to be
// saved): one editor webview, reused, whose script puts every string in as text. Command URIs
// are off and the CSP allows only our own script and styles.
// An open reflection follows its approach: when the approach fails again (or passes, or is marked
// resolved) while the tab is open, the tab shows it as it stands now (a reflection written at two
// failures does not go on saying "failed twice" once the approach is exhausted).

import { webviewHtml } from './webviewHtml';
import * as vscode from 'vscode';
import { followReflection, type ReflectionRecord } from '../core/reflection';
import { reflectionDoc } from '../views/reflectionDoc';
import type { ReflectionDoc } from '../shared/reflectionDoc';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';

/** A reflection shown, and the approach it is about: `stamp` tells when that approach changed. */
interface Shown {
  record: ReflectionRecord;
  folder: string;
  stamp: string;
}

export class ReflectionView extends Disposable {
  static readonly viewType = 'failureMemory.reflection';
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private doc: ReflectionDoc | undefined;
  private shown: Shown | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
    private readonly registry?: MemoryRegistry,
  ) {
    super();
    if (registry) this.track(registry.onDidChange(() => this.scheduleFollow()));
  }

  /** Shows a reflection on an approach of the workspace folder `folder` (its URI). */
  async show(record: ReflectionRecord, folder?: string): Promise<void> {
    this.shown = folder ? { record, folder, stamp: this.stampOf(folder, record.failure_memory.key) ?? '' } : undefined;
    this.render(record);
    if (!this.panel) this.panel = this.create(this.title(record));
    else this.panel.reveal(vscode.ViewColumn.Active);
    this.post();
    this.log.event('reflectionShown', { id: record.failure_memory.id, key: record.failure_memory.key, recent: record.failure_memory.recent.map(r => r.outcome) });
  }

  private title(record: ReflectionRecord): string {
    const label = record.failure_memory.label;
    return vscode.l10n.t('Reflection: {0}', label.length > 40 ? `${label.slice(0, 39)}…` : label);
  }

  private render(record: ReflectionRecord): void {
    this.doc = reflectionDoc(record);
    if (this.panel) this.panel.title = this.title(record);
  }

  /** What an approach's state is made of, to tell whether it changed since the reflection was shown. */
  private stampOf(folder: string, key: string): string | undefined {
    const f = this.registry?.byFolderUri(folder);
    const a = f && Object.prototype.hasOwnProperty.call(f.data.approaches, key) ? f.data.approaches[key] : undefined;
    return a ? `${a.updatedAt}|${a.status}|${a.failures}|${f!.memory.settings.threshold}` : undefined;
  }

  private scheduleFollow(): void {
    if (!this.shown || !this.panel) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.follow(), 100);
  }

  /** The open reflection made current when its approach changed (heuristics written again; a model's text kept, its facts updated). */
  private follow(): void {
    this.timer = undefined;
    const s = this.shown;
    if (!s || !this.panel) return;
    const stamp = this.stampOf(s.folder, s.record.failure_memory.key);
    if (stamp === undefined || stamp === s.stamp) return;
    const f = this.registry!.byFolderUri(s.folder)!;
    const record = followReflection(s.record, { data: f.data, approach: f.data.approaches[s.record.failure_memory.key], threshold: f.memory.settings.threshold });
    this.shown = { record, folder: s.folder, stamp };
    this.render(record);
    this.post();
    this.log.event('reflectionFollowed', { id: record.failure_memory.id, key: record.failure_memory.key, status: record.failure_memory.status, attempts: record.failure_memory.attempts });
  }

  private create(title: string): vscode.WebviewPanel {
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')];
    const panel = vscode.window.createWebviewPanel(ReflectionView.viewType, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: roots,
    });
    this.ready = false;
    panel.webview.html = this.html(panel.webview);
    const subs = [
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'ready') {
          this.ready = true;
          this.post();
        }
      }),
      panel.onDidDispose(() => {
        for (const d of subs) d.dispose();
        if (this.panel === panel) {
          this.panel = undefined;
          this.shown = undefined;
        }
      }),
    ];
    return panel;
  }

  private post(): void {
    if (!this.panel || !this.ready || !this.doc) return;
    this.panel.webview.postMessage({ type: 'reflection', doc: this.doc }).then(undefined, e => this.log.debug('reflection', `post failed: ${String(e)}`));
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.extensionUri, {
      lang: vscode.env.language,
      title: vscode.l10n.t('Reflection'),
      css: 'reflection.css',
      script: 'reflection.js',
      body: `<main id="app" class="reflection"><p>${vscode.l10n.t('Loading the reflection…')}</p></main>`,
    });
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.panel?.dispose();
    super.dispose();
  }
}
