// The reflection, shown read-only and rendered (not an Untitled Markdown file that asks to be
// saved): one editor webview, reused, whose script puts every string in as text. Command URIs
// are off and the CSP allows only our own script and styles.

import { webviewHtml } from './webviewHtml';
import * as vscode from 'vscode';
import type { ReflectionRecord } from '../core/reflection';
import { reflectionDoc } from '../views/reflectionDoc';
import type { ReflectionDoc } from '../shared/reflectionDoc';
import { Disposable } from './disposable';
import type { Logger } from './logger';

export class ReflectionView extends Disposable {
  static readonly viewType = 'failureMemory.reflection';
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private doc: ReflectionDoc | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
  ) {
    super();
  }

  async show(record: ReflectionRecord): Promise<void> {
    this.doc = reflectionDoc(record);
    const title = vscode.l10n.t('Reflection: {0}', record.failure_memory.label.length > 40 ? `${record.failure_memory.label.slice(0, 39)}…` : record.failure_memory.label);
    if (!this.panel) this.panel = this.create(title);
    else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Active);
    }
    this.post();
    this.log.event('reflectionShown', { id: record.failure_memory.id, key: record.failure_memory.key, recent: record.failure_memory.recent.map(r => r.outcome) });
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
        if (this.panel === panel) this.panel = undefined;
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
    this.panel?.dispose();
    super.dispose();
  }
}
