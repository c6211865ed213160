/**
 * The composer's mention specs (`MentionSpec`, what the webview posts) as the host uses them:
 * checked (the webview's messages are untrusted input), shown (`specView`, for queued prompts and
 * the thread) and turned into `Mention`s with their content read at send time (`specToMention`).
 * No VS Code import: the editor's sources (diagnostics, terminal output, git) come in as data.
 */
import * as l10n from '@vscode/l10n';
import type { LineRangeView, MentionSpec } from '../protocol/messages';
import { assertNever } from '../protocol/guards';
export { isMentionSpec } from '../protocol/mentionChecks';
import type { LineRange } from './contextUri';
import { mentionView } from './mentions';
import type { Mention, MentionDisplayOptions, MentionView, Problem } from './mentions';

/** Where the content of the editor-made mentions comes from. */
export interface ContextSources {
  /** The problems of one file, or of the whole workspace. */
  problems(file: string | undefined): readonly Problem[];
  /** The recent output of a terminal by name; undefined when none was captured. */
  terminalOutput(name: string): string | undefined;
  /** Uncommitted changes of the workspace as a unified diff (`git diff HEAD`). */
  gitDiff(): Promise<{ diff: string; root?: string }>;
  /** Another conversation as Markdown (a handoff); undefined when it is not there (any more). */
  conversation?(conversationId: string): Promise<{ preface: string; markdown: string } | undefined>;
}

function range(view: LineRangeView): LineRange {
  const r: LineRange = { startLine: view.startLine, endLine: view.endLine };
  if (view.startColumn !== undefined) r.startColumn = view.startColumn;
  if (view.endColumn !== undefined) r.endColumn = view.endColumn;
  return r;
}

/**
 * The mention of a spec without reading anything (problems, output and diff left empty): enough to
 * show it. Media keep their bytes.
 */
export function specShape(spec: MentionSpec): Mention {
  switch (spec.kind) {
    case 'file':
    case 'folder':
      return { kind: spec.kind, path: spec.path };
    case 'selection':
      return { kind: 'selection', path: spec.path, range: range(spec.range) };
    case 'symbol': {
      const m: Mention = { kind: 'symbol', name: spec.name, path: spec.path, range: range(spec.range) };
      if (spec.symbolKind !== undefined) m.symbolKind = spec.symbolKind;
      return m;
    }
    case 'problems':
      return spec.file === undefined ? { kind: 'problems', problems: [] } : { kind: 'problems', file: spec.file, problems: [] };
    case 'terminal':
      return { kind: 'terminal', name: spec.name, output: '' };
    case 'gitDiff':
      return { kind: 'gitDiff', diff: '' };
    case 'image':
      return { kind: 'image', name: spec.name, mimeType: spec.mimeType, data: spec.data };
    case 'audio':
      return { kind: 'audio', name: spec.name, mimeType: spec.mimeType, data: spec.data };
    case 'conversation':
      return { kind: 'conversation', conversationId: spec.conversationId, title: spec.title, agentName: spec.agentName, preface: '', markdown: '' };
    default:
      return assertNever(spec);
  }
}

/** How a spec's chip looks (label, icon, tooltip, URI). */
export function specView(spec: MentionSpec, opts: MentionDisplayOptions = {}): MentionView {
  return mentionView(specShape(spec), opts);
}

/** What is said to the agent for a terminal Tandem saw no output of. */
export const NO_TERMINAL_OUTPUT =
  '(No output was captured from this terminal. Tandem sees the output of commands run after it started, in terminals with shell integration.)';

/** The mention of a spec with its content as it is now (diagnostics, terminal output, diff). */
export async function specToMention(spec: MentionSpec, sources: ContextSources): Promise<Mention> {
  switch (spec.kind) {
    case 'problems': {
      const problems = sources.problems(spec.file);
      return spec.file === undefined ? { kind: 'problems', problems } : { kind: 'problems', file: spec.file, problems };
    }
    case 'terminal':
      return { kind: 'terminal', name: spec.name, output: sources.terminalOutput(spec.name) ?? NO_TERMINAL_OUTPUT };
    case 'gitDiff': {
      const { diff, root } = await sources.gitDiff();
      return root === undefined ? { kind: 'gitDiff', diff } : { kind: 'gitDiff', diff, root };
    }
    case 'conversation': {
      const text = await sources.conversation?.(spec.conversationId);
      // Thrown, the preparer says the chip was not sent, and why; the prompt still goes.
      if (text === undefined) throw new Error(l10n.t('that conversation is no longer there'));
      const { conversationId, title, agentName } = spec;
      return { kind: 'conversation', conversationId, title, agentName, preface: text.preface, markdown: text.markdown };
    }
    default:
      return specShape(spec);
  }
}

/** Paths a spec reads from disk or the editor (checked against the workspace before sending). */
export function specPaths(spec: MentionSpec): string[] {
  switch (spec.kind) {
    case 'file':
    case 'folder':
    case 'selection':
    case 'symbol':
      return [spec.path];
    default:
      return [];
  }
}
