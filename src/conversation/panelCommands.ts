import type { WebviewMessage } from '../protocol/messages';
import { assertNever } from '../protocol/guards';
import type { ConversationManager } from './conversationManager';

/** Panel commands about conversations: the core serves them; the rest needs the editor. */
export type ConversationCommand = Extract<
  WebviewMessage,
  {
    type:
      | 'prompt'
      | 'cancel'
      | 'respondPermission'
      | 'newConversation'
      | 'selectConversation'
      | 'closeConversation'
      | 'restart'
      | 'retry'
      | 'startFresh'
      | 'signIn'
      | 'setMode'
      | 'queueEdit'
      | 'queueRemove'
      | 'queueMove'
      | 'queueSendNow'
      | 'queueResume'
      | 'queueClear'
      | 'saveRule'
      | 'dismissRule'
      | 'reviewKeep'
      | 'reviewUndo'
      | 'reviewHunks'
      | 'reviewHunk'
      | 'rewind'
      | 'setConfigOption'
      | 'authenticate'
      | 'answerQuestion'
      | 'openQuestionUrl';
  }
>;

const CONVERSATION_COMMANDS: ReadonlySet<string> = new Set<ConversationCommand['type']>([
  'prompt', 'cancel', 'respondPermission', 'newConversation', 'selectConversation', 'closeConversation', 'restart', 'retry',
  'startFresh', 'signIn', 'setMode', 'queueEdit', 'queueRemove', 'queueMove', 'queueSendNow', 'queueResume', 'queueClear',
  'saveRule', 'dismissRule', 'reviewKeep', 'reviewUndo', 'reviewHunks', 'reviewHunk', 'rewind',
  'setConfigOption', 'authenticate', 'answerQuestion', 'openQuestionUrl',
]);

export function isConversationCommand(message: WebviewMessage): message is ConversationCommand {
  return CONVERSATION_COMMANDS.has(message.type);
}

/**
 * Runs a panel command against the conversation it names (or the shown one). Unknown ids are
 * ignored: the conversation may have been closed while the click was in flight.
 */
export async function runConversationCommand(manager: ConversationManager, message: ConversationCommand, warn: (text: string) => void): Promise<void> {
  const conversation = 'conversationId' in message ? manager.get(message.conversationId) : manager.active;
  switch (message.type) {
    case 'prompt':
      conversation?.prompt(message.text, manager.chips(message.mentions ?? []));
      return;
    case 'cancel':
      conversation?.turns.cancel();
      return;
    case 'respondPermission':
      if (!conversation) warn(`Permission ${message.requestId}: its conversation is closed.`);
      else conversation.permissions.respond(message.requestId, message.optionId);
      return;
    case 'newConversation':
      manager.newConversation(manager.active?.agentName || undefined);
      return;
    case 'selectConversation':
      manager.show(message.conversationId);
      return;
    case 'closeConversation':
      await manager.close(message.conversationId);
      return;
    case 'restart':
      await manager.restart(conversation?.id);
      return;
    case 'retry':
      if (!conversation) return;
      conversation.queue.resume();
      if (conversation.status.kind === 'ready') conversation.turns.pump();
      else await conversation.link.connect();
      return;
    case 'startFresh':
      await conversation?.link.startFresh();
      return;
    case 'signIn':
      await conversation?.signInFirst();
      return;
    case 'setMode':
      await conversation?.settings.setMode(message.modeId);
      return;
    case 'queueEdit':
      conversation?.queue.edit(message.itemId, message.text);
      return;
    case 'queueRemove':
      conversation?.queue.remove(message.itemId);
      return;
    case 'queueMove':
      conversation?.queue.move(message.itemId, message.offset);
      return;
    case 'queueSendNow':
      conversation?.turns.sendNow(message.itemId);
      return;
    case 'queueResume':
      conversation?.queue.resume();
      conversation?.turns.pump();
      return;
    case 'queueClear':
      conversation?.queue.clear();
      return;
    case 'saveRule':
      await conversation?.permissions.saveRule(message.requestId, message.value, message.scope);
      return;
    case 'dismissRule':
      conversation?.permissions.dismissRule(message.requestId);
      return;
    case 'reviewKeep':
      await conversation?.review.keep(message.paths);
      return;
    case 'reviewUndo':
      await conversation?.review.undo(message.paths);
      return;
    case 'reviewHunks':
      await conversation?.review.toggleHunks(message.path, message.open);
      return;
    case 'reviewHunk':
      await conversation?.review.hunk(message.path, message.index, message.action);
      return;
    case 'setConfigOption':
      await conversation?.settings.setConfigOption(message.configId, message.value);
      return;
    case 'authenticate':
      await conversation?.signIn.authenticate(message.methodId);
      return;
    case 'answerQuestion':
      conversation?.questions.answer(message.entryId, message.action, message.content);
      return;
    case 'openQuestionUrl':
      conversation?.questions.openUrl(message.entryId);
      return;
    case 'rewind': {
      const entry = conversation?.thread.entries().find((e) => e.id === message.entryId);
      if (!conversation || entry?.kind !== 'user' || entry.checkpoint === undefined) {
        warn('Nothing was recorded before that turn, so its files cannot be restored.');
        return;
      }
      await conversation.review.rewind(entry.checkpoint, entry.text);
      return;
    }
    default:
      assertNever(message);
  }
}
