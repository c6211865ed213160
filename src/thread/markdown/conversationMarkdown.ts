/**
 * A conversation as a Markdown document a person reads (`Tandem: Export Conversation as Markdown…`)
 * and one message of it (**Copy as Markdown**). Pure: the input is what the store keeps of a
 * conversation (its entries with the diffs' texts, its terminals, the changed-files strip), the
 * output a string; the editor side asks where to write it. Secrets are masked with the one masker's
 * rules and the transcripts' mask, `[REDACTED]`.
 */
import * as l10n from '@vscode/l10n';
import type { ChangedFileView, Entry, TerminalView } from '../../protocol/messages';
import { createMasker } from '../../util/secretMask';
import { DisplayPaths } from '../presentation/displayPaths';
import { entryBlocks, prose, type EntryContext } from './entryMarkdown';
import { inlineCode, plainText } from './markdownFence';

/** The mask of exported text: the transcripts' (src/inspector/redaction.ts). */
export const EXPORT_MASK = '[REDACTED]';

/** What is exported of one conversation. */
export interface MarkdownSource {
  title: string;
  agentName: string;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt?: number;
  /** The stored entries (diff items may carry both texts, see StoredDiffContent). */
  entries: readonly Entry[];
  terminals: Readonly<Record<string, TerminalView>>;
  /** The changed-files strip; without it (or empty) the files are those the tool calls' diffs name. */
  changedFiles?: readonly ChangedFileView[];
  /** The session's working folder: paths are written relative to it. */
  cwd?: string;
  /** A subagent's history: what it was asked to do, under its own heading before its entries. */
  task?: string;
  /** A subagent's history: where its work stands (already in the reader's words), among the facts. */
  state?: string;
}

export interface MarkdownOptions {
  /** Exact values to mask besides the key and token shapes (the agents' env values, stored keys). */
  secrets: readonly string[];
}

export interface MarkdownResult {
  text: string;
  /** How many values were masked. */
  redactions: number;
}

/** A time in one fixed form for every reader: `2026-12-02 00:49 UTC`. */
export function exportDate(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function context(source: Pick<MarkdownSource, 'terminals' | 'cwd'>, opts: MarkdownOptions): { ctx: EntryContext; count: () => number } {
  const masker = createMasker(opts.secrets, { mask: EXPORT_MASK, jsonLines: false });
  const ctx: EntryContext = {
    mask: (text) => masker.text(text),
    paths: new DisplayPaths(source.cwd ? [source.cwd] : []),
    terminals: source.terminals ?? {},
  };
  return { ctx, count: () => masker.count };
}

/** Entries a reader sees as the agent's part of a turn (they go under its heading). */
const AGENT_SIDE = new Set<Entry['kind']>(['agent', 'thought', 'plan', 'tool_call', 'question', 'compaction']);

/** The files changed: the strip's, else every file a tool call's diff names (added and removed lines summed). */
function changedFiles(source: MarkdownSource, ctx: EntryContext): string[] {
  const strip = source.changedFiles ?? [];
  if (strip.length > 0)
    return strip.map((f) => {
      const counts = f.binary ? '' : ` (+${f.added} −${f.removed})`;
      const outside = f.outside ? ` ${l10n.t('*(not by the agent’s edits)*')}` : '';
      return `- ${inlineCode(ctx.mask(f.relPath))} — ${fileStatus(f.status)}${counts}${outside}`;
    });
  const byPath = new Map<string, { isNew: boolean; added: number; removed: number }>();
  for (const entry of source.entries) {
    if (entry.kind !== 'tool_call' || !Array.isArray(entry.content)) continue;
    for (const item of entry.content) {
      if (item.type !== 'diff') continue;
      const shown = ctx.paths.shown(String(item.path));
      const seen = byPath.get(shown);
      if (seen) {
        seen.added += item.added || 0;
        seen.removed += item.removed || 0;
      } else byPath.set(shown, { isNew: item.isNew === true, added: item.added || 0, removed: item.removed || 0 });
    }
  }
  return [...byPath].map(([path, f]) => `- ${inlineCode(ctx.mask(path))} — ${fileStatus(f.isNew ? 'added' : 'modified')} (+${f.added} −${f.removed})`);
}

function fileStatus(status: ChangedFileView['status']): string {
  return status === 'added' ? l10n.t('added') : status === 'deleted' ? l10n.t('deleted') : l10n.t('modified');
}

/** The whole conversation: title, agent and dates, each turn under its author's heading, the files changed. */
export function conversationMarkdown(source: MarkdownSource, opts: MarkdownOptions): MarkdownResult {
  const { ctx, count } = context(source, opts);
  const agent = plainText(ctx.mask(source.agentName)) || l10n.t('Agent');
  const blocks: string[] = [`# ${plainText(ctx.mask(source.title)) || l10n.t('Conversation')}`];
  const facts = [l10n.t('- **Agent:** {0}', agent), l10n.t('- **Started:** {0}', exportDate(source.createdAt))];
  if (source.updatedAt !== undefined && source.updatedAt !== source.createdAt) facts.push(l10n.t('- **Last activity:** {0}', exportDate(source.updatedAt)));
  if (source.state !== undefined) facts.push(l10n.t('- **State:** {0}', source.state));
  blocks.push(facts.join('\n'));
  if (source.task !== undefined && source.task.trim() !== '') blocks.push(`## ${l10n.t('Task')}`, prose(source.task, ctx));
  let section: 'user' | 'agent' | undefined;
  for (const entry of source.entries) {
    const parts = entryBlocks(entry, ctx);
    if (parts.length === 0) continue;
    if (entry.kind === 'user') {
      blocks.push(`## ${l10n.t('You')}`);
      section = 'user';
    } else if (AGENT_SIDE.has(entry.kind) && section !== 'agent') {
      blocks.push(`## ${agent}`);
      section = 'agent';
    }
    blocks.push(...parts);
  }
  const files = changedFiles(source, ctx);
  if (files.length > 0) blocks.push(`## ${l10n.t('Files changed')}`, files.join('\n'));
  return { text: `${blocks.join('\n\n')}\n`, redactions: count() };
}

/** One entry alone (Copy as Markdown): its blocks, no headings. */
export function entryMarkdown(entry: Entry, source: Pick<MarkdownSource, 'terminals' | 'cwd'>, opts: MarkdownOptions): MarkdownResult {
  const { ctx, count } = context(source, opts);
  const text = entryBlocks(entry, ctx).join('\n\n');
  return { text: text === '' ? '' : `${text}\n`, redactions: count() };
}

/** A file name from the title: `fix-the-login-bug.md` (letters and digits of any script kept). */
export function markdownFileName(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'conversation'}.md`;
}
