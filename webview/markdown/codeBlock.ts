/**
 * A fenced code block of a reply, as the panel shows it: the code highlighted in the theme's colours
 * (when its language is one the highlighter knows; `mermaid` and the rest stay plain), and a bar
 * with the language, a line-wrapping toggle, Copy, Insert at Cursor and New File. Blocks are made
 * from the sanitised `<pre><code>` the markdown renderer produced, so nothing here parses agent text
 * as HTML; the code itself is always read back from the element's text.
 */
import * as l10n from '@vscode/l10n';
import type { WebviewMessage } from '../../src/protocol/messages';
import { codeLanguage } from './codeLanguages';
import { CodeHighlight, highlighterNow, loadHighlighter } from './codeHighlighter';
import { button, h, icon, keyboardScrollable } from '../core/dom';

/** What the blocks' buttons need of the panel: the host channel and the screen reader's voice. */
export interface CodeBlockActions {
  post(message: WebviewMessage): void;
  say(text: string): void;
}

let actions: CodeBlockActions | undefined;

/** Set once by the app; before that (tests of one view) the buttons do nothing but copy. */
export function setCodeBlockActions(value: CodeBlockActions): void {
  actions = value;
}

const BLOCK_CLASS = 'code-block';
const views = new WeakMap<Element, CodeBlockView>();
/** Blocks waiting for the highlighter to load. */
const waiting = new Set<CodeBlockView>();

/** How long the Copy button shows its check mark (ms). */
const COPIED_MS = 1_500;

export class CodeBlockView {
  readonly element: HTMLDivElement;
  /** The fence's info word as written (`ts`, `mermaid`), '' for none. */
  readonly fence: string;
  private readonly pre: HTMLPreElement;
  private readonly code: HTMLElement;
  private readonly highlight: CodeHighlight | undefined;
  private readonly wrapButton: HTMLButtonElement;
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;
  /** The code element's text, kept: reading it back from many highlighted spans costs a walk. */
  private shown: string;

  constructor(pre: HTMLPreElement, code: HTMLElement) {
    this.pre = pre;
    this.code = code;
    this.fence = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '';
    this.shown = code.textContent ?? '';
    const language = codeLanguage(this.fence);
    this.highlight = language ? new CodeHighlight(code, language) : undefined;
    const shown = this.fence || l10n.t('text');
    this.wrapButton = button('', () => this.setWrap(this.element.classList.contains('code-nowrap')), {
      cls: 'icon-button code-block-wrap',
      icon: 'word-wrap',
      label: l10n.t('Wrap lines'),
      title: l10n.t('Wrap lines'),
    });
    this.wrapButton.setAttribute('aria-pressed', 'true');
    const copy = button('', () => void this.copy(copy), { cls: 'icon-button code-block-copy', icon: 'copy', label: l10n.t('Copy'), title: l10n.t('Copy') });
    const insert = button('', () => actions?.post({ type: 'insertCode', code: this.text() }), {
      cls: 'icon-button code-block-insert',
      icon: 'insert',
      label: l10n.t('Insert at Cursor'),
      title: l10n.t('Insert at Cursor'),
    });
    const newFile = button('', () => actions?.post({ type: 'newCodeFile', code: this.text(), language: this.fence || undefined }), {
      cls: 'icon-button code-block-new-file',
      icon: 'new-file',
      label: l10n.t('New File'),
      title: l10n.t('New File'),
    });
    const bar = h(
      'div',
      { class: 'code-block-bar', role: 'toolbar', 'aria-label': l10n.t('Code block: {0}', shown) },
      h('span', { class: 'code-block-language', 'data-label': shown, 'aria-hidden': 'true' }),
      this.wrapButton,
      copy,
      insert,
      newFile,
    );
    this.element = h('div', { class: BLOCK_CLASS, 'data-code-language': this.fence || undefined });
    pre.replaceWith(this.element);
    this.element.append(bar, pre);
    views.set(this.element, this);
    this.paint();
  }

