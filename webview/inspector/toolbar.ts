/**
 * The inspector's toolbar: filters (text, method, session, direction, problems only), pause,
 * clear, export, and a status line that says how many messages are shown — announced politely to
 * screen readers, at most once a second.
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../../src/protocol/displayLanguage';
import { button, h } from '../core/dom';
import type { Filters, RowStore } from './rowStore';

/** Typing pause before the text filter runs. */
const TYPE_DEBOUNCE_MS = 150;
const ANNOUNCE_MS = 1000;

export interface ToolbarActions {
  filter(filters: Filters): void;
  pause(paused: boolean): void;
  clear(): void;
  export(): void;
}

export class Toolbar {
  readonly element: HTMLElement;
  readonly status: HTMLElement;
  private readonly text: HTMLInputElement;
  private readonly method: HTMLSelectElement;
  private readonly session: HTMLSelectElement;
  private readonly dir: HTMLSelectElement;
  private readonly problems: HTMLInputElement;
  private readonly pauseButton: HTMLButtonElement;
  private paused = false;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private optionsKey = '';
  private announced = 0;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: RowStore,
    private readonly act: ToolbarActions,
    initial: Filters,
  ) {
    this.text = h('input', {
      type: 'search',
      class: 'filter-text',
      placeholder: l10n.t('Filter: text in the message'),
      'aria-label': l10n.t('Filter by text'),
      spellcheck: 'false',
    });
    this.text.value = initial.text;
    this.text.addEventListener('input', () => {
      clearTimeout(this.typing);
      this.typing = setTimeout(() => this.changed(), TYPE_DEBOUNCE_MS);
    });
    this.method = h('select', { 'aria-label': l10n.t('Filter by method') });
    this.session = h('select', { 'aria-label': l10n.t('Filter by session') });
    this.dir = h(
      'select',
      { 'aria-label': l10n.t('Filter by direction') },
      h('option', { value: '' }, l10n.t('Both directions')),
      h('option', { value: 'in' }, l10n.t('From the agent')),
      h('option', { value: 'out' }, l10n.t('To the agent')),
    );
    this.dir.value = initial.dir;
    this.problems = h('input', { type: 'checkbox', id: 'problems-only' });
    this.problems.checked = initial.problems;
    for (const el of [this.method, this.session, this.dir, this.problems]) el.addEventListener('change', () => this.changed());
    this.pauseButton = button(l10n.t('Pause'), () => this.togglePause(), {
      cls: 'secondary',
      icon: 'debug-pause',
      title: l10n.t('Stop adding new messages to the list (they are kept)'),
    });
    this.pauseButton.setAttribute('aria-pressed', 'false');
    const clear = button(l10n.t('Clear'), () => act.clear(), {
      cls: 'secondary',
      icon: 'clear-all',
      title: l10n.t('Remove every message from this list (exports keep them)'),
    });
    const exporter = button(l10n.t('Export…'), () => act.export(), { cls: 'secondary', icon: 'export', title: l10n.t('Tandem: Export Transcript…') });
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.element = h(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': l10n.t('Filters and actions') },
      this.text,
      this.method,
      this.session,
      this.dir,
      h('label', { class: 'check', for: 'problems-only' }, this.problems, l10n.t('Problems only')),
      this.pauseButton,
      clear,
      exporter,
    );
    this.updateOptions(initial);
  }

  get filters(): Filters {
    return {
      text: this.text.value,
      method: this.method.value,
      session: this.session.value,
      dir: this.dir.value as Filters['dir'],
      problems: this.problems.checked,
    };
  }

  /** Shows one session only (the chat panel's conversation), or every session. */
  focusSession(session: string | undefined): void {
    this.updateOptions({ ...this.filters, session: session ?? '' });
    this.changed();
  }

  /** New methods or sessions appeared: the pickers list them (rebuilt only when the lists changed). */
  updateOptions(selected: Filters = this.filters): void {
    const key = `${this.store.methods.size}|${this.store.sessions.size}|${selected.method}|${selected.session}`;
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    const methods = [...this.store.methods.keys()].sort();
    if (selected.method && !methods.includes(selected.method)) methods.unshift(selected.method);
    this.method.replaceChildren(h('option', { value: '' }, l10n.t('All methods')), ...methods.map((m) => h('option', { value: m }, m)));
    this.method.value = selected.method;
    const sessions = [...this.store.sessions.keys()];
    if (selected.session && !sessions.includes(selected.session)) sessions.unshift(selected.session);
    this.session.replaceChildren(
      h('option', { value: '' }, l10n.t('All sessions')),
      ...sessions.map((s) => h('option', { value: s, title: s }, s.length > 14 ? `${s.slice(0, 12)}…` : s)),
    );
    this.session.value = selected.session;
  }

  /** The status line: what is shown of what is kept, and what is waiting or was dropped. */
  render(pending: number): void {
    const parts = [
      this.store.filtering
        ? l10n.t('Filtering {0} messages…', formatNumber(this.store.size))
        : l10n.t('{0} of {1} messages', formatNumber(this.store.shown.length), formatNumber(this.store.size)),
    ];
    if (this.paused) parts.push(l10n.t('paused: {0} new', formatNumber(pending)));
    if (this.store.dropped > 0) parts.push(l10n.t('{0} older messages dropped (the last 100,000 are kept)', formatNumber(this.store.dropped)));
    const text = parts.join(' · ');
    if (text === this.status.textContent) return;
    // Screen readers hear the count when it settles, not on every message.
    clearTimeout(this.announceTimer);
    const wait = Math.max(0, this.announced + ANNOUNCE_MS - performance.now());
    this.announceTimer = setTimeout(() => {
      this.announced = performance.now();
      this.status.textContent = text;
    }, wait);
  }

  private changed(): void {
    this.act.filter(this.filters);
  }

  private togglePause(): void {
    this.paused = !this.paused;
    this.pauseButton.setAttribute('aria-pressed', String(this.paused));
    this.pauseButton.querySelector('.button-text')!.textContent = this.paused ? l10n.t('Resume') : l10n.t('Pause');
    this.pauseButton.querySelector('.codicon')!.className = `codicon codicon-${this.paused ? 'debug-continue' : 'debug-pause'}`;
    this.act.pause(this.paused);
  }
}
