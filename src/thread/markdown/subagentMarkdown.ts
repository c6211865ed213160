/**
 * One subagent's history as its own Markdown document (the child card's **Open**): the card's
 * title, the task the parent gave it, and the entries nested under the card (the child session's
 * messages and tool calls, and a nested subagent's, at any depth), in thread order. Pure: it picks
 * from what the store keeps of the conversation; conversationMarkdown formats it.
 */
import * as l10n from '@vscode/l10n';
import type { ChildSessionView, Entry, ToolCallEntry } from '../../protocol/messages';
import type { MarkdownSource } from './conversationMarkdown';

const parentOf = (entry: Entry): string | undefined => {
  const id = (entry as { parentId?: unknown }).parentId;
  return typeof id === 'string' ? id : undefined;
};

/** The task in the card's Details (`rawInput.prompt`, as childSessions.ts writes it), if any. */
function taskOf(card: ToolCallEntry): string | undefined {
  if (card.rawInput === undefined) return undefined;
  try {
    const input = JSON.parse(card.rawInput) as { prompt?: unknown };
    return typeof input.prompt === 'string' ? input.prompt : undefined;
  } catch {
    return undefined;
  }
}

/** Where a child session's work stands, for its document's facts. */
export function childStateText(child: ChildSessionView): string {
  switch (child.state) {
    case 'running':
      return l10n.t('Running');
    case 'requires_action':
      return l10n.t('Waiting for you');
    case 'idle':
      if (child.stopReason === 'cancelled') return l10n.t('Stopped (cancelled)');
      if (child.stopReason === 'end_turn') return l10n.t('Finished (end_turn)');
      return child.stopReason !== undefined ? l10n.t('Ended ({0})', child.stopReason) : l10n.t('Idle');
    case 'unknown':
      return l10n.t('Unknown');
    default: {
      const never: never = child.state;
      return String(never);
    }
  }
}

/** The card's Stop is offered: the child works and the agent lets the client cancel it (as turnRunner.cancelChild checks). */
export function childStoppable(child: ChildSessionView | undefined): boolean {
  return child !== undefined && child.cancel && (child.state === 'running' || child.state === 'requires_action');
}

/** The source of the subagent card `cardId`'s document, or undefined when it is no subagent card. */
export function subagentSource(source: MarkdownSource, cardId: string): MarkdownSource | undefined {
  const card = source.entries.find((e): e is ToolCallEntry => e.id === cardId && e.kind === 'tool_call');
  if (!card || (card.subagent !== true && card.childSession === undefined)) return undefined;
  // A child is linked only to a card it knew, so it comes after its parent: one pass finds every depth.
  const inside = new Set([cardId]);
  const entries: Entry[] = [];
  for (const entry of source.entries) {
    const parent = parentOf(entry);
    if (parent !== undefined && inside.has(parent)) {
      inside.add(entry.id);
      entries.push(entry);
    }
  }
  const task = taskOf(card);
  const state = card.childSession !== undefined ? childStateText(card.childSession) : undefined;
  return {
    ...source,
    title: card.title,
    entries,
    changedFiles: undefined,
    ...(task !== undefined ? { task } : {}),
    ...(state !== undefined ? { state } : {}),
  };
}
