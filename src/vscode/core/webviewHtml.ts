import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { PanelLocale } from '../../protocol/displayLanguage';
import { PANEL_LOCALE_ELEMENT_ID } from '../../protocol/displayLanguage';

/** Which bundle and stylesheet a page loads (the chat panel's by default; the protocol inspector has its own). */
export interface WebviewPage {
  script: string;
  style: string;
  title: string;
}

const CHAT_PAGE: WebviewPage = { script: 'webview.js', style: 'tandem.css', title: 'Tandem' };

/**
 * The panel's HTML. Scripts run only with the per-load nonce; no remote origin is allowed anywhere.
 * Styles take the same nonce instead of 'unsafe-inline': xterm.js adds <style> elements at run time
 * and the panel stamps them with the nonce of its own script tag (webview/core/styleNonce.ts).
 * The display language and its string bundle travel as a JSON data block, which the browser never
 * executes (webview/core/l10n.ts reads it before anything renders).
 */
export function renderWebviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  joinPath: (base: vscode.Uri, ...p: string[]) => vscode.Uri,
  locale: PanelLocale = { language: 'en' },
  page: WebviewPage = CHAT_PAGE,
): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    // default-src does not cover these two; the panel never needs a <base> or a form submission.
    "base-uri 'none'",
    "form-action 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(locale.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${asset('media', page.style)}">
<title>${escapeAttribute(page.title)}</title>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="${PANEL_LOCALE_ELEMENT_ID}" nonce="${nonce}">${scriptSafeJson(locale)}</script>
<script nonce="${nonce}" src="${asset('dist', page.script)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that cannot end its <script> element or open a comment in it: every `<` is escaped. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
