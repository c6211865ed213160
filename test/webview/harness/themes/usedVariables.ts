/** The `--vscode-*` variables the panel uses: what the harness's theme files must give a value (or say they have none). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** Every `--vscode-*` colour named in the panel's CSS and code, and in the harness's stand-in for VS Code's webview defaults. */
export function usedVariables(): string[] {
  const sources = [join(repoRoot, 'media', 'tandem.css'), join(repoRoot, 'test', 'webview', 'harness', 'vscodeWebview.css')];
  // The chat panel's code at any depth of webview/ (its rooms), not the inspector's page or the highlighter's bundle.
  for (const file of readdirSync(join(repoRoot, 'webview'), { recursive: true, encoding: 'utf8' }))
    if (file.endsWith('.ts') && !/^(inspector|highlighter)[\\/]/.test(file)) sources.push(join(repoRoot, 'webview', file));
  const badge = join(repoRoot, 'node_modules', '@vscode-elements', 'elements', 'dist', 'vscode-badge');
  for (const file of readdirSync(badge)) if (file.endsWith('.js')) sources.push(join(badge, file));
  const names = new Set<string>();
  for (const file of sources) for (const match of readFileSync(file, 'utf8').matchAll(/--vscode-[A-Za-z0-9-]+/g)) names.add(match[0]);
  // terminalLook.ts builds the ANSI colour names.
  for (const colour of ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'])
    names.add(`--vscode-terminal-ansi${colour}`).add(`--vscode-terminal-ansiBright${colour}`);
  for (const name of [...names]) if (/-(?:ansi|ansiBright)$/.test(name) || /font-(?:family|size|weight)$/.test(name)) names.delete(name);
  return [...names].sort();
}
