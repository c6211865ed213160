import * as l10n from '@vscode/l10n';
import { servedBy, type HostMessage, type ServedBy, type WebviewMessage, type WebviewMessageOf } from '../protocol/messages';
import type { Conversation } from './conversation';
import type { ConversationManager } from './conversationManager';

/** Panel commands the vscode-free core serves (`by: 'core'` in src/protocol/webviewMessages.ts). */
export type CoreCommand = Extract<WebviewMessage, { type: ServedBy<'core'> }>;

/** What a handler gets besides its message: the conversation it names (or the shown one), and ways to answer. */
interface Context {
  manager: ConversationManager;
  conversation: Conversation | undefined;
  warn(text: string): void;
  /** Posts an answer to the panel (for requests such as `fetchDiffLines`). */
  reply(message: HostMessage): void;
}

type Handler<K extends ServedBy<'core'>> = (message: WebviewMessageOf<K>, ctx: Context) => unknown;

/**
 * One handler per core command; the mapped type makes a command declared `by: 'core'` without a
 * handler here a compile error. Unknown conversation ids find nothing and do nothing: the
 * conversation may have been closed while the click was in flight.
 */
const HANDLERS: { [K in ServedBy<'core'>]: Handler<K> } = {
  prompt: (m, { manager, conversation }) => conversation?.prompt(m.text, manager.chips(m.mentions ?? [])),
  cancel: (_m, { conversation }) => conversation?.turns.cancel(),
  stopSubagent: (m, { conversation }) => conversation?.turns.cancelChild(m.sessionId),
  respondPermission: (m, { conversation, warn }) => {
    if (!conversation) warn(`Permission ${m.requestId}: its conversation is closed.`);
    else conversation.permissions.respond(m.requestId, m.optionId);
  },
  selectConversation: (m, { manager }) => manager.show(m.conversationId),
  closeConversation: (m, { manager }) => manager.close(m.conversationId),
  restart: (_m, { manager, conversation }) => manager.restart(conversation?.id),
  retry: async (_m, { conversation }) => {
    if (!conversation) return;
    conversation.queue.resume();
    if (conversation.status.kind === 'ready') conversation.turns.pump();
    else await conversation.link.connect();
  },
  startFresh: (_m, { conversation }) => conversation?.link.startFresh(),
  signIn: (_m, { conversation }) => conversation?.signInFirst(),
  setMode: (m, { conversation }) => conversation?.settings.setMode(m.modeId),
  queueEdit: (m, { conversation }) => conversation?.queue.edit(m.itemId, m.text),
  queueRemove: (m, { conversation }) => conversation?.queue.remove(m.itemId),
  queueMove: (m, { conversation }) => conversation?.queue.move(m.itemId, m.offset),
  queueSendNow: (m, { conversation }) => conversation?.turns.sendNow(m.itemId),
  queueResume: (_m, { conversation }) => {
    conversation?.queue.resume();
    conversation?.turns.pump();
  },
  queueClear: (_m, { conversation }) => conversation?.queue.clear(),
  saveRule: (m, { conversation }) => conversation?.permissions.saveRule(m.requestId, m.value, m.scope),
  dismissRule: (m, { conversation }) => conversation?.permissions.dismissRule(m.requestId),
  reviewKeep: (m, { conversation }) => conversation?.review.keep(m.paths),
  reviewUndo: (m, { conversation }) => conversation?.review.undo(m.paths),
  reviewHunks: (m, { conversation }) => conversation?.review.toggleHunks(m.path, m.open),
  reviewHunk: (m, { conversation }) => conversation?.review.hunk(m.path, m.index, m.action),
  reviewNoteAdd: async (m, { conversation }) => {
    await conversation?.notes.add({ path: m.path, startLine: m.startLine, endLine: m.endLine, text: m.text, hunk: m.hunk });
  },
  reviewNoteRemove: (m, { conversation }) => conversation?.notes.remove(m.noteId),
  reviewNotesClear: (_m, { conversation }) => conversation?.notes.clearPending(),
  worktreeApply: (_m, { conversation }) => conversation?.worktree?.apply(),
  worktreeCommit: (_m, { conversation }) => conversation?.worktree?.commit(),
  worktreeDiscard: (_m, { conversation }) => conversation?.worktree?.discard(),
  worktreeRecreate: (_m, { conversation }) => conversation?.worktree?.recreate(),
  rewind: async (m, { conversation, warn }) => {
    const entry = conversation?.thread.entries().find((e) => e.id === m.entryId);
    if (!conversation || entry?.kind !== 'user' || entry.checkpoint === undefined) {
      warn('Nothing was recorded before that turn, so its files cannot be restored.');
      return;
    }
    await conversation.review.rewind(entry.checkpoint, entry.text);
  },
  setConfigOption: (m, { conversation }) => conversation?.settings.setConfigOption(m.configId, m.value),
  authenticate: (m, { conversation }) => conversation?.signIn.authenticate(m.methodId),
  answerQuestion: (m, { conversation }) => conversation?.questions.answer(m.entryId, m.action, m.content),
  openQuestionUrl: (m, { conversation }) => conversation?.questions.openUrl(m.entryId),
  fetchDiffLines: (m, { conversation, reply }) =>
    reply(
      conversation
        ? conversation.thread.diffLines(m)
        : { type: 'diffLines', requestId: m.requestId, lines: [], oldLine: 0, newLine: 0, error: l10n.t('Its conversation is closed.') },
    ),
};

export function isCoreCommand(message: WebviewMessage): message is CoreCommand {
  return servedBy(message.type) === 'core';
}

/** Runs a core command against the conversation it names (or the shown one). */
export async function runCoreCommand(manager: ConversationManager, message: CoreCommand, tools: Pick<Context, 'warn' | 'reply'>): Promise<void> {
  const conversation = 'conversationId' in message ? manager.get(message.conversationId) : manager.active;
  const handler = HANDLERS[message.type] as Handler<CoreCommand['type']>;
  await handler(message as WebviewMessageOf<CoreCommand['type']>, { manager, conversation, ...tools });
}
