/**
 * The composer's "3 review notes" chip: the notes written on diffs that go with the next message,
 * in the order written. The chip opens the list (each note's file, lines and text, with Delete);
 * "Discard" drops them all. Sending takes them even with no text (the host asks the agent to
 * address them).
 */
import * as l10n from '@vscode/l10n';
import type { ReviewNoteView } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

export class NotesChip {
  readonly element: HTMLElement;
  private open = false;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.element = h('div', { class: 'notes-chip-area' });
    this.element.hidden = true;
  }

  /** Notes waiting for the next message. */
  get pending(): ReviewNoteView[] {
    return this.store.worktrees.notes.filter((n) => n.state === 'pending');
  }

  render(): void {
    const pending = this.pending;
    this.element.hidden = pending.length === 0;
    if (pending.length === 0) {
      this.open = false;
      this.element.replaceChildren();
      return;
    }
    const label = pending.length === 1 ? l10n.t('1 review note') : l10n.t('{0} review notes', pending.length);
    const chip = button(
      label,
      () => {
        this.open = !this.open;
        this.render();
      },
      { cls: 'notes-chip', icon: 'comment-discussion', title: l10n.t('Review notes that go with your next message, in the order written') },
    );
    chip.setAttribute('aria-expanded', String(this.open));
    const discard = button('', () => this.host.post({ type: 'reviewNotesClear' }), {
      cls: 'icon-button',
      icon: 'close',
      label: l10n.t('Discard the review notes'),
      title: l10n.t('Discard the review notes (they are not sent)'),
    });
    const parts: HTMLElement[] = [h('div', { class: 'notes-chip-row' }, chip, discard)];
    if (this.open) {
      parts.push(
        h(
          'ol',
          { class: 'notes-chip-list', 'aria-label': label },
          ...pending.map((note) =>
            h(
              'li',
              { 'data-note-id': note.id },
              icon('comment'),
              h(
                'span',
                { class: 'review-note-lines' },
                note.startLine === note.endLine ? `${note.relPath}:${note.startLine}` : `${note.relPath}:${note.startLine}–${note.endLine}`,
              ),
              h('span', { class: 'review-note-text' }, note.text),
              button('', () => this.host.post({ type: 'reviewNoteRemove', noteId: note.id }), {
                cls: 'icon-button',
                icon: 'trash',
                label: l10n.t('Delete the note on {0}', `${note.relPath}:${note.startLine}`),
              }),
            ),
          ),
        ),
      );
    }
    this.element.replaceChildren(...parts);
  }
}
