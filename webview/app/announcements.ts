/**
 * What the panel tells a screen reader of its own accord (through the Announcer's polite live
 * region), decided from the store's changes once per frame: a turn that finished (and how), a
 * permission request waiting (with the tool's title), errors (error entries and notices, a stopped
 * agent, a failed review action), the agent becoming ready, the queue growing or pausing, and a
 * background conversation that needs the user. Never the streamed text: that is read on demand.
 *
 * A snapshot or a switch of conversation is not news — only the permission requests it holds that
 * still wait for an answer are said.
 */
import * as l10n from '@vscode/l10n';
import type { Entry, ConversationStatus, TabView } from '../../src/protocol/messages';
import type { Announcer } from '../core/announcer';
import { stopReasonText } from '../entries/outcomeEntries';
import { statusText } from '../header/header';
import { queueSummary } from '../composer/queueView';
import type { Store, StoreChanges } from '../store/store';
import { attentionText } from './tabs';

function agentNameOf(status: ConversationStatus): string | undefined {
  return 'agentName' in status && status.agentName !== '' ? status.agentName : undefined;
}

export class Announcements {
  /** Turn ends, errors and notices already said (or there before): entry ids. */
  private readonly seen = new Set<string>();
  /** Permission requests already said: request ids. */
  private readonly asked = new Set<string>();
  private status: ConversationStatus['kind'] | undefined;
  /** The queue as last seen: how many wait, and why they are paused. */
  private queue: { count: number; paused: string | undefined } | undefined;
  private reviewError: string | undefined;
  /** Background conversations' badges as last seen (undefined until the first tabs arrive). */
  private attention: Map<string, TabView['attention']> | undefined;

  constructor(
    private readonly store: Store,
    private readonly announcer: Announcer,
  ) {}

  render(changes: StoreChanges): void {
    const store = this.store;
    if (changes.reset) {
      this.seen.clear();
      for (const id of store.entryIds) this.note(store.entry(id), false);
    } else {
      for (const id of store.entryIds.slice(0, changes.prepended)) this.note(store.entry(id), false);
      for (const id of changes.entries) this.note(store.entry(id), true);
    }
    if (changes.status || changes.reset) this.noteStatus(!changes.reset);
    if (changes.queue) this.noteQueue(!changes.reset);
    if (changes.review) this.noteReview(!changes.reset);
    if (changes.tabs) this.noteTabs();
    if (changes.copied) this.say(l10n.t('Copied as Markdown.'));
  }

  private say(text: string): void {
    this.announcer.say(text);
  }

  /** One entry came or changed; `news`: it is new to the user (not part of a snapshot). */
  private note(entry: Entry | undefined, news: boolean): void {
    if (!entry) return;
    if (entry.kind === 'tool_call') {
      // A request still waiting is news even in a snapshot: the agent is stopped until it is answered.
      const permission = entry.permission;
      if (permission?.state.kind === 'pending' && !this.asked.has(permission.requestId)) {
        this.asked.add(permission.requestId);
        const agent = agentNameOf(this.store.status);
        const title = String(entry.title ?? '');
        this.say(agent ? l10n.t('{0} asks for permission: {1}', agent, title) : l10n.t('The agent asks for permission: {0}', title));
      }
      return;
    }
    const said = entry.kind === 'turn_end' || entry.kind === 'error' || (entry.kind === 'notice' && entry.level === 'error');
    if (!said || this.seen.has(entry.id)) return;
    this.seen.add(entry.id);
    if (!news) return;
    if (entry.kind === 'turn_end') {
      const agent = agentNameOf(this.store.status);
      if (entry.stopReason !== 'end_turn') this.say(stopReasonText(String(entry.stopReason)));
      else this.say(agent ? l10n.t('{0} finished the turn.', agent) : l10n.t('The agent finished the turn.'));
    } else if (entry.kind === 'error' || entry.kind === 'notice') {
      this.say(l10n.t('Error: {0}', String(entry.message)));
    }
  }

  private noteStatus(news: boolean): void {
    const status = this.store.status;
    const before = this.status;
    this.status = status.kind;
    if (!news || before === status.kind) return;
    // The header's status is not a live region; these changes are the ones worth saying.
    if (status.kind === 'stopped') this.say(l10n.t('{0} stopped: {1}', status.agentName, status.reason));
    else if (status.kind === 'ready' && before === 'starting') this.say(statusText(status));
    else if (status.kind === 'starting' && status.reconnecting) this.say(statusText(status));
  }

  private noteQueue(news: boolean): void {
    const { items, paused } = this.store.queue;
    const before = this.queue;
    this.queue = { count: items.length, paused };
    // Said when it grows or pauses; it empties as its prompts are sent (and the turn says that).
    if (!news || items.length === 0) return;
    if (items.length > (before?.count ?? 0) || (paused !== undefined && paused !== before?.paused)) this.say(queueSummary(this.store.queue, this.store.status));
  }

  private noteReview(news: boolean): void {
    const error = this.store.review.error;
    const before = this.reviewError;
    this.reviewError = error;
    if (news && error !== undefined && error !== before) this.say(l10n.t('Error: {0}', error));
  }

  /** A background conversation's badge appeared or changed: "Write docs, waits for your permission". */
  private noteTabs(): void {
    const first = this.attention === undefined;
    const before = this.attention ?? new Map<string, TabView['attention']>();
    this.attention = new Map(this.store.tabs.map((tab) => [tab.id, tab.attention]));
    if (first) return;
    for (const tab of this.store.tabs) {
      if (tab.id === this.store.conversationId || !tab.attention || before.get(tab.id) === tab.attention) continue;
      this.say(l10n.t('{0}, {1}', tab.title, attentionText(tab.attention)));
    }
  }
}
