import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../protocol/messages';
import { Disposable } from '../util/disposable';
import type { ChatSurface, EditorHost } from '../vscode/editorHost';
import { BatchedPoster } from './batchedPoster';
import { versionMismatchFor } from '../protocol/versionHandshake';
import { isWebviewMessage } from './messageGuard';
import { renderWebviewHtml } from './webviewHtml';
import { errorMessage } from '../util/errors';
import { panelLocale } from '../vscode/localization';
import { OlderEntries } from './snapshotSplit';

/** Least time between two posts to the panel while messages stream. */
const FLUSH_MS = 16;

/**
 * The sidebar chat view. The host owns the truth: on every `ready` (first load, reload, re-show) the
 * webview gets a full snapshot, then keyed changes, coalesced into one post per frame so streaming
 * thousands of chunks costs a few dozen posts a second.
 */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider, ChatSurface {
  static readonly viewId = 'tandem.chat';
  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** The older part of the conversation last shown, until the panel asks for it (`olderEntriesWanted`). */
  private readonly older = new OlderEntries();
  private readonly unclaimed: HostMessage[] = [];
  private focused = false;
  private readonly poster = new BatchedPoster((message) => void this.post(message), FLUSH_MS);

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: EditorHost,
  ) {
    super();
    host.attach(this);
    this.register(host.onMessage((m) => this.enqueue(m)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, vscode.Uri.joinPath, panelLocale());
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => {
        // A hidden webview may be torn down; the next `ready` brings a fresh snapshot.
        if (!view.visible) {
          this.ready = false;
          this.focused = false;
        }
        this.host.visibilityChanged(view.visible);
      }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.view === view) this.view = undefined;
      this.ready = false;
      this.host.visibilityChanged(false);
    });
    this.host.visibilityChanged(view.visible);
  }

  isVisible(): boolean {
    return this.view?.visible === true && this.focused;
  }

  reveal(): void {
    if (this.view) this.view.show(false);
    else void vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  private receive(raw: unknown): void {
    if (!isWebviewMessage(raw)) {
      console.warn('Tandem: ignored malformed message from the panel', raw);
      return;
    }
    const message: WebviewMessage = raw;
    if (message.type === 'focusChanged') {
      this.focused = message.focused;
      return;
    }
    if (message.type === 'reloadView') {
      // Each render has a fresh nonce, so the HTML differs and the webview really loads again.
      this.ready = false;
      this.poster.discard();
      if (this.view) this.view.webview.html = renderWebviewHtml(this.view.webview, this.extensionUri, vscode.Uri.joinPath, panelLocale());
      return;
    }
    if (message.type === 'olderEntriesWanted') {
      const older = this.older.take(message.conversationId);
      // Through the batches, after any change already queued: those were made after the snapshot too.
      if (older && this.ready) this.poster.push(older);
      return;
    }
    if (message.type === 'ready') {
      this.older.clear();
      this.ready = false;
      this.poster.discard();
      const mismatch = versionMismatchFor(message);
      if (mismatch) {
        // A panel of another version would misread the snapshot: it gets the reload notice instead.
        this.view?.webview.postMessage(mismatch).then(undefined, (err: unknown) => console.warn('Tandem: posting to the panel failed', err));
      } else {
        // The stored conversations load on the first ready; the snapshot then carries everything so far.
        void this.host
          .init()
          .catch((err) => void vscode.window.showErrorMessage(l10n.t('Tandem could not load its conversations: {0}', errorMessage(err))))
          .then(() => {
            this.ready = true;
            // A long thread's last screens first: they paint while the older entries cross over.
            void this.post({ type: 'snapshot', snapshot: this.older.split(this.host.snapshot()) });
            // Chips added while the panel was loading (Add Selection opened it) follow the snapshot.
            for (const added of this.unclaimed.splice(0)) this.poster.push(added);
          });
      }
    }
    this.host.handle(message).catch((err) => {
      void vscode.window.showErrorMessage(l10n.t('Tandem: {0}', errorMessage(err)));
    });
  }

  private enqueue(message: HostMessage): void {
    // Until the webview says ready, the snapshot it will ask for already contains this change;
    // chips for the composer are not in a snapshot, so they wait for it.
    if (!this.ready || !this.view) {
      if (message.type === 'mentionsAdded' && this.unclaimed.length < 20) this.unclaimed.push(message);
      return;
    }
    // A tab switch to a long conversation: its last screens first, like a snapshot.
    this.poster.push(this.older.outgoing(message));
  }

  private async post(message: HostMessage): Promise<void> {
    try {
      await this.view?.webview.postMessage(message);
    } catch (err) {
      console.warn('Tandem: posting to the panel failed', err);
    }
  }

  override dispose(): void {
    this.poster.discard();
    super.dispose();
  }
}
