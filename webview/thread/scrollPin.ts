/**
 * Keeps a scroller pinned to its bottom while the user is there, without forcing layout: the
 * content's ResizeObserver callback runs after the frame's layout and before its paint, so reading
 * scrollHeight there is free and the painted frame is already at the bottom. Whether the user is
 * at the bottom is learnt from scroll events only, never measured per update.
 */
import { noteOwnScroll } from '../terminal/terminalLook';
import type { Host } from '../core/vscodeApi';

/** Distance from the bottom (px) that still counts as "at the bottom". */
const BOTTOM_SLACK = 32;

export class ScrollPin {
  /** The scrollTop our own last pin produced: its scroll event must not unpin. */
  private pinnedTop = -1;
  private readonly observer: ResizeObserver;

  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
    private readonly host: Host,
  ) {
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.observer = new ResizeObserver(() => {
      if (this.host.ui.atBottom) this.pinNow();
    });
    // Both: the content grows with entries, the scroller changes with the panel's size.
    this.observer.observe(content);
    this.observer.observe(scroller);
  }

  get atBottom(): boolean {
    return this.host.ui.atBottom;
  }

  /**
   * Asks for the bottom. Content changes made in this frame resize the content, and the observer
   * pins after layout; `pinNow` in the same frame would force a synchronous layout instead.
   */
  stickToBottom(): void {
    this.host.ui.atBottom = true;
  }

  /** Scrolls to the bottom now. Only call where layout is clean (observer callbacks, restores). */
  pinNow(): void {
    const el = this.scroller;
    el.scrollTop = el.scrollHeight;
    this.pinnedTop = el.scrollTop;
    noteOwnScroll(el);
  }

  /** Stops following the bottom (the panel lands on an entry above it). */
  release(): void {
    this.host.ui.atBottom = false;
  }

  /** Restores a saved position that was not the bottom. */
  restore(scrollTop: number): void {
    this.host.ui.atBottom = false;
    this.scroller.scrollTop = scrollTop;
  }

  private onScroll(): void {
    const el = this.scroller;
    const ui = this.host.ui;
    if (el.scrollTop === this.pinnedTop) {
      ui.atBottom = true;
    } else {
      ui.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
      this.pinnedTop = -1;
    }
    ui.scrollTop = el.scrollTop;
    this.host.save();
  }

  dispose(): void {
    this.observer.disconnect();
  }
}
