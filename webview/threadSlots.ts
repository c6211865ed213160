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
 */
import type { Entry } from '../src/protocol/messages';
import { h } from './dom';
import { buildView, isDeferred, updateView } from './entryFactory';
import { deferrable, entryWeight, Placeholder, type LogMetrics } from './entryPlaceholder';
import type { EntryView, ViewContext } from './viewContext';
import { BUILD_ALL_BELOW, SLICE_MS, NEAR_SLICE_MS, EAGER_WEIGHT, MAX_BUILT, KEEP_TAIL, mayLetGo, awaitsUser, farthestFirst, lastScreenStart, PAGE_SIZE, pageEstimate, showsTerminal, SliceScheduler, type Page, type Slot } from './slotPages';

export class ThreadSlots {
  private readonly slots = new Map<string, Slot>();
  private order: Slot[] = [];
  private pages: Page[] = [];
  private readonly slotOf = new WeakMap<Element, Slot>();
  private readonly pageOf = new WeakMap<Element, Page>();
  private lazy = false;
  private metrics: LogMetrics = { charsPerLine: 60 };
  /** A small thread's placeholders still to build, oldest first (built from the end). */
  private backlog: Slot[] = [];
  /** A small thread's views whose body is still to build, newest first. */
  private unhydrated: Slot[] = [];
  /** Slots near the viewport waiting to be built or hydrated. */
  private readonly wanted = new Set<Slot>();
  private readonly built = new Set<Slot>();
  private readonly observer: IntersectionObserver;
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
  ) {
    this.observer = new IntersectionObserver((records) => this.onIntersect(records), { root: scroller, rootMargin: '100% 0px' });
  }

  /** True while a small thread's older entries are still being built. */
  get busy(): boolean {
    return this.backlog.length > 0 || this.unhydrated.length > 0;
  }

  view(id: string): EntryView | undefined {
    return this.slots.get(id)?.view;
  }

  /** Runs `done` once a small thread is built whole (at once when nothing is pending). */
  afterComplete(done: () => void): void {
    if (!this.busy) done();
    else this.whenComplete.push(done);
  }

  /** An entry changed, or a new one arrived (placed after all others, built at once). */
  change(entry: Entry): void {
    const slot = this.slots.get(entry.id);
    if (!slot) {
      let page = this.pages[this.pages.length - 1];
      if (!page || page.slots.length >= PAGE_SIZE) page = this.addPage();
      this.addSlot(entry, page, true);
      return;
    }
    if (slot.placeholder) {
      // A prompt waiting for the user is never left unbuilt.
      if (!deferrable(entry.kind) || awaitsUser(entry)) this.setView(slot, buildView(entry, this.ctx));
      else slot.placeholder.update(entry, this.ctx.store);
      return;
    }
    const view = slot.view!;
    if (view.kind !== entry.kind) this.setView(slot, buildView(entry, this.ctx));
    else {
      const broken = updateView(view, entry);
      if (broken) this.setView(slot, broken);
    }
  }

  /**
   * Snapshot or clear: views whose id and kind survive are kept (same DOM nodes) and updated; every
   * entry gets its place at once, the last screenful built, the rest as placeholders.
   */
  reset(entries: Entry[]): void {
    this.observer.disconnect();
    this.backlog = [];
    this.unhydrated = [];
    this.wanted.clear();
    this.built.clear();
    const kept = new Map<string, EntryView>();
    for (const [id, slot] of this.slots) {
      const entry = this.ctx.store.entry(id);
      if (slot.view && entry && entry.kind === slot.view.kind) kept.set(id, slot.view);
      else slot.view?.dispose();
    }
    this.slots.clear();
    this.order = [];
    for (const page of this.pages) page.element.remove();
    this.pages = [];
    this.metrics = { charsPerLine: Math.max(20, Math.floor((window.innerWidth - 48) / 7)) };
    let weight = 0;
    let toBuild = 0;
    for (const entry of entries) {
      weight += entryWeight(entry);
      if (!kept.has(entry.id)) toBuild++;
    }
    this.lazy = weight > EAGER_WEIGHT;
    const tailStart = toBuild <= BUILD_ALL_BELOW ? 0 : lastScreenStart(entries, this.metrics);
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < entries.length; i++) {
      if (i % PAGE_SIZE === 0) fragment.append(this.addPage(false).element);
      const page = this.pages[this.pages.length - 1];
      const entry = entries[i];
      const view = kept.get(entry.id);
      if (!view) {
        this.addSlot(entry, page, i >= tailStart);
        continue;
      }
      const broken = updateView(view, entry);
      if (broken) view.dispose();
      this.addSlot(entry, page, true, broken ?? view);
    }
    for (const page of this.pages) page.element.style.containIntrinsicSize = `auto ${Math.round(pageEstimate(page, this.ctx.store, this.metrics))}px`;
    this.before.after(fragment);
    if (!this.lazy) {
      this.backlog = this.order.filter((slot) => slot.placeholder !== undefined);
      this.unhydrated = this.order.filter((slot) => slot.deferred).reverse();
    }
    this.settle();
  }

  private addPage(place = true): Page {
    const page: Page = { element: h('div', { class: 'thread-page' }), slots: [], near: false };
    this.pages.push(page);
    this.pageOf.set(page.element, page);
    this.observer.observe(page.element);
    if (place) this.container.append(page.element);
    return page;
  }

  private addSlot(entry: Entry, page: Page, buildNow: boolean, kept?: EntryView): void {
    const slot: Slot = { id: entry.id, index: this.order.length, page, deferred: false, near: false, distance: Number.POSITIVE_INFINITY };
    this.slots.set(entry.id, slot);
    this.order.push(slot);
    page.slots.push(slot);
    if (kept) this.setView(slot, kept);
    else if (buildNow || !deferrable(entry.kind) || awaitsUser(entry)) this.setView(slot, buildView(entry, this.ctx));
    else this.setPlaceholder(slot, entry);
    page.element.append(this.elementOf(slot));
  }

  private elementOf(slot: Slot): HTMLElement {
    return slot.view ? slot.view.element : slot.placeholder!.element;
  }

  /** Puts `next` in the slot's place (when it has one); the observer follows if the page is near. */
  private swap(slot: Slot, previous: HTMLElement | undefined, next: HTMLElement): void {
    if (previous && previous !== next) {
      if (previous.isConnected) previous.replaceWith(next);
      this.observer.unobserve(previous);
    }
    this.slotOf.set(next, slot);
    if (slot.page.near) this.observer.observe(next);
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

  private onIntersect(records: IntersectionObserverEntry[]): void {
    for (const record of records) {
      const page = this.pageOf.get(record.target);
      if (page) {
        if (page.near !== record.isIntersecting) this.pageNear(page, record.isIntersecting);
        continue;
      }
      const slot = this.slotOf.get(record.target);
      if (!slot || this.elementOf(slot) !== record.target || !slot.page.near) continue;
      const rect = record.boundingClientRect;
      slot.near = record.isIntersecting;
      const root = record.rootBounds;
      slot.distance = root ? Math.abs(rect.top + rect.height / 2 - (root.top + root.height / 2)) : 0;
      if (slot.near && (slot.placeholder || slot.deferred)) this.wanted.add(slot);
      else this.wanted.delete(slot);
    }
    if (this.wanted.size > 0 || this.overBuilt()) this.slices.schedule();
  }

  /** Only the slots of pages near the viewport are watched one by one. */
  private pageNear(page: Page, near: boolean): void {
    page.near = near;
    for (const slot of page.slots) {
      const element = this.elementOf(slot);
      if (near) this.observer.observe(element);
      else {
        this.observer.unobserve(element);
        slot.near = false;
        this.wanted.delete(slot);
      }
    }
  }

  private overBuilt(): boolean {
    return this.lazy && this.built.size > MAX_BUILT;
  }

  private settle(): void {
    if (this.busy || this.wanted.size > 0 || this.overBuilt()) this.slices.schedule();
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
    const budget = this.wanted.size > 0 ? NEAR_SLICE_MS : SLICE_MS;
    // A terminal costs the next two frames tens of milliseconds each: one terminal per two frames.
    let terminal = false;
    const spent = (): boolean => terminal || performance.now() - started >= budget;
    if (this.wanted.size > 0) {
      for (const slot of [...this.wanted].sort((a, b) => a.distance - b.distance)) {
        if (spent()) break;
        this.wanted.delete(slot);
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
    for (const slot of farthestFirst(this.pages, this.built, (slot) => mayLetGo(slot, this.ctx.store, this.order.length - KEEP_TAIL, this.isPinned)).slice(0, this.built.size - MAX_BUILT)) {
      const entry = this.ctx.store.entry(slot.id);
      if (entry) this.setPlaceholder(slot, entry);
    }
  }

}
