// The code blocks' languages: the panel's list (webview/markdown/codeLanguages.ts, which decides whether to
// load the highlighter at all) names exactly the aliases highlight.js's own definitions register,
// and a fence's word opens New File in the editor's language for it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import hljs from 'highlight.js/lib/core';
import { CODE_LANGUAGES, codeLanguage } from '../../webview/markdown/codeLanguages';
import { editorLanguageId } from '../../src/vscode/editor/codeLanguageIds';

const require = createRequire(import.meta.url);

test("each listed language's aliases are the ones its highlight.js definition registers", () => {
  for (const [name, aliases] of Object.entries(CODE_LANGUAGES)) {
    hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as Parameters<typeof hljs.registerLanguage>[1]);
    assert.deepEqual([...(hljs.getLanguage(name)?.aliases ?? [])].sort(), [...aliases].sort(), name);
  }
});

test('fence words pick the highlighter language, case and spaces aside; mermaid and unknown ones none', () => {
  assert.equal(codeLanguage('ts'), 'typescript');
  assert.equal(codeLanguage(' Python '), 'python');
  assert.equal(codeLanguage('c++'), 'cpp');
  assert.equal(codeLanguage('html'), 'xml');
  assert.equal(codeLanguage('shellscript'), 'bash');
  assert.equal(codeLanguage('mermaid'), undefined);
  assert.equal(codeLanguage('brainfuck'), undefined);
  assert.equal(codeLanguage(''), undefined);
  assert.equal(codeLanguage(undefined), undefined);
});

test("New File's language: the editor's id for the fence word, plain text when the editor has none", () => {
  const known = ['typescript', 'typescriptreact', 'python', 'shellscript', 'cpp', 'plaintext', 'rust', 'yaml', 'markdown', 'go'];
  assert.equal(editorLanguageId('ts', known), 'typescript');
  assert.equal(editorLanguageId('TSX', known), 'typescriptreact');
  assert.equal(editorLanguageId('py', known), 'python');
  assert.equal(editorLanguageId('bash', known), 'shellscript');
  assert.equal(editorLanguageId('c++', known), 'cpp');
  assert.equal(editorLanguageId('rust', known), 'rust');
  assert.equal(editorLanguageId('yml', known), 'yaml');
  assert.equal(editorLanguageId('mermaid', known), 'plaintext');
  assert.equal(editorLanguageId('mermaid', [...known, 'mermaid']), 'mermaid');
  assert.equal(editorLanguageId(undefined, known), 'plaintext');
  assert.equal(editorLanguageId('', known), 'plaintext');
});
