/**
 * The `@` picker: typing `@` (at the start or after a space) asks the host for context to mention —
 * files, folders, open editors, symbols, the selection, problems, terminal output, uncommitted
 * changes — and lists its answer under the host's group headings, already ranked. The query is the
 * text between `@` and the caret; it is sent a moment after typing pauses (a few ms, so a fast
 * typist does not send a query per key) and answers to older queries are ignored. ↑/↓/Home/End
 * move, Enter or Tab pick, Escape closes (nothing else), a click picks; focus stays in the textarea
 * (suggestionList.ts, shared with the slash-command list). A pick removes the `@query` text.
 */
import * as l10n from '@vscode/l10n';
import type { MentionCandidate } from '../../src/protocol/messages';
import { chipKey, chipLabel } from './chips';
import { h, icon } from '../core/dom';
import { SuggestionList } from './suggestionList';

const LISTBOX_ID = 'tandem-mention-suggestions';
/** Enough to merge a burst of keys, short enough to feel instant. */
const QUERY_DELAY_MS = 25;

/** The `@word` the caret is in: where it starts and ends in the text, and what was typed after `@`. */
interface Token {
  start: number;
  end: number;
  query: string;
}

export class MentionPicker extends SuggestionList<HTMLDivElement> {
  private items: MentionCandidate[] = [];
  private lastRequestId = 0;
  /** The request whose answer is wanted; any other answer is stale. */
  private awaiting: number | undefined;
  /** The token the last query was sent for (start and query), so caret moves do not re-send it. */
  private queried: { start: number; query: string } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private applied: unknown;

  constructor(
    textarea: HTMLTextAreaElement,
    private readonly query: (requestId: number, query: string) => void,
    /** A candidate was picked (its `@query` text is already gone from the textarea). */
    private readonly onPick: (candidate: MentionCandidate) => void,
  ) {
    super(textarea, { tag: 'div', className: 'mention-suggestions', id: LISTBOX_ID, label: l10n.t('Mention suggestions'), homeEnd: true });
  }

  protected get count(): number {
    return this.items.length;
  }

  /** Recomputes the token from the text and caret: asks for suggestions, or closes the list. */
  update(): void {
    const may = this.mayList();
    const token = this.token();
    if (token === undefined || !may) {
      this.close();
      return;
    }
    if (this.queried?.start !== token.start) {
      // Another `@word`: what was listed for the previous one does not apply.
      this.hide();
      this.items = [];
    } else if (this.queried.query === token.query) {
      if (this.awaiting === undefined && !this.isOpen) this.render();
      return;
    }
    this.queried = { start: token.start, query: token.query };
    // From now on only the answer to the new query counts; the list shown stays until it arrives.
    this.awaiting = undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.awaiting = ++this.lastRequestId;
      this.query(this.awaiting, token.query);
    }, QUERY_DELAY_MS);
  }

  /** The host answered: shows the answer to the latest query; older answers are dropped. */
  showResults(results: { requestId: number; items: MentionCandidate[] } | undefined): void {
    if (results === undefined || results === this.applied || results.requestId !== this.awaiting) return;
    this.applied = results;
    this.awaiting = undefined;
    const previous = this.items[this.active];
    const previousKey = previous ? chipKey(previous.view) : undefined;
    this.items = results.items;
    // Keep the highlighted candidate while it is still listed; otherwise start at the best one.
    const kept = previousKey === undefined ? -1 : this.items.findIndex((c) => chipKey(c.view) === previousKey);
    this.active = kept >= 0 ? kept : 0;
    this.render();
  }

  /** `@word` with the caret inside it, the `@` at the start of the text or after whitespace. */
  private token(): Token | undefined {
    const value = this.textarea.value;
    const caret = this.textarea.selectionStart ?? value.length;
    if (this.textarea.selectionEnd !== caret) return undefined;
    const match = /(^|\s)@([^\s@]*)$/.exec(value.slice(0, caret));
    if (!match) return undefined;
    const query = match[2];
    const start = caret - query.length - 1;
    const after = /^[^\s@]*/.exec(value.slice(caret))?.[0] ?? '';
    return { start, end: caret + after.length, query };
  }

  /** Removes the `@word` (and one of the spaces around it) and hands the candidate over. */
  protected pick(index: number): void {
    const candidate = this.items[index];
    const token = this.token();
    if (candidate === undefined) return;
    if (token) {
      const value = this.textarea.value;
      const before = value.slice(0, token.start);
      let after = value.slice(token.end);
      if ((before === '' || /\s$/.test(before)) && /^ /.test(after)) after = after.slice(1);
      this.textarea.value = before + after;
      this.textarea.setSelectionRange(before.length, before.length);
    }
    this.close();
    this.onPick(candidate);
  }

  private render(): void {
    if (document.activeElement !== this.textarea) return;
    const children: HTMLElement[] = [];
    let group: HTMLElement | undefined;
    let groupName: string | undefined;
    this.items.forEach((candidate, index) => {
      const name = typeof candidate.group === 'string' && candidate.group !== '' ? candidate.group : l10n.t('Other');
      if (group === undefined || name !== groupName) {
        groupName = name;
        // The heading is seen; screen readers get the group's name from aria-label instead.
        group = h(
          'div',
          { class: 'mention-group', role: 'group', 'aria-label': name },
          h('div', { class: 'mention-group-label', 'aria-hidden': 'true' }, name),
        );
        children.push(group);
      }
      const view = candidate.view;
      group.append(
        h(
          'div',
          {
            class: 'mention-option',
            role: 'option',
            id: `${LISTBOX_ID}-${index}`,
            'data-index': index,
            'data-mention-kind': String(view.kind),
            'aria-selected': 'false',
            title: view.detail ? String(view.detail) : undefined,
          },
          icon(typeof view.icon === 'string' && /^[a-z0-9-]+$/.test(view.icon) ? view.icon : 'file'),
          h('span', { class: 'mention-option-label' }, chipLabel(view)),
          view.detail ? h('span', { class: 'mention-option-detail' }, String(view.detail)) : null,
        ),
      );
    });
    // A listbox holds options only: "No matches" is one that cannot be picked (and is never highlighted).
    if (children.length === 0)
      children.push(h('div', { class: 'mention-empty', role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false' }, l10n.t('No matches')));
    this.show(children);
  }

  /** Leaves the `@word`: nothing pending, nothing listed, late answers ignored. */
  protected override close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.awaiting = undefined;
    this.queried = undefined;
    this.items = [];
    this.active = 0;
    this.hide();
  }
}
