import * as vscode from 'vscode';
import type { ConversationManager } from '../session/conversationManager';
import type { ConversationMeta } from '../session/conversationMeta';
import { errorMessage } from '../util/errors';

/** A session an agent knows (session/list) that Tandem has no record of. */
export interface AgentSessionItem {
  agentName: string;
  sessionId: string;
  title?: string;
  updatedAt?: number;
}

type Item = vscode.QuickPickItem & ({ kind?: undefined; meta: ConversationMeta } | { kind?: undefined; external: AgentSessionItem });

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

/** "5 minutes ago", in the display language. */
export function relativeTime(then: number, now = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(vscode.env.language || 'en', { numeric: 'auto' });
  const seconds = Math.round((then - now) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [['second', 60], ['minute', 60], ['hour', 24], ['day', 7], ['week', 4.35], ['month', 12], ['year', Infinity]];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/**
 * `Tandem: Show History` and the panel's History button: the workspace's conversations newest
 * first (filter by typing), plus sessions the agents know that were started elsewhere (their own
 * CLI); open, rename or delete (after a confirmation) from the keyboard or the mouse.
 */
export async function showHistory(manager: ConversationManager, listAgentSessions: () => Promise<AgentSessionItem[]>): Promise<void> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.placeholder = 'Open a conversation (type to filter)';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let external: AgentSessionItem[] = [];
  const refresh = (): void => {
    const own: Item[] = manager.all().map(({ meta, open }) => ({
      label: meta.title,
      description: `${meta.agentName} · ${relativeTime(meta.updatedAt)}${open ? ' · open' : ''}`,
      buttons: [RENAME, DELETE],
      meta,
    }));
    const known = new Set(manager.all().map(({ meta }) => `${meta.agentName}\u0000${meta.sessionId ?? ''}`));
    const theirs: Item[] = external
      .filter((s) => !known.has(`${s.agentName}\u0000${s.sessionId}`))
      .map((s) => ({
        label: s.title || `Session ${s.sessionId.slice(0, 8)}`,
        description: `${s.agentName} · ${s.updatedAt ? relativeTime(s.updatedAt) : 'time unknown'}`,
        detail: `Started outside Tandem (${s.agentName}'s own sessions)`,
        external: s,
      }));
    pick.items = [...own, ...(theirs.length > 0 ? [{ label: 'From the agents', kind: vscode.QuickPickItemKind.Separator } as unknown as Item] : []), ...theirs];
  };
  refresh();
  pick.busy = true;
  listAgentSessions()
    .then((sessions) => {
      external = sessions;
      refresh();
    })
    .catch((err) => console.warn('Tandem: session/list failed', errorMessage(err)))
    .finally(() => (pick.busy = false));

  // Rename and delete open their own dialogs, which hide the pick for a moment: that is not a cancel.
  let inDialog = false;
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    if (!('meta' in item)) return;
    inDialog = true;
    if (button === RENAME) {
      const title = await vscode.window.showInputBox({ prompt: 'Rename the conversation', value: item.meta.title, validateInput: (v) => (v.trim() === '' ? 'A title cannot be empty' : undefined) });
      if (title !== undefined) manager.rename(item.meta.id, title);
      refresh();
      pick.show();
    } else if (button === DELETE) {
      const answer = await vscode.window.showWarningMessage(`Delete the conversation "${item.meta.title}"? Its transcript is removed from this workspace; this cannot be undone.`, { modal: true }, 'Delete');
      if (answer === 'Delete') await manager.delete(item.meta.id);
      refresh();
      pick.show();
    }
    inDialog = false;
  });
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => {
      if (!inDialog) resolve(undefined);
    });
    pick.show();
  });
  pick.dispose();
  if (!chosen) return;
  if ('meta' in chosen) await manager.reopen(chosen.meta.id);
  else manager.openAgentSession(chosen.external.agentName, chosen.external.sessionId, chosen.external.title, chosen.external.updatedAt);
}