  /** The code as the agent wrote it (the renderer's closing newline left out). */
  text(): string {
    const text = this.code.textContent ?? '';
    return text.endsWith('\n') ? text.slice(0, -1) : text;
  }

  /** The same block as `pre` (a fresh render of the markdown), unchanged or grown. */
  sameAs(pre: HTMLPreElement): 'same' | 'grown' | 'other' {
    const code = codeOf(pre);
    if (!code || code.className !== this.code.className) return 'other';
    const before = this.shown;
    const after = code.textContent ?? '';
    if (after === before) return 'same';
    // The renderer closes the text with a newline each time: the grown text starts with the old one's lines.
    return after.startsWith(before.endsWith('\n') ? before.slice(0, -1) : before) ? 'grown' : 'other';
  }

  /** Takes the text of `pre` (the same block, grown) and highlights what is new. */
  grow(pre: HTMLPreElement): void {
    const code = codeOf(pre);
    if (!code) return;
    const text = code.textContent ?? '';
    this.shown = text;
    if (!this.highlight) {
      this.code.textContent = text;
      return;
    }
    const highlighter = highlighterNow();
    if (highlighter) this.highlight.render(text, highlighter);
    else this.code.textContent = text;
  }

  /** The block is complete (another block follows it). */
  settle(): void {
    const highlighter = highlighterNow();
    if (highlighter) this.highlight?.settle(highlighter);
  }

  private paint(): void {
    if (!this.highlight) return;
    const highlighter = highlighterNow();
    if (highlighter) {
      this.highlight.render(this.code.textContent ?? '', highlighter);
      return;
    }
    if (waiting.size === 0) {
      void loadHighlighter().then((loaded) => {
        const pending = [...waiting];
        waiting.clear();
        if (loaded) for (const view of pending) view.paint();
      });
    }
    waiting.add(this);
  }

  private setWrap(wrap: boolean): void {
    this.element.classList.toggle('code-nowrap', !wrap);
    this.wrapButton.setAttribute('aria-pressed', String(wrap));
    // Unwrapped code scrolls sideways: one named Tab stop, so the keyboard can scroll it too.
    if (wrap) {
      this.pre.removeAttribute('tabindex');
      this.pre.removeAttribute('role');
      this.pre.removeAttribute('aria-label');
    } else {
      keyboardScrollable(this.pre, l10n.t('Code: {0}', this.fence || l10n.t('text')));
    }
  }

  private async copy(copyButton: HTMLButtonElement): Promise<void> {
    const text = this.text();
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // A webview without clipboard access (not focused, an older VS Code): the host copies.
      actions?.post({ type: 'copyCode', code: text });
    }
    actions?.say(l10n.t('Code copied'));
    copyButton.replaceChildren(icon('check'));
    clearTimeout(this.copiedTimer);
    this.copiedTimer = setTimeout(() => copyButton.replaceChildren(icon('copy')), COPIED_MS);
  }
}

function codeOf(pre: Element): HTMLElement | undefined {
  const code = pre.firstElementChild;
  return pre.childElementCount === 1 && code instanceof HTMLElement && code.tagName === 'CODE' ? code : undefined;
}

/** The block view an element of the rendered markdown is, if it is one. */
export function codeBlockView(node: Node): CodeBlockView | undefined {
  return node instanceof HTMLDivElement && node.classList.contains(BLOCK_CLASS) ? views.get(node) : undefined;
}

/** Every `<pre><code>` of freshly rendered markdown becomes a block view (in place). */
export function decorateCodeBlocks(root: DocumentFragment | Element): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains(BLOCK_CLASS)) continue;
    const code = codeOf(pre);
    if (code) new CodeBlockView(pre, code);
  }
}

/** Whether `node` is a fresh `<pre>` of rendered markdown (not decorated yet). */
export function isPlainCodeBlock(node: Node): node is HTMLPreElement {
  return node instanceof HTMLPreElement && !node.parentElement?.classList.contains(BLOCK_CLASS);
}
