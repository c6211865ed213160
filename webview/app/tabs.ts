/**
 * The conversation tabs: a `tablist` with one `tab` per open conversation (keyboard: arrows, Home,
 * End move and show; Delete closes), a badge on background conversations that need the user, and
 * a "New conversation" button. A tab's close icon is for the mouse; keyboard users press Delete,
 * so no button is nested inside a tab.
 */
import * as l10n from '@vscode/l10n';
import type { TabView } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

const ATTENTION_ICONS: Record<NonNullable<TabView['attention']>, string> = { permission: 'bell-dot', finished: 'pass', error: 'error' };

/** What a background conversation's badge says: part of its tab's name, and announced when it appears. */
export function attentionText(attention: NonNullable<TabView['attention']>): string {
  switch (attention) {
    case 'permission':
      return l10n.t('waits for your permission');
    case 'finished':
      return l10n.t('finished a turn');
    case 'error':
      return l10n.t('has an error');
  }
}

function attentionOf(attention: NonNullable<TabView['attention']>): [icon: string, text: string] {
  return [ATTENTION_ICONS[attention], attentionText(attention)];
}

const BUSY = new Set<TabView['status']>(['starting', 'running', 'cancelling']);

export class Tabs {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  /** New conversation in its own git worktree; disabled (with the reason) where there can be none. */
  private readonly inWorktree: HTMLButtonElement;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.list = h('div', { role: 'tablist', 'aria-label': l10n.t('Conversations'), class: 'tab-list' });
    this.list.addEventListener('keydown', (event) => this.onKey(event));
    const add = button('', () => host.post({ type: 'newConversation' }), {
      cls: 'icon-button',
      icon: 'add',
      label: l10n.t('New conversation'),
      title: l10n.t('New conversation'),
    });
    this.inWorktree = button(
      '',
      () => {
        if (this.store.worktrees.offer.available) host.post({ type: 'newConversationInWorktree' });
      },
      { cls: 'icon-button', icon: 'git-branch' },
    );
    this.element = h('div', { class: 'tab-strip' }, this.list, add, this.inWorktree);
    this.renderOffer();
  }

  /** Whether new conversations can have a worktree here (the button says why not). */
  renderOffer(): void {
    const { available } = this.store.worktrees.offer;
    const reason = this.store.worktrees.offer.reason ?? l10n.t('Worktrees are not available here.');
    const name = l10n.t('Conversation in a new worktree');
    this.inWorktree.setAttribute('aria-label', name);
    // aria-disabled keeps it focusable, so the reason can be read.
    this.inWorktree.setAttribute('aria-disabled', String(!available));
    this.inWorktree.title = available
      ? l10n.t('New conversation on its own branch, in a git worktree outside the workspace')
      : l10n.t('{0}: {1}', name, reason);
    if (available) this.inWorktree.removeAttribute('aria-description');
    else this.inWorktree.setAttribute('aria-description', reason);
  }

  render(): void {
    const { tabs, conversationId } = this.store;
    const focused = this.list.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.conversationId : undefined;
    this.list.replaceChildren(...tabs.map((tab) => this.renderTab(tab, tab.id === conversationId)));
    // Keep keyboard focus on the tab the user was on (the list was rebuilt under it).
    if (focused) this.list.querySelector<HTMLElement>(`[data-conversation-id="${CSS.escape(focused)}"]`)?.focus();
    this.element.hidden = tabs.length === 0;
  }

  private renderTab(tab: TabView, selected: boolean): HTMLElement {
    const attention = !selected && tab.attention ? attentionOf(tab.attention) : undefined;
    const extras = [BUSY.has(tab.status) ? l10n.t('working') : undefined, attention?.[1]].filter((e) => e !== undefined);
    const where = tab.branch ? l10n.t('{0}, in worktree {1}', tab.title, tab.branch) : tab.title;
    const label = extras.reduce((text, extra) => l10n.t('{0}, {1}', text, extra), l10n.t('{0} — {1}', where, tab.agentName || l10n.t('no agent')));
    const element = h('div', {
      role: 'tab',
      class: `tab${selected ? ' selected' : ''}`,
      'aria-selected': String(selected),
      'aria-controls': 'tandem-thread',
      'aria-label': label,
      'aria-keyshortcuts': 'Delete',
      title: label,
      tabindex: selected ? 0 : -1,
      'data-conversation-id': tab.id,
      'data-status': tab.status,
      'data-attention': attention ? tab.attention : undefined,
      'data-branch': tab.branch,
    });
    // The shown conversation's work is in the header and the thread; a spinner there would only cost frames.
    if (BUSY.has(tab.status) && !selected) element.append(icon('loading', 'codicon-modifier-spin tab-busy'));
    if (tab.branch) element.append(icon('git-branch', 'tab-branch'));
    element.append(h('span', { class: 'tab-title' }, tab.title));
    if (attention) element.append(h('span', { class: `tab-badge attention-${tab.attention}` }, icon(attention[0])));
    const close = icon('close', 'tab-close');
    close.addEventListener('click', (event) => {
      event.stopPropagation();
      this.host.post({ type: 'closeConversation', conversationId: tab.id });
    });
    element.append(close);
    element.addEventListener('click', () => this.select(tab.id));
    element.addEventListener('auxclick', (event) => {
      if (event.button === 1) this.host.post({ type: 'closeConversation', conversationId: tab.id });
    });
    return element;
  }

  private select(id: string): void {
    if (id !== this.store.conversationId) this.host.post({ type: 'selectConversation', conversationId: id });
  }

  private onKey(event: KeyboardEvent): void {
    const tabs = [...this.list.querySelectorAll<HTMLElement>('[role="tab"]')];
    const current = tabs.indexOf(document.activeElement as HTMLElement);
    if (current < 0) return;
    let next = -1;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        next = (current + 1) % tabs.length;
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        next = (current - 1 + tabs.length) % tabs.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = tabs.length - 1;
        break;
      case 'Enter':
      case ' ':
        next = current;
        break;
      case 'Delete': {
        const id = tabs[current].dataset.conversationId;
        if (id) this.host.post({ type: 'closeConversation', conversationId: id });
        event.preventDefault();
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    for (const tab of tabs) tab.tabIndex = -1;
    tabs[next].tabIndex = 0;
    tabs[next].focus();
    const id = tabs[next].dataset.conversationId;
    if (id) this.select(id);
  }
}
