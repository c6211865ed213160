import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AgentSecrets } from './agentSecrets';
import type { ResolvedAgent } from './agentSettings';

/**
 * Asks the user for a value a sign-in method names (a password box that says where it is kept),
 * and stores it for the agent where it points now; false when they cancelled (or the agent is gone).
 */
export async function askAgentSecret(secrets: AgentSecrets, agent: ResolvedAgent | undefined, variable: { name: string; label?: string }): Promise<boolean> {
  if (!agent) return false;
  const name = agent.name;
  const label = variable.label ?? variable.name;
  const value = await vscode.window.showInputBox({
    title: l10n.t('Sign in to {0}', name),
    prompt: l10n.t('{0} for {1}. Kept in VS Code’s secret storage, never in settings or logs.', label, name),
    placeHolder: variable.name,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? l10n.t('Enter the {0}, or press Escape to cancel.', label) : undefined),
  });
  if (value === undefined || value.trim() === '') return false;
  await secrets.set(agent, variable.name, value.trim());
  return true;
}
