import * as l10n from '@vscode/l10n';
import type { Conversation, ConversationTranscript } from './conversation';
import type { ConversationIndex } from '../store/conversationFormat';
import { emptyIndex } from '../store/conversationFormat';
import type { ConversationStore } from '../store/conversationStore';

/** How often streaming may re-arm the store's save timer for one conversation. */
const RESCHEDULE_MS = 100;

/**
 * Between the conversations and their store: loads what was kept, restores a transcript into a
 * conversation, and schedules saves. Without a store (no folder to keep them for) everything is a
 * no-op and conversations live in memory only.
 */
export class ConversationKeeper {
  private readonly lastScheduled = new Map<string, number>();
  /** Without a store: the transcripts of conversations that left their tab (a branch switched away), so a switch back finds them. */
  private readonly memory = new Map<string, ConversationTranscript>();

  constructor(private readonly store: ConversationStore | undefined) {}

  async loadIndex(): Promise<ConversationIndex> {
    return (await this.store?.loadIndex()) ?? emptyIndex();
  }

  /** Shows the stored transcript in `conversation` (with a notice when older entries were not kept). */
  async restore(conversation: Conversation): Promise<void> {
    const kept = this.store ? undefined : this.memory.get(conversation.id);
    if (kept) return conversation.restore(kept);
    const stored = await this.store?.loadTranscript(conversation.id);
    if (!stored) return;
    const transcript: ConversationTranscript = { entries: stored.entries, terminals: stored.terminals, queue: stored.queue, review: stored.review };
    if (stored.droppedEntries) {
      const message = l10n.t('{0} earlier entries of this conversation were not kept (the stored transcript is size-limited).', stored.droppedEntries);
      transcript.entries = [{ kind: 'notice', id: 'dropped', level: 'info', message }, ...stored.entries];
    }
    conversation.restore(transcript);
  }

  /** What is stored of a conversation that is not open (its entries and terminals), if anything. */
  async transcript(id: string): Promise<Pick<ConversationTranscript, 'entries' | 'terminals'> | undefined> {
    const stored = await this.store?.loadTranscript(id);
    return stored ? { entries: stored.entries, terminals: stored.terminals } : undefined;
  }

  /**
   * The conversation changed: its transcript is saved after a quiet period. Streaming calls this per
   * update, so unless `now` is set the store's timer is re-armed at most every 100 ms.
   */
  transcriptChanged(conversation: Conversation, now = false): void {
    if (!this.store) {
      // `now` is a conversation leaving its tab (closed, or a branch switched away): kept in memory instead.
      if (now) this.memory.set(conversation.id, conversation.transcript());
      return;
    }
    const time = Date.now();
    if (!now && time - (this.lastScheduled.get(conversation.id) ?? 0) < RESCHEDULE_MS) return;
    this.lastScheduled.set(conversation.id, time);
    this.store.scheduleTranscript(conversation.id, () => ({ version: 1, ...conversation.transcript() }));
  }

  indexChanged(produce: () => ConversationIndex): void {
    this.store?.scheduleIndex(produce);
  }

  async delete(id: string): Promise<void> {
    this.lastScheduled.delete(id);
    this.memory.delete(id);
    await this.store?.deleteConversation(id);
  }

  /** Writes everything pending now (extension shutdown). */
  flushSync(): void {
    this.store?.flushSync();
  }
}
