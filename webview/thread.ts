/**
 * The thread: one `[role="log"]` with a keyed view per entry. Each frame the renderer hands it the
 * store's changes; only the entries that changed are touched, new ones are appended in one
 * fragment, and a render failure in one entry becomes an inline placeholder. A large snapshot is
 * rendered newest first: the last screenful at once, older entries in time slices prepended above
 * (the log is `aria-busy` meanwhile), so a reload of a long thread paints quickly.
 */
import type { Entry } from '../src/protocol/messages';
import { assertNever } from '../src/protocol/messages';
import { h } from './dom';
import { AuthView, CompactionView, QuestionView } from './agentAsks';
import { BrokenEntryView, ErrorView, MessageView, NoticeView, PlanView, ThoughtView, TurnEndView } from './entries';
import { ScrollPin } from './scrollPin';
import type { StoreChanges } from './store';
import { ToolCardView } from './toolCard';
import type { EntryView, ViewContext } from './viewContext';

function createView(entry: Entry, ctx: ViewContext, deferBody: boolean): EntryView {
  switch (entry.kind) {
    case 'user':
    case 'agent':
      return new MessageView(entry.kind, entry, ctx);
    case 'thought':
      return new ThoughtView(entry.id, entry, ctx);
    case 'plan':
      return new PlanView(entry);
    case 'tool_call':
      return new ToolCardView(entry.id, entry, ctx, deferBody);
    case 'error':
      return new ErrorView(entry, ctx);
    case 'notice':
      return new NoticeView(entry);
    case 'auth':
      return new AuthView(entry, ctx);
    case 'question':
      return new QuestionView(entry, ctx);
    case 'compaction':
      return new CompactionView(entry);
    case 'turn_end':
      return new TurnEndView(entry);
    default:
      return assertNever(entry);
  }
}

function safeCreate(entry: Entry, ctx: ViewContext, deferBody = false): EntryView {
  try {
    return createView(entry, ctx, deferBody);
  } catch (error) {
    console.error(`Tandem: could not render entry ${entry.id}`, error);
    return new BrokenEntryView(entry.kind, error instanceof Error ? error.message : error);
  }
}

/** Entries rendered synchronously from the end of a snapshot: at least a screenful. */
const SYNC_TAIL_ENTRIES = 40;
/** Time budget of one slice of older snapshot entries; frames run in between. */
const SLICE_MS = 40;
/** Snapshots with at most this many new views are rendered in one go. */
const INCREMENTAL_ABOVE = 80;

export class Thread {
  readonly element: HTMLElement;
  /** The log's only child: entries live here, so its size tells the pin when content changed. */
  private readonly items: HTMLElement;
  private readonly views = new Map<string, EntryView>();
  private streamingThought: ThoughtView | undefined;
  private readonly empty: HTMLElement;
  private readonly pin: ScrollPin;
  /** Snapshot entries not yet rendered, oldest first; rendered from the end, prepended above. */
  private backlog: string[] = [];
  private readonly pendingIds = new Set<string>();
  private sliceScheduled = false;
  private readonly sliceChannel = new MessageChannel();
  private whenComplete: Array<() => void> = [];
  /** Views whose deferred body is not built yet, newest first. */
  private unhydrated: EntryView[] = [];
  /** Builds a deferred body as soon as its card comes near the viewport. */
  private readonly nearViewport: IntersectionObserver;
  private readonly viewByElement = new WeakMap<Element, EntryView>();

  constructor(private readonly ctx: ViewContext) {
    this.element = h('div', { role: 'log', id: 'tandem-thread', class: 'thread', 'aria-label': 'Conversation', 'aria-live': 'polite', tabindex: 0 });
    this.items = h('div', { class: 'thread-items' });
    this.empty = h('div', { class: 'thread-empty' }, 'Ask the agent something to start.');
    this.items.append(this.empty);
    this.element.append(this.items);
    this.pin = new ScrollPin(this.element, this.items, ctx.host);
    // A MessageChannel task is not clamped like nested timers, and frames still run between slices.
    this.sliceChannel.port1.onmessage = () => this.renderSlice();
    this.nearViewport = new IntersectionObserver((records) => this.hydrateVisible(records), { root: this.element, rootMargin: '100% 0px' });
  }

