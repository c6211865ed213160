/**
 * Review notes in the panel's diffs (a tool card's diff, the changed-files strip's hunks): "Add a
 * note" under a hunk opens a small form — the note, and its lines (the hunk's by default; a click on
 * a line of the hunk sets the first, Shift+click the last, or type them) — and the notes already
 * written on those lines are listed there, pending or sent (resolved). Lists stay current as notes
 * change: the board re-renders every list still in the page.
 */
import * as l10n from '@vscode/l10n';
import type { ReviewNoteView } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Host } from '../core/vscodeApi';

/** What a note is written on: a file's lines (as changed) and the hunk they are in. */
export interface NoteTarget {
  path: string;
  startLine: number;
  endLine: number;
  /** The hunk as unified text (sent with the note). */
  hunk?: string;
}

interface Mounted {
  element: HTMLElement;
  target: NoteTarget;
}

/** An open form's state, so a re-render of its diff (the strip refreshes often) brings it back as it was. */
interface Draft {
  text: string;
  from: string;
  to: string;
  focused: boolean;
}

const keyOf = (target: NoteTarget): string => `${target.path}\0${target.startLine}\0${target.endLine}\0${target.hunk ?? ''}`;

function linesText(start: number, end: number): string {
  return start === end ? l10n.t('line {0}', start) : l10n.t('lines {0}–{1}', start, end);
}

/** Does a note sit on these lines of this file? */
function overlaps(note: ReviewNoteView, target: NoteTarget): boolean {
  return note.path === target.path && note.startLine <= target.endLine && target.startLine <= note.endLine;
}

export class NoteBoard {
  private mounted: Mounted[] = [];
  private readonly drafts = new Map<string, Draft>();

  constructor(
    private readonly host: Host,
    private readonly notes: () => readonly ReviewNoteView[],
  ) {}

  /** The list of notes on `target`, kept current. */
  list(target: NoteTarget): HTMLElement {
    const element = h('ul', { class: 'review-notes', 'aria-label': l10n.t('Review notes on {0}', linesText(target.startLine, target.endLine)) });
    this.mounted.push({ element, target });
    this.renderList(element, target);
    return element;
  }

  /** The notes changed: every list still in the page shows them again. */
  refresh(): void {
    this.mounted = this.mounted.filter((m) => m.element.isConnected);
    for (const m of this.mounted) this.renderList(m.element, m.target);
  }

  /**
   * "Add a note" for `target`: opens the form in `slot`, where `lines` (rows carrying
   * `data-new-line`) can be clicked to choose the lines.
   */
  addButton(target: NoteTarget, slot: HTMLElement, lines: HTMLElement): HTMLButtonElement {
    const open = button(l10n.t('Note'), () => this.openForm(target, slot, lines, open), {
      cls: 'small secondary note-add',
      icon: 'comment',
      label: l10n.t('Add a review note on {0}', linesText(target.startLine, target.endLine)),
      title: l10n.t('Leave a note for the agent on these lines; it goes with your next message'),
    });
    // The diff was built again while a form was open on it: the form comes back, draft and focus kept.
    if (this.drafts.has(keyOf(target))) this.openForm(target, slot, lines, open);
    return open;
  }

  private renderList(element: HTMLElement, target: NoteTarget): void {
    const notes = this.notes().filter((n) => overlaps(n, target));
    element.hidden = notes.length === 0;
    element.replaceChildren(
      ...notes.map((note) => {
        const sent = note.state === 'sent';
        const remove = button('', () => this.host.post({ type: 'reviewNoteRemove', noteId: note.id }), {
          cls: 'icon-button',
          icon: 'trash',
          label: l10n.t('Delete the note on {0}', linesText(note.startLine, note.endLine)),
        });
        return h(
          'li',
          { class: `review-note ${sent ? 'sent' : 'pending'}`, 'data-note-id': note.id, 'data-note-state': note.state },
          icon(sent ? 'pass' : 'comment'),
          h('span', { class: 'review-note-lines' }, linesText(note.startLine, note.endLine)),
          h('span', { class: 'review-note-text' }, note.text),
          h('span', { class: 'review-note-state' }, sent ? l10n.t('sent, resolved') : l10n.t('goes with your next message')),
          remove,
        );
      }),
    );
  }

