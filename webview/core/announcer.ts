/**
 * The panel's one voice for screen readers: a visually hidden, polite live region. What it says is
 * decided by Announcements (announcements.ts) — a turn finished, a permission request waiting, an
 * error, the queue — never the streamed text itself: the thread (`role="log"`) and the header's
 * status are `aria-live="off"`, so a screen reader is not read every chunk as it arrives.
 *
 * Messages said in the same frame are spoken as one update, one block each (so they are read as
 * separate sentences); the same message twice in a row is spoken twice (a live region announces
 * changes, so the repeat differs by a no-break space). The region empties after a while, so what
 * it said is not found again when reading the page.
 */
import { h } from './dom';

/** How long a message stays in the region after it was spoken (ms). */
const CLEAR_MS = 8_000;

export class Announcer {
  readonly element: HTMLElement;
  private pending: string[] = [];
  private frame: number | undefined;
  private clearTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.element = h('div', { class: 'visually-hidden announcer', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-announcer': '' });
  }

  say(text: string): void {
    if (text.trim() === '') return;
    this.pending.push(text);
    this.frame ??= requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.frame = undefined;
    const messages = this.pending.splice(0);
    if (messages.length === 0) return;
    if (this.element.textContent === messages.join('')) messages[messages.length - 1] += '\u00a0';
    this.element.replaceChildren(...messages.map((message) => h('div', {}, message)));
    clearTimeout(this.clearTimer);
    this.clearTimer = setTimeout(() => {
      this.element.textContent = '';
    }, CLEAR_MS);
  }
}
