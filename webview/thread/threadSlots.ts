/**
 * The log's entries as slots: each entry has its place at once, holding its view once built and a
 * placeholder (entryPlaceholder.ts) until then, so order, scroll height and find-in-page are right
 * from the first frame while only what is near the viewport costs a view.
 *
 * Slots live in pages of PAGE_SIZE, each `content-visibility: auto` (CSS): a page off screen is
 * skipped by style, layout and paint as a whole, so the cost of a frame (and of every layout a view
 * forces while it is built) follows what is on screen, not the length of the thread. One
 * IntersectionObserver watches the pages, and the slots of pages near the viewport only.
 *
 * A small thread is then built whole in time slices, newest first (bodies of tool cards after all
 * headers). A long one (weight above EAGER_WEIGHT) builds views near the viewport only, closest
 * first, and lets the views farthest away go back to placeholders once more than MAX_BUILT are built.
 * A subagent's entries have no slot: their parent's card shows them (nestedCards.ts).
 */
import type { Entry } from '../../src/protocol/messages';
import { h } from '../core/dom';
import { buildView, isDeferred, updatedView, updateView } from './entryFactory';
import { deferrable, logMetrics, Placeholder, type LogMetrics } from '../entries/entryPlaceholder';
import type { EntryView, ViewContext } from '../entries/viewContext';
import type { NestedCards } from '../entries/nestedCards';
import { ViewportWatch } from './viewportWatch';
import { BUILD_ALL_BELOW, EAGER_WEIGHT, KEEP_TAIL, MAX_BUILT, NEAR_SLICE_MS, PAGE_SIZE, SLICE_MS } from './slotPages';
import { elementOf, farthestFirst, keptViews, lastScreenStart, mayLetGo, pageEstimate, showsTerminal, SliceScheduler, threadWeight } from './slotPages';
import type { Page, Slot } from './slotPages';

export class ThreadSlots {
  private readonly slots = new Map<string, Slot>();
  private order: Slot[] = [];
  private pages: Page[] = [];
  private lazy = false;
  /** Sum of entryWeight over the thread: above EAGER_WEIGHT it is built near the viewport only. */
  private weight = 0;
  private metrics: LogMetrics = { charsPerLine: 60 };
  /** A small thread's placeholders still to build, oldest first (built from the end). */
  private backlog: Slot[] = [];
  /** A small thread's views whose body is still to build, newest first. */
  private unhydrated: Slot[] = [];
  private readonly built = new Set<Slot>();
  /** Which pages and slots are near the viewport; `wanted`: the slots there waiting to be built or hydrated. */
  private readonly watch: ViewportWatch;
  private readonly slices = new SliceScheduler(() => this.work());
  private whenComplete: Array<() => void> = [];

  /**
   * `container` receives the pages after `before`; `scroller` is the log. `onBusy` hears when a
   * small thread starts or finishes building in the background; `isPinned` says which views must stay.
   */
  constructor(
    private readonly container: HTMLElement,
    private readonly before: HTMLElement,
    scroller: HTMLElement,
    private readonly ctx: ViewContext,
    private readonly onBusy: (busy: boolean) => void,
    private readonly isPinned: (view: EntryView) => boolean,
    /** Subagents' entries, shown in their parents' cards. */
    private readonly nested: NestedCards,
  ) {
    this.watch = new ViewportWatch(scroller, () => {
      if (this.watch.wanted.size > 0 || this.overBuilt()) this.slices.schedule();
    });
  }

  /** True while a small thread's older entries are still being built. */
  get busy(): boolean {
    return this.backlog.length > 0 || this.unhydrated.length > 0;
  }

  view(id: string): EntryView | undefined {
    return this.slots.get(id)?.view;
  }

  /** The entry's element with its view built now (a placeholder's, a deferred body), to land on; undefined when it has no slot. */
  reveal(id: string): HTMLElement | undefined {
    const slot = this.slots.get(id);
    if (!slot) return undefined;
    if (slot.placeholder || slot.deferred) this.buildSlot(slot, false);
    return slot.view?.element;
  }

  /** Runs `done` once a small thread is built whole (at once when nothing is pending). */
  afterComplete(done: () => void): void {
    if (!this.busy) done();
    else this.whenComplete.push(done);
  }

