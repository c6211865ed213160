/**
 * What the user points at when they write a prompt ("mentions": files, folders, selections,
 * symbols, problems, terminal output, the git diff, images, audio), and `MentionView`, the small
 * serialisable description of one that the composer chips and the thread show.
 *
 * Mentions are plain data gathered by the editor glue (which knows documents, diagnostics and
 * terminals); `buildPrompt` (promptBlocks.ts) turns them into ACP content. No Node, VS Code or SDK
 * import: the webview uses `MentionView` and these helpers as they are.
 */
import * as l10n from '@vscode/l10n';
import { baseName, conversationUri, displayPath, fileUri, gitDiffUri, parseFileUri, parseTandemUri, problemsUri, terminalUri, withRange } from './contextUri';
import type { LineRange, PathStyle } from './contextUri';
import { assertNever } from '../protocol/guards';

/** A whole file, by absolute path. */
export interface FileMention {
  kind: 'file';
  path: string;
}

/** A folder, by absolute path: always sent as a link (the agent lists it itself). */
export interface FolderMention {
  kind: 'folder';
  path: string;
}

/** Lines (optionally columns) of a file, as selected in the editor. */
export interface SelectionMention {
  kind: 'selection';
  path: string;
  range: LineRange;
}

/** A symbol (function, class, …) of a file: its name and the lines it spans. */
export interface SymbolMention {
  kind: 'symbol';
  name: string;
  path: string;
  range: LineRange;
  /** VS Code's symbol kind in lower case (`class`, `function`, `method`, …), for the icon. */
  symbolKind?: string;
}

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One diagnostic, as plain data (the glue converts VS Code's `Diagnostic`). */
export interface Problem {
  /** Absolute path of the file it is in. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  severity: ProblemSeverity;
  message: string;
  /** Who reported it (`ts`, `eslint`). */
  source?: string;
  code?: string | number;
}

/** The problems of one file (`file` set) or of the whole workspace. */
export interface ProblemsMention {
  kind: 'problems';
  file?: string;
  problems: readonly Problem[];
}

/** Recent output of a terminal, as text (escape sequences are cleaned when sent). */
export interface TerminalMention {
  kind: 'terminal';
  name: string;
  output: string;
}

/** Uncommitted changes as a unified diff; `root` names the repository when there are several. */
export interface GitDiffMention {
  kind: 'gitDiff';
  diff: string;
  root?: string;
}

/** A pasted or attached image: base64 bytes (no `data:` prefix). `path` when it is a file. */
export interface ImageMention {
  kind: 'image';
  name: string;
  mimeType: string;
  data: string;
  path?: string;
}

/** An audio clip: base64 bytes (no `data:` prefix). */
export interface AudioMention {
  kind: 'audio';
  name: string;
  mimeType: string;
  data: string;
}

/**
 * Another conversation handed over to this one's agent: the editor writes it as Markdown when the
 * prompt goes (`preface` tells the agent what it is reading; `markdown` is the conversation).
 */
export interface ConversationMention {
  kind: 'conversation';
  conversationId: string;
  title: string;
  agentName: string;
  preface: string;
  markdown: string;
}

export type Mention =
  | FileMention
  | FolderMention
  | SelectionMention
  | SymbolMention
  | ProblemsMention
  | TerminalMention
  | GitDiffMention
  | ImageMention
  | AudioMention
  | ConversationMention;

export type MentionKind = Mention['kind'];

/**
 * How a mention is shown (composer chip, thread): plain JSON, the same on host and webview.
 * Computed on the host, which knows the path style and workspace folders.
 */
export interface MentionView {
  /** What kind of thing it is. */
  kind: MentionKind;
  /** Short text for the chip: `app.ts`, `app.ts:10-20`, `parse`, `Problems`, `bash`, `screenshot.png`. */
  label: string;
  /** Longer text for a tooltip: workspace-relative path with the range, or what the context is. */
  detail?: string;
  /** The URI the agent sees for it (`file://…`, `tandem://…`); absent for pasted images and audio. */
  uri?: string;
  /** Lines it covers (selections, symbols). */
  range?: LineRange;
  /** Codicon name, without the `codicon-` prefix. */
  icon: string;
}

export interface MentionDisplayOptions {
  /** Path style of the workspace (default `posix`). */
  pathStyle?: PathStyle;
  /** Workspace folders, to show paths relative to them. */
  workspaceRoots?: readonly string[];
}

const SYMBOL_ICONS = new Set([
  'class',
  'constructor',
  'enum',
  'field',
  'function',
  'interface',
  'method',
  'module',
  'namespace',
  'property',
  'struct',
  'variable',
  'constant',
]);

/** The URI a mention is sent under (see contextUri.ts); undefined for media without a file. */
export function mentionUri(mention: Mention, style: PathStyle = 'posix'): string | undefined {
  switch (mention.kind) {
    case 'file':
      return fileUri(mention.path, style);
    case 'folder':
      return fileUri(mention.path, style, { folder: true });
    case 'selection':
    case 'symbol':
      return withRange(fileUri(mention.path, style), mention.range);
    case 'problems':
      return problemsUri(mention.file, style);
    case 'terminal':
      return terminalUri(mention.name);
    case 'gitDiff':
      return gitDiffUri(mention.root, style);
    case 'image':
      return mention.path ? fileUri(mention.path, style) : undefined;
    case 'audio':
      return undefined;
    case 'conversation':
      return conversationUri(mention.conversationId);
    default:
      return assertNever(mention);
  }
}

/**
 * How the outcome notes name a mention: `src/big.ts`, `src/app.ts:10-20`, `parse in src/app.ts`,
 * `Problems in src/app.ts`, `Terminal bash`, `Git diff`, `screenshot.png`.
 */
export function mentionName(mention: Mention, opts: MentionDisplayOptions = {}): string {
  const shown = (p: string) => displayPath(p, opts.workspaceRoots ?? [], opts.pathStyle);
  switch (mention.kind) {
    case 'file':
    case 'folder':
      return shown(mention.path);
    case 'selection':
      return shown(mention.path) + rangeSuffix(mention.range);
    case 'symbol':
      return l10n.t('{0} in {1}', mention.name, shown(mention.path));
    case 'problems':
      return mention.file ? l10n.t('Problems in {0}', shown(mention.file)) : l10n.t('Problems');
    case 'terminal':
      return l10n.t('Terminal {0}', mention.name);
    case 'gitDiff':
      return mention.root ? l10n.t('Git diff of {0}', shown(mention.root)) : l10n.t('Git diff');
    case 'image':
    case 'audio':
      return mention.name;
    case 'conversation':
      return l10n.t('The conversation with {0}: {1}', mention.agentName, conversationTitle(mention.title));
    default:
      return assertNever(mention);
  }
}

export function mentionView(mention: Mention, opts: MentionDisplayOptions = {}): MentionView {
  const style = opts.pathStyle ?? 'posix';
  const uri = mentionUri(mention, style);
  const detail = mentionName(mention, opts);
  const base = (label: string, icon: string): MentionView => {
    const view: MentionView = { kind: mention.kind, label, detail, icon };
    if (uri !== undefined) view.uri = uri;
    return view;
  };
  switch (mention.kind) {
    case 'file':
      return base(baseName(mention.path, style), 'file');
    case 'folder':
      return base(baseName(mention.path, style), 'folder');
    case 'selection':
      return { ...base(baseName(mention.path, style) + rangeSuffix(mention.range), 'selection'), range: mention.range };
    case 'symbol': {
      const icon = mention.symbolKind && SYMBOL_ICONS.has(mention.symbolKind) ? `symbol-${mention.symbolKind}` : 'symbol-misc';
      return { ...base(mention.name, icon), range: mention.range };
    }
    case 'problems':
      return base(mention.file ? l10n.t('Problems: {0}', baseName(mention.file, style)) : l10n.t('Problems'), 'warning');
    case 'terminal':
      return base(mention.name, 'terminal');
    case 'gitDiff':
      return base(l10n.t('Git diff'), 'git-compare');
    case 'image':
      return base(mention.name, 'file-media');
    case 'audio':
      return base(mention.name, 'mic');
    case 'conversation':
      return base(conversationTitle(mention.title), 'comment-discussion');
    default:
      return assertNever(mention);
  }
}

/**
 * The view of a URI found in a content block (e.g. a user message an agent replays with
 * `session/load`): file, folder, selection (a `#L…` range; symbols come back as selections, as
 * their name is not in the URI) or one of Tandem's `tandem://` URIs. Undefined for other URIs.
 */
export function mentionViewFromUri(uri: string, opts: MentionDisplayOptions = {}): MentionView | undefined {
  const style = opts.pathStyle ?? 'posix';
  const file = parseFileUri(uri, style);
  if (file) {
    if (file.isFolder) return mentionView({ kind: 'folder', path: file.path }, opts);
    if (file.range) return mentionView({ kind: 'selection', path: file.path, range: file.range }, opts);
    return mentionView({ kind: 'file', path: file.path }, opts);
  }
  const target = parseTandemUri(uri, style);
  if (!target) return undefined;
  switch (target.kind) {
    case 'problems':
      return mentionView({ kind: 'problems', file: target.file, problems: [] }, opts);
    case 'terminal':
      return mentionView({ kind: 'terminal', name: target.name, output: '' }, opts);
    case 'gitDiff':
      return mentionView({ kind: 'gitDiff', diff: '', root: target.root }, opts);
    case 'conversation':
      // The title and agent are not in the URI: the chip says what it is.
      return mentionView({ kind: 'conversation', conversationId: target.conversationId, title: '', agentName: '', preface: '', markdown: '' }, opts);
    default:
      return assertNever(target);
  }
}

/** A conversation's title as its chip shows it (an untitled one still says what it is). */
function conversationTitle(title: string): string {
  return title.trim() === '' ? l10n.t('Earlier conversation') : title.trim();
}

/** `:10`, `:10-20` (columns are left to the tooltip's URI). */
function rangeSuffix(range: LineRange): string {
  return range.startLine === range.endLine ? `:${range.startLine}` : `:${range.startLine}-${range.endLine}`;
}
