/**
 * Text chunks of a thread (agent and user messages, thoughts): streamed into the last entry when
 * it is the same kind of text (and, when the agent sends messageIds, the same message, and the same
 * speaker: a subagent's text goes under its parent card and never continues the main agent's);
 * otherwise a new entry starts. O(chunk): only the chunk is sent. A replayed user mention (a file, a
 * selection, problems…) becomes a chip, not its whole text.
 */
import type { ConversationChange, Entry, UserEntry } from '../protocol/messages';
import { replayedMention } from '../context/blockMentions';
import { withoutInternalMarkup } from './replayText';
import type { TextEntry, TextStream } from './textStream';
import { contentBlockToMarkdown, type Warn } from './updateParsing';

export interface ChunkTarget {
  stream: TextStream;
  warn: Warn;
  /** The entry id of the card `_meta` names as the speaker's parent (a subagent's), if known. */
  parentOf(meta: unknown): string | undefined;
  /** Appends a new entry. */
  add(entry: TextEntry): ConversationChange;
  newId(): string;
  upserted(entry: Entry): ConversationChange;
}

export function appendChunk(kind: TextEntry['kind'], update: Record<string, unknown>, target: ChunkTarget): ConversationChange[] {
  const mention = kind === 'user' ? replayedMention(update.content) : undefined;
  const raw = mention ? '' : contentBlockToMarkdown(update.content, target.warn);
  // A user chunk comes from a replayed history (session/load): agents leave internal markup in it.
  const text = kind === 'user' && raw !== undefined ? withoutInternalMarkup(raw) : raw;
  if (!mention && (text === undefined || text.length === 0)) return [];
  const messageId = typeof update.messageId === 'string' ? update.messageId : undefined;
  const parentId = kind === 'user' ? undefined : target.parentOf(update._meta);
  const continued = target.stream.continuing(kind, messageId);
  const open = continued && (continued.kind === 'user' ? undefined : continued.parentId) === parentId ? continued : undefined;
  if (open && mention) {
    const user = open as UserEntry;
    user.mentions = [...(user.mentions ?? []), mention];
    return [target.upserted(user)];
  }
  if (open) {
    open.text += text ?? '';
    // The agent's message id names where a fork may start (src/conversation/forkPoint.ts); kept on the
    // entry. Named only now (its first chunks had none): the panel gets the entry whole, id and all.
    if (messageId !== undefined && open.kind === 'agent' && open.messageId === undefined) {
      open.messageId = messageId;
      return [target.upserted(open)];
    }
    return [{ type: 'textAppended', id: open.id, text: text ?? '' }];
  }
  const id = target.newId();
  const entry: TextEntry = mention ? { kind: 'user', id, text: '', mentions: [mention] } : ({ kind, id, text: text ?? '' } as TextEntry);
  if (parentId !== undefined && entry.kind !== 'user') entry.parentId = parentId;
  if (messageId !== undefined && entry.kind === 'agent') entry.messageId = messageId;
  const message = target.add(entry);
  target.stream.started(entry, messageId);
  return [message];
}
