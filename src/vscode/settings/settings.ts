import * as vscode from 'vscode';
import type { TandemSettings } from './contributions';

/**
 * The one way Tandem reads and writes its `tandem.*` settings: keys and value types come from
 * package.json (src/vscode/settings/contributions.ts, generated), so a key that is not declared, or a value
 * of the wrong type, fails to compile. Values are still user-edited JSON: callers of object
 * settings read them defensively.
 */
export type SettingKey = keyof TandemSettings;

/** The effective value (user, workspace, folder, default), or undefined when VS Code has none. */
export function setting<K extends SettingKey>(key: K): TandemSettings[K] | undefined {
  return vscode.workspace.getConfiguration('tandem').get<TandemSettings[K]>(key);
}

/** The value in the user's (global) settings only. */
export function userSetting<K extends SettingKey>(key: K): TandemSettings[K] | undefined {
  return vscode.workspace.getConfiguration('tandem').inspect<TandemSettings[K]>(key)?.globalValue;
}

/** The values a workspace gives (its own settings and its folders'), which win over the user's. */
export function workspaceSettings<K extends SettingKey>(key: K): Array<TandemSettings[K]> {
  const inspected = vscode.workspace.getConfiguration('tandem').inspect<TandemSettings[K]>(key);
  return [inspected?.workspaceValue, inspected?.workspaceFolderValue].filter((v): v is TandemSettings[K] => v !== undefined);
}

/** Writes the user's (global) setting. */
export async function updateUserSetting<K extends SettingKey>(key: K, value: TandemSettings[K] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('tandem').update(key, value, vscode.ConfigurationTarget.Global);
}

/** True when a configuration change touches any of `keys`. */
export function affects(event: vscode.ConfigurationChangeEvent, ...keys: SettingKey[]): boolean {
  return keys.some((key) => event.affectsConfiguration(`tandem.${key}`));
}

/** Where a setting's value is written: the user's settings, or the workspace's (`.vscode/settings.json`, a `.code-workspace`). */
export type SettingScope = 'user' | 'workspace';

/** The value in one scope only (user: global; workspace: the workspace's own, not its folders'). */
export function scopedSetting<K extends SettingKey>(key: K, scope: SettingScope): TandemSettings[K] | undefined {
  const inspected = vscode.workspace.getConfiguration('tandem').inspect<TandemSettings[K]>(key);
  return scope === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
}

/** Writes the setting in one scope (a rewrite of what that scope says, as `scopedSetting` read it). */
export async function updateScopedSetting<K extends SettingKey>(key: K, value: TandemSettings[K] | undefined, scope: SettingScope): Promise<void> {
  const target = scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  await vscode.workspace.getConfiguration('tandem').update(key, value, target);
}
