import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { updateUserSetting } from '../settings/settings';

/**
 * Asks the user whether the agent may touch a file outside the workspace folders. Modal, because the
 * agent is blocked until the answer and a toast could be missed; "Always" flips the setting so the
 * choice is visible and reversible in Settings.
 */
export async function askOutsideWorkspace(path: string, op: 'read' | 'write'): Promise<boolean> {
  const allowOnce = l10n.t('Allow Once');
  const alwaysAllow = l10n.t('Always Allow');
  const choice = await vscode.window.showWarningMessage(
    op === 'read'
      ? l10n.t('The agent wants to read a file outside the workspace:\n{0}', path)
      : l10n.t('The agent wants to write to a file outside the workspace:\n{0}', path),
    { modal: true, detail: l10n.t('Allow this once, or always allow access outside the workspace (tandem.allowFileAccessOutsideWorkspace).') },
    allowOnce,
    alwaysAllow,
  );
  if (choice === alwaysAllow) {
    await updateUserSetting('allowFileAccessOutsideWorkspace', true);
    return true;
  }
  return choice === allowOnce;
}