  /** True while older snapshot entries are still being rendered. */
  get busy(): boolean {
    return this.backlog.length > 0 || this.unhydrated.length > 0;
  }

  /** Applies one frame's worth of changes. */
  render(changes: StoreChanges): void {
    const store = this.ctx.store;
    // Terminals first: views created below read the store's current output themselves.
    this.ctx.terminals.apply(changes.terminals);
    if (changes.reset) this.reconcileAll();
    else {
      const fragment = document.createDocumentFragment();
      for (const id of changes.entries) {
        // Still in the snapshot backlog: its slice will read the store's latest entry.
        if (this.pendingIds.has(id)) continue;
        const entry = store.entry(id);
        if (!entry) continue;
        const view = this.views.get(id);
        if (!view) {
          const created = safeCreate(entry, this.ctx);
          this.views.set(id, created);
          fragment.append(created.element);
        } else if (view.kind !== entry.kind) {
          const created = safeCreate(entry, this.ctx);
          view.dispose();
          view.element.replaceWith(created.element);
          this.views.set(id, created);
        } else {
          this.safeUpdate(id, view, entry);
        }
      }
      this.items.append(fragment);
    }
    this.empty.hidden = store.entryIds.length > 0;
    this.updateStreamingThought();
  }

  private safeUpdate(id: string, view: EntryView, entry: Entry): void {
    try {
      view.update(entry);
    } catch (error) {
      console.error(`Tandem: could not update entry ${id}`, error);
      const broken = new BrokenEntryView(entry.kind, error instanceof Error ? error.message : error);
      view.dispose();
      view.element.replaceWith(broken.element);
      this.views.set(id, broken);
    }
  }

  /** The view for `id`, created or updated from the store, ready to be placed. */
  private viewFor(id: string, deferBody = false): EntryView | undefined {
    const entry = this.ctx.store.entry(id);
    if (!entry) return undefined;
    const view = this.views.get(id);
    if (view) {
      this.safeUpdate(id, view, entry);
      return this.views.get(id);
    }
    const created = safeCreate(entry, this.ctx, deferBody);
    this.views.set(id, created);
    if (created instanceof ToolCardView && !created.isHydrated) {
      this.unhydrated.push(created);
      this.viewByElement.set(created.element, created);
      this.nearViewport.observe(created.element);
    }
    return created;
  }

  private hydrateVisible(records: IntersectionObserverEntry[]): void {
    for (const record of records) {
      if (!record.isIntersecting) continue;
      this.nearViewport.unobserve(record.target);
      this.viewByElement.get(record.target)?.hydrate?.();
    }
  }

  /**
   * Snapshot or clear: keep views whose id and kind survive (same DOM nodes), rebuild the order.
   * When many views must be created, only the newest entries are placed now; the rest follow.
   */
  private reconcileAll(): void {
    const store = this.ctx.store;
    this.backlog = [];
    this.pendingIds.clear();
    // Views that survive keep their deferred bodies; build them now rather than track them anew.
    for (const view of this.unhydrated) view.hydrate?.();
    this.unhydrated = [];
    this.nearViewport.disconnect();
    const keep = new Set(store.entryIds);
    for (const [id, view] of this.views) {
      const entry = store.entry(id);
      if (!keep.has(id) || !entry || entry.kind !== view.kind) {
        view.dispose();
        view.element.remove();
        this.views.delete(id);
      }
    }
    const ids = store.entryIds;
    let created = 0;
    for (const id of ids) if (!this.views.has(id)) created++;
    const split = created > INCREMENTAL_ABOVE ? Math.max(0, ids.length - SYNC_TAIL_ENTRIES) : 0;
    // Kept views in the backlog part leave the DOM until their slice puts them back in order.
    for (let i = 0; i < split; i++) this.views.get(ids[i])?.element.remove();
    const fragment = document.createDocumentFragment();
    fragment.append(this.empty);
    for (let i = split; i < ids.length; i++) {
      const view = this.viewFor(ids[i]);
      if (view) fragment.append(view.element);
    }
    this.items.append(fragment);
    this.backlog = ids.slice(0, split);
    for (const id of this.backlog) this.pendingIds.add(id);
    this.setBusy();
  }