  /** An entry changed, or a new one arrived (placed after all others, built at once; a subagent's: in its parent's card). */
  change(entry: Entry): void {
    const slot = this.slots.get(entry.id);
    if (!slot && this.nested.isChild(entry)) {
      this.nested.changed(entry);
      // A prompt inside a card: the card is built with its body.
      const root = this.nested.asks(entry) ? this.slots.get(this.nested.rootOf(entry.id)) : undefined;
      if (root?.placeholder || root?.deferred) this.buildSlot(root, false);
      return;
    }
    if (!slot) {
      let page = this.pages[this.pages.length - 1];
      if (!page || page.slots.length >= PAGE_SIZE) {
        page = this.newPage();
        this.pages.push(page);
        this.container.append(page.element);
      }
      this.order.push(this.addSlot(entry, page, this.order.length, true));
      return;
    }
    if (slot.placeholder) {
      // A prompt waiting for the user is never left unbuilt.
      if (!deferrable(entry.kind) || this.nested.asks(entry)) this.setView(slot, buildView(entry, this.ctx));
      else slot.placeholder.update(entry, this.ctx.store);
      return;
    }
    // Another kind gets a new view; a view that fails to update, its placeholder.
    const replacement = slot.view!.kind !== entry.kind ? buildView(entry, this.ctx) : updateView(slot.view!, entry);
    if (replacement) this.setView(slot, replacement);
  }

  /**
   * Snapshot or clear: views whose id and kind survive are kept (same DOM nodes) and updated; every
   * entry gets its place at once, the last screenful built, the rest as placeholders. `older`
   * entries of a split snapshot are still to come (prepend).
   */
  reset(entries: Entry[], older = 0): void {
    this.watch.reset();
    this.backlog = [];
    this.unhydrated = [];
    this.built.clear();
    const kept = keptViews(this.slots, this.ctx.store);
    this.slots.clear();
    this.order = [];
    for (const page of this.pages) page.element.remove();
    this.pages = [];
    this.metrics = logMetrics();
    entries = this.nested.topLevel(entries, true);
    this.weight = threadWeight(entries);
    // Entries still on their way (`older`, see prepend) make a thread long before they are here.
    this.lazy = this.weight > EAGER_WEIGHT || older > BUILD_ALL_BELOW;
    const toBuild = entries.reduce((n, entry) => (kept.has(entry.id) ? n : n + 1), older);
    const laid = this.layOut(entries, kept, toBuild <= BUILD_ALL_BELOW ? 0 : lastScreenStart(entries, this.metrics), 0);
    this.pages = laid.pages;
    this.order = laid.slots;
    this.before.after(laid.fragment);
    this.queueBackground();
    this.settle();
  }

  /** A small thread is built whole in the background; a long one near the viewport only. */
  private queueBackground(): void {
    this.backlog = this.lazy ? [] : this.order.filter((slot) => slot.placeholder !== undefined);
    this.unhydrated = this.lazy ? [] : this.order.filter((slot) => slot.deferred).reverse();
  }

  /**
   * The older part of a split snapshot, placed before every entry: new pages above the shown ones,
   * as placeholders (built as they near the viewport, or in the background in a small thread).
   */
  prepend(entries: Entry[]): void {
    const unseen = entries.filter((entry) => !this.slots.has(entry.id));
    const fresh = this.nested.topLevel(unseen, false);
    if (fresh.length === 0) return;
    for (const slot of this.order) slot.index += fresh.length;
    const laid = this.layOut(fresh, new Map(), fresh.length, 0);
    this.pages = [...laid.pages, ...this.pages];
    this.order = [...laid.slots, ...this.order];
    this.before.after(laid.fragment);
    this.weight += threadWeight(fresh);
    this.lazy = this.weight > EAGER_WEIGHT;
    this.queueBackground();
    this.settle();
  }

