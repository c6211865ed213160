/**
 * Finds English the panel wrote itself: Latin words in what it shows (text) and names (aria-label,
 * title, placeholder, alt, aria-valuetext), once what the agent or user wrote is taken out. Used by
 * chinese.test.ts to prove a translated panel leaks no English of its own.
 */
import type { Page } from 'playwright-core';

export interface Leftover {
  /** The element, e.g. `button.small > span.button-text`, and what of it: `text` or `[title]`. */
  where: string;
  text: string;
  /** The Latin words left once given texts and allowed words are taken out. */
  words: string[];
  /** ASCII punctuation next to Chinese (`, 图片`, ` (等待中)`): English composition around translated words. */
  marks: string[];
}

/**
 * Scans the panel (`#root`) for Latin words, and for ASCII commas, colons and parentheses next to
 * CJK ideographs (a sentence put together the English way). Elements hidden with the `hidden` attribute are not
 * shown and are skipped (post the states in which they show). Text inside content the panel only
 * relays — rendered markdown, terminal output, diff lines, `pre`/`code` — is skipped as a whole; so
 * are the attributes inside markdown and xterm's own DOM. Elsewhere every occurrence of a `given`
 * text (longest first, at word boundaries) is taken out before looking for words; `allowed` words
 * (a product name, key names the translation keeps) do not count.
 */
export function untranslatedText(page: Page, given: readonly string[], allowed: readonly string[]): Promise<Leftover[]> {
  // No named functions inside the callback: the test loader's name helper does not exist in the page.
  return page.evaluate(
    ({ given, allowed }) => {
      const TEXT_SKIP = '.markdown, .terminal-screen, .terminal-text, .xterm, .diff-code, pre, code';
      const ATTR_SKIP = '.markdown, .terminal-screen, .xterm';
      const ATTRS = ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext'];
      // Word boundaries only where the given text starts or ends with a word character.
      const patterns = [...given]
        .sort((a, b) => b.length - a.length)
        .map(
          (g) =>
            new RegExp(`${/^\w/.test(g) ? '(?<![A-Za-z0-9_])' : ''}${g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${/\w$/.test(g) ? '(?![A-Za-z0-9_])' : ''}`, 'g'),
        );
      const allow = new Set(allowed);
      const root = document.getElementById('root');
      if (!root) throw new Error('no #root');
      const seen: Array<{ el: Element; what: string; text: string }> = [];
      for (const el of root.querySelectorAll('*')) {
        if (el.closest('[hidden]')) continue;
        if (!el.closest(ATTR_SKIP)) {
          for (const name of ATTRS) {
            const value = el.getAttribute(name);
            if (value) seen.push({ el, what: `[${name}]`, text: value });
          }
        }
        if (el.closest(TEXT_SKIP)) continue;
        for (const node of el.childNodes) {
          if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) seen.push({ el, what: 'text', text: node.textContent });
        }
      }
      const found: Array<{ where: string; text: string; words: string[]; marks: string[] }> = [];
      const han = '[\\u3400-\\u9fff]';
      const composed = new RegExp(`${han}[,:;!?()]|[,:;!?()] ?${han}|${han} \\(`, 'g');
      for (const { el, what, text } of seen) {
        let rest = text;
        for (const p of patterns) rest = rest.replace(p, ' ');
        const words = (rest.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !allow.has(w));
        const marks = rest.match(composed) ?? [];
        if (words.length === 0 && marks.length === 0) continue;
        const path: string[] = [];
        for (let e: Element | null = el; e && e !== root && path.length < 3; e = e.parentElement) {
          path.unshift(
            `${e.tagName.toLowerCase()}${[...e.classList]
              .slice(0, 2)
              .map((c) => `.${c}`)
              .join('')}`,
          );
        }
        found.push({ where: `${path.join(' > ')} ${what}`, text: text.trim(), words, marks });
      }
      return found;
    },
    { given: [...given], allowed: [...allowed] },
  );
}
