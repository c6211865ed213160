/** Views for the simple entry kinds: user and agent messages, thoughts, plans (outcomes: outcomeEntries.ts). */
import * as l10n from '@vscode/l10n';
import type { Entry, MentionView, PlanEntry, PlanItemView } from '../../src/protocol/messages';
import { threadChip } from '../composer/chips';
import { article, button, h, icon } from '../core/dom';
import { branchSwitch } from './branchSwitch';
import { MarkdownStream } from './markdownStream';
import { PromptEdit } from './promptEdit';
import type { EntryView, ViewContext } from './viewContext';

/**
 * User or agent message: markdown that may grow through `textAppended`. A user message shows the
 * chips sent with it (a click opens what one points at) and what happened to context that could not
 * be sent whole; one whose turn has a checkpoint offers "Restore files to before this turn"; a note
 * Tandem sent along is shown; one steered into a running turn says so. Either offers Copy as Markdown (the host formats and masks it, then
 * answers `messageCopied`, which the announcer says).
 */
export class MessageView implements EntryView {
  readonly element: HTMLElement;
  private readonly body: MarkdownStream;
  private readonly mentions = h('div', { class: 'mention-chips entry-mentions', role: 'list', 'aria-label': l10n.t('Context sent') });
  private readonly extras = h('div', { class: 'entry-extras' });
  /** The mentions last rendered (as JSON): text appended to the entry does not rebuild the chips. */
  private renderedMentions = '';
  /** A user entry's Edit (promptEdit.ts) and its `‹ i/n ›` (branchSwitch.ts). */
  private readonly edit: PromptEdit | undefined;
  private readonly branchSlot = h('span', { class: 'branch-slot' });
  private renderedBranch = '';

  constructor(
    readonly kind: 'user' | 'agent',
    entry: Entry,
    private readonly ctx?: ViewContext,
  ) {
    const author = kind === 'user' ? l10n.t('You') : l10n.t('Agent');
    this.element = article(kind, author);
    // The name is the article's label already; the row is read only for its Copy as Markdown button.
    const head = h('div', { class: 'entry-author' }, h('span', { 'aria-hidden': 'true' }, author));
    // Sent into the running turn (steering), not a turn of its own: said once, it never changes.
    if (entry.kind === 'user' && entry.steered === true) {
      this.element.dataset.steered = 'true';
      head.append(h('span', { class: 'entry-steered' }, icon('debug-step-into'), l10n.t('steered into the turn')));
    }
    if (ctx) {
      const host = ctx.host;
      const entryId = entry.id;
      head.append(
        button('', () => host.post({ type: 'copyMessageMarkdown', entryId }), {
          cls: 'icon-button entry-copy',
          icon: 'copy',
          label: l10n.t('Copy as Markdown'),
          title: l10n.t('Copy as Markdown'),
        }),
      );
    }
    this.element.append(head);
    this.body = new MarkdownStream('markdown', ctx?.cold);
    this.mentions.hidden = true;
    this.element.append(this.mentions, this.body.element);
    if (kind === 'user' && ctx) {
      this.edit = new PromptEdit(entry.id, ctx.host, ctx.store, (shown) => {
        this.body.element.hidden = !shown;
        this.extras.hidden = !shown || this.extras.childElementCount === 0;
      });
      head.append(this.branchSlot, this.edit.button);
      this.element.append(this.edit.form);
    }
    this.element.append(this.extras);
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind === 'user' || entry.kind === 'agent') this.body.update(entry.text);
    if (entry.kind !== 'user') return;
    this.edit?.update(entry.text);
    this.renderBranch(entry);
    this.renderMentions(Array.isArray(entry.mentions) ? entry.mentions : []);
    const parts: HTMLElement[] = [];
    const notes = Array.isArray(entry.contextNotes) ? entry.contextNotes.filter((n) => typeof n === 'string' && n !== '') : [];
    if (notes.length > 0)
      parts.push(h('ul', { class: 'context-notes', 'aria-label': l10n.t('About the context sent') }, ...notes.map((note) => h('li', {}, note))));
    if (entry.note) parts.push(h('div', { class: 'entry-note' }, icon('info'), ` ${l10n.t('Tandem told the agent: {0}', entry.note)}`));
    if (entry.checkpoint && this.ctx) {
      const ctx = this.ctx;
      const entryId = entry.id;
      parts.push(
        button(l10n.t('Restore files to before this turn'), () => ctx.host.post({ type: 'rewind', entryId }), {
          cls: 'link small rewind',
          icon: 'history',
          title: l10n.t('Shows what would change, then restores it as one undoable step'),
        }),
      );
    }
    this.extras.replaceChildren(...parts);
    this.extras.hidden = parts.length === 0 || this.edit?.editing === true;
  }

  private renderBranch(entry: Extract<Entry, { kind: 'user' }>): void {
    if (!this.ctx) return;
    const json = JSON.stringify(entry.branch ?? null);
    if (json === this.renderedBranch) return;
    this.renderedBranch = json;
    const view = branchSwitch(entry, this.ctx.host);
    this.branchSlot.replaceChildren(...(view ? [view] : []));
  }

  private renderMentions(mentions: MentionView[]): void {
    const json = JSON.stringify(mentions);
    if (json === this.renderedMentions) return;
    this.renderedMentions = json;
    const ctx = this.ctx;
    const open = ctx
      ? (uri: string, line: number | undefined) => ctx.host.post(line === undefined ? { type: 'openMention', uri } : { type: 'openMention', uri, line })
      : undefined;
    const valid = mentions.filter((m) => typeof m === 'object' && m !== null && typeof m.label === 'string');
    this.mentions.replaceChildren(...valid.map((view) => h('span', { role: 'listitem' }, threadChip(view, open))));
    this.mentions.hidden = valid.length === 0;
  }

  dispose(): void {
    this.edit?.dispose();
  }
}

