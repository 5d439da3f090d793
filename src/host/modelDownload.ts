// The transformer embedding model: offered once when recall first needs it and none is present,
// downloaded into global storage with a progress notification (never at activation).

import * as vscode from 'vscode';
import { plainText } from '../core/plainText';
import type { SemanticScorer } from '../embeddings';
import type { Logger } from './logger';

const ASKED_KEY = 'failureMemory.modelDownloadOffered';

export class ModelDownloads {
  private offered: boolean;
  private running: Promise<void> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
    /** Called after a download so every folder's scorer picks the model up. */
    private readonly onInstalled: () => void,
  ) {
    this.offered = context.globalState.get<boolean>(ASKED_KEY, false);
  }

  /** Once per user: recall runs on the offline embedder; a model would do better. */
  maybeOffer(scorer: SemanticScorer): void {
    if (this.offered || !scorer.canDownload) return;
    this.offered = true;
    void this.context.globalState.update(ASKED_KEY, true);
    const download = vscode.l10n.t('Download');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('Failure Memory finds similar past failures with a built-in offline embedder. Download the local sentence-embedding model (all-MiniLM-L6-v2, about 23 MB, runs on this machine) for better recall?'),
        download,
        vscode.l10n.t('Not Now'),
      )
      .then(pick => {
        if (pick === download) void this.download(scorer);
      });
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
