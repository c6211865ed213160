/**
 * The thread: one `[role="log"]` with a keyed slot per entry (threadSlots.ts). Each frame the
 * renderer hands it the store's changes; only the entries that changed are touched, new ones are
 * appended, and a render failure in one entry becomes an inline placeholder. A snapshot places every
 * entry at once and builds the last screenful; the rest is built as it nears the viewport (a long
 * thread) or in the background, newest first, while the log is `aria-busy` (a small one).
 */
import * as l10n from '@vscode/l10n';
import type { Entry } from '../../src/protocol/messages';
import { h } from '../core/dom';
import { ThoughtView } from '../entries/entries';
import { warmUpMarkdown } from '../markdown/markdown';
import { ScrollPin } from './scrollPin';
import type { StoreChanges } from '../store/store';
import { ThreadSlots } from './threadSlots';
import { NestedCards } from '../entries/nestedCards';
import { buildView } from './entryFactory';
import type { ViewContext } from '../entries/viewContext';
import { SearchReveal } from './searchReveal';

export class Thread {
  readonly element: HTMLElement;
  /** The log's only child: entries live here, so its size tells the pin when content changed. */
  private readonly items: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly pin: ScrollPin;
  private readonly slots: ThreadSlots;
  private streamingThought: ThoughtView | undefined;
  /** Restores a saved scroll position once the older entries of a split snapshot arrived. */
  private afterOlder: (() => void) | undefined;
  private readonly searchReveal: SearchReveal;

  constructor(private readonly ctx: ViewContext) {
    const nested = (ctx.nested ??= new NestedCards(ctx.store, (entry) => buildView(entry, ctx)));
    // A log that is not live: read on demand, while the announcer says when a turn ends (a live log
    // would read every streamed chunk).
    this.element = h('div', { role: 'log', id: 'tandem-thread', class: 'thread', 'aria-label': l10n.t('Conversation'), 'aria-live': 'off', tabindex: 0 });
    this.items = h('div', { class: 'thread-items' });
    this.empty = h('div', { class: 'thread-empty' }, l10n.t('Ask the agent something to start.'));
    this.items.append(this.empty);
    this.element.append(this.items);
    this.pin = new ScrollPin(this.element, this.items, ctx.host);
    // Scrolling away from the bottom (the pin's own scrolls keep it there) may reach cold text.
    this.element.addEventListener(
      'scroll',
      () => {
        if (!this.pin.atBottom) ctx.cold?.warmSoon();
      },
      { passive: true },
    );
    this.slots = new ThreadSlots(
      this.items,
      this.empty,
      this.element,
      ctx,
      () => this.showBusy(),
      (view) => view === this.streamingThought,
      nested,
    );
    this.searchReveal = new SearchReveal(this.element);
    // While the panel waits for its snapshot.
    setTimeout(() => warmUpMarkdown(), 0);
  }

  /** True while older snapshot entries are still being built. */
  get busy(): boolean {
    return this.slots.busy;
  }

  /** Applies one frame's worth of changes. */
  render(changes: StoreChanges): void {
    const store = this.ctx.store;
    // Terminals first: views created below read the store's current output themselves.
    this.ctx.terminals.apply(changes.terminals);
    if (changes.reset) {
      const entries: Entry[] = [];
      for (const id of store.entryIds) {
        const entry = store.entry(id);
        if (entry) entries.push(entry);
      }
      this.slots.reset(entries, store.olderPending);
    } else {
      if (changes.prepended > 0) {
        const older: Entry[] = [];
        for (const id of store.entryIds.slice(0, changes.prepended)) {
          const entry = store.entry(id);
          if (entry) older.push(entry);
        }
        this.slots.prepend(older);
      }
      for (const id of changes.entries) {
        const entry = store.entry(id);
        if (entry) this.slots.change(entry);
      }
    }
    this.empty.hidden = store.entryIds.length > 0;
    this.updateStreamingThought();
    this.showBusy();
    if (store.olderPending === 0 && this.afterOlder) {
      const restore = this.afterOlder;
      this.afterOlder = undefined;
      restore();
    }
  }

  /** Busy while older entries are on their way or still being built (`aria-busy`, for tests and assistive tech). */
  private showBusy(): void {
    if (this.slots.busy || this.ctx.store.olderPending > 0) this.element.setAttribute('aria-busy', 'true');
    else this.element.removeAttribute('aria-busy');
  }

  /** The shown conversation's ids, on the log (`data-session-id` once the agent named its session). */
  renderConversation(): void {
    const { conversationId, sessionId, title } = this.ctx.store;
    this.element.dataset.conversationId = conversationId;
    if (sessionId === undefined) delete this.element.dataset.sessionId;
    else this.element.dataset.sessionId = sessionId;
    this.element.setAttribute('aria-label', title ? l10n.t('Conversation: {0}', title) : l10n.t('Conversation'));
  }

  /** Status changes can end a thought's streaming too. */
  refreshStreaming(): void {
    this.updateStreamingThought();
  }

  private updateStreamingThought(): void {
    const store = this.ctx.store;
    const last = store.lastEntry;
    const running = store.status.kind === 'running' || store.status.kind === 'cancelling';
    const view = last && last.kind === 'thought' && running ? this.slots.view(last.id) : undefined;
    const next = view instanceof ThoughtView ? view : undefined;
    if (next === this.streamingThought) return;
    this.streamingThought?.setStreaming(false);
    next?.setStreaming(true);
    this.streamingThought = next;
  }

  /**
   * Lands on an entry (a search match): builds its view if it is a placeholder, scrolls it to the
   * middle and highlights it, `query` marked. A subagent's entry lands on its top-level card. False
   * while the entry is not here yet (older entries still on their way).
   */
  revealEntry(entryId: string, query: string | undefined): boolean {
    const element = this.slots.reveal(this.ctx.nested?.rootOf(entryId) ?? entryId);
    if (!element) return false;
    this.pin.release();
    element.scrollIntoView({ block: 'center' });
    this.searchReveal.show(element, query);
    // Pages above it lay out at their real heights as they come into view: land again once they have.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (!element.isConnected) return;
        element.scrollIntoView({ block: 'center' });
        this.searchReveal.mark(query);
      }),
    );
    return true;
  }

  /** Follows the bottom from now on (e.g. after the user sent a prompt). */
  scrollToBottom(): void {
    this.pin.stickToBottom();
  }

  /**
   * Restores the saved scroll position (after the first snapshot of this webview's life). The
   * bottom is followed at once; a position inside a small thread waits until every entry is built.
   */
  restoreScroll(): void {
    const ui = this.ctx.host.ui;
    if (ui.atBottom) this.pin.stickToBottom();
    else {
      // A position inside the thread is only meaningful once all of it is there.
      const top = ui.scrollTop;
      const restore = (): void => this.slots.afterComplete(() => this.pin.restore(top));
      if (this.ctx.store.olderPending > 0) this.afterOlder = restore;
      else restore();
    }
  }
}
