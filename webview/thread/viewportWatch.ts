/**
 * What of the thread is near the viewport, for ThreadSlots: one IntersectionObserver watches every
 * page (a viewport above and below count as near) and, only on the pages near, each slot's element,
 * so the cost of watching follows what is on screen. Slots near the viewport that still need their
 * view built (or a deferred body) are `wanted`, closest first by `distance`.
 */
import type { Page, Slot } from './slotPages';
import { elementOf } from './slotPages';

export class ViewportWatch {
  /** Slots near the viewport waiting to be built or hydrated. */
  readonly wanted = new Set<Slot>();
  private readonly observer: IntersectionObserver;
  private readonly slotOf = new WeakMap<Element, Slot>();
  private readonly pageOf = new WeakMap<Element, Page>();

  /** `changed` runs after each batch of intersection records (the owner schedules work). */
  constructor(
    scroller: HTMLElement,
    private readonly changed: () => void,
  ) {
    this.observer = new IntersectionObserver((records) => this.onIntersect(records), { root: scroller, rootMargin: '100% 0px' });
  }

  /** A new page: watched as a whole from now on. */
  page(page: Page): void {
    this.pageOf.set(page.element, page);
    this.observer.observe(page.element);
  }

  /** The slot's element is now `next` (was `previous`): watched one by one while its page is near. */
  placed(slot: Slot, previous: HTMLElement | undefined, next: HTMLElement): void {
    if (previous && previous !== next) this.observer.unobserve(previous);
    this.slotOf.set(next, slot);
    if (slot.page.near) this.observer.observe(next);
  }

  /** Forgets everything (the thread is laid out anew). */
  reset(): void {
    this.observer.disconnect();
    this.wanted.clear();
  }

  private onIntersect(records: IntersectionObserverEntry[]): void {
    for (const record of records) {
      const page = this.pageOf.get(record.target);
      if (page) {
        if (page.near !== record.isIntersecting) this.pageNear(page, record.isIntersecting);
        continue;
      }
      const slot = this.slotOf.get(record.target);
      if (!slot || elementOf(slot) !== record.target || !slot.page.near) continue;
      const rect = record.boundingClientRect;
      slot.near = record.isIntersecting;
      const root = record.rootBounds;
      slot.distance = root ? Math.abs(rect.top + rect.height / 2 - (root.top + root.height / 2)) : 0;
      if (slot.near && (slot.placeholder || slot.deferred)) this.wanted.add(slot);
      else this.wanted.delete(slot);
    }
    this.changed();
  }

  /** Only the slots of pages near the viewport are watched one by one. */
  private pageNear(page: Page, near: boolean): void {
    page.near = near;
    for (const slot of page.slots) {
      const element = elementOf(slot);
      if (near) this.observer.observe(element);
      else {
        this.observer.unobserve(element);
        slot.near = false;
        this.wanted.delete(slot);
      }
    }
  }
}
