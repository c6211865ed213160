/**
 * Prompts written but not sent yet, above the composer: typed while the agent started or while a
 * turn ran. Each is a user entry marked `data-queued="true"` that can be edited, removed, moved, or
 * sent now (which stops the running turn first — or, for an agent that takes steering, goes into it). When the queue is paused (a turn failed or was
 * cancelled) it says why and waits for Resume.
 */
import * as l10n from '@vscode/l10n';
import type { QueuedPromptView, QueueView as QueueState, ConversationStatus } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

/** "2 waiting: sent when the current turn ends", or why the queue is paused: its head, and what is announced. */
export function queueSummary(queue: QueueState, status: ConversationStatus): string {
  const count = queue.items.length;
  if (queue.paused !== undefined) return l10n.t('{0} not sent: {1}', count, queue.paused);
  return l10n.t('{0} waiting: {1}', count, waitingFor(status));
}

function waitingFor(status: ConversationStatus): string {
  switch (status.kind) {
    case 'starting':
      return l10n.t('sent when {0} is ready', status.agentName);
    case 'running':
    case 'cancelling':
      return l10n.t('sent when the current turn ends');
    case 'no_agent':
      return l10n.t('pick an agent to send them');
    case 'untrusted':
      return l10n.t('agents do not run in an untrusted workspace');
    default:
      return l10n.t('sending…');
  }
}

export class QueueView {
  readonly element: HTMLElement;
  private readonly head: HTMLElement;
  private readonly list: HTMLElement;
  /** The item being edited, if any (its textarea survives re-renders of the others). */
  private editing: { id: string; textarea: HTMLTextAreaElement } | undefined;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    // Not a live region itself: the panel's announcer (announcements.ts) says when the queue changes.
    this.head = h('div', { class: 'queue-head' });
    this.list = h('div', { class: 'queue-list' });
    this.element = h('section', { class: 'queue', 'aria-label': l10n.t('Queued prompts') }, this.head, this.list);
    this.element.hidden = true;
  }

  render(): void {
    const { items, paused } = this.store.queue;
    this.element.hidden = items.length === 0;
    if (this.editing && !items.some((i) => i.id === this.editing?.id)) this.editing = undefined;
    const focus = this.focusedAction();
    this.head.replaceChildren(...this.renderHead(paused));
    this.list.replaceChildren(...items.map((item, index) => this.renderItem(item, index, items.length)));
    if (focus) this.list.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(focus.id)}"] [data-action="${focus.action}"]`)?.focus();
  }

  private renderHead(paused: string | undefined): Array<HTMLElement | string> {
    if (paused !== undefined) {
      return [
        icon('debug-pause'),
        h('span', { class: 'queue-reason' }, queueSummary(this.store.queue, this.store.status)),
        button(l10n.t('Resume'), () => this.host.post({ type: 'queueResume' }), { cls: 'small primary', title: l10n.t('Send the queued prompts in order') }),
        button(l10n.t('Clear'), () => this.host.post({ type: 'queueClear' }), { cls: 'small', title: l10n.t('Remove every queued prompt') }),
      ];
    }
    return [icon('clock'), h('span', { class: 'queue-reason' }, queueSummary(this.store.queue, this.store.status))];
  }

  private renderItem(item: QueuedPromptView, index: number, count: number): HTMLElement {
    const article = h('article', {
      role: 'article',
      class: 'entry entry-user queued',
      'data-entry-kind': 'user',
      'data-queued': 'true',
      'data-item-id': item.id,
      'aria-label': l10n.t('Queued prompt {0} of {1}', index + 1, count),
    });
    const editing = this.editing?.id === item.id ? this.editing.textarea : undefined;
    const body = editing ?? h('div', { class: 'queued-text' }, item.text);
    const post = (type: 'queueRemove' | 'queueSendNow') => this.host.post({ type, itemId: item.id });
    const actions = h(
      'div',
      { class: 'queued-actions' },
      this.action(l10n.t('Send now'), 'send', 'send', () => post('queueSendNow'), this.sendNowTitle()),
      this.action(l10n.t('Edit'), 'edit', 'edit', () => this.startEdit(item)),
      this.action(l10n.t('Move up'), 'arrow-up', 'up', () => this.host.post({ type: 'queueMove', itemId: item.id, offset: -1 }), undefined, index === 0),
      this.action(
        l10n.t('Move down'),
        'arrow-down',
        'down',
        () => this.host.post({ type: 'queueMove', itemId: item.id, offset: 1 }),
        undefined,
        index === count - 1,
      ),
      this.action(l10n.t('Remove'), 'trash', 'remove', () => post('queueRemove')),
    );
    article.append(h('div', { class: 'entry-author' }, icon('clock'), l10n.t('You (not sent yet)')), body, actions);
    return article;
  }

  /** What Send now does: steer into the running turn (the agent takes steering), or stop it first. */
  private sendNowTitle(): string {
    return this.store.status.kind === 'running' && this.store.promptCapabilities?.steering === true
      ? l10n.t('Send this prompt into the running turn now (nothing is stopped)')
      : l10n.t('Send this prompt now (stops the running turn first)');
  }

  private action(label: string, iconName: string, name: string, run: () => void, title = label, disabled = false): HTMLButtonElement {
    const b = button('', run, { cls: 'icon-button', icon: iconName, label, title });
    b.dataset.action = name;
    b.disabled = disabled;
    return b;
  }

  private startEdit(item: QueuedPromptView): void {
    const textarea = h('textarea', { class: 'queued-edit', 'aria-label': l10n.t('Edit the queued prompt'), rows: 3 });
    textarea.value = item.text;
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        const text = textarea.value;
        this.editing = undefined;
        if (text.trim() === '') this.host.post({ type: 'queueRemove', itemId: item.id });
        else this.host.post({ type: 'queueEdit', itemId: item.id, text });
        this.render();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.editing = undefined;
        this.render();
      }
    });
    this.editing = { id: item.id, textarea };
    this.render();
    textarea.focus();
  }

  private focusedAction(): { id: string; action: string } | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.list.contains(active) || !active.dataset.action) return undefined;
    const id = active.closest<HTMLElement>('[data-item-id]')?.dataset.itemId;
    return id ? { id, action: active.dataset.action } : undefined;
  }
}
