/** Tiny DOM helpers: elements are built with properties and textContent only, never innerHTML. */

type Attrs = Record<string, string | number | boolean | undefined>;

/** Creates an element; `class` and attributes in `attrs`, children appended (strings as text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(child);
  }
  return el;
}

/** A codicon element (decorative: screen readers get the text next to it). */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/** A native button: focusable, Enter/Space activate, accessible name from its text or `label`. */
export function button(
  text: string,
  onClick: (event: MouseEvent) => void,
  options: { label?: string; cls?: string; icon?: string; title?: string } = {},
): HTMLButtonElement {
  const b = h('button', { type: 'button', class: options.cls, 'aria-label': options.label, title: options.title });
  if (options.icon) b.append(icon(options.icon));
  if (text) b.append(h('span', { class: 'button-text' }, text));
  b.addEventListener('click', onClick);
  return b;
}

/**
 * A box that scrolls (a max-height, long lines) and may hold nothing focusable: one named Tab stop,
 * so the keyboard can scroll it too (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function keyboardScrollable<T extends HTMLElement>(el: T, label: string): T {
  el.tabIndex = 0;
  el.setAttribute('role', 'group');
  el.setAttribute('aria-label', label);
  return el;
}

/** Last path segment, for compact labels. */
export function basename(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/**
 * A translated sentence with elements in it: `{0}`, `{1}`… in `text` (an `l10n.t` message given
 * no arguments, so its placeholders are left in) become the given nodes, wherever the language
 * puts them.
 */
export function withNodes(text: string, ...nodes: Node[]): Array<Node | string> {
  return text.split(/\{(\d+)\}/).map((part, i) => (i % 2 === 1 ? (nodes[Number(part)] ?? `{${part}}`) : part));
}

/** An entry of the thread that is content (a message, a card, a question): a labelled article. */
export function article(kind: string, label: string): HTMLElement {
  return h('article', { role: 'article', class: `entry entry-${kind}`, 'data-entry-kind': kind, 'aria-label': label });
}
