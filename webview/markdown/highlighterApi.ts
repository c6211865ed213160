/** What the lazily loaded highlighter bundle (highlighter/main.ts) hands the panel. */
import type { CodeLanguage } from './codeLanguages';

export const HIGHLIGHTER_GLOBAL = '__tandemHighlighter';

export interface Highlighted {
  /** highlight.js's HTML: escaped text in `<span class="hljs-…">` (still sanitised by the panel). */
  html: string;
  /** Whether the text ended outside any open construct (comment, string…): later lines may start afresh. */
  closed: boolean;
}

export interface Highlighter {
  highlight(code: string, language: CodeLanguage): Highlighted;
}
