import * as l10n from '@vscode/l10n';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Conversation } from '../../conversation/conversation';
import type { ConversationManager } from '../../conversation/conversationManager';
import { conversationMarkdown, entryMarkdown, markdownFileName, type MarkdownSource } from '../../thread/markdown/conversationMarkdown';
import { errorMessage } from '../../util/errors';

/** What the export needs of the editor host. */
export interface MarkdownExportHost {
  manager: ConversationManager;
  init(): Promise<void>;
  /** Exact values to mask (the agents' env values, stored keys, MCP secrets): the log's. */
  secrets(): readonly string[];
  /** Tandem wrote this file for the user: the review must never count it as the agent's change. */
  wrote(file: vscode.Uri): void;
}

/** What the formatter is given of a conversation: what its transcript keeps, and the changed-files strip. */
export function markdownSource(conversation: Conversation): MarkdownSource {
  const { meta } = conversation;
  const { entries, terminals } = conversation.transcript();
  return {
    title: meta.title,
    agentName: conversation.agentName || meta.agentName,
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    entries,
    terminals,
    changedFiles: conversation.changedFiles(),
    cwd: meta.cwd,
  };
}

/**
 * `Tandem: Export Conversation as Markdown…` (the shown conversation, to a file the user picks, then
 * opened) and the panel's **Copy as Markdown** of one message (to the clipboard). The formatting is
 * src/thread/markdown's; this side asks where, writes, and says what happened.
 */
export class MarkdownExporter {
  constructor(private readonly host: MarkdownExportHost) {}

  async exportConversation(conversationId?: string): Promise<void> {
    await this.host.init();
    const conversation = this.host.manager.get(conversationId) ?? this.host.manager.active;
    if (!conversation?.hasHistory) {
      void vscode.window.showInformationMessage(l10n.t('Tandem: this conversation has nothing to export yet.'));
      return;
    }
    // Where the user works (the home folder without a workspace), named after the conversation.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const target = await vscode.window.showSaveDialog({
      title: l10n.t('Export Conversation as Markdown'),
      defaultUri: vscode.Uri.joinPath(folder, markdownFileName(conversation.meta.title)),
      filters: { [l10n.t('Markdown')]: ['md'] },
    });
    if (!target) return;
    try {
      const { text, redactions } = conversationMarkdown(markdownSource(conversation), { secrets: this.host.secrets() });
      // Told before it is written: a strip refreshed in between must not show it as the agent's change.
      this.host.wrote(target);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(target, { preview: false });
      vscode.window.setStatusBarMessage(
        redactions > 0 ? l10n.t('Tandem: conversation exported ({0} values masked).', redactions) : l10n.t('Tandem: conversation exported.'),
        5000,
      );
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t('Tandem: the conversation could not be exported: {0}', errorMessage(err)));
    }
  }

  /** One message as Markdown on the clipboard; false when there is no such entry (nothing copied). */
  async copyEntry(conversationId: string | undefined, entryId: string): Promise<boolean> {
    const conversation = this.host.manager.get(conversationId);
    const entry = conversation?.entry(entryId);
    if (!conversation || !entry) return false;
    const { text } = entryMarkdown(entry, { terminals: conversation.terminals(), cwd: conversation.meta.cwd }, { secrets: this.host.secrets() });
    if (text === '') return false;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(l10n.t('$(check) Tandem: message copied as Markdown.'), 3000);
    return true;
  }
}
