/**
 * The selected message: what it is (direction, method, id, session, time, size, latency and its
 * pair), its warnings, and its JSON pretty-printed — the first 400 lines of a huge one, with
 * "Show all" (which asks the host for the whole text when the row carries only its start).
 * Everything is text content: agent data never becomes markup.
 */
import * as l10n from '@vscode/l10n';
import type { WireRowView } from '../../src/protocol/inspectorMessages';
import { formatBytes } from '../../src/protocol/displayLanguage';
import { button, h } from '../core/dom';
import { methodOf, type RowStore } from './rowStore';

/** Lines of pretty JSON shown before "Show all". */
const SHOWN_LINES = 400;

export interface DetailActions {
  copy(seq: number): void;
  fetch(seq: number): void;
  goTo(seq: number): void;
}

export class Detail {
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly facts: HTMLElement;
  private readonly warnings: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly json: HTMLElement;
  private row: WireRowView | undefined;
  /** The whole text of messages fetched from the host, by seq (only the last few are kept). */
  private readonly full = new Map<number, string>();
  private showAll = false;

  constructor(
    private readonly store: RowStore,
    private readonly act: DetailActions,
  ) {
    this.heading = h('h2', { class: 'detail-heading', id: 'detail-heading' });
    this.facts = h('dl', { class: 'detail-facts' });
    this.warnings = h('ul', { class: 'detail-warnings', 'aria-label': l10n.t('Warnings') });
    this.actions = h('div', { class: 'detail-actions' });
    this.json = h('pre', { class: 'detail-json', tabindex: 0, 'aria-label': l10n.t('Message JSON') });
    this.element = h(
      'section',
      { class: 'detail', 'aria-labelledby': 'detail-heading', tabindex: -1 },
      this.heading,
      this.facts,
      this.warnings,
      this.actions,
      this.json,
    );
    this.show(undefined);
  }

  /** Shows `row` (undefined: the empty state). */
  show(row: WireRowView | undefined): void {
    if (row?.seq !== this.row?.seq) this.showAll = false;
    this.row = row;
    this.render();
  }

  /** The host sent the whole text of a message. */
  received(seq: number, text: string | undefined): void {
    if (text === undefined) {
      if (this.row?.seq === seq) this.json.textContent = l10n.t('This message is no longer kept (the recording drops its oldest messages).');
      return;
    }
    this.full.set(seq, text);
    if (this.full.size > 8) this.full.delete(this.full.keys().next().value as number);
    if (this.row?.seq === seq) this.render();
  }

  /** The row's warnings or pairing changed. */
  refresh(): void {
    if (!this.row) return;
    // Rows are readonly: a pairing replaces the store's row, so the shown one is read again.
    this.row = this.store.row(this.row.seq) ?? this.row;
    this.render();
  }

  focus(): void {
    this.json.focus();
  }

  private render(): void {
    const row = this.row;
    this.element.hidden = false;
    if (!row) {
      this.heading.textContent = l10n.t('No message selected');
      this.facts.replaceChildren();
      this.warnings.replaceChildren();
      this.actions.replaceChildren();
      this.json.textContent = l10n.t('Select a message in the list (arrow keys, then Enter) to see it here.');
      return;
    }
    const kind = { request: l10n.t('request'), notification: l10n.t('notification'), response: l10n.t('result'), error: l10n.t('error response') }[row.kind];
    this.heading.textContent = `${row.dir === 'in' ? l10n.t('From the agent') : l10n.t('To the agent')}: ${methodOf(row) || l10n.t('(response)')} (${kind})`;
    const facts: Array<[string, string]> = [
      [l10n.t('Agent'), `${row.agent} #${row.conn}`],
      [l10n.t('Time'), new Date(row.t).toISOString()],
      [l10n.t('Size'), formatBytes(row.size)],
    ];
    if (row.id !== undefined) facts.push([l10n.t('Id'), row.id]);
    if (row.session) facts.push([l10n.t('Session'), row.session]);
    if (row.ms !== undefined) facts.push([l10n.t('Latency'), l10n.t('{0} ms', row.ms)]);
    this.facts.replaceChildren(...facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    const warnings = this.store.warningsOf(row.seq);
    this.warnings.hidden = warnings.length === 0;
    this.warnings.replaceChildren(...warnings.map((w) => h('li', { class: `warning ${w.severity}` }, h('span', { class: 'rule' }, w.rule), ' ', w.text)));
    const buttons: HTMLElement[] = [
      button(l10n.t('Copy'), () => this.act.copy(row.seq), { cls: 'secondary', icon: 'copy', title: l10n.t('Copy this message, pretty-printed') }),
    ];
    if (row.pair !== undefined) {
      const pair = row.pair;
      const label = row.kind === 'request' ? l10n.t('Go to the response') : l10n.t('Go to the request');
      buttons.push(button(label, () => this.act.goTo(pair), { cls: 'secondary', icon: row.kind === 'request' ? 'arrow-down' : 'arrow-up' }));
    }
    const text = this.full.get(row.seq) ?? row.text;
    const lines = pretty(text, row.cut === true && !this.full.has(row.seq)).split('\n');
    const cut = !this.showAll && lines.length > SHOWN_LINES;
    if (cut || (row.cut && !this.full.has(row.seq))) {
      buttons.push(
        button(
          l10n.t('Show all'),
          () => {
            this.showAll = true;
            if (row.cut && !this.full.has(row.seq)) this.act.fetch(row.seq);
            this.render();
          },
          { cls: 'secondary', icon: 'unfold', title: l10n.t('Show the whole message ({0})', formatBytes(row.size)) },
        ),
      );
    }
    this.actions.replaceChildren(...buttons);
    this.json.textContent = cut ? `${lines.slice(0, SHOWN_LINES).join('\n')}\n… ${l10n.t('{0} more lines', lines.length - SHOWN_LINES)}` : lines.join('\n');
  }
}

/** Pretty JSON; the start of a long message is not JSON yet, so it is shown as it is. */
function pretty(text: string, partial: boolean): string {
  if (partial) return `${text}…`;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
