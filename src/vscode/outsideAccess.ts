import * as vscode from 'vscode';

/**
 * Asks the user whether the agent may touch a file outside the workspace folders. Modal, because the
 * agent is blocked until the answer and a toast could be missed; "Always" flips the setting so the
 * choice is visible and reversible in Settings.
 */
export async function askOutsideWorkspace(path: string, op: 'read' | 'write'): Promise<boolean> {
  const verb = op === 'read' ? 'read' : 'write to';
  const choice = await vscode.window.showWarningMessage(
    `The agent wants to ${verb} a file outside the workspace:\n${path}`,
    { modal: true, detail: 'Allow this once, or always allow access outside the workspace (tandem.allowFileAccessOutsideWorkspace).' },
    'Allow Once',
    'Always Allow',
  );
  if (choice === 'Always Allow') {
    await vscode.workspace.getConfiguration('tandem').update('allowFileAccessOutsideWorkspace', true, vscode.ConfigurationTarget.Global);
    return true;
  }
  return choice === 'Allow Once';
}
