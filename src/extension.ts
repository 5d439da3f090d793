// Composition root of the extension (filled by the host issue).
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Failure Memory', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('failureMemory.openLog', () => log.show(true)),
  );
  log.info('[activate] Failure Memory activated');
}

export function deactivate(): void {}
