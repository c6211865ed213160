import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import type { ChatSurface } from '../vscode/host/chatSurface';
import type { EditorHost } from '../vscode/host/editorHost';
import { panelLocale } from '../vscode/core/localization';
import { PanelConnection } from './panelConnection';
import { renderWebviewHtml } from '../vscode/core/webviewHtml';

/**
 * The sidebar chat view: the webview's HTML (CSP, nonce, local resources) and its life in VS Code.
 * What crosses to the panel and back — the ready handshake, snapshots, batching, older entries — is
 * the PanelConnection's, the same one the tests drive.
 */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider, ChatSurface {
  static readonly viewId = 'tandem.chat';
  private view: vscode.WebviewView | undefined;
  private readonly connection: PanelConnection;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: EditorHost,
  ) {
    super();
    host.attach(this);
    this.connection = this.register(
      new PanelConnection(
        host,
        {
          post: (message) => {
            this.view?.webview.postMessage(message).then(undefined, (err: unknown) => console.warn('Tandem: posting to the panel failed', err));
          },
          // Each render has a fresh nonce, so the HTML differs and the webview really loads again.
          reload: () => {
            if (this.view) this.render(this.view);
          },
        },
        {
          onError: (what, err) =>
            void vscode.window.showErrorMessage(
              what === 'init' ? l10n.t('Tandem could not load its conversations: {0}', errorMessage(err)) : l10n.t('Tandem: {0}', errorMessage(err)),
            ),
          warn: (text) => console.warn(`Tandem: ${text}`),
        },
      ),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.connection.detach();
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    this.render(view);
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => this.connection.receive(raw)),
      view.onDidChangeVisibility(() => {
        // A hidden webview may be torn down; the next `ready` brings a fresh snapshot.
        if (!view.visible) this.connection.detach();
        this.host.visibilityChanged(view.visible);
      }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.view === view) this.view = undefined;
      this.connection.detach();
      this.host.visibilityChanged(false);
    });
    this.host.visibilityChanged(view.visible);
  }

  isVisible(): boolean {
    return this.view?.visible === true && this.connection.focused;
  }

  reveal(): void {
    if (this.view) this.view.show(false);
    else void vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  private render(view: vscode.WebviewView): void {
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, vscode.Uri.joinPath, panelLocale());
  }
}
