/**
 * Markdown → sanitised DOM. marked produces HTML, DOMPurify turns it into a fragment with no
 * scripts, handlers, styles, forms or SVG before anything reaches the document. Links keep only
 * safe schemes and are opened by the host (see links.ts); images only as inline raster data.
 */
import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance } from 'dompurify';
import { Lexer, Marked } from 'marked';
import type { Token } from 'marked';
import { decorateCodeBlocks } from './codeBlock';

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

/**
 * Marks where one part ends in the HTML of several parts sanitised together. marked never writes a
 * div and raw HTML from the agent is escaped, so the marker cannot come from the text.
 */
const PART_CLASS = 'tandem-markdown-part';
const PART_HTML = `<div class="${PART_CLASS}"></div>`;

/**
 * Runs of lexed blocks → one sanitised fragment each, through one sanitiser pass: each pass builds a
 * new document, which for a streamed message costs about as much as parsing its markdown.
 * `sources` are the plain-text fallbacks, one per part.
 */
export function tokenPartsFragments(parts: Token[][], sources: string[]): DocumentFragment[] {
  let html: string[];
  try {
    html = parts.map((tokens) => marked.parser(tokens));
  } catch (error) {
    console.error('Tandem: markdown failed, showing plain text', error);
    return sources.map(textFragment);
  }
  if (parts.length === 1) return [sanitized(html[0], sources[0])];
  const whole = sanitized(html.join(PART_HTML), sources.join(''));
  const fragments: DocumentFragment[] = [];
  let current = document.createDocumentFragment();
  for (let node = whole.firstChild; node; node = whole.firstChild) {
    if (node instanceof HTMLDivElement && node.className === PART_CLASS) {
      node.remove();
      fragments.push(current);
      current = document.createDocumentFragment();
    } else {
      current.append(node);
    }
  }
  fragments.push(current);
  // A part whose HTML left an element open would swallow the next marker: sanitise one by one.
  if (fragments.length !== parts.length) return html.map((h, i) => sanitized(h, sources[i]));
  return fragments;
}

/** Markdown text → lexed top-level blocks (throws what marked throws). */
export function lexMarkdown(text: string): Token[] {
  return marked.lexer(text);
}

/**
 * Markdown text → its top-level blocks without their inline content, which is most of the lexing
 * work: enough to find where blocks end (each token's `raw`), not to render them. Text must not
 * contain `\r` (the full lexer normalises it; this one does not).
 */
export function lexBlocks(text: string): Token[] {
  return new Lexer(marked.defaults).blockTokens(text);
}

function sanitized(html: string, source: string): DocumentFragment {
  // The instance's config has RETURN_DOM_FRAGMENT; the typings cannot see a config set earlier.
  const result: unknown = configuredPurifier().sanitize(html);
  if (result instanceof DocumentFragment) return result;
  console.error('Tandem: DOMPurify did not return a fragment, showing plain text');
  return textFragment(source);
}

export function textFragment(text: string): DocumentFragment {
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
  decorateCodeBlocks(div);
  return div;
}
