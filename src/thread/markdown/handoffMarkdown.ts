/**
 * The document a conversation is handed to another agent with (**Continue with Another Agent…**):
 * a short preface for the agent that receives it — whose conversation this was, that the files are
 * as that agent left them, that it goes on from here — then the conversation as the Markdown export
 * writes it (each prompt, each reply, what each tool did, the files changed). Pure, like the export:
 * the editor side attaches it to the new conversation's first prompt.
 */
import * as l10n from '@vscode/l10n';
import { conversationMarkdown, type MarkdownOptions, type MarkdownResult, type MarkdownSource } from './conversationMarkdown';
import { plainText } from './markdownFence';

/**
 * The preface: said to the agent, in the editor's language like the rest of the export. It asks
 * for nothing to be redone: the work listed was done, and the files hold it.
 */
export function handoffPreface(agentName: string): string {
  const agent = plainText(agentName) || l10n.t('another agent');
  return [
    `> ${l10n.t('The user is continuing this conversation with you. It was held with {0} in Tandem, the user’s editor; everything below happened there.', agent)}`,
    `> ${l10n.t('The files in the workspace are as that conversation left them: its changes are already made, nothing was undone. Do not redo its work; read the files when you need their current content.')}`,
    `> ${l10n.t('Go on from the end of this conversation, with the user’s next message.')}`,
  ].join('\n');
}

/** The handoff document as the agent reads it: the preface, then the conversation so far. */
export function handoffMarkdown(source: MarkdownSource, opts: MarkdownOptions): MarkdownResult {
  const conversation = conversationMarkdown(source, opts);
  return { text: `${handoffPreface(source.agentName)}\n\n${conversation.text}`, redactions: conversation.redactions };
}
