/**
 * Landing on a search match (`revealEntry`): the entry is outlined in the theme's find-match
 * colours and the searched phrase marked in its text through the CSS Custom Highlight API (no DOM
 * change, so the entry's view and the sanitised markdown stay as they are). Both go at the user's
 * next interaction with the panel — a click, a key, the wheel — as an editor's find highlight does.
 */

/** The highlight's name in `CSS.highlights` and in `::highlight(…)` (media/tandem.css). */
export const SEARCH_HIGHLIGHT = 'tandem-search-match';
/** The class of the entry landed on. */
export const REVEALED_CLASS = 'search-revealed';
/** Most marks in one entry (a common word in a long reply is marked where it first occurs). */
const MAX_MARKS = 50;

/** Lower case with every whitespace a space, or undefined when that would move offsets (a rare character folds to two). */
function foldSameLength(text: string): string | undefined {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower.replace(/\s/g, ' ') : undefined;
}

/** Ranges of `query` (case-insensitive, whitespace folded as the host's search does) in the text under `root`. */
export function phraseRanges(root: Element, query: string): Range[] {
  const q = foldSameLength(query.trim().replace(/\s+/g, ' '));
  if (!q) return [];
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
    starts.push(text.length);
    text += (node as Text).data;
  }
  const folded = foldSameLength(text);
  if (!folded) return [];
  const at = (offset: number): { node: Text; offset: number } => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { node: nodes[lo], offset: offset - starts[lo] };
  };
  const ranges: Range[] = [];
  for (let pos = folded.indexOf(q); pos >= 0 && ranges.length < MAX_MARKS; pos = folded.indexOf(q, pos + q.length)) {
    const start = at(pos);
    // The end inside the node holding the match's last character (not the start of the next node).
    const end = at(pos + q.length - 1);
    const range = document.createRange();
    range.setStart(start.node, start.offset);
    range.setEnd(end.node, end.offset + 1);
    ranges.push(range);
  }
  return ranges;
}

export class SearchReveal {
  private element: HTMLElement | undefined;
  private readonly root: Document;
  private readonly clearOnInput = (): void => this.clear();

  /** `root`: any element of the panel; the interactions that clear are listened for on its whole document (the composer too). */
  constructor(root: HTMLElement) {
    this.root = root.ownerDocument;
  }

  /** Outlines `element` and marks `query` in it, until the next interaction. */
  show(element: HTMLElement, query: string | undefined): void {
    this.clear();
    this.element = element;
    element.classList.add(REVEALED_CLASS);
    this.mark(query);
    // From the next task on: the host's message may arrive while a key that opened the picker is still being handled.
    setTimeout(() => {
      if (this.element !== element) return;
      for (const type of ['pointerdown', 'keydown', 'wheel'] as const) this.root.addEventListener(type, this.clearOnInput, { capture: true, passive: true });
    }, 0);
  }

  /** Marks the phrase again (the view may have finished rendering its text since). */
  mark(query: string | undefined): void {
    const registry = typeof CSS !== 'undefined' ? CSS.highlights : undefined;
    if (!registry || !this.element || !query) return;
    const ranges = phraseRanges(this.element, query);
    if (ranges.length > 0) registry.set(SEARCH_HIGHLIGHT, new Highlight(...ranges));
  }

  clear(): void {
    this.element?.classList.remove(REVEALED_CLASS);
    this.element = undefined;
    if (typeof CSS !== 'undefined') CSS.highlights?.delete(SEARCH_HIGHLIGHT);
    for (const type of ['pointerdown', 'keydown', 'wheel'] as const) this.root.removeEventListener(type, this.clearOnInput, { capture: true });
  }
}
