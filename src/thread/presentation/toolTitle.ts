/**
 * A tool call's title in the user's words. The agent's own title is kept when it says what happened
 * (its paths written workspace-relative); when it is missing, a bare tool name (`ReadFile`, `Task`,
 * `Terminal`), raw JSON of the arguments (`editor: {"path":"/abs/…","old…`) or a `tool: args` line,
 * the title is derived from the kind, the tool's name and its input: "Edit hello.txt", "Read 2
 * files", "Run `npm test`", "Search for `status`", "Fetch example.com", "Subagent: Check the notes".
 */
import * as l10n from '@vscode/l10n';
import type { ToolKind } from '../../protocol/messages';
import type { DisplayPaths } from './displayPaths';
import { isSubagentTool, normalToolName, titleToolName, type ToolInputFacts } from './toolInput';

/** Longest command, query or task quoted in a title (cut with an ellipsis). */
const TITLE_PART_CHARS = 80;

/** Titles that name a tool or a kind and nothing else. */
const GENERIC_TITLES = new Set(
  [
    'tool call',
    'tool',
    'task',
    'agent',
    'terminal',
    'read file',
    'readfile',
    'read',
    'edit',
    'write',
    'write file',
    'writefile',
    'edit file',
    'bash',
    'shell',
    'run command',
    'execute',
    'search',
    'grep',
    'glob',
    'fetch',
    'todowrite',
    'multiedit',
    // Codex names both its edits so (the paths are only in the diffs); Claude's provisional titles.
    'edit files',
    'editing files',
    'editing file',
    'preparing file',
  ].map((t) => normalToolName(t)),
);

/** A title without a trailing ellipsis ("Preparing file…"): a provisional title is as generic as its words. */
function withoutEllipsis(title: string): string {
  return title.replace(/\s*(…|\.{3})$/, '');
}

function cut(text: string, max = TITLE_PART_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Wraps in backticks that the text cannot close early. */
function code(text: string): string {
  const inner = cut(text);
  const fence = inner.includes('`') ? '``' : '`';
  return `${fence}${inner.startsWith('`') ? ' ' : ''}${inner}${inner.endsWith('`') ? ' ' : ''}${fence}`;
}

/** True when the agent's title tells the user nothing the input would not tell better. */
export function isUninformativeTitle(title: string | undefined, toolName: string | undefined): boolean {
  if (title === undefined) return true;
  const trimmed = title.trim();
  if (trimmed.length === 0) return true;
  if (/^[[{]/.test(trimmed)) return true;
  const normal = normalToolName(withoutEllipsis(trimmed));
  if (GENERIC_TITLES.has(normal) || (toolName !== undefined && normal === normalToolName(toolName))) return true;
  // `tool: {json…` and `tool: args` (Cline's) are the arguments, not a description.
  const named = titleToolName(trimmed);
  return named !== undefined && (/^\s*[\w.-]+\s*:\s*[[{"]/.test(trimmed) || /[_]/.test(named) || normalToolName(named) === normalToolName(toolName));
}

function host(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return cut(url);
  }
}

/** "hello.txt", "hello.txt and a.ts", "3 files": the paths of a title. */
function pathsPhrase(paths: readonly string[], display: DisplayPaths): string {
  if (paths.length === 1) return display.shown(paths[0]);
  if (paths.length === 2) return l10n.t('{0} and {1}', display.shown(paths[0]), display.shown(paths[1]));
  return l10n.t('{0} files', paths.length);
}

function more(first: string, count: number): string {
  return count <= 1 ? first : l10n.t('{0} and {1} more', first, count - 1);
}

function editTitle(facts: ToolInputFacts, paths: readonly string[], display: DisplayPaths): string {
  const where = pathsPhrase(paths, display);
  const op = normalToolName(facts.operation ?? '');
  if (op === 'create' || (normalToolName(facts.toolName) === 'write' && facts.edit?.oldText === undefined)) return l10n.t('Create {0}', where);
  if (op === 'delete' || op === 'remove') return l10n.t('Delete {0}', where);
  if (op === 'insert') return l10n.t('Insert into {0}', where);
  return l10n.t('Edit {0}', where);
}

/** The derived title, or undefined when the input says too little to derive one. */
export function derivedTitle(kind: ToolKind, facts: ToolInputFacts, paths: readonly string[], display: DisplayPaths): string | undefined {
  if (isSubagentTool(facts.toolName)) return facts.task ? l10n.t('Subagent: {0}', cut(facts.task)) : l10n.t('Subagent');
  if (kind === 'execute' && facts.commands.length > 0) return l10n.t('Run {0}', more(code(facts.commands[0]), facts.commands.length));
  if (kind === 'search' || (facts.queries.length > 0 && paths.length <= 1 && kind !== 'edit' && kind !== 'read')) {
    if (facts.queries.length === 0) return paths.length > 0 ? l10n.t('Search in {0}', pathsPhrase(paths, display)) : undefined;
    const query = more(code(facts.queries[0]), facts.queries.length);
    return paths.length === 1 ? l10n.t('Search for {0} in {1}', query, display.shown(paths[0])) : l10n.t('Search for {0}', query);
  }
  if (kind === 'fetch' && facts.urls.length > 0)
    return facts.urls.length === 1 ? l10n.t('Fetch {0}', host(facts.urls[0])) : l10n.t('Fetch {0} URLs', facts.urls.length);
  if (paths.length > 0) {
    if (kind === 'read') return paths.length > 2 ? l10n.t('Read {0} files', paths.length) : l10n.t('Read {0}', pathsPhrase(paths, display));
    if (kind === 'edit') return editTitle(facts, paths, display);
    if (kind === 'delete') return l10n.t('Delete {0}', pathsPhrase(paths, display));
    if (kind === 'move' && paths.length === 2) return l10n.t('Move {0} to {1}', display.shown(paths[0]), display.shown(paths[1]));
  }
  if (facts.commands.length > 0) return l10n.t('Run {0}', more(code(facts.commands[0]), facts.commands.length));
  if (facts.urls.length > 0) return l10n.t('Fetch {0}', host(facts.urls[0]));
  return undefined;
}

/** A readable form of a tool's own name (`read_files` → "read files"), the last resort. */
function humanName(toolName: string | undefined): string | undefined {
  if (toolName === undefined) return undefined;
  const plain = toolName
    .replace(/^mcp__.*__/i, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return plain.length > 0 && plain.length <= 60 ? plain : undefined;
}

/**
 * The title the card shows: the agent's when it is informative (paths in the user's words), else
 * one derived from the input, else the agent's anyway, else the tool's name, else `fallback`.
 */
export function presentedTitle(
  agentTitle: string | undefined,
  kind: ToolKind,
  facts: ToolInputFacts,
  paths: readonly string[],
  display: DisplayPaths,
  fallback: string,
): string {
  if (isSubagentTool(facts.toolName)) return derivedTitle(kind, facts, paths, display)!;
  if (!isUninformativeTitle(agentTitle, facts.toolName)) {
    const rewritten = display.rewriteText(agentTitle!.trim());
    // A title that is only the path (Gemini titles reads so) gets its verb from the kind.
    const onlyPath = paths.some((p) => display.shown(p) === rewritten.replace(/^`|`$/g, '') || p === rewritten);
    if (!onlyPath) return rewritten;
  }
  const derived = derivedTitle(kind, facts, paths, display);
  if (derived !== undefined) return derived;
  if (agentTitle !== undefined && agentTitle.trim().length > 0 && !/^[[{]/.test(agentTitle.trim())) return display.rewriteText(cut(agentTitle, 200));
  return humanName(facts.toolName) ?? fallback;
}
