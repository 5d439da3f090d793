// The one HTML shell of our webviews (the memory panel, the reflection view): a Content Security
// Policy from `default-src 'none'`, a fresh nonce on the one script, every asset through
// asWebviewUri, codicons and the view's own stylesheet. Workspace data never goes in here: it is
// posted as messages and rendered as text.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  lang: string;
  title: string;
  /** Stylesheet under media/. */
  css: string;
  /** Script bundle under dist/. */
  script: string;
  /** The placeholder shown until the script runs (our own markup; strings already escaped). */
  body: string;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="${page.lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('dist', 'codicon.css')}">
<link rel="stylesheet" href="${uri('media', page.css)}">
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${uri('dist', page.script)}"></script>
</body>
</html>`;
}
