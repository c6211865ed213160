/**
 * A subagent's history in its own editor tab (the child card's **Open**): a read-only virtual
 * Markdown document, masked like an export, that stays live while the child works
 * (src/thread/markdown/subagentLive.ts renders it; the provider's onDidChange tells the editor),
 * and ends showing the child's final state. The tab's title bar offers **Stop Subagent** while the
 * child works and may be cancelled (the `tandem.subagentStoppable` context key), which does what
 * the card's Stop does. One document per card while it is open: opening it again shows the same tab.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Conversation } from '../../conversation/conversation';
import { markdownFileName } from '../../thread/markdown/conversationMarkdown';
import { SubagentLive } from '../../thread/markdown/subagentLive';
import type { IDisposable } from '../../util/disposable';
import { markdownSource } from './markdownExport';

export const SUBAGENT_SCHEME = 'tandem-subagent';
/** The context key the tab's Stop (editor title and Command Palette) is shown by. */
const STOPPABLE_KEY = 'tandem.subagentStoppable';
/** Most documents kept; the oldest one's text goes first (its tab then shows empty). */
const MAX_DOCUMENTS = 50;
/** Changes gathered before the tab is rendered again. */
const LIVE_DELAY_MS = 250;

interface SubagentDocument {
  conversationId: string;
  live: SubagentLive;
  uri: vscode.Uri;
}

export class SubagentDocuments implements IDisposable {
  /** By the URI's query: `<conversation id>/<card entry id>`. */
  private readonly documents = new Map<string, SubagentDocument>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private stoppableShown: boolean | undefined;

  constructor(private readonly ports: { conversation(id: string): Conversation | undefined; secrets(): readonly string[] }) {
    this.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(SUBAGENT_SCHEME, {
        onDidChange: this.changes.event,
        provideTextDocumentContent: (uri) => this.documents.get(uri.query)?.live.text ?? '',
      }),
      this.changes,
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStoppable()),
      // A closed tab stops listening to its conversation; Open makes a fresh one.
      vscode.workspace.onDidCloseTextDocument((closed) => {
        if (closed.uri.scheme !== SUBAGENT_SCHEME) return;
        this.documents.get(closed.uri.query)?.live.dispose();
        this.documents.delete(closed.uri.query);
      }),
    );
  }

  /** Opens (or shows again) the history of the subagent card `entryId`; false when there is no such card. */
  async open(conversation: Conversation | undefined, entryId: string): Promise<boolean> {
    const key = conversation ? `${conversation.id}/${entryId}` : '';
    let doc = this.documents.get(key);
    if (!doc && conversation) doc = this.create(conversation, entryId, key);
    if (!doc) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: this subagent is no longer in the conversation.'));
      return false;
    }
    await vscode.window.showTextDocument(doc.uri, { preview: true });
    this.updateStoppable();
    return true;
  }

  /**
   * The tab's Stop (`tandem.stopSubagent`; the title bar passes the tab's URI, the Command Palette
   * nothing, so the active editor's): what the card's Stop does — `session/cancel` for that child
   * only, its pending permission prompts answered cancelled.
   */
  stop(uri?: unknown): void {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    const doc = target?.scheme === SUBAGENT_SCHEME ? this.documents.get(target.query) : undefined;
    doc?.live.flush();
    const child = doc?.live.child;
    const conversation = doc ? this.ports.conversation(doc.conversationId) : undefined;
    if (!doc || !child || !doc.live.stoppable || !conversation) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: this subagent is not running, so there is nothing to stop.'));
      return;
    }
    conversation.stopSubagent(child.sessionId);
  }

  dispose(): void {
    for (const doc of this.documents.values()) doc.live.dispose();
    this.documents.clear();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }

  private create(conversation: Conversation, entryId: string, key: string): SubagentDocument | undefined {
    const live = new SubagentLive(entryId, {
      source: () => {
        const now = this.ports.conversation(conversation.id);
        return now ? markdownSource(now) : undefined;
      },
      changes: (listener) => conversation.onChange(listener),
      secrets: () => this.ports.secrets(),
      delayMs: LIVE_DELAY_MS,
    });
    if (!live.exists) {
      live.dispose();
      return undefined;
    }
    // The name ends in .md so the editor opens it as Markdown; the provider makes it read-only.
    const uri = vscode.Uri.from({ scheme: SUBAGENT_SCHEME, path: `/${markdownFileName(live.title)}`, query: key });
    const doc = { conversationId: conversation.id, live, uri };
    live.onDidChange(() => {
      this.changes.fire(uri);
      this.updateStoppable();
    });
    this.documents.set(key, doc);
    if (this.documents.size > MAX_DOCUMENTS) {
      const [oldest, first] = this.documents.entries().next().value!;
      first.live.dispose();
      this.documents.delete(oldest);
    }
    return doc;
  }

  /** The title bar's Stop follows the active tab: a subagent's, working and cancellable. */
  private updateStoppable(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const doc = uri?.scheme === SUBAGENT_SCHEME ? this.documents.get(uri.query) : undefined;
    const stoppable = doc?.live.stoppable === true;
    if (stoppable === this.stoppableShown) return;
    this.stoppableShown = stoppable;
    void vscode.commands.executeCommand('setContext', STOPPABLE_KEY, stoppable);
  }
}
