/**
 * Deleting a conversation from History, and with it the agent's own session when the agent keeps
 * one it can delete (`session/delete`): asked once in the confirmation — "Delete the agent's session
 * too" / "Only here", each also offered as "don't ask again", which writes `tandem.deleteAgentSessions`
 * (changeable in Settings). An agent that cannot delete (or the setting says never) gets the usual
 * confirmation only.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConversationManager } from '../../conversation/conversationManager';
import type { ConversationMeta } from '../../store/conversationMeta';
import { setting, updateUserSetting } from '../settings/settings';

export async function deleteFromHistory(manager: ConversationManager, meta: ConversationMeta): Promise<void> {
  const choice = setting('deleteAgentSessions') ?? 'ask';
  const question = l10n.t('Delete the conversation "{0}"? Its transcript is removed from this workspace; this cannot be undone.', meta.title);
  const agentCan = choice !== 'never' && (await manager.canDeleteAgentSession(meta.id));
  if (!agentCan || choice === 'always') {
    const remove = l10n.t('Delete');
    const detail = agentCan ? l10n.t("{0}'s own session is deleted too (setting: tandem.deleteAgentSessions).", meta.agentName) : undefined;
    const answer = await vscode.window.showWarningMessage(question, { modal: true, ...(detail ? { detail } : {}) }, remove);
    if (answer === remove) await manager.delete(meta.id, { agentSession: agentCan });
    return;
  }
  const both = l10n.t("Delete the agent's session too");
  const here = l10n.t('Only here');
  const bothAlways = l10n.t("Always delete the agent's session (don't ask again)");
  const hereAlways = l10n.t("Always only here (don't ask again)");
  const answer = await vscode.window.showWarningMessage(
    question,
    { modal: true, detail: l10n.t('{0} keeps its own copy of this session, which it can delete too.', meta.agentName) },
    both,
    here,
    bothAlways,
    hereAlways,
  );
  if (answer === undefined) return;
  if (answer === bothAlways || answer === hereAlways) await updateUserSetting('deleteAgentSessions', answer === bothAlways ? 'always' : 'never');
  await manager.delete(meta.id, { agentSession: answer === both || answer === bothAlways });
}
