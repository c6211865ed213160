/**
 * The parts of ThreadSlots (threadSlots.ts) that need none of its state: the slot and page records,
 * the tuning figures, the estimates a reset lays pages out with, which built views to let go first, and the scheduler
 * of background slices.
 */
import type { Entry } from '../../src/protocol/messages';
import { deferrable, entryWeight, estimateHeight, type LogMetrics, type Placeholder } from '../entries/entryPlaceholder';
import type { Store } from '../store/store';
import type { EntryView } from '../entries/viewContext';

export interface Slot {
  readonly id: string;
  /** Position in the log (shifts when older entries are placed before it). */
  index: number;
  readonly page: Page;
  view?: EntryView;
  placeholder?: Placeholder;
  /** The view's body is still to build (a tool card built header-only). */
  deferred: boolean;
  /** Within a viewport of the visible part of the log. */
  near: boolean;
  /** Distance from the middle of the viewport when last seen (px): closer ones are built first. */
  distance: number;
}

export interface Page {
  readonly element: HTMLElement;
  readonly slots: Slot[];
  near: boolean;
}

/** Resets creating at most this many views build them all in one go. */
export const BUILD_ALL_BELOW = 80;
/** Time budget of one slice of background building; frames run in between. */
export const SLICE_MS = 40;
/** Budget of one slice while entries near the viewport wait: scrolling must stay smooth. */
export const NEAR_SLICE_MS = 12;
/** Threads heavier than this (see entryWeight) are built near the viewport only. */
export const EAGER_WEIGHT = 4000;
/** Views a long thread keeps built before far ones go back to placeholders. */
export const MAX_BUILT = 120;
/** The newest entries are never let go (they stream, and the user comes back to them). */
export const KEEP_TAIL = 20;
/** Entries per page: a page is the unit `content-visibility` skips and the observer watches first. */
export const PAGE_SIZE = 32;
/** Most entries built with a reset (the last screenful is usually far fewer). */
const SYNC_TAIL_ENTRIES = 40;

/** The element in the slot's place: its view's, or its placeholder's. */
export function elementOf(slot: Slot): HTMLElement {
  return slot.view ? slot.view.element : slot.placeholder!.element;
}

/** Sum of entryWeight: how costly the thread is to build whole. */
export function threadWeight(entries: readonly Entry[]): number {
  let weight = 0;
  for (const entry of entries) weight += entryWeight(entry);
  return weight;
}

/** Estimated height of a page's entries (px): its `contain-intrinsic-size` until it is laid out. */
export function pageEstimate(page: Page, store: Store, metrics: LogMetrics): number {
  let px = 0;
  for (const slot of page.slots) {
    const entry = store.entry(slot.id);
    if (entry) px += estimateHeight(entry, metrics);
  }
  return px;
}

/** Index of the first entry of the last screenful (by estimated heights), at most SYNC_TAIL_ENTRIES back. */
export function lastScreenStart(entries: Entry[], metrics: LogMetrics): number {
  const screen = window.innerHeight * 1.5;
  let start = entries.length;
  let px = 0;
  while (start > 0 && entries.length - start < SYNC_TAIL_ENTRIES && px < screen) px += estimateHeight(entries[--start], metrics);
  return start;
}

/**
 * Built slots of pages away from the viewport that `mayLetGo` allows, farthest (in entries) from the
 * pages near it first; none when no page is near (nothing to measure from).
 */
export function farthestFirst(pages: readonly Page[], built: Iterable<Slot>, mayLetGo: (slot: Slot) => boolean): Slot[] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const page of pages) {
    if (!page.near) continue;
    low = Math.min(low, page.slots[0].index);
    high = Math.max(high, page.slots[page.slots.length - 1].index);
  }
  if (low > high) return [];
  const away = (slot: Slot): number => (slot.index < low ? low - slot.index : slot.index - high);
  return [...built].filter((slot) => !slot.page.near && mayLetGo(slot)).sort((a, b) => away(b) - away(a));
}

/** Whether a built view may go back to a placeholder: not a pinned one, one of the newest (`tailFrom` on), or one in use. */
export function mayLetGo(slot: Slot, store: Store, tailFrom: number, isPinned: (view: EntryView) => boolean): boolean {
  const view = slot.view;
  if (!view || !deferrable(view.kind) || slot.index >= tailFrom || isPinned(view)) return false;
  // Never from under the user: focus or a selection inside it.
  if (view.element.contains(document.activeElement)) return false;
  const selection = document.getSelection();
  if (selection && selection.rangeCount > 0 && view.element.contains(selection.anchorNode)) return false;
  const entry = store.entry(slot.id);
  return !entry || !awaitsUser(entry);
}

/** Runs background slices one at a time: as a MessageChannel task (not clamped like nested timers; frames run in between). */
export class SliceScheduler {
  private scheduled = false;
  private readonly channel = new MessageChannel();

  constructor(run: () => void) {
    this.channel.port1.onmessage = () => {
      this.scheduled = false;
      run();
    };
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.channel.port2.postMessage(null);
  }

  /**
   * The next slice runs two frames later: a terminal built now opens its emulator in the next frame
   * and fits its rows to the output in the one after, each costing that frame tens of milliseconds.
   */
  scheduleAfterFrames(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => requestAnimationFrame(() => this.channel.port2.postMessage(null)));
  }
}

export function showsTerminal(entry: Entry): boolean {
  return entry.kind === 'tool_call' && Array.isArray(entry.content) && entry.content.some((item) => item.type === 'terminal');
}

/** A permission prompt on the card waits for the user: it must be on screen, built. */
export function awaitsUser(entry: Entry): boolean {
  return entry.kind === 'tool_call' && entry.permission?.state.kind === 'pending';
}

/** The views of `slots` whose entry is still in the store with the same kind; the others are disposed. */
export function keptViews(slots: ReadonlyMap<string, Slot>, store: Store): Map<string, EntryView> {
  const kept = new Map<string, EntryView>();
  for (const [id, slot] of slots) {
    const entry = store.entry(id);
    if (slot.view && entry && entry.kind === slot.view.kind) kept.set(id, slot.view);
    else slot.view?.dispose();
  }
  return kept;
}
