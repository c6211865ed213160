/**
 * A subagent's work inside its parent's card: a toggle that says how many steps it took and what it
 * is doing now ("3 steps · Read hello.txt"), collapsed by default, and the children's own views
 * when open. A child whose prompt waits for the user (or with one below it) is shown above the
 * toggle whatever the state, so no prompt hides in a collapsed group.
 */
import * as l10n from '@vscode/l10n';
import type { Entry } from '../../src/protocol/messages';
import { h, icon } from '../core/dom';
import { awaitsAnswer, type ChildGroup } from '../entries/nestedCards';
import type { EntryView, ViewContext } from '../entries/viewContext';

/** Puts `nodes` into `container` in order, touching nothing when they are there already (focus stays). */
function place(container: HTMLElement, nodes: readonly HTMLElement[]): void {
  const current = container.children;
  if (current.length === nodes.length && nodes.every((n, i) => current[i] === n)) return;
  container.replaceChildren(...nodes);
}

export class SubagentGroup implements ChildGroup {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly summary: HTMLSpanElement;
  private readonly asks: HTMLElement;
  private readonly list: HTMLElement;
  private readonly views = new Map<string, EntryView>();
  private open: boolean;

  constructor(
    private readonly parentId: string,
    private readonly ctx: ViewContext,
  ) {
    this.open = ctx.host.expanded(`${parentId}:subagent`) === true;
    this.summary = h('span', { class: 'subagent-summary' });
    this.toggle = h(
      'button',
      { type: 'button', class: 'subagent-toggle', 'aria-expanded': 'false', 'aria-controls': `subagent-${parentId}` },
      icon('chevron-right', 'subagent-chevron'),
      this.summary,
    );
    this.toggle.addEventListener('click', () => this.setOpen(!this.open));
    this.asks = h('div', { class: 'subagent-asks' });
    this.list = h('div', { class: 'subagent-children', id: `subagent-${parentId}`, role: 'group', 'aria-label': l10n.t('Subagent steps') });
    this.element = h('div', { class: 'subagent', 'data-subagent-of': parentId }, this.asks, this.toggle, this.list);
    ctx.nested?.register(parentId, this);
    this.render();
  }

  childChanged(entry: Entry): void {
    const view = this.views.get(entry.id);
    if (view && view.kind === entry.kind) view.update(entry);
    this.render();
  }

  /** Opens the group (for a prompt or a search that lands inside it). */
  setOpen(open: boolean): void {
    if (open === this.open) return;
    this.open = open;
    this.ctx.host.setExpanded(`${this.parentId}:subagent`, open);
    this.render();
  }

  private asking(id: string): boolean {
    return awaitsAnswer(this.ctx.store.entry(id)) || this.ctx.nested?.subtreeAwaits(id) === true;
  }

  private viewOf(entry: Entry): EntryView {
    let view = this.views.get(entry.id);
    if (view === undefined || view.kind !== entry.kind) {
      view?.dispose();
      view = this.ctx.nested!.build(entry);
      view.element.dataset.entryId = entry.id;
      this.views.set(entry.id, view);
    }
    return view;
  }

  private render(): void {
    const ids = this.ctx.nested?.childIds(this.parentId) ?? [];
    const entries = ids.map((id) => this.ctx.store.entry(id)).filter((e): e is Entry => e !== undefined);
    const steps = entries.filter((e) => e.kind === 'tool_call');
    const current = [...steps].reverse().find((e) => e.status === 'in_progress' || e.status === 'pending') ?? steps[steps.length - 1];
    const count = steps.length === 1 ? l10n.t('1 step') : l10n.t('{0} steps', steps.length);
    this.summary.textContent = current ? l10n.t('{0} · {1}', count, current.title) : count;
    this.toggle.setAttribute('aria-expanded', String(this.open));
    this.toggle.title = this.open ? l10n.t("Hide the subagent's steps") : l10n.t("Show the subagent's steps");
    this.element.hidden = entries.length === 0;
    this.element.classList.toggle('open', this.open);
    const asks: HTMLElement[] = [];
    const listed: HTMLElement[] = [];
    for (const entry of entries) {
      if (this.asking(entry.id)) asks.push(this.viewOf(entry).element);
      else if (this.open) listed.push(this.viewOf(entry).element);
      else this.drop(entry.id);
    }
    place(this.asks, asks);
    place(this.list, listed);
    this.list.hidden = !this.open;
  }

  private drop(id: string): void {
    this.views.get(id)?.dispose();
    this.views.delete(id);
  }

  dispose(): void {
    this.ctx.nested?.unregister(this.parentId, this);
    for (const view of this.views.values()) view.dispose();
    this.views.clear();
  }
}
