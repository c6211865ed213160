/**
 * The shown conversation's worktree and review notes, and whether new conversations can have a
 * worktree: the store's part for them, parsed defensively like the rest of the snapshot.
 */
import type { ConversationSnapshot, HostMessage, PanelSnapshot, ReviewNoteView, WorktreeOffer, WorktreeView } from '../../src/protocol/messages';
import { isRecord } from '../../src/protocol/guards';
import { isReviewNoteView } from '../../src/protocol/worktreeViews';
import type { Draft } from '../../src/protocol/draft';

function parseWorktree(value: unknown): WorktreeView | undefined {
  return isRecord(value) && typeof value.branch === 'string' && typeof value.path === 'string' ? (value as unknown as WorktreeView) : undefined;
}

function parseNotes(value: unknown): ReviewNoteView[] {
  return Array.isArray(value) ? value.filter(isReviewNoteView) : [];
}

function parseOffer(value: unknown): WorktreeOffer {
  if (!isRecord(value)) return { available: false, byDefault: false };
  const offer: Draft<WorktreeOffer> = { available: value.available === true, byDefault: value.byDefault === true };
  if (typeof value.reason === 'string') offer.reason = value.reason;
  return offer;
}

export class WorktreeState {
  /** The shown conversation's worktree; undefined: it works in the workspace folder. */
  worktree: WorktreeView | undefined;
  /** Its review notes, in the order written. */
  notes: ReviewNoteView[] = [];
  offer: WorktreeOffer = { available: false, byDefault: false };

  /** Applies one of its messages; false for any other message. */
  apply(message: HostMessage): boolean {
    switch (message.type) {
      case 'worktreeChanged':
        this.worktree = parseWorktree(message.worktree);
        return true;
      case 'notesChanged':
        this.notes = parseNotes(message.notes);
        return true;
      case 'worktreeOfferChanged':
        this.offer = parseOffer(message.worktrees);
        return true;
      default:
        return false;
    }
  }

  showConversation(c: ConversationSnapshot): void {
    this.worktree = parseWorktree(c.worktree);
    this.notes = parseNotes(c.notes);
  }

  showPanel(s: PanelSnapshot): void {
    this.offer = parseOffer(s.worktrees);
  }

  /** Pending notes of one file (the diffs show them under their hunks). */
  notesOf(path: string): ReviewNoteView[] {
    return this.notes.filter((n) => n.path === path);
  }
}
