import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AgentEntry } from '../../agents/installPlan';
import type { AgentServerConfig } from './agentServerConfig';
import { updateUserSetting, userSetting } from '../settings/settings';

// The entries `Tandem: Install Agent…` keeps in the user's tandem.agents: named without clobbering
// a hand-written one, written and removed in the user's settings only.

/** The agent's name, unless a hand-written entry already has it: then replace it or keep both. */
export async function chooseSettingsName(name: string): Promise<string | undefined> {
  const existing = userAgents();
  if (!Object.hasOwn(existing, name)) return name;
  const replace = l10n.t('Replace');
  const both = l10n.t('Keep Both');
  const answer = await vscode.window.showWarningMessage(
    l10n.t('tandem.agents already has an agent named "{0}".', name),
    { modal: true, detail: l10n.t('Replace it with the registry version, or add the registry version under another name?') },
    replace,
    both,
  );
  if (answer === replace) return name;
  if (answer !== both) return undefined;
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? `${name} (registry)` : `${name} (registry ${i})`;
    if (!Object.hasOwn(existing, candidate)) return candidate;
  }
}

/** The user-level value only: a workspace's agents must never be copied into user settings. */
export function userAgents(): Record<string, AgentServerConfig> {
  const value = userSetting('agents') as Record<string, AgentServerConfig> | undefined;
  return value && typeof value === 'object' ? { ...value } : {};
}

export async function writeEntry(name: string, entry: AgentEntry): Promise<void> {
  const agents = userAgents();
  agents[name] =
    Object.keys(entry.env).length > 0 ? { command: entry.command, args: entry.args, env: entry.env } : { command: entry.command, args: entry.args };
  await updateUserSetting('agents', agents);
}

export async function removeEntry(name: string): Promise<void> {
  const agents = userAgents();
  delete agents[name];
  await updateUserSetting('agents', agents);
  if (userSetting('defaultAgent') === name) await updateUserSetting('defaultAgent', undefined);
}
