/**
 * A growing markdown text rendered into one container, at most once per frame (the caller batches).
 * The text not yet frozen is lexed into top-level blocks; every block but the last is complete
 * (appending text can only extend or change the last one), so complete blocks are rendered once
 * into the frozen part and only the last block is parsed again on the next frame: streaming cost
 * stays flat however long the message grows. In a flood, text more than a screenful above the end
 * is not rendered at all until the stream calms down (coldSections.ts). One thing differs from
 * rendering the text whole: a reference-style link defined after a frozen block (or in another
 * section) does not resolve inside it.
 */
import type { Token } from 'marked';
import type { ColdSections } from './coldSections';
import { codeBlockView, decorateCodeBlocks } from '../markdown/codeBlock';
import { lexBlocks, lexMarkdown, textFragment, tokenPartsFragments } from '../markdown/markdown';

/**
 * Finished blocks are frozen once they add up to this many characters: fewer, larger freezes cost
 * fewer sanitiser passes, and the tail parsed per frame stays about one block long.
 */
const FREEZE_AT = 1_000;
/**
 * Characters per section of the frozen part. Sections are `content-visibility: auto` (CSS), so the
 * ones scrolled away cost no layout or paint; they are few (Chromium checks every such element
 * against the viewport each frame), and one near the viewport is laid out whole.
 */
const SECTION_CHARS = 6_000;

export class MarkdownStream {
  readonly element: HTMLDivElement;
  private readonly frozen: HTMLDivElement;
  private readonly tail: HTMLDivElement;
  private text = '';
  /** Length of `text` already rendered into `frozen`. */
  private frozenLength = 0;
  /** The last section, while it is warm and has room for more blocks. */
  private open: HTMLDivElement | undefined;
  private openChars = 0;

  /** `cold`: where text frozen far above the visible end waits to be laid out (none: laid out at once). */
  constructor(
    cls = 'markdown',
    private readonly cold?: ColdSections,
  ) {
    this.element = document.createElement('div');
    this.element.className = cls;
    this.frozen = document.createElement('div');
    this.frozen.className = 'markdown-frozen';
    this.tail = document.createElement('div');
    this.tail.className = 'markdown-tail';
    this.element.append(this.frozen, this.tail);
  }

  update(raw: string): void {
    // The lexer normalises line ends; block lengths are only comparable on text that has none.
    const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    if (text === this.text) return;
    if (this.frozenLength > 0 && !text.startsWith(this.text.slice(0, this.frozenLength))) this.reset();
    this.text = text;
    let rest = text.slice(this.frozenLength);
    try {
      if (this.cold) rest = this.freezeCold(rest, this.cold);
      this.render(rest);
    } catch (error) {
      console.error('Tandem: markdown failed, showing plain text', error);
      this.tail.replaceChildren(textFragment(rest));
    }
  }

  /** Lexes `rest` (the text after the frozen part), freezes its complete blocks, renders the tail. */
  private render(rest: string): void {
    const tokens = lexMarkdown(rest);
    const complete = completeBlocks(tokens);
    let length = 0;
    for (let i = 0; i < complete; i++) length += tokens[i].raw.length;
    let next: DocumentFragment;
    if (complete > 0 && length >= FREEZE_AT) {
      // The blocks to freeze and the tail go through one sanitiser pass.
      const [frozen, tail] = tokenPartsFragments([tokens.slice(0, complete), tokens.slice(complete)], [rest.slice(0, length), rest.slice(length)]);
      decorateCodeBlocks(frozen);
      this.freeze(frozen);
      this.frozenLength += length;
      next = tail;
    } else {
      next = tokenPartsFragments([tokens], [rest])[0];
    }
    // Blocks of the tail that did not change stay (their layout, and a selection in them, too).
    let old = this.tail.firstChild;
    let fresh = next.firstChild;
    while (old && fresh && sameBlock(old, fresh)) {
      old = old.nextSibling;
      const used = fresh;
      fresh = fresh.nextSibling;
      used.remove();
    }
    while (old) {
      const gone = old;
      old = old.nextSibling;
      gone.remove();
    }
    decorateCodeBlocks(next);
    this.tail.append(next);
  }

  /**
   * In a flood (`rest` is more than two screenfuls), what lies more than a screenful above the end
   * goes cold before anything is rendered: the complete blocks, found from their block structure
   * alone (no inline lexing), all but the last screenful of them. Returns what is left to render.
   */
  private freezeCold(rest: string, cold: ColdSections): string {
    const keep = cold.warmChars();
    if (rest.length <= 2 * keep) return rest;
    const blocks = lexBlocks(rest);
    let last = completeBlocks(blocks);
    let kept = 0;
    while (last > 0 && kept < keep) kept += blocks[--last].raw.length;
    if (last === 0) return rest;
    let length = 0;
    for (let i = 0; i < last; i++) length += blocks[i].raw.length;
    this.frozen.append(cold.section(rest.slice(0, length), last));
    this.frozenLength += length;
    this.open = undefined;
    return rest.slice(length);
  }

  private reset(): void {
    this.frozen.replaceChildren();
    this.frozenLength = 0;
    this.open = undefined;
    this.openChars = 0;
  }

  /** Adds rendered complete blocks to the open section, then to new ones of about SECTION_CHARS. */
  private freeze(fragment: DocumentFragment): void {
    for (let node = fragment.firstChild; node; node = fragment.firstChild) {
      if (!this.open || this.openChars >= SECTION_CHARS) {
        this.open = document.createElement('div');
        this.frozen.append(this.open);
        this.openChars = 0;
      }
      this.openChars += node.textContent?.length ?? 0;
      this.open.append(node);
    }
  }
}

/**
 * Whether the tail's `old` block can stay for `fresh` (its new render): equal, or a code block whose
 * text only grew, which then highlights just its new lines instead of being rendered afresh.
 */
function sameBlock(old: ChildNode, fresh: ChildNode): boolean {
  const view = codeBlockView(old);
  if (!view) return old.isEqualNode(fresh);
  if (!(fresh instanceof HTMLPreElement)) return false;
  const same = view.sameAs(fresh);
  if (same === 'other') return false;
  if (same === 'grown') view.grow(fresh);
  // A block followed by another is complete.
  if (fresh.nextSibling) view.settle();
  return true;
}

/** How many leading blocks can no longer change: all but the last one that is not blank space. */
export function completeBlocks(tokens: readonly Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].type === 'space') last--;
  return Math.max(0, last);
}
