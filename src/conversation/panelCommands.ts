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
 * One handler per core command, each one intent of the conversation (what a click means is
 * sequenced there, not here); the mapped type makes a command declared `by: 'core'` without a
 * handler here a compile error. Unknown conversation ids find nothing and do nothing: the
 * conversation may have been closed while the click was in flight.
 */
const HANDLERS: { [K in ServedBy<'core'>]: Handler<K> } = {
  prompt: (m, { manager, conversation }) => conversation?.prompt(m.text, manager.chips(m.mentions ?? [])),
  cancel: (_m, { conversation }) => conversation?.stop(),
  stopSubagent: (m, { conversation }) => conversation?.stopSubagent(m.sessionId),
  respondPermission: (m, { conversation, warn }) => {
    if (!conversation) warn(`Permission ${m.requestId}: its conversation is closed.`);
    else conversation.respondPermission(m.requestId, m.optionId);
  },
  selectConversation: (m, { manager }) => manager.show(m.conversationId),
  closeConversation: (m, { manager }) => manager.close(m.conversationId),
  restart: (_m, { manager, conversation }) => manager.restart(conversation?.id),
  retry: (_m, { conversation }) => conversation?.retry(),
  startFresh: (_m, { conversation }) => conversation?.startFresh(),
  signIn: (_m, { conversation }) => conversation?.signIn(),
  setMode: (m, { conversation }) => conversation?.setMode(m.modeId),
  queueEdit: (m, { conversation }) => conversation?.editQueued(m.itemId, m.text),
  queueRemove: (m, { conversation }) => conversation?.removeQueued(m.itemId),
  queueMove: (m, { conversation }) => conversation?.moveQueued(m.itemId, m.offset),
  queueSendNow: (m, { conversation }) => conversation?.sendNow(m.itemId),
  queueResume: (_m, { conversation }) => conversation?.resumeQueue(),
  queueClear: (_m, { conversation }) => conversation?.clearQueue(),
  saveRule: (m, { conversation }) => conversation?.saveRule(m.requestId, m.value, m.scope),
  dismissRule: (m, { conversation }) => conversation?.dismissRule(m.requestId),
  reviewKeep: (m, { conversation }) => conversation?.keep(m.paths),
  reviewUndo: (m, { conversation }) => conversation?.undo(m.paths),
  reviewHunks: (m, { conversation }) => conversation?.toggleHunks(m.path, m.open),
  reviewHunk: (m, { conversation }) => conversation?.reviewHunk(m.path, m.index, m.action),
  reviewNoteAdd: async (m, { conversation }) => {
    await conversation?.addNote({ path: m.path, startLine: m.startLine, endLine: m.endLine, text: m.text, hunk: m.hunk });
  },
  reviewNoteRemove: (m, { conversation }) => conversation?.removeNote(m.noteId),
  reviewNotesClear: (_m, { conversation }) => conversation?.clearNotes(),
  worktreeApply: (_m, { conversation }) => conversation?.applyWorktree(),
  worktreeCommit: (_m, { conversation }) => conversation?.commitWorktree(),
  worktreeDiscard: (_m, { conversation }) => conversation?.discardWorktree(),
  worktreeRecreate: (_m, { conversation }) => conversation?.recreateWorktree(),
  rewind: async (m, { conversation, warn }) => {
    if (!(await conversation?.rewind(m.entryId))) warn('Nothing was recorded before that turn, so its files cannot be restored.');
  },
  retryTurn: async (m, { conversation, warn }) => {
    if (conversation && !(await conversation.retryTurn(m.entryId))) warn('That turn cannot be retried: its prompt is no longer kept, or a turn is running.');
  },
  editPrompt: async (m, { conversation, warn }) => {
    const outcome = await conversation?.editPrompt(m.entryId, m.text);
    if (outcome === 'unknown' || outcome === 'empty') warn(`Edit of ${m.entryId} ignored: it is not a prompt of this conversation, or the text is empty.`);
  },
  switchBranch: async (m, { conversation, warn }) => {
    if (!(await conversation?.switchBranch(m.entryId, m.offset))) warn(`No other branch of ${m.entryId} that way, or the conversation is busy.`);
  },
  setConfigOption: (m, { conversation }) => conversation?.setConfigOption(m.configId, m.value),
  authenticate: (m, { conversation }) => conversation?.authenticate(m.methodId),
  answerQuestion: (m, { conversation }) => conversation?.answerQuestion(m.entryId, m.action, m.content),
  openQuestionUrl: (m, { conversation }) => conversation?.openQuestionUrl(m.entryId),
  fetchDiffLines: (m, { conversation, reply }) =>
    reply(
      conversation
        ? conversation.diffLines(m)
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
