import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ConversationManager } from '../../conversation/conversationManager';
import type { ConversationSearch } from '../../store/conversationSearch';
import type { SearchHit } from '../../store/searchIndex';
import type { SearchField } from '../../store/searchText';
import type { ConversationMeta } from '../../store/conversationMeta';
import { relativeTime } from '../../protocol/displayLanguage';
import { errorMessage } from '../../util/errors';

/** Where a chosen hit leads: its conversation, and the entry to reveal ('' for the title). */
export interface SearchTarget {
  conversationId: string;
  entryId: string;
  /** The phrase searched for (the panel marks it in the entry). */
  query: string;
}

export type HitItem = vscode.QuickPickItem & { hit: SearchTarget };

/** Pause after a keystroke before searching: a search is cheap, re-rendering the list per key is not. */
const TYPING_PAUSE_MS = 120;

const ICONS: Record<SearchField, string> = {
  title: 'symbol-text',
  prompt: 'account',
  reply: 'comment',
  thought: 'lightbulb',
  plan: 'checklist',
  tool: 'tools',
  summary: 'fold',
};

function fieldName(field: SearchField): string {
  switch (field) {
    case 'title':
      return l10n.t('Title');
    case 'prompt':
      return l10n.t('Prompt');
    case 'reply':
      return l10n.t('Reply');
    case 'thought':
      return l10n.t('Thought');
    case 'plan':
      return l10n.t('Plan');
    case 'tool':
      return l10n.t('Tool call');
    case 'summary':
      return l10n.t('Summary');
    default: {
      const unknownField: never = field;
      return unknownField;
    }
  }
}

/** The conversations to search, newest first, with their current titles. */
export function searchedConversations(manager: ConversationManager): Array<{ id: string; title: string; meta: ConversationMeta }> {
  return manager.all().map(({ meta }) => ({ id: meta.id, title: meta.title, meta }));
}

/**
 * Quick pick items for hits: the snippet as the label (the match is in it, so the picker's own
 * highlighting marks it), where it was said as the description, the conversation as the detail.
 * `alwaysShow`: the picker must not filter them again by its fuzzy match on the label.
 */
export function hitItems(hits: readonly SearchHit[], metas: ReadonlyMap<string, ConversationMeta>, query: string): HitItem[] {
  return hits.map((hit) => {
    const meta = metas.get(hit.conversationId);
    const { before, match, after } = hit.snippet;
    return {
      // `$(` would start an icon in a label: the text stays text.
      label: `${before}${match}${after}`.replace(/\$\(/g, '$\u200b('),
      description: fieldName(hit.field),
      detail: meta ? `${meta.title} · ${meta.agentName} · ${relativeTime(meta.updatedAt)}` : undefined,
      iconPath: new vscode.ThemeIcon(ICONS[hit.field]),
      alwaysShow: true,
      hit: { conversationId: hit.conversationId, entryId: hit.entryId, query },
    };
  });
}

/**
 * Runs the search as the user types (after a short pause), ignoring answers to older queries;
 * `show` receives the items of the latest query (empty below two characters); not `final` while the
 * first build still runs (the hits among what is indexed so far).
 */
export function searchAsYouType(
  pick: vscode.QuickPick<vscode.QuickPickItem>,
  search: ConversationSearch,
  manager: ConversationManager,
  show: (items: HitItem[], query: string, final: boolean) => void,
  options: { skipTitles?: boolean } = {},
): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  let running = 0;
  const run = async (query: string, ticket: number): Promise<void> => {
    const conversations = searchedConversations(manager);
    running++;
    pick.busy = true;
    const metas = new Map(conversations.map((c) => [c.id, c.meta]));
    const items = (hits: SearchHit[]): HitItem[] =>
      hitItems(
        hits.filter((h) => !(options.skipTitles && h.field === 'title')),
        metas,
        query,
      );
    try {
      // While the first build runs: what is indexed so far (newest first), completed when it is done.
      if (search.busy && ticket === latest) show(items(search.searchIndexed(conversations, query)), query, false);
      const hits = await search.search(conversations, query);
      if (ticket === latest) show(items(hits), query, true);
    } catch (err) {
      console.warn('Tandem: search failed', errorMessage(err));
    } finally {
      if (--running === 0) pick.busy = false;
    }
  };
  const changed = pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    const ticket = ++latest;
    if (value.trim().length < 2) {
      show([], value, true);
      return;
    }
    timer = setTimeout(() => void run(value, ticket), TYPING_PAUSE_MS);
  });
  // Start building the index while the user types the first characters.
  void search.prepare(searchedConversations(manager)).catch(() => undefined);
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    changed.dispose();
  });
}

/**
 * `Tandem: Search Conversations…`: the text of every kept conversation of the workspace (prompts,
 * replies, tool titles, file paths); the chosen match's conversation opens at that entry.
 */
export async function searchConversations(manager: ConversationManager, search: ConversationSearch): Promise<SearchTarget | undefined> {
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.placeholder = l10n.t('Search the text of every conversation (type at least two characters)');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const typing = searchAsYouType(pick as unknown as vscode.QuickPick<vscode.QuickPickItem>, search, manager, (items, query, final) => {
    pick.items = items;
    pick.title = final && query.trim().length >= 2 && items.length === 0 ? l10n.t('No conversation contains "{0}"', query.trim()) : undefined;
  });
  const chosen = await new Promise<HitItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  typing.dispose();
  pick.dispose();
  return chosen?.hit;
}
