/**
 * Syntax highlighting of code blocks: loads the highlighter bundle (highlighter/main.ts) on first
 * use, passes what it emits through a sanitiser that keeps only `<span class>` (the highlighter's
 * HTML is built from agent text, so it is treated like any other markup from it), and highlights a
 * block that is still streaming in pieces: lines already highlighted stay as they are, and only the
 * lines after the last point where nothing (a comment, a string) was left open are highlighted
 * again. Cost per chunk: the new lines, not the block.
 */
import DOMPurify from 'dompurify';
import type { DOMPurify as DOMPurifyInstance } from 'dompurify';
import type { CodeLanguage } from './codeLanguages';
import { HIGHLIGHTER_GLOBAL, type Highlighter } from './highlighterApi';
import { scriptNonce, scriptSource } from '../core/styleNonce';

/** The lazily loaded bundle, beside the panel's own. */
const BUNDLE = 'codeHighlighter.js';

let loaded: Highlighter | undefined;
let loading: Promise<Highlighter | undefined> | undefined;

function present(): Highlighter | undefined {
  return (window as unknown as Record<string, Highlighter | undefined>)[HIGHLIGHTER_GLOBAL];
}

/** The highlighter if it is loaded (undefined: not yet, or it failed to load). */
export function highlighterNow(): Highlighter | undefined {
  return loaded;
}

/**
 * Loads the highlighter once, with the nonce the panel's own script carries (the CSP allows no
 * other script). Never rejects: without it, code stays plain.
 */
export function loadHighlighter(): Promise<Highlighter | undefined> {
  loading ??= new Promise((resolve) => {
    const ready = present();
    if (ready || !scriptSource) {
      loaded = ready;
      resolve(ready);
      return;
    }
    const script = document.createElement('script');
    script.nonce = scriptNonce;
    script.src = new URL(BUNDLE, scriptSource).href;
    script.async = true;
    script.addEventListener('load', () => {
      loaded = present();
      resolve(loaded);
    });
    script.addEventListener('error', () => {
      console.error('Tandem: the code highlighter did not load; code blocks stay plain');
      resolve(undefined);
    });
    document.head.append(script);
  });
  return loading;
}

let purifier: DOMPurifyInstance | undefined;

/** The highlighter's HTML → a fragment of text and `<span class>`, nothing else. */
export function highlightedFragment(html: string): DocumentFragment {
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.setConfig({ ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'], ALLOW_DATA_ATTR: false, RETURN_DOM_FRAGMENT: true });
  }
  const result: unknown = purifier.sanitize(html);
  if (result instanceof DocumentFragment) return result;
  const fragment = document.createDocumentFragment();
  fragment.append(document.createTextNode(new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''));
  return fragment;
}

/**
 * Past this many characters left open (a comment or string that never closes), the lines are
 * committed anyway so the cost per chunk stays bounded; the block is highlighted whole once when
 * it is complete (`settle`).
 */
const MAX_OPEN = 4_000;

/** One code element's highlighting, kept across updates of a growing block. */
export class CodeHighlight {
  private code = '';
  /** Characters of `code` whose highlighting is final (always whole lines). */
  private committed = 0;
  /** Length of the complete lines last tried for committing (not closed then). */
  private tried = 0;
  /** Lines were committed while something was still open: `settle` highlights the block whole. */
  private approximate = false;
  private readonly done: HTMLSpanElement;
  private readonly open: HTMLSpanElement;
  private readonly ending = document.createTextNode('');

  constructor(
    private readonly target: HTMLElement,
    readonly language: CodeLanguage,
  ) {
    this.done = document.createElement('span');
    this.open = document.createElement('span');
  }

  /**
   * Shows `text` (the code element's text: the renderer ends it with a newline that is not the
   * code's), highlighting only what changed since the last line boundary that closed.
   */
  render(text: string, highlighter: Highlighter): void {
    const code = text.endsWith('\n') ? text.slice(0, -1) : text;
    this.ending.data = text.slice(code.length);
    if (code === this.code && this.target.firstChild === this.done) return;
    if (this.target.firstChild !== this.done || !code.startsWith(this.code.slice(0, this.committed))) this.reset();
    if (!code.startsWith(this.code)) this.tried = 0;
    this.code = code;
    let rest = code.slice(this.committed);
    const end = rest.lastIndexOf('\n') + 1;
    if (end > 0 && end > this.tried) {
      const lines = rest.slice(0, end);
      const result = highlighter.highlight(lines, this.language);
      if (result.closed || end > MAX_OPEN) {
        if (!result.closed) this.approximate = true;
        // Each commit is a block of its own: the browser then lays out only the lines that
        // change (the open ones), not every highlighted line of the block, on each chunk.
        const lines = document.createElement('span');
        lines.className = 'code-lines';
        lines.append(highlightedFragment(result.html));
        this.done.append(lines);
        this.committed += end;
        this.tried = 0;
        rest = rest.slice(end);
      } else {
        this.tried = end;
      }
    }
    this.open.replaceChildren(rest === '' ? '' : highlightedFragment(highlighter.highlight(rest, this.language).html));
  }

  /** The block is complete: if streaming had to guess, highlight it whole once. */
  settle(highlighter: Highlighter): void {
    if (!this.approximate) return;
    this.reset();
    this.approximate = false;
    this.done.append(highlightedFragment(highlighter.highlight(this.code, this.language).html));
    this.committed = this.code.length;
    this.open.replaceChildren();
  }

  private reset(): void {
    this.done.replaceChildren();
    this.open.replaceChildren();
    this.committed = 0;
    this.tried = 0;
    this.approximate = false;
    this.target.replaceChildren(this.done, this.open, this.ending);
  }
}
