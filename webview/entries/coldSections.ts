/**
 * Streamed markdown that a fast agent pushed past the screen before anyone could see it. In a flood
 * a message freezes tens of kilobytes per frame while only the last screenful is visible; rendering
 * all of it (inline lexing, sanitising, building and laying out the DOM) was most of the panel's
 * work, for text the next frame scrolled away. Such text becomes a `cold` section instead: it keeps
 * only its markdown source and an estimated height (`content-visibility: hidden`: no style, layout
 * or paint). Cold sections are rendered once the text has been quiet for a moment (at the latest a
 * couple of seconds after they went cold) or as soon as the user scrolls away from the bottom:
 * newest first, a few milliseconds per task, so find-in-page and scrolling up soon see every word.
 * Nothing here watches individual sections: an IntersectionObserver target per section would cost
 * every frame in proportion to the message's length.
 */
import { LINE_PX, logMetrics } from './entryPlaceholder';
import { decorateCodeBlocks } from '../markdown/codeBlock';
import { markdownFragment } from '../markdown/markdown';

/** How long no section may be added before the cold ones are rendered. */
const QUIET_MS = 250;
/** Longest a section stays cold while the stream goes on. */
const MAX_COLD_MS = 2_000;
/** Work per task while rendering cold sections (at least one section per task). */
const SLICE_MS = 8;

interface Cold {
  section: HTMLElement;
  source: string;
}

export class ColdSections {
  /** In insertion order: rendering goes from the end, nearest the bottom of the log first. */
  private cold: Cold[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest section still cold went cold. */
  private since = 0;

  /**
   * Characters that fill a viewport and a half: a freeze keeps at least this much of its end warm,
   * so the visible bottom of a message is never a cold gap. Read from the window (no layout).
   */
  warmChars(): number {
    return Math.max(3_000, Math.ceil(((window.innerHeight * 1.5) / LINE_PX) * logMetrics().charsPerLine));
  }

  /** A cold section for `source` (complete markdown blocks), to insert where the text belongs. */
  section(source: string, blocks: number): HTMLElement {
    const section = document.createElement('div');
    section.className = 'cold';
    section.style.containIntrinsicBlockSize = `auto ${(Math.ceil(source.length / logMetrics().charsPerLine) + blocks) * LINE_PX}px`;
    const now = performance.now();
    if (this.cold.length === 0) this.since = now;
    this.cold.push({ section, source });
    this.schedule(Math.max(0, Math.min(QUIET_MS, this.since + MAX_COLD_MS - now)));
    return section;
  }

  /** The user is moving through the log: render what is cold now rather than after the wait. */
  warmSoon(): void {
    if (this.cold.length > 0) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.warmSlice(), ms);
  }

  private warmSlice(): void {
    this.timer = undefined;
    const end = performance.now() + SLICE_MS;
    do {
      const next = this.cold.pop();
      if (!next) break;
      const fragment = markdownFragment(next.source);
      decorateCodeBlocks(fragment);
      next.section.replaceChildren(fragment);
      next.section.classList.remove('cold');
    } while (performance.now() < end);
    if (this.cold.length > 0) {
      this.since = performance.now();
      this.timer = setTimeout(() => this.warmSlice(), 0);
    }
  }
}
