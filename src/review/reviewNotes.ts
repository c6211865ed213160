import { isReviewNoteView, type ReviewNoteView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';

/**
 * Review notes: what the user wrote on lines of a diff, kept in the order written, sent to the agent
 * with the next prompt as one structured block (file, lines, the hunk, the note) and then marked
 * sent. Pure: the conversation's desk owns one book and says when a prompt goes.
 */

/**
 * Most notes one conversation keeps (sent ones included): the oldest sent ones make room; when as many
 * wait to be sent, a new one is refused rather than one of them dropped.
 */
export const MAX_NOTES = 200;
/** Longest note text, and longest hunk text, kept. */
export const MAX_NOTE_CHARS = 10_000;
export const MAX_HUNK_CHARS = 8_000;

export interface NewNote {
  path: string;
  relPath: string;
  startLine: number;
  endLine: number;
  text: string;
  hunk?: string;
}

export class NoteBook {
  // The notes' own records (changed in place as they are sent or taken back); views are copies of them.
  private notes: Array<Draft<ReviewNoteView>> = [];
  private next = 1;

  /**
   * Adds a note (lines put in order, text and hunk bounded); undefined when its text is blank, `full`
   * when {@link MAX_NOTES} notes are waiting to be sent.
   */
  add(note: NewNote): ReviewNoteView | 'full' | undefined {
    const text = note.text.trim().slice(0, MAX_NOTE_CHARS);
    if (text === '') return undefined;
    if (this.pending().length >= MAX_NOTES) return 'full';
    const start = Math.max(1, Math.min(note.startLine, note.endLine));
    const end = Math.max(start, note.startLine, note.endLine);
    const view: Draft<ReviewNoteView> = {
      id: `note-${Date.now().toString(36)}-${this.next++}`,
      path: note.path,
      relPath: note.relPath,
      startLine: start,
      endLine: end,
      text,
      state: 'pending',
    };
    if (note.hunk) view.hunk = note.hunk.length > MAX_HUNK_CHARS ? `${note.hunk.slice(0, MAX_HUNK_CHARS)}\n…` : note.hunk;
    this.notes.push(view);
    // The oldest sent ones make room (fewer than MAX_NOTES are pending, so there are enough).
    let over = this.notes.length - MAX_NOTES;
    if (over > 0) this.notes = this.notes.filter((n) => n.state !== 'sent' || over-- <= 0);
    return view;
  }

  remove(id: string): boolean {
    const before = this.notes.length;
    this.notes = this.notes.filter((n) => n.id !== id);
    return this.notes.length !== before;
  }

  /** Drops every note not sent yet. */
  clearPending(): boolean {
    const before = this.notes.length;
    this.notes = this.notes.filter((n) => n.state === 'sent');
    return this.notes.length !== before;
  }

  pending(): ReviewNoteView[] {
    return this.notes.filter((n) => n.state === 'pending');
  }

  /** The pending notes, now marked sent (in the order written). */
  takePending(): ReviewNoteView[] {
    const taken = this.notes.filter((n) => n.state === 'pending');
    for (const note of taken) note.state = 'sent';
    return taken.map((n) => ({ ...n }));
  }

  /** Notes taken for a prompt the agent never took: pending again (they go with the next one). */
  untake(ids: readonly string[]): boolean {
    let changed = false;
    for (const note of this.notes) {
      if (note.state === 'sent' && ids.includes(note.id)) {
        note.state = 'pending';
        changed = true;
      }
    }
    return changed;
  }

  all(): ReviewNoteView[] {
    return this.notes.map((n) => ({ ...n }));
  }

  /** What a transcript keeps, and reading it back (malformed notes are dropped). */
  restore(stored: readonly ReviewNoteView[] | undefined): void {
    this.notes = (stored ?? []).filter(isReviewNoteView).map((n) => ({ ...n }));
  }
}

function lines(note: Pick<ReviewNoteView, 'startLine' | 'endLine'>): string {
  return note.startLine === note.endLine ? `line ${note.startLine}` : `lines ${note.startLine}–${note.endLine}`;
}

/** A fence longer than any run of backticks in the text, so a hunk cannot close it early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/**
 * The block that goes to the agent before the prompt: each note with its file, lines and hunk, in
 * the order the user wrote them. Written for the agent (English, like Tandem's other notes to it).
 */
export function notesPrompt(notes: readonly ReviewNoteView[]): string {
  const parts = [
    `[Review notes from the user on your changes, in the order they wrote them (${notes.length}). Address each one; the line numbers are in the file as it is now.]`,
  ];
  notes.forEach((note, i) => {
    parts.push(`\n${i + 1}. ${note.relPath}, ${lines(note)} (${note.path})`);
    if (note.hunk) {
      const f = fence(note.hunk);
      parts.push(`${f}diff\n${note.hunk}\n${f}`);
    }
    parts.push(`Note: ${note.text}`);
  });
  return parts.join('\n');
}

/** One line per note for the user's entry in the thread ("f.txt line 3: rename this"). */
export function notesSummary(notes: readonly ReviewNoteView[]): string {
  const one = (n: ReviewNoteView) => `${n.relPath} ${lines(n)}: “${n.text.length > 80 ? `${n.text.slice(0, 80)}…` : n.text}”`;
  return `${notes.length === 1 ? '1 review note' : `${notes.length} review notes`} — ${notes.map(one).join('; ')}`;
}
