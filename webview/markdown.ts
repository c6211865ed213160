/**
 * Markdown → sanitised DOM. marked produces HTML, DOMPurify turns it into a fragment with no
 * scripts, handlers, styles, forms or SVG before anything reaches the document. Links keep only
 * safe schemes and are opened by the host (see links.ts); images only as inline raster data.
 */
import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance } from 'dompurify';
import { Marked } from 'marked';
import type { Token } from 'marked';

/**
 * Raw HTML in agent markdown is shown as text, never parsed: a sanitiser would drop it, and an
 * unbalanced tag (`<script>…</script x>`) would take the rest of the message with it.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false, renderer: { html: ({ text }) => escapeHtml(text) } });

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const SAFE_HREF = /^(?:https?:|mailto:|file:|vscode:|vscode-insiders:|#)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const SAFE_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|webp|bmp);base64,[a-z0-9+/=\s]*$/i;

/**
 * Our own DOMPurify instance, configured once: passing the config to every `sanitize` call makes
 * DOMPurify re-parse it each time, which dominated rendering a 2,000-card snapshot.
 */
let purifier: DOMPurifyInstance | undefined;

function configuredPurifier(): DOMPurifyInstance {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.setConfig(PURIFY_CONFIG);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    if (node.tagName === 'A') {
      const href = (node.getAttribute('href') ?? '').trim();
      // Relative paths are allowed (the host resolves them); any other scheme (javascript:, data:, …) goes.
      if (href === '' || (HAS_SCHEME.test(href) && !SAFE_HREF.test(href))) node.removeAttribute('href');
      else node.setAttribute('title', href);
      node.removeAttribute('target');
    } else if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!SAFE_IMAGE.test(src)) {
        node.removeAttribute('src');
        node.removeAttribute('srcset');
        node.setAttribute('data-blocked', 'true');
      }
    }
  });
  purifier = instance;
  return instance;
}

const PURIFY_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset', 'action', 'formaction', 'target'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/** Markdown text → a sanitised fragment, ready to insert. */
export function markdownFragment(text: string): DocumentFragment {
  let html: string;
  try {
    html = marked.parse(text, { async: false });
  } catch (error) {
    console.error('Tandem: markdown failed, showing plain text', error);
    return textFragment(text);
  }
  return sanitized(html, text);
}

/** Lexed blocks (see `lexMarkdown`) → a sanitised fragment; `source` is the plain-text fallback. */
function tokensFragment(tokens: Token[], source: string): DocumentFragment {
  let html: string;
  try {
    html = marked.parser(tokens);
  } catch (error) {
    console.error('Tandem: markdown failed, showing plain text', error);
    return textFragment(source);
  }
  return sanitized(html, source);
}

function sanitized(html: string, source: string): DocumentFragment {
  // The instance's config has RETURN_DOM_FRAGMENT; the typings cannot see a config set earlier.
  const result: unknown = configuredPurifier().sanitize(html);
  if (result instanceof DocumentFragment) return result;
  console.error('Tandem: DOMPurify did not return a fragment, showing plain text');
  return textFragment(source);
}

function textFragment(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(document.createTextNode(text));
  return fragment;
}

/**
 * Renders a little of everything once: the first render of a page pays for compiling the parser and
 * sanitiser, which is better done while the panel waits for its snapshot than in the frame that
 * shows it.
 */
export function warmUpMarkdown(): void {
  markdownFragment('# a\n\n**b** _c_ `d` [e](https://example.com)\n\n- f\n- g\n\n1. h\n\n```js\ni\n```\n\n> j\n\n| k | l |\n|---|---|\n| m | n |\n');
}

/** Sanitised markdown rendered into a fresh element. */
export function renderMarkdown(text: string, cls = 'markdown'): HTMLDivElement {
  const div = document.createElement('div');
  div.className = cls;
  div.append(markdownFragment(text));
  return div;
}

/**
 * Finished blocks are frozen once they add up to this many characters: fewer, larger frozen chunks
 * cost fewer sanitiser passes, and the tail parsed per frame stays about one block long.
 */
const FREEZE_AT = 1_000;
/** Characters of text per frozen chunk (each is laid out only once it nears the viewport). */
const CHUNK_CHARS = 1_500;

/**
 * Renders a growing markdown text into one container, at most once per frame (the caller batches).
 * The text not yet frozen is lexed into top-level blocks; every block but the last is complete
 * (appending text can only extend or change the last one), so complete blocks are rendered once
 * into a frozen chunk and only the last block is parsed again on the next frame. Streaming cost
 * stays flat however long the message grows. Frozen chunks are `content-visibility: auto` (CSS), so
 * the part scrolled away costs no layout or paint. One thing differs from rendering the text whole:
 * a reference-style link defined after a frozen block does not resolve inside it.
 */
export class MarkdownStream {
  readonly element: HTMLDivElement;
  private readonly frozen: HTMLDivElement;
  private readonly tail: HTMLDivElement;
  private text = '';
  /** Length of `text` already rendered into `frozen`. */
  private frozenLength = 0;

  constructor(cls = 'markdown') {
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
    const rest = text.slice(this.frozenLength);
    let tokens: Token[];
    try {
      tokens = marked.lexer(rest);
    } catch (error) {
      console.error('Tandem: markdown failed, showing plain text', error);
      this.tail.replaceChildren(textFragment(rest));
      return;
    }
    const complete = completeBlocks(tokens);
    let length = 0;
    for (let i = 0; i < complete; i++) length += tokens[i].raw.length;
    if (complete > 0 && length >= FREEZE_AT) {
      this.freeze(tokens.slice(0, complete), rest.slice(0, length));
      tokens = tokens.slice(complete);
    }
    // Blocks of the tail that did not change stay (their layout, and a selection in them, too).
    const next = tokensFragment(tokens, text.slice(this.frozenLength));
    let old = this.tail.firstChild;
    let fresh = next.firstChild;
    while (old && fresh && old.isEqualNode(fresh)) {
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
    this.tail.append(next);
  }

  private reset(): void {
    this.frozen.replaceChildren();
    this.frozenLength = 0;
  }

  /**
   * Renders complete blocks once, sanitised in one go, then spread over chunks of about CHUNK_CHARS
   * characters: a chunk the viewport never reaches is never laid out (a flood freezes far more
   * than fits on screen in one frame, and a long message rendered whole is mostly off screen).
   */
  private freeze(tokens: Token[], source: string): void {
    const fragment = tokensFragment(tokens, source);
    const chunks = document.createDocumentFragment();
    let chunk: HTMLDivElement | undefined;
    let chars = 0;
    for (let node = fragment.firstChild; node; node = fragment.firstChild) {
      if (!chunk || chars >= CHUNK_CHARS) {
        chunk = document.createElement('div');
        chunks.append(chunk);
        chars = 0;
      }
      chars += node.textContent?.length ?? 0;
      chunk.append(node);
    }
    this.frozen.append(chunks);
    this.frozenLength += source.length;
  }
}

/** How many leading blocks can no longer change: all but the last one that is not blank space. */
export function completeBlocks(tokens: readonly Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].type === 'space') last--;
  return Math.max(0, last);
}
