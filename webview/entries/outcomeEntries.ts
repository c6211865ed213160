/** Views for the entries that say how things went: notices, errors (with what to do), turn ends. */
import * as l10n from '@vscode/l10n';
import type { Entry, ErrorEntry, NoticeEntry, TurnEndEntry } from '../../src/protocol/messages';
import { article, button, h, icon, keyboardScrollable } from '../core/dom';
import type { EntryView, ViewContext } from './viewContext';

const ACTIONS = new Set<string>(['restart', 'retry', 'signIn', 'showLog', 'startFresh', 'openAgentSettings'] satisfies Array<
  NonNullable<ErrorEntry['action']>
>);

function actionLabel(action: NonNullable<ErrorEntry['action']>): string {
  switch (action) {
    case 'restart':
      return l10n.t('Restart');
    case 'retry':
      return l10n.t('Retry');
    case 'signIn':
      return l10n.t('Sign in');
    case 'showLog':
      return l10n.t('Show log');
    case 'startFresh':
      return l10n.t('Start fresh');
    case 'openAgentSettings':
      return l10n.t('Open the agent’s settings');
  }
}

/** Something about the conversation itself (the agent starts fresh, older entries were not kept). */
export class NoticeView implements EntryView {
  readonly kind = 'notice' as const;
  readonly element: HTMLElement;

  constructor(entry: Entry) {
    this.element = h('div', { class: 'notice-entry', role: 'note' });
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'notice') return;
    const e = entry as NoticeEntry;
    this.element.dataset.level = e.level;
    this.element.setAttribute('role', e.level === 'error' ? 'alert' : 'note');
    this.element.replaceChildren(icon(e.level === 'error' ? 'error' : e.level === 'warning' ? 'warning' : 'info'), h('span', {}, String(e.message)));
  }

  dispose(): void {}
}

/** Something went wrong: the sentence, the stderr tail, and what the user can do about it. */
export class ErrorView implements EntryView {
  readonly kind = 'error' as const;
  readonly element: HTMLElement;

  constructor(
    entry: Entry,
    private readonly ctx: ViewContext,
  ) {
    this.element = article('error', l10n.t('Error'));
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'error') return;
    const e = entry as ErrorEntry;
    const children: HTMLElement[] = [h('div', { class: 'error-message' }, icon('error'), ' ', String(e.message))];
    if (e.detail) children.push(keyboardScrollable(h('pre', { class: 'error-detail' }, e.detail), l10n.t('Details')));
    if (e.action && ACTIONS.has(e.action)) {
      const type = e.action;
      children.push(button(actionLabel(type), () => this.ctx.host.post({ type }), { cls: 'primary' }));
    }
    if (e.offerCheck)
      children.push(
        button(l10n.t('Check agent'), () => this.ctx.host.post({ type: 'checkAgent' }), {
          cls: 'secondary',
          icon: 'checklist',
          title: l10n.t('Find out why the agent does not start, and what to do'),
        }),
      );
    this.element.setAttribute('aria-label', l10n.t('Error: {0}', e.message));
    this.element.replaceChildren(...children);
  }

  dispose(): void {}
}

export function stopReasonText(reason: string): string {
  switch (reason) {
    case 'end_turn':
      return l10n.t('Done');
    case 'cancelled':
      return l10n.t('Stopped: cancelled');
    case 'max_tokens':
      return l10n.t('Stopped: the agent reached its token limit');
    case 'max_turn_requests':
      return l10n.t('Stopped: the agent reached its request limit');
    case 'refusal':
      return l10n.t('Stopped: the agent refused');
    case 'interrupted':
      return l10n.t('Interrupted: the connection to the agent dropped');
    case 'exited':
      return l10n.t('Stopped: the agent exited');
    case 'error':
      return l10n.t('Stopped: the turn failed');
    default:
      return l10n.t('Stopped: {0}', reason);
  }
}

/**
 * A finished turn: a quiet line, not an article (it is not content). A turn that did not finish
 * (cancelled, refused, failed, cut off) has **Retry** while the host still keeps its prompt.
 */
export class TurnEndView implements EntryView {
  readonly kind = 'turn_end' as const;
  readonly element: HTMLElement;

  constructor(
    entry: Entry,
    private readonly ctx: ViewContext,
  ) {
    this.element = h('div', { class: 'turn-end' });
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'turn_end') return;
    const e = entry as TurnEndEntry;
    const reason = String(e.stopReason);
    const line = e.usage ? `${stopReasonText(reason)} · ${e.usage}` : stopReasonText(reason);
    this.element.setAttribute('data-stop-reason', reason);
    const text = h('span', { class: 'turn-end-text' }, line);
    if (e.retry !== true) {
      this.element.replaceChildren(text);
      return;
    }
    const retry = button(
      l10n.t('Retry'),
      (event) => {
        // One click sends once: the host withdraws the offer, which rebuilds this line without it.
        (event.currentTarget as HTMLButtonElement).disabled = true;
        this.ctx.host.post({ type: 'retryTurn', entryId: e.id });
      },
      { cls: 'secondary turn-end-retry', icon: 'refresh', title: l10n.t('Send the same prompt and context again') },
    );
    this.element.replaceChildren(text, ' ', retry);
  }

  dispose(): void {}
}
