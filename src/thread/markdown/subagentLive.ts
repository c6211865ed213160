/**
 * A subagent's history kept live for its editor tab: the Markdown of subagentMarkdown.ts, rendered
 * again when the conversation's changes touch that subagent (its card, an entry nested under it at
 * any depth, a terminal one of them shows), at most once per `delayMs` while it works. No polling:
 * it listens to the conversation's own change stream. Whether the tab offers Stop follows the card's
 * child session (working, and the agent lets the client cancel it). Pure: the editor side shows it.
 */
import type { ChildSessionView, ConversationChange, Entry } from '../../protocol/messages';
import { Emitter, type IDisposable } from '../../util/disposable';
import { conversationMarkdown, type MarkdownSource } from './conversationMarkdown';
import { childStoppable, subagentSource } from './subagentMarkdown';

/** What the live document needs of its conversation. */
export interface SubagentLivePorts {
  /** What the conversation keeps now; undefined once it is gone. */
  source(): MarkdownSource | undefined;
  /** The conversation's keyed changes, in order. */
  changes(listener: (changes: readonly ConversationChange[]) => void): IDisposable;
  /** Exact values to mask (the export's). */
  secrets(): readonly string[];
  /** How long changes are gathered before one render; ~250 ms in the editor. */
  delayMs: number;
}

export class SubagentLive implements IDisposable {
  private readonly changed = new Emitter<void>();
  /** Fired after a render that changed the text or whether Stop is offered. */
  readonly onDidChange = this.changed.event;
  private textValue = '';
  private childValue: ChildSessionView | undefined;
  private titleValue = '';
  /** The card and every entry nested under it, as of the last render (and what joined it since). */
  private readonly inside = new Set<string>();
  private readonly terminalIds = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: IDisposable;
  private found = false;

  constructor(
    readonly cardId: string,
    private readonly ports: SubagentLivePorts,
  ) {
    this.render();
    this.subscription = ports.changes((changes) => {
      if (changes.some((c) => this.touches(c))) this.schedule();
    });
  }

  /** False when the conversation had no such subagent card when it was opened. */
  get exists(): boolean {
    return this.found;
  }

  get text(): string {
    return this.textValue;
  }

  get title(): string {
    return this.titleValue;
  }

  /** The card's child session as last rendered (undefined for a subagent that is no child session). */
  get child(): ChildSessionView | undefined {
    return this.childValue;
  }

  /** The tab's Stop applies: the child works and may be cancelled. */
  get stoppable(): boolean {
    return childStoppable(this.childValue);
  }

  /** Renders now what a pending timer would have rendered (tests, and Stop before it acts). */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.update();
  }

  dispose(): void {
    this.subscription.dispose();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.dispose();
  }

  private touches(change: ConversationChange): boolean {
    switch (change.type) {
      case 'entryUpserted': {
        const { entry } = change;
        const parent = parentOf(entry);
        if (entry.id !== this.cardId && !(parent !== undefined && this.inside.has(parent)) && !this.inside.has(entry.id)) return false;
        // A new nested entry may have children of its own before the next render.
        this.inside.add(entry.id);
        return true;
      }
      case 'textAppended':
        return this.inside.has(change.id);
      case 'terminalChanged':
        return this.terminalIds.has(change.terminal.terminalId);
      case 'terminalAppended':
        return this.terminalIds.has(change.terminalId);
      case 'entriesCleared':
        return true;
      default:
        return false;
    }
  }

  /** Gathers a burst into one render, and never waits longer than `delayMs`: a child streaming for
   * minutes still shows its progress (a reset-on-every-change debounce would show nothing until it paused). */
  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, this.ports.delayMs);
  }

  private update(): void {
    const before = { text: this.textValue, stoppable: this.stoppable };
    this.render();
    if (this.textValue !== before.text || this.stoppable !== before.stoppable) this.changed.fire();
  }

  private render(): void {
    const whole = this.ports.source();
    const source = whole ? subagentSource(whole, this.cardId) : undefined;
    if (!source || !whole) {
      // The conversation or the card is gone: the tab keeps its last text, with nothing to stop.
      if (this.childValue !== undefined) this.childValue = { ...this.childValue, cancel: false };
      return;
    }
    this.found = true;
    this.titleValue = source.title;
    const card = whole.entries.find((e) => e.id === this.cardId);
    this.childValue = card?.kind === 'tool_call' ? card.childSession : undefined;
    this.inside.clear();
    this.inside.add(this.cardId);
    this.terminalIds.clear();
    for (const entry of source.entries) {
      this.inside.add(entry.id);
      if (entry.kind !== 'tool_call' || !Array.isArray(entry.content)) continue;
      for (const item of entry.content) if (item.type === 'terminal') this.terminalIds.add(item.terminalId);
    }
    this.textValue = conversationMarkdown(source, { secrets: this.ports.secrets() }).text;
  }
}

const parentOf = (entry: Entry): string | undefined => {
  const id = (entry as { parentId?: unknown }).parentId;
  return typeof id === 'string' ? id : undefined;
};
