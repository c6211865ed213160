import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';

/**
 * The panel's HTML. Scripts run only with the per-load nonce; no remote origin is allowed anywhere.
 * Styles allow 'unsafe-inline' because xterm.js and the vscode-elements web components set inline
 * styles; no script can be injected through that.
 */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, joinPath: (base: vscode.Uri, ...p: string[]) => vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${asset('media', 'tandem.css')}">
<title>Tandem</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}
