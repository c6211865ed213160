import type { AgentMessageEntry, ThoughtEntry, UserEntry } from '../protocol/messages';

export type TextEntry = UserEntry | AgentMessageEntry | ThoughtEntry;

/**
 * Which entry streamed text goes into: the last entry, while it is text of the same kind and (when
 * the agent sends messageIds) of the same message. Anything appended after it ends the stream.
 */
export class TextStream {
  private target: { entry: TextEntry; messageId?: string } | undefined;

  /** The entry a chunk of `kind` (and `messageId`) continues, or undefined: start a new one. */
  continuing(kind: TextEntry['kind'], messageId: string | undefined): TextEntry | undefined {
    const target = this.target;
    if (target === undefined || target.entry.kind !== kind) return undefined;
    if (messageId !== undefined && target.messageId !== undefined && messageId !== target.messageId) return undefined;
    if (messageId !== undefined) target.messageId = messageId;
    return target.entry;
  }

  /** A new text entry was appended: later chunks continue it. */
  started(entry: TextEntry, messageId: string | undefined): void {
    this.target = messageId === undefined ? { entry } : { entry, messageId };
  }

  /** Something else was appended (or the thread cleared). */
  end(): void {
    this.target = undefined;
  }
}
