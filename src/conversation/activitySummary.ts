/**
 * What the status bar item `tandem.activity` says of the open conversations (src/vscode/host/activityStatus.ts):
 * how many work and how many wait for the user, from their tabs. Waiting is the tab's permission
 * badge, which a prompt or question in Tandem and the agent's own "waiting on approval" both set.
 */
import * as l10n from '@vscode/l10n';
import type { TabView } from '../protocol/messages';

export function isWorking(tab: TabView): boolean {
  return tab.status === 'running' || tab.status === 'cancelling' || tab.activity === 'working';
}

export function isWaiting(tab: TabView): boolean {
  return tab.attention === 'permission';
}

/** The item's text and tooltip for `tabs`; undefined when nothing works or waits. */
export function activityText(tabs: readonly TabView[]): { text: string; tooltip: string; waiting: boolean } | undefined {
  const waiting = tabs.filter(isWaiting);
  const working = tabs.filter((t) => isWorking(t) && !isWaiting(t));
  if (waiting.length === 0 && working.length === 0) return undefined;
  const parts: string[] = [];
  if (working.length > 0) parts.push(`$(loading~spin) ${l10n.t('{0} working', working.length)}`);
  if (waiting.length > 0) parts.push(`$(bell-dot) ${l10n.t('{0} waiting for you', waiting.length)}`);
  const lines = [
    ...waiting.map((t) => l10n.t('{0} waits for you in "{1}"', t.agentName, t.title)),
    ...working.map((t) => l10n.t('{0} is working in "{1}"', t.agentName, t.title)),
  ];
  return { text: parts.join('  '), tooltip: lines.join('\n'), waiting: waiting.length > 0 };
}
