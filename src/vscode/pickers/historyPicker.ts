import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConversationManager } from '../../conversation/conversationManager';
import type { ConversationMeta } from '../../store/conversationMeta';
import { relativeTime } from '../../protocol/displayLanguage';
import { errorMessage } from '../../util/errors';
import type { ConversationSearch } from '../../store/conversationSearch';
import { searchAsYouType, type HitItem, type SearchTarget } from './searchPicker';
import { deleteFromHistory } from './historyDelete';

/** A session an agent knows (session/list) that Tandem has no record of. */
export interface AgentSessionItem {
  agentName: string;
  sessionId: string;
  title?: string;
  updatedAt?: number;
}

type Item = vscode.QuickPickItem & ({ kind?: undefined; meta: ConversationMeta } | { kind?: undefined; external: AgentSessionItem } | HitItem);

/** The text search the history offers below the titles, and how a found entry is opened. */
export interface HistorySearch {
  search: ConversationSearch;
  open(target: SearchTarget): Promise<void>;
}

/**
 * `Tandem: Show History` and the panel's History button: the workspace's conversations newest
 * first (filter by typing), plus sessions the agents know that were started elsewhere (their own
 * CLI); open, rename or delete (after a confirmation, the agent's own session too where it can:
 * historyDelete.ts) from the keyboard or the mouse; a rename names the agent's session too. What is typed
 * is also searched for in the text of every conversation: those matches follow the titles, and one
 * opens its conversation at the entry.
 */
export async function showHistory(manager: ConversationManager, listAgentSessions: () => Promise<AgentSessionItem[]>, search?: HistorySearch): Promise<void> {
  const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: l10n.t('Rename') };
  const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: l10n.t('Delete') };
  const pick = vscode.window.createQuickPick<Item>();
  pick.placeholder = l10n.t('Open a conversation (type to filter)');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let external: AgentSessionItem[] = [];
  let found: HitItem[] = [];
  const refresh = (): void => {
    const own: Item[] = manager.all().map(({ meta, open }) => ({
      label: meta.title,
      description: open ? l10n.t('{0} · {1} · open', meta.agentName, relativeTime(meta.updatedAt)) : `${meta.agentName} · ${relativeTime(meta.updatedAt)}`,
      // The branch of its worktree: which conversation's work is where; or, for a branch of an edited prompt, which conversation it went on from.
      detail: meta.worktree ? `$(git-branch) ${meta.worktree.branch}` : branchDetail(manager, meta),
      buttons: [RENAME, DELETE],
      meta,
    }));
    const known = new Set(manager.all().map(({ meta }) => `${meta.agentName}\u0000${meta.sessionId ?? ''}`));
    const theirs: Item[] = external
      .filter((s) => !known.has(`${s.agentName}\u0000${s.sessionId}`))
      .map((s) => ({
        label: s.title || l10n.t('Session {0}', s.sessionId.slice(0, 8)),
        description: `${s.agentName} · ${s.updatedAt ? relativeTime(s.updatedAt) : l10n.t('time unknown')}`,
        detail: l10n.t("Started outside Tandem ({0}'s own sessions)", s.agentName),
        external: s,
      }));
    pick.items = [
      ...own,
      ...(theirs.length > 0 ? [{ label: l10n.t('From the agents'), kind: vscode.QuickPickItemKind.Separator } as unknown as Item] : []),
      ...theirs,
      ...(found.length > 0 ? [{ label: l10n.t('Found in conversations'), kind: vscode.QuickPickItemKind.Separator } as unknown as Item] : []),
      ...found,
    ];
  };
  refresh();
  // Titles are filtered by the picker itself; the text search adds what was said in them.
  const typing = search
    ? searchAsYouType(
        pick as unknown as vscode.QuickPick<vscode.QuickPickItem>,
        search.search,
        manager,
        (items) => {
          found = items;
          refresh();
        },
        { skipTitles: true },
      )
    : undefined;
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
      const title = await vscode.window.showInputBox({
        prompt: l10n.t('Rename the conversation'),
        value: item.meta.title,
        validateInput: (v) => (v.trim() === '' ? l10n.t('A title cannot be empty') : undefined),
      });
      if (title !== undefined) manager.rename(item.meta.id, title);
      refresh();
      pick.show();
    } else if (button === DELETE) {
      await deleteFromHistory(manager, item.meta);
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
  typing?.dispose();
  pick.dispose();
  // The walkthrough's History step completes on this (not on the command): completing a step moves
  // the walkthrough's focus, which would close the picker it just opened.
  void vscode.commands.executeCommand('setContext', 'tandem.historySeen', true);
  if (!chosen) return;
  if ('meta' in chosen) await manager.reopen(chosen.meta.id);
  else if ('hit' in chosen) await search?.open(chosen.hit);
  else manager.openAgentSession(chosen.external.agentName, chosen.external.sessionId, chosen.external.title, chosen.external.updatedAt);
}

/** "Edited from …": a conversation that began as an edit of an earlier prompt of another one (src/conversation/branches.ts). */
function branchDetail(manager: ConversationManager, meta: ConversationMeta): string | undefined {
  const of = meta.branch?.of;
  if (of === undefined) return undefined;
  const parent = manager.all().find((c) => c.meta.id === of)?.meta;
  return parent ? `$(git-compare) ${l10n.t('Edited from “{0}”', parent.title)}` : `$(git-compare) ${l10n.t('Edited from an earlier conversation')}`;
}
