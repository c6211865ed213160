/**
 * A code fence's info word (`ts`, `sh`, `c++`) → the VS Code language id an untitled editor gets
 * (`typescript`, `shellscript`, `cpp`). Pure, so it is tested without an editor.
 */

/** Fence names whose VS Code language id is another word. */
const ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  node: 'javascript',
  jsonc: 'jsonc',
  json5: 'jsonc',
  py: 'python',
  python3: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  shell: 'shellscript',
  console: 'shellscript',
  terminal: 'shellscript',
  ps1: 'powershell',
  pwsh: 'powershell',
  rs: 'rust',
  golang: 'go',
  rb: 'ruby',
  cs: 'csharp',
  'c#': 'csharp',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  h: 'c',
  kt: 'kotlin',
  kts: 'kotlin',
  yml: 'yaml',
  md: 'markdown',
  htm: 'html',
  xhtml: 'html',
  svg: 'xml',
  patch: 'diff',
  docker: 'dockerfile',
  mk: 'makefile',
  make: 'makefile',
  toml: 'toml',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
};

/**
 * `known`: the editor's language ids (`vscode.languages.getLanguages()`). A fence naming none of
 * them (`mermaid` without an extension for it) opens as plain text.
 */
export function editorLanguageId(fence: string | undefined, known: readonly string[]): string {
  const word = fence?.trim().toLowerCase() ?? '';
  if (word === '') return 'plaintext';
  const id = ALIASES[word] ?? word;
  return known.includes(id) ? id : 'plaintext';
}
