/**
 * Slash-command suggestions for the composer, shaped like VS Code's suggest widget: typing `/` at
 * the start of the message lists the agent's commands filtered by what follows; ↑/↓ move, Enter or
 * Tab complete `/name ` into the textarea, Escape closes, a click completes (suggestionList.ts: the
 * keys, the focus and the combobox state it shares with the `@` picker). The message is still sent
 * as plain text: agents parse `/name args` themselves.
 */
import * as l10n from '@vscode/l10n';
import type { CommandView } from '../../src/protocol/messages';
import { h } from '../core/dom';
import { SuggestionList } from './suggestionList';

const LISTBOX_ID = 'tandem-command-suggestions';

export class CommandMenu extends SuggestionList<HTMLUListElement> {
  private matches: CommandView[] = [];

  constructor(
    textarea: HTMLTextAreaElement,
    private readonly commands: () => readonly CommandView[],
    /** Called after a completion changed the textarea's value (draft saving, buttons). */
    private readonly onCompleted: () => void,
  ) {
    // Home and End keep moving the caret: leaving the command word closes the list.
    super(textarea, { tag: 'ul', className: 'command-suggestions', id: LISTBOX_ID, label: l10n.t('Slash commands'), homeEnd: false });
  }

  protected get count(): number {
    return this.matches.length;
  }

  /** Recomputes the suggestions from the text and caret; opens or closes the list accordingly. */
  update(): void {
    const may = this.mayList();
    const query = this.query();
    if (query === undefined || !may) {
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
    this.show(
      this.matches.map((command, index) =>
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
  protected pick(index: number): void {
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