  private setBusy(): void {
    if (this.busy) {
      this.element.setAttribute('aria-busy', 'true');
      this.scheduleSlice();
      return;
    }
    this.element.removeAttribute('aria-busy');
    const waiting = this.whenComplete;
    this.whenComplete = [];
    for (const done of waiting) done();
  }

  private scheduleSlice(): void {
    if (this.sliceScheduled) return;
    this.sliceScheduled = true;
    this.sliceChannel.port2.postMessage(null);
  }

  /** Renders backlog entries, newest first, for one time budget, and prepends them in order. */
  private renderSlice(): void {
    this.sliceScheduled = false;
    if (this.backlog.length === 0) {
      this.hydrateSlice();
      return;
    }
    const started = performance.now();
    let end = this.backlog.length;
    const views: HTMLElement[] = [];
    while (end > 0 && (views.length === 0 || performance.now() - started < SLICE_MS)) {
      const id = this.backlog[--end];
      this.pendingIds.delete(id);
      const view = this.viewFor(id, true);
      if (view) views.push(view.element);
    }
    this.backlog.length = end;
    views.reverse();
    this.empty.after(...views);
    this.setBusy();
  }

  /** Builds deferred bodies, newest first, for one time budget (cards seen on screen went first). */
  private hydrateSlice(): void {
    const started = performance.now();
    let next = 0;
    while (next < this.unhydrated.length && performance.now() - started < SLICE_MS) {
      const view = this.unhydrated[next++];
      this.nearViewport.unobserve(view.element);
      view.hydrate?.();
    }
    this.unhydrated.splice(0, next);
    if (this.unhydrated.length === 0) this.nearViewport.disconnect();
    this.setBusy();
  }

  /** Runs `done` once every snapshot entry is in the DOM, complete (at once when nothing is pending). */
  private afterComplete(done: () => void): void {
    if (!this.busy) done();
    else this.whenComplete.push(done);
  }

  /** The shown conversation's ids, on the log (`data-session-id` once the agent named its session). */
  renderConversation(): void {
    const { conversationId, sessionId, title } = this.ctx.store;
    this.element.dataset.conversationId = conversationId;
    if (sessionId === undefined) delete this.element.dataset.sessionId;
    else this.element.dataset.sessionId = sessionId;
    this.element.setAttribute('aria-label', title ? `Conversation: ${title}` : 'Conversation');
  }

  /** Status changes can end a thought's streaming too. */
  refreshStreaming(): void {
    this.updateStreamingThought();
  }

  private updateStreamingThought(): void {
    const store = this.ctx.store;
    const last = store.lastEntry;
    const running = store.status.kind === 'running' || store.status.kind === 'cancelling';
    const view = last && last.kind === 'thought' && running ? this.views.get(last.id) : undefined;
    const next = view instanceof ThoughtView ? view : undefined;
    if (next === this.streamingThought) return;
    this.streamingThought?.setStreaming(false);
    next?.setStreaming(true);
    this.streamingThought = next;
  }

  /** Follows the bottom from now on (e.g. after the user sent a prompt). */
  scrollToBottom(): void {
    this.pin.stickToBottom();
  }

  /**
   * Restores the saved scroll position (after the first snapshot of this webview's life). The
   * bottom is followed at once; a position inside the thread needs every entry above it first.
   */
  restoreScroll(): void {
    const ui = this.ctx.host.ui;
    if (ui.atBottom) this.pin.stickToBottom();
    else {
      const top = ui.scrollTop;
      this.afterComplete(() => this.pin.restore(top));
    }
  }
}
