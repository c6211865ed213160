import type { Entry } from '../protocol/messages';

/**
 * Where `session/fork` must cut the agent's history so that an edited prompt takes the place of
 * the user entry `userEntryId`: the agent's id of its last message before that prompt, in the turn
 * just before it. Both adapters name a message the AGENT sent (ACP message ids are the agent's own
 * since the message-id RFD dropped client ids, agentclientprotocol#1344) and keep it in the fork:
 * claude-agent-acp copies the transcript up to and including that assistant message (`forkSession`
 * `upToMessageId`), codex-acp keeps the whole turn that holds it (`threadFork` `lastTurnId`). So the
 * id must be of the previous turn's reply, and nothing after it may be kept.
 *
 * Undefined when there is none to cut at: the first prompt (nothing before it), or a previous turn
 * whose reply carried no message id (an agent that sends none, a turn that failed before replying) —
 * the branch then starts a new session from the transcript instead.
 */
export function forkPointBefore(entries: readonly Entry[], userEntryId: string): string | undefined {
  const index = entries.findIndex((e) => e.id === userEntryId);
  if (index < 0 || entries[index]?.kind !== 'user') return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const entry = entries[i]!;
    // A user entry before any reply: the previous turn said nothing to fork after.
    if (entry.kind === 'user') return undefined;
    // A subagent's text (under a card) is not the main agent's message.
    if (entry.kind === 'agent' && entry.parentId === undefined && typeof entry.messageId === 'string' && entry.messageId !== '') return entry.messageId;
  }
  return undefined;
}

/** `session/fork`'s `_meta` naming the message to cut after (the JetBrains AIR extension both adapters read, version 1). */
export function forkMeta(messageId: string): Record<string, unknown> {
  return { jetbrains: { air: { fork: { version: 1, messageId } } } };
}

/** The entries a branch copies: everything before the edited prompt, without a subagent's entries whose card is not among them. */
export function entriesBefore(entries: readonly Entry[], userEntryId: string): Entry[] {
  const index = entries.findIndex((e) => e.id === userEntryId);
  if (index < 0) return [];
  const kept = entries.slice(0, index);
  const ids = new Set(kept.map((e) => e.id));
  return kept.filter((e) => !('parentId' in e) || e.parentId === undefined || ids.has(e.parentId));
}
