/**
 * The thread: one `[role="log"]` with a keyed view per entry. Each frame the renderer hands it the
 * store's changes; only the entries that changed are touched, new ones are appended in one
 * fragment, and a render failure in one entry becomes an inline placeholder.
 */
import type { Entry } from '../src/protocol/messages';
import { assertNever } from '../src/protocol/messages';
import { h } from './dom';
import { BrokenEntryView, ErrorView, MessageView, PlanView, ThoughtView, TurnEndView } from './entries';
import type { StoreChanges } from './store';
import { ToolCardView } from './toolCard';
import type { EntryView, ViewContext } from './viewContext';

function createView(entry: Entry, ctx: ViewContext): EntryView {
  switch (entry.kind) {
    case 'user':
    case 'agent':
      return new MessageView(entry.kind, entry);
    case 'thought':
      return new ThoughtView(entry.id, entry, ctx);
    case 'plan':
      return new PlanView(entry);
    case 'tool_call':
      return new ToolCardView(entry.id, entry, ctx);
    case 'error':
      return new ErrorView(entry, ctx);
    case 'turn_end':
      return new TurnEndView(entry);
    default:
      return assertNever(entry);
  }
}

function safeCreate(entry: Entry, ctx: ViewContext): EntryView {
  try {
    return createView(entry, ctx);
  } catch (error) {
    console.error(`Tandem: could not render entry ${entry.id}`, error);
    return new BrokenEntryView(entry.kind, error instanceof Error ? error.message : error);
  }
}

export class Thread {
  readonly element: HTMLElement;
  private readonly views = new Map<string, EntryView>();
  private streamingThought: ThoughtView | undefined;
  private readonly empty: HTMLElement;
  private pinFrames = 0;
  private pinScheduled = false;

  constructor(private readonly ctx: ViewContext) {
    this.element = h('div', { role: 'log', class: 'thread', 'aria-label': 'Conversation', 'aria-live': 'polite', tabindex: 0 });
    this.empty = h('div', { class: 'thread-empty' }, 'Ask the agent something to start.');
    this.element.append(this.empty);
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
  }

  /** Whether the user is at (or near) the bottom; kept from scroll events, never measured per chunk. */
  private get atBottom(): boolean {
    return this.ctx.host.ui.atBottom;
  }

  private onScroll(): void {
    if (this.pinScheduled) return;
    const el = this.element;
    const ui = this.ctx.host.ui;
    ui.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 32;
    ui.scrollTop = el.scrollTop;
    this.ctx.host.save();
  }

  /** Applies one frame's worth of changes. */
  render(changes: StoreChanges): void {
    const store = this.ctx.store;
    const stickToBottom = this.atBottom;
    // Terminals first: views created below read the store's current output themselves.
    this.ctx.terminals.apply(changes.terminals);
    if (changes.reset) this.reconcileAll();
    else {
      const fragment = document.createDocumentFragment();
      for (const id of changes.entries) {
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
      this.element.append(fragment);
    }
    this.empty.hidden = store.entryIds.length > 0;
    this.updateStreamingThought();
    if (stickToBottom) this.scrollToBottom();
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

  /** Snapshot or clear: keep views whose id and kind survive (same DOM nodes), rebuild the order. */
  private reconcileAll(): void {
    const store = this.ctx.store;
    const keep = new Set(store.entryIds);
    for (const [id, view] of this.views) {
      const entry = store.entry(id);
      if (!keep.has(id) || !entry || entry.kind !== view.kind) {
        view.dispose();
        view.element.remove();
        this.views.delete(id);
      }
    }
    const fragment = document.createDocumentFragment();
    fragment.append(this.empty);
    for (const id of store.entryIds) {
      const entry = store.entry(id)!;
      const view = this.views.get(id);
      if (view) this.safeUpdate(id, view, entry);
      else this.views.set(id, safeCreate(entry, this.ctx));
      fragment.append(this.views.get(id)!.element);
    }
    this.element.append(fragment);
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

  /**
   * Pins the view to the bottom. Entries with `content-visibility: auto` get their real height only
   * once near the viewport, so the bottom moves for a frame or two: follow it, and ignore the scroll
   * events our own scrolling fires meanwhile.
   */
  scrollToBottom(): void {
    const el = this.element;
    el.scrollTop = el.scrollHeight;
    this.pinFrames = 2;
    if (this.pinScheduled) return;
    this.pinScheduled = true;
    const follow = (): void => {
      el.scrollTop = el.scrollHeight;
      if (--this.pinFrames > 0) requestAnimationFrame(follow);
      else this.pinScheduled = false;
    };
    requestAnimationFrame(follow);
  }

  /** Restores the saved scroll position (after the first snapshot of this webview's life). */
  restoreScroll(): void {
    const ui = this.ctx.host.ui;
    if (ui.atBottom) this.scrollToBottom();
    else this.element.scrollTop = ui.scrollTop;
  }
}
