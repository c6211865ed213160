/**
 * Subagents as child sessions (the ACP *subagents* RFD, declared by `clientCapabilities.subagents`).
 * The parent session announces each child with `subagent_update {sessionId, title, description,
 * capabilities.cancel, state}` and tells what passes between them with `session_message` (the
 * launch prompt, the answer); the child's own updates arrive under the child's session id.
 *
 * A child is shown as a card in the parent's thread (a ToolCallEntry with `subagent` and
 * `childSession`), and its own messages and tool calls nest under that card with `parentId`, as
 * the legacy `parentToolUseId` children do: the panel's nesting, the stored transcript and a
 * restore after a restart all work unchanged. This module parses the RFD's updates (untrusted
 * JSON) and keeps each child's state; the reducer applies what it returns.
 */
import * as l10n from '@vscode/l10n';
import type { ChildSessionView, ToolStatus } from '../protocol/messages';
import { describe, isRecord } from '../protocol/guards';
import { withoutModelText } from './presentation/toolOutput';
import { contentBlockToMarkdown, type Warn } from './updateParsing';

/** Most children one thread keeps track of (an agent that announces more gets a warning). */
export const MAX_CHILD_SESSIONS = 200;
/** Longest title, description or prompt kept of a child. */
const MAX_LABEL = 2_000;
const MAX_TEXT = 64_000;

/** The toolCallId of a child's card: no agent's own id looks like it. */
export function childCardId(childSessionId: string): string {
  return `subagent:${childSessionId}`;
}

interface Child {
  sessionId: string;
  title?: string;
  description?: string;
  prompt?: string;
  reply?: string;
  view: ChildSessionView;
}

/** The fields of a child's card, as `tool_call` fields the ToolCallBook merges, plus its view. */
export interface ChildCard {
  toolCallId: string;
  fields: Record<string, unknown>;
  /** Set after the merge: the parent's label for the child, not a title derived from a tool's input. */
  title: string;
  /** Set after the merge: the status has no ACP tool call value for `cancelled`. */
  status?: ToolStatus;
  view: ChildSessionView;
}

const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : undefined);

/** A nullable patch field: `undefined` leaves the value, `null` clears it. */
function patch<T>(value: unknown, read: (v: unknown) => T | undefined, current: T | undefined): T | undefined {
  if (value === undefined) return current;
  if (value === null) return undefined;
  return read(value) ?? current;
}

/** The work state of `subagent_update.state` as the card shows it. */
function stateOf(value: unknown, warn: Warn): Pick<ChildSessionView, 'state' | 'stopReason'> | undefined {
  if (!isRecord(value)) return undefined;
  const state = value.state;
  if (state === 'running' || state === 'requires_action' || state === 'unknown') return { state };
  if (state === 'idle') {
    const reason = text(value.stopReason, 100);
    return reason === undefined ? { state } : { state, stopReason: reason };
  }
  warn(`Ignored subagent state ${describe(state)}: not running, requires_action, idle or unknown.`);
  return undefined;
}

function statusOf(view: ChildSessionView): ToolStatus | undefined {
  switch (view.state) {
    case 'running':
    case 'requires_action':
      return 'in_progress';
    case 'idle':
      if (view.stopReason === 'cancelled') return 'cancelled';
      if (view.stopReason === 'error' || view.stopReason === 'refusal') return 'failed';
      return 'completed';
    case 'unknown':
      return undefined;
  }
}

export class ChildSessions {
  private readonly children = new Map<string, Child>();

  constructor(private readonly warn: Warn) {}

  /** True for a child announced in this thread. */
  has(sessionId: string): boolean {
    return this.children.has(sessionId);
  }

