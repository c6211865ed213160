/**
 * Slash-command suggestions for the composer, shaped like VS Code's suggest widget: typing `/` at
 * the start of the message lists the agent's commands filtered by what follows; ArrowUp/Down move,
 * Enter or Tab complete `/name ` into the textarea, Escape closes, a click completes. Focus stays in
 * the textarea throughout (aria-activedescendant points at the active option), and the message is
 * still sent as plain text: agents parse `/name args` themselves.
 */
import * as l10n from '@vscode/l10n';
import type { CommandView } from '../src/protocol/messages';
import { h } from './dom';

const LISTBOX_ID = 'tandem-command-suggestions';

export class CommandMenu {
  readonly element: HTMLUListElement;
  private matches: CommandView[] = [];
  private active = 0;
  /** The textarea value Escape closed the list for: it stays closed until the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly textarea: HTMLTextAreaElement,
    private readonly commands: () => readonly CommandView[],
    /** Called after a completion changed the textarea's value (draft saving, buttons). */
    private readonly onCompleted: () => void,
  ) {
    this.element = h('ul', { class: 'command-suggestions', role: 'listbox', id: LISTBOX_ID, 'aria-label': l10n.t('Slash commands') });
    this.element.hidden = true;
    // Keep focus in the textarea when an option is pressed, so the click completes and typing goes on.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
    this.element.addEventListener('click', (event) => {
      const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const index = Number(option?.dataset.index);
      if (option && Number.isInteger(index)) this.complete(index);
    });
    textarea.setAttribute('aria-autocomplete', 'list');
    textarea.setAttribute('aria-controls', LISTBOX_ID);
    textarea.setAttribute('aria-expanded', 'false');
    textarea.addEventListener('input', () => this.update());
    textarea.addEventListener('focus', () => this.update());
    textarea.addEventListener('click', () => this.update());
    // The caret may leave the command word without the text changing.
    textarea.addEventListener('keyup', (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) this.update();
    });
    textarea.addEventListener('blur', () => this.hide());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Recomputes the suggestions from the text and caret; opens or closes the list accordingly. */
  update(): void {
    const value = this.textarea.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== value) this.dismissedFor = undefined;
    const query = this.query();
    if (query === undefined || this.dismissedFor !== undefined || document.activeElement !== this.textarea) {
      this.hide();
      return;
    }
    const previous = this.matches[this.active]?.name;
    this.matches = filterCommands(this.commands(), query);
    if (this.matches.length === 0) {
      this.hide();
      return;
    }
    // Keep the highlighted command while it still matches; otherwise start at the best match.
    const kept = this.matches.findIndex((c) => c.name === previous);
    this.active = kept >= 0 ? kept : 0;
    this.render();
  }

  /** Handles a keydown in the textarea while the list is open; true when the key was consumed. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!plain) return false;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.matches.length) % this.matches.length;
        this.renderActive();
        break;
      }
      case 'Enter':
      case 'Tab':
        if (!plain) return false;
        this.complete(this.active);
        break;
      case 'Escape':
        // Closing the list is all Escape does here: a running agent is not interrupted.
        this.dismissedFor = this.textarea.value;
        this.hide();
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  /** `/<command word>` at the very start with the caret inside the word: the text typed after `/`. */
  private query(): string | undefined {
    const value = this.textarea.value;
    if (!value.startsWith('/')) return undefined;
    const word = /^\/(\S*)/.exec(value)?.[1] ?? '';
    const caret = this.textarea.selectionStart ?? value.length;
    if (caret < 1 || caret > word.length + 1 || this.textarea.selectionEnd !== caret) return undefined;
    return word;
  }

  /** Replaces the command word with `/name ` (keeping any text after it) and puts the caret after it. */
  private complete(index: number): void {
    const command = this.matches[index];
    if (command === undefined) return;
    const value = this.textarea.value;
    const word = /^\/\S*/.exec(value)?.[0] ?? '/';
    const rest = value.slice(word.length).replace(/^\s+/, '');
    const head = `/${command.name} `;
    this.textarea.value = head + rest;
    this.textarea.setSelectionRange(head.length, head.length);
    this.hide();
    this.onCompleted();
  }

  private render(): void {
    this.element.replaceChildren(
      ...this.matches.map((command, index) =>
        h(
          'li',
          {
            class: 'command-option',
            role: 'option',
            id: `${LISTBOX_ID}-${index}`,
            'data-index': index,
            'data-command': command.name,
            'aria-selected': 'false',
            title: command.description,
          },
          h('span', { class: 'command-name' }, `/${command.name}`),
          command.hint ? h('span', { class: 'command-hint' }, command.hint) : null,
          h('span', { class: 'command-description' }, command.description),
        ),
      ),
    );
    this.element.hidden = false;
    // The textarea also drives the `@` picker: it controls whichever list is open.
    this.textarea.setAttribute('aria-controls', LISTBOX_ID);
    this.textarea.setAttribute('aria-expanded', 'true');
    this.renderActive();
  }

  private renderActive(): void {
    const options = this.element.children;
    for (let i = 0; i < options.length; i++) options[i].setAttribute('aria-selected', String(i === this.active));
    const current = options[this.active] as HTMLElement | undefined;
    if (current) {
      this.textarea.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    }
  }

  private hide(): void {
    // Already hidden: the textarea's aria state may belong to the `@` picker now.
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.element.replaceChildren();
    this.textarea.setAttribute('aria-expanded', 'false');
    this.textarea.removeAttribute('aria-activedescendant');
  }
}

/** Names starting with the query first, then names containing it; case-insensitive, agent order kept. */
export function filterCommands(commands: readonly CommandView[], query: string): CommandView[] {
  const q = query.toLowerCase();
  const starts: CommandView[] = [];
  const contains: CommandView[] = [];
  for (const command of commands) {
    const name = command.name.toLowerCase();
    if (name.startsWith(q)) starts.push(command);
    else if (name.includes(q)) contains.push(command);
  }
  return [...starts, ...contains];
}
