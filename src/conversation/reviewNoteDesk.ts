import * as nodePath from 'node:path';
import * as l10n from '@vscode/l10n';
import type { ReviewNoteView } from '../protocol/messages';
import { MAX_NOTE_CHARS, MAX_NOTES, NoteBook, notesPrompt, notesSummary } from '../review/reviewNotes';

/** What the desk needs: where paths are relative to, the hunk under a range, and who hears of changes. */
export interface NoteDeskParts {
  /** The conversation's roots (its worktree's folder, or the workspace folders): notes show paths relative to them. */
  roots(): string[];
  /** The changed-files hunk under these lines of `path` (for notes made in the editor, which only know the range). */
  hunkAt(path: string, startLine: number, endLine: number): Promise<string | undefined>;
  changed(notes: ReviewNoteView[]): void;
  /** A note was not added (too many waiting): the user is told why, with its text so nothing is lost. */
  refused(message: string): void;
}

/** What goes with the next prompt: the block for the agent, and the line for the user's entry. */
export interface TakenNotes {
  prompt: string;
  summary: string;
  /** The notes taken, for {@link ReviewNoteDesk.giveBack}. */
  ids: string[];
}

/**
 * A conversation's review notes: added from the panel's diffs or the editor's comments, listed in
 * the composer ("3 review notes") and the diffs, sent with the next prompt in the order written,
 * and kept (sent ones resolved) with the transcript.
 */
export class ReviewNoteDesk {
  private readonly book = new NoteBook();

  constructor(private readonly parts: NoteDeskParts) {}

  async add(input: { path: string; startLine: number; endLine: number; text: string; hunk?: string }): Promise<ReviewNoteView | undefined> {
    if (!nodePath.isAbsolute(input.path)) return undefined;
    const hunk = input.hunk ?? (await this.parts.hunkAt(input.path, input.startLine, input.endLine).catch(() => undefined));
    const note = this.book.add({ ...input, relPath: this.relOf(input.path), hunk });
    if (note === 'full') {
      const text = input.text.trim();
      this.parts.refused(
        l10n.t(
          '{0} review notes are waiting to be sent with your next prompt, the most one conversation keeps. Send or clear them, then add this note again: “{1}”',
          MAX_NOTES,
          text.slice(0, MAX_NOTE_CHARS),
        ),
      );
      return undefined;
    }
    if (note) this.emit();
    return note;
  }

  remove(id: string): void {
    if (this.book.remove(id)) this.emit();
  }

  clearPending(): void {
    if (this.book.clearPending()) this.emit();
  }

  /** The pending notes for a prompt that is going now; they are marked sent. Undefined when there are none. */
  take(): TakenNotes | undefined {
    const notes = this.book.takePending();
    if (notes.length === 0) return undefined;
    this.emit();
    return { prompt: notesPrompt(notes), summary: notesSummary(notes), ids: notes.map((n) => n.id) };
  }

  /** The prompt they went with was not taken (sign-in needed, refused): the notes are pending again. */
  giveBack(taken: TakenNotes | undefined): void {
    if (taken && this.book.untake(taken.ids)) this.emit();
  }

  get pendingCount(): number {
    return this.book.pending().length;
  }

  view(): ReviewNoteView[] {
    return this.book.all();
  }

  restore(notes: readonly ReviewNoteView[] | undefined): void {
    this.book.restore(notes);
  }

  private relOf(path: string): string {
    for (const root of this.parts.roots()) {
      const rel = nodePath.relative(root, path);
      if (rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel)) return rel.split(nodePath.sep).join('/');
    }
    return path;
  }

  private emit(): void {
    this.parts.changed(this.book.all());
  }
}
