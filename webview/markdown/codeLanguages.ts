/**
 * The languages the panel highlights, by highlight.js name, with the fence names (aliases) that
 * pick them. The list lives in the panel bundle so it can tell, without loading the highlighter,
 * whether a block is worth loading it for: a `mermaid` block, or one in a language not listed here,
 * stays plain code and never fetches anything. test/unit/codeLanguages.test.ts checks that these
 * aliases are the ones the highlighter's own language definitions register.
 */
export const CODE_LANGUAGES = {
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  json: ['jsonc', 'json5'],
  python: ['py', 'gyp', 'ipython'],
  bash: ['sh', 'zsh'],
  shell: ['console', 'shellsession'],
  diff: ['patch'],
  go: ['golang'],
  rust: ['rs'],
  java: ['jsp'],
  c: ['h'],
  cpp: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  csharp: ['cs', 'c#'],
  css: [],
  scss: [],
  xml: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
  yaml: ['yml'],
  markdown: ['md', 'mkdown', 'mkd'],
  sql: [],
  php: [],
  ruby: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  kotlin: ['kt', 'kts', 'ktm', 'ktx'],
  swift: [],
  powershell: ['pwsh', 'ps', 'ps1'],
  dockerfile: ['docker'],
  ini: ['toml'],
  makefile: ['mk', 'mak', 'make'],
} as const satisfies Record<string, readonly string[]>;

export type CodeLanguage = keyof typeof CODE_LANGUAGES;

const BY_NAME = new Map<string, CodeLanguage>();
for (const [name, aliases] of Object.entries(CODE_LANGUAGES) as Array<[CodeLanguage, readonly string[]]>) {
  BY_NAME.set(name, name);
  for (const alias of aliases) BY_NAME.set(alias, name);
}
// Fence names agents write that are not among the definitions' own aliases.
for (const [alias, name] of [
  ['shellscript', 'bash'],
  ['terminal', 'shell'],
  ['golang', 'go'],
  ['yml', 'yaml'],
  ['htm', 'xml'],
  ['dotenv', 'bash'],
] as const) {
  if (!BY_NAME.has(alias)) BY_NAME.set(alias, name);
}

/** The highlighter's language for a fence's info word (`ts`, `Python`, `c++`), if it has one. */
export function codeLanguage(fence: string | undefined): CodeLanguage | undefined {
  if (!fence) return undefined;
  return BY_NAME.get(fence.trim().toLowerCase());
}
