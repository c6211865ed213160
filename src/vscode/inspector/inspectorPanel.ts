import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConformanceMonitor } from '../../inspector/conformance';
import { assertNever } from '../../protocol/guards';
import { InspectorFeed } from '../../inspector/inspectorFeed';
import type { WireStore } from '../../inspector/wireStore';
import {
  INSPECTOR_PROTOCOL_VERSION,
  isInspectorWebviewMessage,
  type InspectorHostMessage,
  type InspectorWebviewMessage,
} from '../../protocol/inspectorMessages';
import { versionMismatchFor, type VersionMismatchMessage } from '../../protocol/versionHandshake';
import { renderWebviewHtml } from '../core/webviewHtml';
import { panelLocale } from '../core/localization';

/**
 * `Tandem: Open Protocol Inspector`: an editor tab with its own webview (dist/inspector.js, the same
 * CSP as the chat panel) listing every JSON-RPC message. The panel is retained while hidden (a
 * reload would resend 100,000 rows) but is sent nothing then; InspectorFeed decides what goes out.
 */
export class InspectorPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private feed: InspectorFeed | undefined;
  /** Kept across panels: a cleared view stays cleared when reopened. */
  private firstShown = 1;
  private focus: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: WireStore,
    private readonly monitor: ConformanceMonitor,
    /** `Tandem: Export Transcript…`, run from the inspector's toolbar. */
    private readonly exportTranscript: () => Promise<void>,
  ) {}

  /** Opens (or reveals) the inspector; `session` filters it to one conversation's session. */
  show(session?: string): void {
    this.focus = session;
    if (this.panel) {
      this.panel.reveal();
      this.post({ type: 'focus', session });
      return;
    }
    const panel = vscode.window.createWebviewPanel('tandem.inspector', l10n.t('Protocol Inspector'), vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'tandem.svg');
    this.panel = panel;
    this.feed = new InspectorFeed(this.store, this.monitor, (m) => this.post(m), { from: this.firstShown });
    this.render(panel);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        if (isInspectorWebviewMessage(raw)) void this.receive(raw);
        else console.warn('Tandem: ignored malformed message from the protocol inspector', raw);
      }),
      panel.onDidChangeViewState(() => this.feed?.setVisible(panel.visible)),
    ];
    panel.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.feed) this.firstShown = this.feed.firstShown;
      this.feed?.dispose();
      this.feed = undefined;
      this.panel = undefined;
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }

  /** Each render has a fresh nonce, so the HTML differs and the webview really loads again (`reloadView`). */
  private render(panel: vscode.WebviewPanel): void {
    panel.webview.html = renderWebviewHtml(panel.webview, this.extensionUri, vscode.Uri.joinPath, panelLocale(), {
      script: 'inspector.js',
      style: 'inspector.css',
      title: l10n.t('Protocol Inspector'),
    });
  }

  private async receive(message: InspectorWebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        const mismatch = versionMismatchFor(message, INSPECTOR_PROTOCOL_VERSION);
        if (mismatch) {
          // A page of another version (after an update) would misread the rows: it gets the reload notice instead.
          console.warn(
            `Tandem: the protocol inspector speaks version ${String(message.protocolVersion)}, the extension ${INSPECTOR_PROTOCOL_VERSION}; the page asks to be reloaded.`,
          );
          this.post(mismatch);
          return;
        }
        this.feed?.start();
        if (this.focus !== undefined) this.post({ type: 'focus', session: this.focus });
        return;
      }
      case 'reloadView':
        if (this.panel) this.render(this.panel);
        return;
      case 'fetch':
        this.feed?.fetch(message.seq);
        return;
      case 'clear':
        this.feed?.clear();
        return;
      case 'copy': {
        const raw = this.store.get(message.seq)?.raw;
        if (raw === undefined) return;
        await vscode.env.clipboard.writeText(pretty(raw));
        vscode.window.setStatusBarMessage(l10n.t('Tandem: message copied'), 2500);
        return;
      }
      case 'export':
        await this.exportTranscript();
        return;
      default:
        assertNever(message);
    }
  }

  private post(message: InspectorHostMessage | VersionMismatchMessage): void {
    this.panel?.webview.postMessage(message).then(undefined, (err: unknown) => console.warn('Tandem: posting to the protocol inspector failed', err));
  }
}

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
