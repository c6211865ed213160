/**
 * Edit on a user entry: the prompt's text becomes editable in place (a text box with Send and
 * Cancel); sending posts `editPrompt`, and the host restores that turn's files (after its preview)
 * and goes on from there in a new branch. Escape or Cancel leaves the entry as it was. Up arrow in
 * an empty composer edits the last prompt (`editLastPrompt`, wired by the app).
 */
import * as l10n from '@vscode/l10n';
import { button, h } from '../core/dom';
import type { Host } from '../core/vscodeApi';
import type { Store } from '../store/store';

/** The editors of the user entries whose views exist, by entry id (views far from the viewport have none). */
const editors = new Map<string, PromptEdit>();

export class PromptEdit {
  /** The Edit button, for the entry's author row. */
  readonly button: HTMLButtonElement;
  /** The editing form, shown in place of the message while editing. */
  readonly form: HTMLElement;
  private readonly box: HTMLTextAreaElement;
  private text = '';

  constructor(
    private readonly entryId: string,
    private readonly host: Host,
    private readonly store: Store,
    /** Shows or hides the message itself (the form takes its place). */
    private readonly showMessage: (shown: boolean) => void,
  ) {
    this.button = button('', () => this.start(), {
      cls: 'icon-button entry-edit',
      icon: 'edit',
      label: l10n.t('Edit and send again'),
      title: l10n.t('Edit this prompt and go on from there (its files are restored first; this branch is kept)'),
    });
    this.box = h('textarea', { class: 'prompt-edit-input', rows: 3, 'aria-label': l10n.t('Edited prompt') });
    this.box.addEventListener('keydown', (event) => {
      const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !event.isComposing;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.cancel();
      } else if (event.key === 'Enter' && plain) {
        event.preventDefault();
        this.send();
      }
    });
    const hint = h(
      'div',
      { class: 'prompt-edit-hint' },
      l10n.t('Sending restores the files to before this turn and goes on from here; the current branch is kept.'),
    );
    this.form = h(
      'div',
      { class: 'prompt-edit', role: 'group', 'aria-label': l10n.t('Edit prompt') },
      this.box,
      hint,
      h(
        'div',
        { class: 'prompt-edit-buttons' },
        button(l10n.t('Cancel'), () => this.cancel(), { cls: 'secondary', title: l10n.t('Cancel (Escape)') }),
        button(l10n.t('Send'), () => this.send(), { cls: 'primary', icon: 'send', title: l10n.t('Send the edited prompt (Enter)') }),
      ),
    );
    this.form.hidden = true;
    editors.set(entryId, this);
  }

  get editing(): boolean {
    return !this.form.hidden;
  }

  /** The entry's text changed (an upsert): what editing starts from. */
  update(text: string): void {
    this.text = text;
  }

  /** Opens the editor with the prompt's text, focused, the caret at the end. */
  start(): void {
    if (this.editing) return this.box.focus();
    this.box.value = this.text;
    this.form.hidden = false;
    this.showMessage(false);
    this.box.focus();
    this.box.setSelectionRange(this.box.value.length, this.box.value.length);
  }

  cancel(): void {
    if (!this.editing) return;
    this.form.hidden = true;
    this.showMessage(true);
    this.button.focus();
  }

  private send(): void {
    const text = this.box.value;
    if (text.trim() === '') return;
    const kind = this.store.status.kind;
    // The host refuses an edit while a turn runs and says so; the text stays here meanwhile.
    if (kind !== 'running' && kind !== 'cancelling') {
      this.form.hidden = true;
      this.showMessage(true);
    }
    this.host.post({ type: 'editPrompt', entryId: this.entryId, text });
  }

  dispose(): void {
    if (editors.get(this.entryId) === this) editors.delete(this.entryId);
  }
}

/** Up arrow in an empty composer: the last prompt of the shown thread is edited; false when there is none to edit. */
export function editLastPrompt(store: Store): boolean {
  const ids = store.entryIds;
  for (let i = ids.length - 1; i >= 0; i--) {
    const entry = store.entry(ids[i]!);
    if (entry?.kind !== 'user') continue;
    const editor = editors.get(entry.id);
    if (!editor) return false;
    editor.start();
    return true;
  }
  return false;
}
