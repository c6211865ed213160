/**
 * Markdown → sanitised DOM. marked produces HTML, DOMPurify turns it into a fragment with no
 * scripts, handlers, styles, forms or SVG before anything reaches the document. Links keep only
 * safe schemes and are opened by the host (see links.ts); images only as inline raster data.
 */
import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance } from 'dompurify';
import { Marked } from 'marked';

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
  const purify = configuredPurifier();
  let html: string;
  try {
    html = marked.parse(text, { async: false });
  } catch (error) {
    console.error('Tandem: markdown failed, showing plain text', error);
    const fragment = document.createDocumentFragment();
    fragment.append(document.createTextNode(text));
    return fragment;
  }
  // The instance's config has RETURN_DOM_FRAGMENT; the typings cannot see a config set earlier.
  const result: unknown = purify.sanitize(html);
  if (result instanceof DocumentFragment) return result;
  console.error('Tandem: DOMPurify did not return a fragment, showing plain text');
  const fragment = document.createDocumentFragment();
  fragment.append(document.createTextNode(text));
  return fragment;
}

/** Sanitised markdown rendered into a fresh element. */
export function renderMarkdown(text: string, cls = 'markdown'): HTMLDivElement {
  const div = document.createElement('div');
  div.className = cls;
  div.append(markdownFragment(text));
  return div;
}

/** Above this size a streaming message is rendered in frozen blocks plus a re-rendered tail. */
const WHOLE_RENDER_LIMIT = 8_000;
/** Tail size after which finished blocks are frozen. */
const TAIL_LIMIT = 2_000;

/**
 * Renders a growing markdown text into one container. Short texts are re-rendered whole (at most
 * once per frame, by the caller); long ones freeze complete blocks (cut at a blank line outside a
 * code fence) so each frame parses only the tail — streaming cost stays flat as the text grows.
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

  update(text: string): void {
    if (text === this.text) return;
    if (!text.startsWith(this.text.slice(0, this.frozenLength))) this.reset();
    this.text = text;
    if (text.length > WHOLE_RENDER_LIMIT && text.length - this.frozenLength > TAIL_LIMIT) this.freeze();
    this.tail.replaceChildren(markdownFragment(text.slice(this.frozenLength)));
  }

  private reset(): void {
    this.frozen.replaceChildren();
    this.frozenLength = 0;
  }

  private freeze(): void {
    const cut = safeBlockBoundary(this.text, this.frozenLength);
    if (cut <= this.frozenLength) return;
    const block = document.createElement('div');
    block.append(markdownFragment(this.text.slice(this.frozenLength, cut)));
    this.frozen.append(block);
    this.frozenLength = cut;
  }
}

/**
 * The last index ≥ `from` just after a blank line that is outside a fenced code block, or `from`.
 * `from` is always outside a fence (it is a previous boundary or 0).
 */
export function safeBlockBoundary(text: string, from: number): number {
  let inFence = false;
  let best = from;
  let lineStart = from;
  let previousBlank = false;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) break; // the last line is incomplete: never cut inside it
    const line = text.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const blank = line.trim() === '';
    if (blank && !inFence && !previousBlank) best = lineEnd + 1;
    previousBlank = blank;
    lineStart = lineEnd + 1;
  }
  return best;
}
