/**
 * One entry of a conversation as Markdown for people: what a reply said, a tool call as one line
 * (kind, title, status) with its diff and its command's output in fenced blocks, the plan as a task
 * list. Everything the agent or the user wrote goes through the secret masker first, then into
 * fences longer than any backtick run inside (markdownFence.ts), so no piece can break the document.
 */
import * as l10n from '@vscode/l10n';
import { terminalBody } from '../../context/contextText';
import type { Entry, PlanItemView, TerminalView, ToolCallEntry, ToolKind, ToolStatus } from '../../protocol/messages';
import { assertNever } from '../../protocol/guards';
import type { DisplayPaths } from '../presentation/displayPaths';
import { diffText, type ExportDiff } from './diffMarkdown';
import { closeOpenFences, fenced, inlineCode, oneLine, plainText } from './markdownFence';

/** Most characters of one output (a command's, a tool's text) written into the document. */
export const EXPORT_OUTPUT_MAX_CHARS = 20_000;

/** What formatting an entry needs besides the entry. */
export interface EntryContext {
  /** The masker's free-text rules (src/util/secretMask.ts), applied to every text before it is placed. */
  mask(text: string): string;
  /** Paths in the user's words (workspace-relative). */
  paths: DisplayPaths;
  terminals: Readonly<Record<string, TerminalView>>;
}

function kindLabel(kind: ToolKind): string {
  switch (kind) {
    case 'read':
      return l10n.t('Read');
    case 'edit':
      return l10n.t('Edit');
    case 'delete':
      return l10n.t('Delete');
    case 'move':
      return l10n.t('Move');
    case 'search':
      return l10n.t('Search');
    case 'execute':
      return l10n.t('Run');
    case 'think':
      return l10n.t('Think');
    case 'fetch':
      return l10n.t('Fetch');
    case 'switch_mode':
      return l10n.t('Switch mode');
    case 'other':
      return l10n.t('Tool');
    default:
      return assertNever(kind);
  }
}

function statusLabel(status: ToolStatus): string {
  switch (status) {
    case 'pending':
      return l10n.t('pending');
    case 'in_progress':
      return l10n.t('running');
    case 'completed':
      return l10n.t('completed');
    case 'failed':
      return l10n.t('failed');
    case 'cancelled':
      return l10n.t('cancelled');
    default:
      return assertNever(status);
  }
}

/** `text` cut to the export's limit, with the cut said (the tail of a log matters less than its start). */
function bounded(text: string): string {
  if (text.length <= EXPORT_OUTPUT_MAX_CHARS) return text;
  return `${text.slice(0, EXPORT_OUTPUT_MAX_CHARS)}\n${l10n.t('… ({0} more characters not included)', text.length - EXPORT_OUTPUT_MAX_CHARS)}`;
}

/** Agent or user markdown: masked, and a fence it left open closed. */
export function prose(text: string, ctx: EntryContext): string {
  return closeOpenFences(ctx.mask(typeof text === 'string' ? text : '').trim());
}

