/**
 * The next prompt the agent predicts (Claude's `promptSuggestions`), as ghost text in the empty
 * composer: the textarea's placeholder becomes the suggestion, so typing replaces it and it never
 * counts as content (Enter on an empty composer sends nothing). Tab takes it into the composer, to
 * edit or send. Screen readers hear it through `aria-describedby` (a placeholder alone is not
 * reliably read), with the key that takes it.
 */
import * as l10n from '@vscode/l10n';
import { h } from '../core/dom';

const HINT_ID = 'composer-suggestion';

export class PromptGhost {
  /** Read by assistive technology only: what is suggested and how to take it. */
  readonly hint: HTMLElement;
  private placeholder: string;
  private shown: string | undefined;

  constructor(
    private readonly textarea: HTMLTextAreaElement,
    private readonly suggestion: () => string | undefined,
  ) {
    this.placeholder = textarea.placeholder;
    this.hint = h('span', { class: 'visually-hidden', id: HINT_ID });
  }

  /** The suggestion shows while there is one and the composer is empty; otherwise the usual placeholder. */
  render(): void {
    const text = this.textarea.value === '' ? this.suggestion() : undefined;
    if (text === this.shown) return;
    this.shown = text;
    this.textarea.placeholder = text ?? this.placeholder;
    this.textarea.classList.toggle('suggested', text !== undefined);
    this.hint.textContent = text === undefined ? '' : l10n.t('Suggested prompt: {0}. Press Tab to use it.', text);
    if (text === undefined) this.textarea.removeAttribute('aria-describedby');
    else this.textarea.setAttribute('aria-describedby', HINT_ID);
  }

  /** The usual placeholder changed (a running turn that Enter steers): shown unless a suggestion is. */
  setPlaceholder(text: string): void {
    if (text === this.placeholder) return;
    this.placeholder = text;
    if (this.shown === undefined) this.textarea.placeholder = text;
  }

  /** Tab on the empty composer while a suggestion shows: it becomes the draft (true: the key was used). */
  accept(event: KeyboardEvent): boolean {
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !event.isComposing;
    if (event.key !== 'Tab' || !plain || this.shown === undefined || this.textarea.value !== '') return false;
    event.preventDefault();
    this.textarea.value = this.shown;
    this.textarea.setSelectionRange(this.shown.length, this.shown.length);
    this.render();
    return true;
  }
}
