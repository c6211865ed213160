/**
 * The `@` picker: typing `@` (at the start or after a space) asks the host for context to mention —
 * files, folders, open editors, symbols, the selection, problems, terminal output, uncommitted
 * changes — and lists its answer under the host's group headings, already ranked. The query is the
 * text between `@` and the caret; it is sent a moment after typing pauses (a few ms, so a fast
 * typist does not send a query per key) and answers to older queries are ignored. ↑/↓/Home/End
 * move, Enter or Tab pick, Escape closes (nothing else), a click picks. Focus stays in the textarea
 * (aria-activedescendant), as with the slash-command list; a pick removes the `@query` text.
 */
import * as l10n from '@vscode/l10n';
import type { MentionCandidate } from '../src/protocol/messages';
import { chipKey, chipLabel } from './chips';
import { h, icon } from './dom';

const LISTBOX_ID = 'tandem-mention-suggestions';
/** Enough to merge a burst of keys, short enough to feel instant. */
const QUERY_DELAY_MS = 25;

/** The `@word` the caret is in: where it starts and ends in the text, and what was typed after `@`. */
interface Token {
  start: number;
  end: number;
  query: string;
}

export class MentionPicker {
  readonly element: HTMLDivElement;
  private items: MentionCandidate[] = [];
  private active = 0;
  private lastRequestId = 0;
  /** The request whose answer is wanted; any other answer is stale. */
  private awaiting: number | undefined;
  /** The token the last query was sent for (start and query), so caret moves do not re-send it. */
  private queried: { start: number; query: string } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private applied: unknown;
  /** The textarea value Escape closed the list for: it stays closed until the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly textarea: HTMLTextAreaElement,
    private readonly query: (requestId: number, query: string) => void,
    /** A candidate was picked (its `@query` text is already gone from the textarea). */
    private readonly onPick: (candidate: MentionCandidate) => void,
  ) {
    this.element = h('div', { class: 'mention-suggestions', role: 'listbox', id: LISTBOX_ID, 'aria-label': l10n.t('Mention suggestions') });
    this.element.hidden = true;
    // Keep focus in the textarea when an option is pressed.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
    this.element.addEventListener('click', (event) => {
      const option = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const index = Number(option?.dataset.index);
      if (option && Number.isInteger(index)) this.pick(index);
    });
    textarea.addEventListener('input', () => this.update());
    textarea.addEventListener('focus', () => this.update());
    textarea.addEventListener('click', () => this.update());
    textarea.addEventListener('keyup', (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) this.update();
    });
    textarea.addEventListener('blur', () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Recomputes the token from the text and caret: asks for suggestions, or closes the list. */
  update(): void {
    const value = this.textarea.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== value) this.dismissedFor = undefined;
    const token = this.token();
    if (token === undefined || this.dismissedFor !== undefined || document.activeElement !== this.textarea) {
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

  /** Handles a keydown in the textarea while the list is open; true when the key was consumed. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const count = this.items.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (event.shiftKey || count === 0) return false;
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : -1) + count) % count;
        this.renderActive();
        break;
      case 'Home':
      case 'End':
        if (event.shiftKey || count === 0) return false;
        this.active = event.key === 'Home' ? 0 : count - 1;
        this.renderActive();
        break;
      case 'Enter':
      case 'Tab':
        // With nothing to pick, Enter sends and Tab moves on as usual.
        if (event.shiftKey || count === 0) return false;
        this.pick(this.active);
        break;
      case 'Escape':
        // Closing the list is all Escape does here: a running agent is not interrupted.
        this.dismissedFor = this.textarea.value;
        this.close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
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
  private pick(index: number): void {
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
    if (children.length === 0) children.push(h('div', { class: 'mention-empty' }, l10n.t('No matches')));
    this.element.replaceChildren(...children);
    this.element.hidden = false;
    this.textarea.setAttribute('aria-controls', LISTBOX_ID);
    this.textarea.setAttribute('aria-expanded', 'true');
    this.renderActive();
  }

  private renderActive(): void {
    const options = this.element.querySelectorAll<HTMLElement>('[role="option"]');
    options.forEach((option, i) => option.setAttribute('aria-selected', String(i === this.active)));
    const current = options[this.active];
    if (current) {
      this.textarea.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else {
      this.textarea.removeAttribute('aria-activedescendant');
    }
  }

  /** Hides the list; the query state stays (the same `@word` reopens without asking again). */
  private hide(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.element.replaceChildren();
    this.textarea.setAttribute('aria-expanded', 'false');
    this.textarea.removeAttribute('aria-activedescendant');
  }

  /** Leaves the `@word`: nothing pending, nothing listed, late answers ignored. */
  private close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.awaiting = undefined;
    this.queried = undefined;
    this.items = [];
    this.active = 0;
    this.hide();
  }
}
