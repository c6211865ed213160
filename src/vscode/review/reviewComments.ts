import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConversationManager } from '../../conversation/conversationManager';
import { isWithin } from '../../util/realPath';
import type { ReviewNoteView } from '../../protocol/messages';
import { Disposable } from '../../util/disposable';

/**
 * Review notes in VS Code's own editors, through the comments API: in a file of the shown
 * conversation (its worktree, or the workspace) — the right side of Open diff included — the "+" in
 * the gutter writes a note on a line or a selected range (`Tandem: Add Review Note`). Every note of
 * the shown conversation shows as a comment thread, resolved once it went to the agent; deleting the
 * thread deletes the note. The panel's notes and these are one list (the conversation's).
 */
export class ReviewComments extends Disposable {
  private readonly controller = this.register(vscode.comments.createCommentController('tandem.reviewNotes', l10n.t('Tandem review notes')));
  /** The shown conversation's notes as threads, by note id. */
  private readonly threads = new Map<string, vscode.CommentThread>();
  private shownId = '';

  constructor(private readonly manager: ConversationManager) {
    super();
    this.controller.options = {
      prompt: l10n.t('Add a review note for the agent'),
      placeHolder: l10n.t('What should the agent change here? It goes with your next message.'),
    };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) => (this.commentable(document.uri) ? [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)] : []),
    };
    this.register(manager.onShown(() => this.sync()));
    // Only the shown conversation's notes are threads: another's changing leaves them as they are
    // (syncing would fold or unfold threads the user set).
    this.register(
      manager.onNotesChanged(({ conversation }) => {
        if (conversation === manager.active) this.sync();
      }),
    );
  }

  /** `Tandem: Add Review Note` (the comment box's button): the note goes into the shown conversation. */
  async add(reply: vscode.CommentReply): Promise<void> {
    const conversation = this.manager.active;
    const { thread, text } = reply;
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    thread.dispose();
    if (!conversation || text.trim() === '') return;
    await conversation.addNote({ path: thread.uri.fsPath, startLine: range.start.line + 1, endLine: range.end.line + 1, text });
  }

  /** `Tandem: Delete Review Note` (a thread's title button). */
  remove(thread: vscode.CommentThread): void {
    const id = [...this.threads].find(([, t]) => t === thread)?.[0];
    if (id !== undefined) this.manager.active?.removeNote(id);
    else thread.dispose();
  }

  private commentable(uri: vscode.Uri): boolean {
    const conversation = this.manager.active;
    if (uri.scheme !== 'file' || !conversation) return false;
    const roots = conversation.meta.worktree ? [conversation.meta.worktree.path] : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return roots.some((root) => isWithin(root, uri.fsPath));
  }

  /** Threads follow the shown conversation's notes (added, resolved, removed, another conversation shown). */
  private sync(): void {
    const conversation = this.manager.active;
    const notes = conversation?.reviewNotes() ?? [];
    if ((conversation?.id ?? '') !== this.shownId) {
      for (const thread of this.threads.values()) thread.dispose();
      this.threads.clear();
      this.shownId = conversation?.id ?? '';
    }
    const live = new Set(notes.map((n) => n.id));
    for (const [id, thread] of this.threads)
      if (!live.has(id)) {
        thread.dispose();
        this.threads.delete(id);
      }
    for (const note of notes) this.show(note);
  }

  private show(note: ReviewNoteView): void {
    let thread = this.threads.get(note.id);
    if (!thread) {
      const range = new vscode.Range(note.startLine - 1, 0, note.endLine - 1, 0);
      thread = this.controller.createCommentThread(vscode.Uri.file(note.path), range, []);
      thread.canReply = false;
      this.threads.set(note.id, thread);
    }
    const sent = note.state === 'sent';
    thread.label = sent ? l10n.t('Review note · sent to the agent') : l10n.t('Review note · goes with your next message');
    thread.state = sent ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.collapsibleState = sent ? vscode.CommentThreadCollapsibleState.Collapsed : vscode.CommentThreadCollapsibleState.Expanded;
    thread.comments = [{ body: note.text, mode: vscode.CommentMode.Preview, author: { name: l10n.t('You') }, label: sent ? l10n.t('resolved') : undefined }];
  }
}