  /** `subagent_update` on the parent: the child's card, created or changed; undefined when unusable. */
  announce(update: Record<string, unknown>): ChildCard | undefined {
    const sessionId = text(update.sessionId, 500);
    if (sessionId === undefined) {
      this.warn(`Ignored a subagent_update without a child sessionId (got ${describe(update.sessionId)}).`);
      return undefined;
    }
    let child = this.children.get(sessionId);
    if (child === undefined) {
      if (this.children.size >= MAX_CHILD_SESSIONS) {
        this.warn(`Ignored subagent ${describe(sessionId)}: this thread already shows ${MAX_CHILD_SESSIONS} subagents.`);
        return undefined;
      }
      child = { sessionId, view: { sessionId, state: 'unknown', cancel: false } };
      this.children.set(sessionId, child);
    }
    child.title = patch(update.title, (v) => text(v, MAX_LABEL), child.title);
    child.description = patch(update.description, (v) => text(v, MAX_LABEL), child.description);
    if (update.capabilities !== undefined) {
      // `cancel: {}` (any object) grants Stop; omitted or null does not.
      const cancel = isRecord(update.capabilities) ? update.capabilities.cancel : undefined;
      child.view = { ...child.view, cancel: isRecord(cancel) };
    }
    if (update.state === null) child.view = { sessionId, state: 'unknown', cancel: child.view.cancel };
    else if (update.state !== undefined) {
      const state = stateOf(update.state, this.warn);
      if (state) child.view = { sessionId, cancel: child.view.cancel, ...state };
    }
    return this.card(child);
  }

  /**
   * `session_message` on the parent: the launch prompt it sent a child, or a child's answer. The
   * changed card, or undefined when the message is about no known child (then it is not shown).
   */
  message(update: Record<string, unknown>): ChildCard | undefined {
    const sender = text(update.senderSessionId, 500);
    const recipient = text(update.recipientSessionId, 500);
    const body = this.contentText(update.content);
    const toChild = recipient !== undefined ? this.children.get(recipient) : undefined;
    const fromChild = sender !== undefined ? this.children.get(sender) : undefined;
    if (toChild && body !== undefined) {
      toChild.prompt = body;
      return this.card(toChild);
    }
    if (fromChild && body !== undefined) {
      // A launch receipt for the model ("agentId: <child> … use SendMessage …") is no answer.
      if (body.includes(`agentId: ${fromChild.sessionId}`)) return undefined;
      fromChild.reply = withoutModelText(body);
      return this.card(fromChild);
    }
    if (!toChild && !fromChild) this.warn(`Ignored a session_message between ${describe(sender)} and ${describe(recipient)}: no subagent of this thread.`);
    return undefined;
  }

  /** A restored card's child: known again (its updates nest under it), idle, with nothing to stop. */
  restore(view: unknown): void {
    if (!isRecord(view) || typeof view.sessionId !== 'string' || this.children.size >= MAX_CHILD_SESSIONS) return;
    this.children.set(view.sessionId, { sessionId: view.sessionId, view: { sessionId: view.sessionId, state: 'unknown', cancel: false } });
  }

  clear(): void {
    this.children.clear();
  }

  private contentText(content: unknown): string | undefined {
    if (!Array.isArray(content)) return undefined;
    const parts = content.map((block) => contentBlockToMarkdown(block, this.warn)).filter((t): t is string => t !== undefined && t !== '');
    return parts.length > 0 ? parts.join('\n\n').slice(0, MAX_TEXT) : undefined;
  }

  private card(child: Child): ChildCard {
    const label = child.title ?? child.description;
    // Details shows what the parent said of the child (the RFD's names, not a tool's input).
    const rawInput: Record<string, string> = {};
    if (child.title !== undefined) rawInput.title = child.title;
    if (child.description !== undefined) rawInput.role = child.description;
    if (child.prompt !== undefined) rawInput.prompt = child.prompt;
    const fields: Record<string, unknown> = { kind: 'think', rawInput };
    if (child.reply !== undefined) fields.content = [{ type: 'content', content: { type: 'text', text: child.reply } }];
    return {
      toolCallId: childCardId(child.sessionId),
      fields,
      title: label === undefined ? l10n.t('Subagent') : l10n.t('Subagent: {0}', label),
      status: statusOf(child.view),
      view: { ...child.view },
    };
  }
}