  private openForm(target: NoteTarget, slot: HTMLElement, lines: HTMLElement, opener: HTMLButtonElement): void {
    if (slot.querySelector('.note-form')) {
      slot.querySelector<HTMLTextAreaElement>('.note-form textarea')?.focus();
      return;
    }
    const key = keyOf(target);
    const draft: Draft = this.drafts.get(key) ?? { text: '', from: String(target.startLine), to: String(target.endLine), focused: true };
    this.drafts.set(key, draft);
    const number = (value: string, label: string) =>
      h('input', { type: 'number', class: 'note-line', min: 1, value, 'aria-label': label, inputmode: 'numeric' }) as HTMLInputElement;
    const from = number(draft.from, l10n.t('First line'));
    const to = number(draft.to, l10n.t('Last line'));
    const text = h('textarea', {
      class: 'note-text',
      rows: 2,
      'aria-label': l10n.t('Note for the agent'),
      placeholder: l10n.t('What should the agent change here?'),
    });
    text.value = draft.text;
    const keep = () => Object.assign(draft, { text: text.value, from: from.value, to: to.value });
    const close = () => {
      this.drafts.delete(key);
      form.remove();
      lines.classList.remove('picking-lines');
      lines.removeEventListener('click', pick);
      opener.focus();
    };
    const save = () => {
      const start = Number(from.value);
      const end = Number(to.value);
      if (text.value.trim() === '' || !Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < 1) {
        text.focus();
        return;
      }
      this.host.post({
        type: 'reviewNoteAdd',
        path: target.path,
        startLine: Math.min(start, end),
        endLine: Math.max(start, end),
        text: text.value,
        hunk: target.hunk,
      });
      close();
    };
    // While the form is open, a click on a line of the hunk picks it (Shift: the last line).
    const pick = (event: MouseEvent) => {
      const line = Number((event.target as Element | null)?.closest('[data-new-line]')?.getAttribute('data-new-line'));
      if (!Number.isInteger(line) || line < 1) return;
      if (event.shiftKey) to.value = String(line);
      else from.value = to.value = String(line);
      keep();
    };
    lines.classList.add('picking-lines');
    lines.addEventListener('click', pick);
    text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        save();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close();
      }
    });
    const form = h(
      'div',
      { class: 'note-form', role: 'group', 'aria-label': l10n.t('New review note') },
      text,
      h(
        'div',
        { class: 'note-form-row' },
        h('label', { class: 'note-range' }, l10n.t('Lines'), ' ', from, ' – ', to),
        h('span', { class: 'note-hint' }, l10n.t('Click a line to choose it, Shift+click for the last one')),
        h('span', { class: 'spacer' }),
        button(l10n.t('Cancel'), close, { cls: 'small secondary' }),
        button(l10n.t('Add Note'), save, { cls: 'small primary', title: l10n.t('Add the note (Ctrl+Enter)') }),
      ),
    );
    for (const field of [text, from, to]) field.addEventListener('input', keep);
    form.addEventListener('focusin', () => (draft.focused = true));
    form.addEventListener('focusout', (event) => {
      if (!(event.relatedTarget instanceof Node && form.contains(event.relatedTarget))) draft.focused = false;
    });
    slot.append(form);
    // Focus when the user opened it, or it had focus before a re-render (then once it is in the page).
    if (draft.focused) queueMicrotask(() => text.focus());
  }
}

/** The board the panel's diffs use (set once by the app: tool cards are built far from it). */
let board: NoteBoard | undefined;

export function setNoteBoard(value: NoteBoard): void {
  board = value;
}

export function noteBoard(): NoteBoard | undefined {
  return board;
}
