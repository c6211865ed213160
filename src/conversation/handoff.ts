import * as l10n from '@vscode/l10n';
import type { ChangedFileView, MentionSpec } from '../protocol/messages';
import type { ConversationMeta } from '../store/conversationMeta';
import type { MarkdownSource } from '../thread/markdown/conversationMarkdown';
import { conversationMarkdown } from '../thread/markdown/conversationMarkdown';
import { handoffPreface } from '../thread/markdown/handoffMarkdown';
import type { ConversationTranscript } from './conversationViews';

/**
 * **Continue with Another Agent…**: a conversation handed to a new conversation with another
 * agent. The new conversation's composer gets the old one as a context chip (a `conversation`
 * mention, which the user sees and may remove); when its first prompt goes, the chip is written
 * as the Markdown the export writes, with a preface for the agent, and sent as other context is
 * (an embedded resource, or text, by the agent's prompt capabilities). The files stay as they are.
 */

/** The chip's spec for a conversation. */
export function handoffSpec(meta: Pick<ConversationMeta, 'id' | 'title' | 'agentName'>): MentionSpec {
  return { kind: 'conversation', conversationId: meta.id, title: meta.title, agentName: meta.agentName };
}

/** The notice the new conversation opens with. */
export function handoffNotice(meta: Pick<ConversationMeta, 'title' | 'agentName'>): string {
  const title = meta.title.trim() || l10n.t('Earlier conversation');
  return l10n.t(
    'This conversation continues “{0}” from {1}. It is attached to your first message as context (remove it there to start without it); the files are as that conversation left them.',
    title,
    meta.agentName,
  );
}

/** What the export's renderer is given of a conversation: what its transcript keeps, and its changed files. */
export function handoffSource(
  meta: ConversationMeta,
  transcript: Pick<ConversationTranscript, 'entries' | 'terminals'>,
  changedFiles: readonly ChangedFileView[] | undefined,
): MarkdownSource {
  return {
    title: meta.title,
    agentName: meta.agentName,
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    entries: transcript.entries,
    terminals: transcript.terminals,
    ...(changedFiles ? { changedFiles } : {}),
    cwd: meta.cwd,
  };
}

/** The chip's content: the preface and the conversation as Markdown (secrets masked as in an export). */
export function handoffDocument(source: MarkdownSource, secrets: readonly string[]): { preface: string; markdown: string } {
  return { preface: handoffPreface(source.agentName), markdown: conversationMarkdown(source, { secrets }).text };
}