  /** Pages and slots for `entries` (positions from `first`) in a fragment: kept views reused, views from `buildFrom` on, placeholders before. */
  private layOut(
    entries: Entry[],
    kept: Map<string, EntryView>,
    buildFrom: number,
    first: number,
  ): { pages: Page[]; slots: Slot[]; fragment: DocumentFragment } {
    const pages: Page[] = [];
    const slots: Slot[] = [];
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < entries.length; i++) {
      if (i % PAGE_SIZE === 0) pages.push(this.newPage());
      const entry = entries[i];
      slots.push(this.addSlot(entry, pages[pages.length - 1], first + i, i >= buildFrom, updatedView(kept.get(entry.id), entry)));
    }
    for (const page of pages) {
      page.element.style.containIntrinsicSize = `auto ${Math.round(pageEstimate(page, this.ctx.store, this.metrics))}px`;
      fragment.append(page.element);
    }
    return { pages, slots, fragment };
  }

  private newPage(): Page {
    const page: Page = { element: h('div', { class: 'thread-page' }), slots: [], near: false };
    this.watch.page(page);
    return page;
  }

  private addSlot(entry: Entry, page: Page, index: number, buildNow: boolean, kept?: EntryView): Slot {
    const slot: Slot = { id: entry.id, index, page, deferred: false, near: false, distance: Number.POSITIVE_INFINITY };
    this.slots.set(entry.id, slot);
    page.slots.push(slot);
    if (kept) this.setView(slot, kept);
    else if (buildNow || !deferrable(entry.kind) || this.nested.asks(entry)) this.setView(slot, buildView(entry, this.ctx));
    else this.setPlaceholder(slot, entry);
    page.element.append(elementOf(slot));
    return slot;
  }

  /** Puts `next` in the slot's place (when it has one); the viewport watch follows. */
  private swap(slot: Slot, previous: HTMLElement | undefined, next: HTMLElement): void {
    if (previous && previous !== next && previous.isConnected) previous.replaceWith(next);
    // Keyed in the DOM too: tests and find-the-entry code need no knowledge of views.
    next.dataset.entryId = slot.id;
    this.watch.placed(slot, previous, next);
  }

  private setView(slot: Slot, view: EntryView): void {
    const previous = slot.view ? slot.view.element : slot.placeholder?.element;
    if (slot.view && slot.view !== view) slot.view.dispose();
    slot.view = view;
    slot.placeholder = undefined;
    slot.deferred = isDeferred(view);
    this.built.add(slot);
    this.swap(slot, previous, view.element);
  }

  private setPlaceholder(slot: Slot, entry: Entry): void {
    const previous = slot.view;
    const placeholder = new Placeholder(entry, this.ctx.store);
    slot.view = undefined;
    slot.placeholder = placeholder;
    slot.deferred = false;
    this.built.delete(slot);
    this.swap(slot, previous?.element, placeholder.element);
    previous?.dispose();
  }

  private overBuilt(): boolean {
    return this.lazy && this.built.size > MAX_BUILT;
  }

  private settle(): void {
    if (this.busy || this.watch.wanted.size > 0 || this.overBuilt()) this.slices.schedule();
    this.onBusy(this.busy);
    if (this.busy) return;
    const waiting = this.whenComplete;
    this.whenComplete = [];
    for (const done of waiting) done();
  }

  /**
   * One slice of background work: entries near the viewport first (closest first), then a small
   * thread's remaining entries newest first and their bodies; a long thread then lets far views go.
   */
  private work(): void {
    const started = performance.now();
    const budget = this.watch.wanted.size > 0 ? NEAR_SLICE_MS : SLICE_MS;
    // A terminal costs the next two frames tens of milliseconds each: one terminal per two frames.
    let terminal = false;
    const spent = (): boolean => terminal || performance.now() - started >= budget;
    if (this.watch.wanted.size > 0) {
      for (const slot of [...this.watch.wanted].sort((a, b) => a.distance - b.distance)) {
        if (spent()) break;
        this.watch.wanted.delete(slot);
        terminal = this.buildSlot(slot, false) === 'terminal';
      }
    }
    while (!spent() && this.backlog.length > 0) {
      const slot = this.backlog.pop()!;
      if (this.buildSlot(slot, true) && slot.deferred) this.unhydrated.push(slot);
    }
    while (!spent() && this.backlog.length === 0 && this.unhydrated.length > 0) terminal = this.buildSlot(this.unhydrated.shift()!, false) === 'terminal';
    if (this.overBuilt()) this.trim();
    if (terminal) this.slices.scheduleAfterFrames();
    this.settle();
  }

  /**
   * Builds a placeholder's view (or a deferred view's body): 'terminal' when that built a terminal,
   * false when there was nothing to do.
   */
  private buildSlot(slot: Slot, deferBody: boolean): boolean | 'terminal' {
    if (this.slots.get(slot.id) !== slot) return false;
    const entry = this.ctx.store.entry(slot.id);
    if (slot.deferred && slot.view) {
      slot.view.hydrate?.();
      slot.deferred = false;
      return entry && showsTerminal(entry) ? 'terminal' : true;
    }
    if (!slot.placeholder || !entry) return false;
    this.setView(slot, buildView(entry, this.ctx, deferBody));
    return !slot.deferred && showsTerminal(entry) ? 'terminal' : true;
  }

  /** Lets the views farthest from the viewport go back to placeholders, down to MAX_BUILT. */
  private trim(): void {
    const letGo = (slot: Slot) => mayLetGo(slot, this.ctx.store, this.order.length - KEEP_TAIL, this.isPinned) && !this.nested.subtreeAwaits(slot.id);
    for (const slot of farthestFirst(this.pages, this.built, letGo).slice(0, this.built.size - MAX_BUILT)) {
      const entry = this.ctx.store.entry(slot.id);
      if (entry) this.setPlaceholder(slot, entry);
    }
  }
}