/** A thought: collapsible; open while it streams, collapsed afterwards unless the user opened it. */
export class ThoughtView implements EntryView {
  readonly kind = 'thought' as const;
  readonly element: HTMLElement;
  private readonly details: HTMLDetailsElement;
  private readonly summaryText: HTMLSpanElement;
  private readonly body: MarkdownStream;
  private streaming = false;
  /** Ignore the toggle events our own `open` changes fire. */
  private settingOpen = false;

  constructor(
    private readonly entryId: string,
    entry: Entry,
    private readonly ctx: ViewContext,
  ) {
    this.element = article('thought', l10n.t('Thought'));
    this.body = new MarkdownStream('markdown', ctx.cold);
    this.summaryText = h('span', {}, l10n.t('Thought'));
    this.details = h('details', { class: 'thought' }, h('summary', {}, icon('lightbulb'), this.summaryText), this.body.element);
    this.details.addEventListener('toggle', () => {
      if (!this.settingOpen) ctx.host.setExpanded(`${entryId}:thought`, this.details.open);
    });
    this.element.append(this.details);
    this.setOpen(ctx.host.expanded(`${entryId}:thought`) === true);
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind === 'thought') this.body.update(entry.text);
  }

  setStreaming(streaming: boolean): void {
    if (streaming === this.streaming) return;
    this.streaming = streaming;
    this.summaryText.textContent = streaming ? l10n.t('Thinking…') : l10n.t('Thought');
    const chosen = this.ctx.host.expanded(`${this.entryId}:thought`);
    this.setOpen(streaming ? chosen !== false : chosen === true);
  }

  private setOpen(open: boolean): void {
    if (this.details.open === open) return;
    this.settingOpen = true;
    this.details.open = open;
    // The toggle event is dispatched asynchronously; clear the guard after it.
    setTimeout(() => (this.settingOpen = false), 0);
  }

  dispose(): void {}
}

const PLAN_ICONS: Record<PlanItemView['status'], string> = {
  pending: 'circle-large-outline',
  in_progress: 'record',
  completed: 'pass-filled',
};

function planStatusText(status: PlanItemView['status']): string {
  return status === 'completed' ? l10n.t('Completed') : status === 'in_progress' ? l10n.t('In progress') : l10n.t('Pending');
}

/** The agent's plan: a checklist, replaced whole on each update. */
export class PlanView implements EntryView {
  readonly kind = 'plan' as const;
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly counter: HTMLSpanElement;

  constructor(entry: Entry) {
    this.element = article('plan', l10n.t('Plan'));
    this.counter = h('span', { class: 'plan-counter' });
    this.list = h('ul', { class: 'plan-list' });
    this.element.append(h('div', { class: 'entry-author' }, icon('checklist'), ` ${l10n.t('Plan')} `, this.counter), this.list);
    this.update(entry);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'plan') return;
    const items = Array.isArray((entry as PlanEntry).items) ? entry.items : [];
    const done = items.filter((i) => i.status === 'completed').length;
    this.counter.textContent = `${done}/${items.length}`;
    this.list.replaceChildren(
      ...items.map((item) => {
        const status = item.status in PLAN_ICONS ? item.status : 'pending';
        const [name, label] = [PLAN_ICONS[status], planStatusText(status)];
        return h(
          'li',
          { 'data-status': status, 'data-priority': item.priority, class: `plan-item plan-${status}` },
          icon(name),
          h('span', { class: 'visually-hidden' }, l10n.t('{0}: ', label)),
          h('span', { class: 'plan-content' }, String(item.content)),
        );
      }),
    );
  }

  dispose(): void {}
}

/** Shown instead of an entry whose rendering failed, so one bad entry never breaks the panel. */
export class BrokenEntryView implements EntryView {
  readonly element: HTMLElement;

  constructor(
    readonly kind: Entry['kind'],
    error: unknown,
  ) {
    this.element = h('div', { class: 'entry entry-broken', role: 'note' }, icon('warning'), ` ${l10n.t('This item could not be shown: {0}', String(error))}`);
  }

  update(): void {}
  dispose(): void {}
}
