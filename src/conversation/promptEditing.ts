import * as l10n from '@vscode/l10n';
import type { Entry, TerminalView } from '../protocol/messages';
import type { ReviewState } from '../store/conversationFormat';
import type { BranchLink } from '../store/conversationMeta';
import { conversationMarkdown } from '../thread/markdown/conversationMarkdown';
import type { BranchPlan } from './branchStart';
import type { ConversationParts } from './conversationParts';
import { entriesBefore, forkPointBefore } from './forkPoint';
import type { ConversationPorts, ConversationState } from './ports';

/** Everything a branch starts with (the manager makes the conversation: conversationManager.openBranch). */
export interface BranchSpec {
  link: BranchLink;
  /** The entries before the edited prompt, copied with their ids. */
  entries: Entry[];
  terminals: Record<string, TerminalView>;
  /** The review as it was (its baseline and claims): the strip goes on counting from there. */
  review: ReviewState;
  /** The edited prompt. */
  text: string;
  plan: BranchPlan;
  /** The files could not be restored (their checkpoint is gone): said in the branch. */
  restoreFailed: boolean;
}

/** What the manager does for a conversation's branches (ConversationPorts.branches). */
export interface BranchPorts {
  /** Opens the branch in the tab of conversation `from`, which goes to History (kept, with its session). */
  open(from: string, spec: BranchSpec): Promise<void>;
  /** Shows the version `offset` places away of prompt `entryId` of conversation `from` in its tab; false: there is none. */
  switchTo(from: string, entryId: string, offset: number): Promise<boolean>;
}

export type EditOutcome = 'branched' | 'declined' | 'busy' | 'unknown' | 'empty' | 'unavailable';

/**
 * Sends an earlier prompt again, edited. The files go back to how they were before its turn (the
 * review's rewind: previewed, one undoable step — a No stops the edit), then a branch goes on from
 * there: a fork of the agent's session after its reply to the turn before (forkPoint.ts), or, where
 * the agent cannot fork or there is no reply to cut after, a new session that gets the transcript
 * before the prompt. The conversation left behind is kept as the other branch.
 */
export async function editPrompt(
  c: Pick<ConversationState, 'id' | 'agentName' | 'status' | 'meta'>,
  parts: Pick<ConversationParts, 'thread' | 'turns' | 'review' | 'link'>,
  ports: Pick<ConversationPorts, 'branches'>,
  entryId: string,
  text: string,
): Promise<EditOutcome> {
  const { thread, turns, review, link } = parts;
  const entries = thread.entries();
  const entry = entries.find((e) => e.id === entryId);
  if (entry?.kind !== 'user') return 'unknown';
  if (text.trim() === '') return 'empty';
  if (!ports.branches || c.meta.worktree !== undefined) {
    // A worktree belongs to one conversation: a second one working in it would not be counted by its review or Apply.
    thread.addNotice('info', l10n.t('An earlier prompt cannot be edited in a conversation that works in its own worktree yet.'));
    return 'unavailable';
  }
  const kind = c.status.kind;
  if (turns.busy || kind === 'running' || kind === 'cancelling' || kind === 'starting') {
    thread.addNotice('info', l10n.t('Stop the running turn before editing an earlier prompt.'));
    return 'busy';
  }
  let restoreFailed = false;
  if (entry.checkpoint !== undefined) {
    const outcome = await review.rewind(entry.checkpoint, entry.text);
    if (outcome === 'declined') return 'declined';
    restoreFailed = outcome === 'failed';
  }
  const before = entriesBefore(entries, entryId);
  const terminals = thread.terminals();
  const messageId = forkPointBefore(entries, entryId);
  const sessionId = link.sessionId ?? c.meta.sessionId;
  const spoken = before.some((e) => e.kind === 'user' || e.kind === 'agent');
  const transcript = spoken
    ? conversationMarkdown(
        { title: c.meta.title, agentName: c.agentName, createdAt: c.meta.createdAt, entries: before, terminals, cwd: c.meta.cwd },
        { secrets: [] },
      ).text
    : '';
  const plan: BranchPlan = { transcript, ...(messageId !== undefined && sessionId !== undefined ? { fork: { sessionId, messageId } } : {}) };
  const shared = before.filter((e) => e.kind === 'user').map((e) => e.id);
  await ports.branches.open(c.id, { link: { of: c.id, at: entryId, shared }, entries: before, terminals, review: review.state(), text, plan, restoreFailed });
  return 'branched';
}
