/**
 * The code highlighter, a bundle of its own (dist/codeHighlighter.js) that the panel loads with its
 * script nonce the first time a reply shows a block in a language it knows (codeHighlighter.ts), so
 * the panel's own bundle and its start stay as small as before. highlight.js core with only the
 * languages of codeLanguages.ts registered: maintained, no dependencies, no eval, and it emits plain
 * `<span class="hljs-…">` that the panel passes through its sanitiser (span + class only).
 *
 * It hands the panel one object on `window` (the panel's page runs no other script, and agent text
 * never becomes script: it is sanitised markdown).
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { CodeLanguage } from '../markdown/codeLanguages';
import { HIGHLIGHTER_GLOBAL, type Highlighter } from '../markdown/highlighterApi';

const DEFINITIONS: Record<CodeLanguage, Parameters<typeof hljs.registerLanguage>[1]> = {
  typescript,
  javascript,
  json,
  python,
  bash,
  shell,
  diff,
  go,
  rust,
  java,
  c,
  cpp,
  csharp,
  css,
  scss,
  xml,
  yaml,
  markdown,
  sql,
  php,
  ruby,
  kotlin,
  swift,
  powershell,
  dockerfile,
  ini,
  makefile,
};
for (const [name, definition] of Object.entries(DEFINITIONS)) hljs.registerLanguage(name, definition);
// Agent text is never HTML to the highlighter's eyes; and a block it cannot parse stays readable.
hljs.configure({ ignoreUnescapedHTML: true, throwUnescapedHTML: false });

const highlighter: Highlighter = {
  highlight(code, language) {
    const result = hljs.highlight(code, { language, ignoreIllegals: true });
    // `_top` is the mode the text ended in: the language itself when nothing (a comment, a string,
    // a template) is left open, so the next lines can be highlighted on their own.
    const top = (result as { _top?: unknown })._top;
    return { html: result.value, closed: top === undefined || top === hljs.getLanguage(language) };
  },
};
(window as unknown as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] = highlighter;
