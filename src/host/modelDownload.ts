// The transformer embedding model: never asked for with a prompt (recall first runs when a command
// is stopped, the worst moment to ask anything). The memory panel and the walkthrough offer it
// while recall runs on the offline embedder and a download is possible; "Download Embedding Model"
// fetches it into global storage with a progress notification (never at activation).

import * as vscode from 'vscode';
import { plainText } from '../core/text/plainText';
import type { SemanticScorer } from '../embeddings';
import type { Logger } from './logger';

export class ModelDownloads {
  private running: Promise<void> | undefined;
  private offerable = false;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The offer appeared or went away (the panel shows it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: Logger,
    /** Called after a download so every folder's scorer picks the model up. */
    private readonly onInstalled: () => void,
  ) {}

  /** True while recall runs on the offline embedder and the model could be downloaded. */
  get offered(): boolean {
    return this.offerable;
  }

  /** Recall built a scorer: remember whether a model would do better (said in the panel, quietly). */
  noteScorer(scorer: SemanticScorer): void {
    const offer = scorer.canDownload && scorer.mode === 'offline';
    if (offer === this.offerable) return;
    this.offerable = offer;
    this.log.info('recall', offer ? 'recall uses the offline embedder; the panel offers the model download' : 'recall model in use');
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async download(scorer: SemanticScorer | undefined): Promise<void> {
    if (!scorer) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a workspace folder first.'));
      return;
    }
    if (scorer.mode === 'transformer') {
      void vscode.window.showInformationMessage(vscode.l10n.t('The embedding model is already in use ({0}).', scorer.model?.root ?? ''));
      return;
    }
    if (!scorer.runtimeAvailable) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This build has no ONNX runtime for this platform; recall uses the offline embedder.'));
      return;
    }
    if (!scorer.canDownload) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Model downloads are turned off (failureMemory.embeddings.allowDownload).'));
      return;
    }
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading the embedding model'), cancellable: true },
          async (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            let last = 0;
            const where = await scorer.download({
              signal: abort.signal,
              onProgress: p => {
                const pct = p.total ? Math.floor((100 * p.done) / p.total) : 0;
                if (pct > last) {
                  progress.report({ increment: pct - last, message: p.message || `${pct}%` });
                  last = pct;
                }
              },
            });
            this.log.info('recall', `embedding model downloaded to ${where.root}`);
          },
        );
        this.onInstalled();
        this.offerable = false;
        this.changed.fire();
        void vscode.window.showInformationMessage(vscode.l10n.t('The embedding model is installed; recall now uses it.'));
      } catch (e) {
        this.log.error('recall', 'model download failed', e);
        void vscode.window.showWarningMessage(vscode.l10n.t('The model download failed ({0}). Recall keeps using the offline embedder.', plainText((e as Error).message, 200)));
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