function quoted(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function planItem(item: PlanItemView): string {
  const box = item.status === 'completed' ? '[x]' : '[ ]';
  const state = item.status === 'in_progress' ? ` ${l10n.t('*(in progress)*')}` : '';
  return `- ${box} ${plainText(String(item.content ?? ''))}${state}`;
}

/** The tool call's one line, then its diffs and outputs as fenced blocks. */
function toolCall(entry: ToolCallEntry, ctx: EntryContext): string[] {
  const title = plainText(ctx.mask(String(entry.title ?? ''))) || l10n.t('(untitled)');
  const blocks = [`- **${kindLabel(entry.toolKind)}** · ${title} · *${statusLabel(entry.status)}*`];
  // A read's content is the file read: it is in the workspace, not worth repeating here.
  const showText = entry.toolKind !== 'read';
  for (const item of Array.isArray(entry.content) ? entry.content : []) {
    switch (item.type) {
      case 'diff': {
        const shown = ctx.paths.shown(String(item.path));
        const { body, omitted } = diffText(item as ExportDiff, shown);
        if (body !== '') blocks.push(fenced(ctx.mask(body), 'diff'));
        if (omitted && 'tooLarge' in omitted) blocks.push(l10n.t('*{0}: the diff is too large to include ({1} bytes).*', plainText(shown), omitted.tooLarge));
        else if (omitted) blocks.push(l10n.t('*{0}: {1} more lines of the diff not included.*', plainText(shown), omitted.lines));
        break;
      }
      case 'terminal': {
        const terminal = ctx.terminals[item.terminalId];
        if (!terminal) break;
        const command = ctx.mask(oneLine(String(terminal.command ?? '')));
        blocks.push(fenced(`$ ${command}\n${bounded(ctx.mask(terminalBody(String(terminal.output ?? ''))))}`, 'console'));
        const exit = terminal.exit;
        if (exit?.lost) blocks.push(l10n.t('*The command was ended when the editor closed.*'));
        else if (exit && exit.exitCode !== 0)
          blocks.push(exit.signal ? l10n.t('*Ended by {0}.*', plainText(exit.signal)) : l10n.t('*Exit code {0}.*', String(exit.exitCode)));
        break;
      }
      case 'output':
        if (!showText && item.failed !== true) break;
        // The label says what the output is of; the line above already does when it is the title.
        if (item.label && oneLine(item.label) !== oneLine(String(entry.title ?? ''))) blocks.push(inlineCode(ctx.mask(item.label)));
        blocks.push(fenced(bounded(ctx.mask(String(item.text ?? ''))), 'text'));
        if (typeof item.exitCode === 'number' && item.exitCode !== 0) blocks.push(l10n.t('*Exit code {0}.*', String(item.exitCode)));
        break;
      case 'markdown':
        if (showText) blocks.push(bounded(prose(item.text, ctx)));
        break;
      case 'image':
        blocks.push(l10n.t('*(an image, {0})*', plainText(String(item.mimeType ?? ''))));
        break;
      case 'resource_link':
        blocks.push(
          `[${plainText(ctx.mask(String(item.name ?? ''))) || l10n.t('link')}](<${ctx.mask(String(item.uri ?? '')).replace(/[<>\s]/g, encodeURIComponent)}>)`,
        );
        break;
      default:
        assertNever(item);
    }
  }
  return blocks;
}

/**
 * The blocks of one entry (joined by blank lines by the caller); empty for entries that say nothing
 * to a reader (a plain end of turn, a sign-in card).
 */
export function entryBlocks(entry: Entry, ctx: EntryContext): string[] {
  switch (entry.kind) {
    case 'user': {
      const blocks = [prose(entry.text, ctx)];
      const labels = (Array.isArray(entry.mentions) ? entry.mentions : []).map((m) => inlineCode(ctx.mask(String(m.label ?? '')))).filter((l) => l !== '');
      if (labels.length > 0) blocks.push(l10n.t('*Context:* {0}', labels.join(', ')));
      // Said during the agent's turn, not as a turn of its own: a reader (or the next agent) should know.
      if (entry.steered === true) blocks.push(l10n.t('*(steered into the running turn)*'));
      return blocks.filter((b) => b !== '');
    }
    case 'agent': {
      const text = prose(entry.text, ctx);
      return text === '' ? [] : [text];
    }
    case 'thought': {
      const text = prose(entry.text, ctx);
      return text === '' ? [] : [quoted(`${l10n.t('*Thought:*')}\n\n${text}`)];
    }
    case 'plan': {
      const items = Array.isArray(entry.items) ? entry.items : [];
      return items.length === 0 ? [] : [`**${l10n.t('Plan')}**`, items.map(planItem).join('\n')];
    }
    case 'tool_call':
      return toolCall(entry, ctx);
    case 'error': {
      const blocks = [quoted(`**${l10n.t('Error:')}** ${plainText(ctx.mask(String(entry.message ?? '')))}`)];
      if (entry.detail) blocks.push(fenced(bounded(ctx.mask(entry.detail)), 'text'));
      return blocks;
    }
    case 'notice':
      return [quoted(`*${plainText(ctx.mask(String(entry.message ?? '')))}*`)];
    case 'auth':
      return [];
    case 'question':
      return [quoted(`**${l10n.t('Question:')}** ${plainText(ctx.mask(String(entry.message ?? '')))}`)];
    case 'compaction': {
      const summary = prose(entry.summary, ctx);
      return ['---', `*${l10n.t('Conversation compacted')}*`, ...(summary === '' ? [] : [summary])];
    }
    case 'turn_end':
      return entry.stopReason === 'end_turn' ? [] : [l10n.t('*Turn ended: {0}*', plainText(String(entry.stopReason ?? '')))];
    default:
      return assertNever(entry);
  }
}
