import * as l10n from '@vscode/l10n';
import type { MentionChip, QueueView, QueuedPromptView } from '../protocol/messages';

/** Longest prompt kept in the queue; longer text is refused rather than silently cut. */
export const MAX_QUEUED_TEXT = 1_000_000;
/** Prompts a queue holds at most (a stuck key must not fill memory). */
export const MAX_QUEUED_ITEMS = 100;

/**
 * Prompts the user wrote that are not sent yet: typed while the agent was starting or while a turn
 * ran. They go out one at a time, in order, when the conversation is ready — unless the queue is
 * paused, which happens when a turn fails or is cancelled or the agent cannot start: then nothing
 * is sent until the user says so (resume, send now, edit, remove).
 */
export class PromptQueue {
  private items: QueuedPromptView[] = [];
  private pausedReason: string | undefined;
  private nextNumber = 1;

  constructor(private readonly changed: (view: QueueView) => void) {}

  get size(): number {
    return this.items.length;
  }

  get paused(): boolean {
    return this.pausedReason !== undefined;
  }

  view(): QueueView {
    const items = this.items.map((item) => ({ ...item }));
    return this.pausedReason === undefined ? { items } : { items, paused: this.pausedReason };
  }

  /** Adds a prompt (text and chips) at the end; returns its id, or undefined when it was refused. */
  add(text: string, mentions: readonly MentionChip[] = []): string | undefined {
    if ((text.trim() === '' && mentions.length === 0) || text.length > MAX_QUEUED_TEXT || this.items.length >= MAX_QUEUED_ITEMS) return undefined;
    const id = `q${this.nextNumber++}`;
    this.items.push(mentions.length > 0 ? { id, text, mentions: [...mentions] } : { id, text });
    this.notify();
    return id;
  }

  /** Restores stored items (after a restart): nothing is sent until the user resumes. */
  restore(items: readonly QueuedPromptView[]): void {
    this.items = [];
    for (const item of items) {
      const mentions = Array.isArray(item?.mentions) ? item.mentions : [];
      if (typeof item?.text === 'string' && (item.text.trim() !== '' || mentions.length > 0))
        this.items.push({ id: `q${this.nextNumber++}`, text: item.text, ...(mentions.length > 0 ? { mentions } : {}) });
      if (this.items.length >= MAX_QUEUED_ITEMS) break;
    }
    this.pausedReason = this.items.length > 0 ? l10n.t('These prompts were waiting when VS Code closed.') : undefined;
    this.notify();
  }

  /** A prompt taken for sending that could not go (Stop came first): back at the front, paused. */
  unsend(item: Pick<QueuedPromptView, 'text' | 'mentions'>, reason: string): void {
    this.items.unshift({ ...item, id: `q${this.nextNumber++}` });
    this.pausedReason = reason;
    this.notify();
  }

  /** The next prompt to send, removed from the queue; undefined when empty or paused. */
  takeNext(): QueuedPromptView | undefined {
    if (this.pausedReason !== undefined) return undefined;
    const next = this.items.shift();
    if (next) this.notify();
    return next;
  }

  edit(id: string, text: string): boolean {
    const index = this.items.findIndex((i) => i.id === id);
    const item = this.items[index];
    // Text may be emptied when chips remain: they are the prompt then.
    if (!item || (text.trim() === '' && (item.mentions?.length ?? 0) === 0) || text.length > MAX_QUEUED_TEXT) return false;
    // The items are readonly views: replace the edited one (view() copies them anyway).
    this.items[index] = { ...item, text };
    this.notify();
    return true;
  }

  remove(id: string): boolean {
    const index = this.items.findIndex((i) => i.id === id);
    if (index < 0) return false;
    this.items.splice(index, 1);
    if (this.items.length === 0) this.pausedReason = undefined;
    this.notify();
    return true;
  }

  /** Moves an item by `offset` places (clamped to the ends). */
  move(id: string, offset: number): boolean {
    const index = this.items.findIndex((i) => i.id === id);
    if (index < 0 || !Number.isInteger(offset) || offset === 0) return false;
    const target = Math.max(0, Math.min(this.items.length - 1, index + offset));
    if (target === index) return false;
    const [item] = this.items.splice(index, 1);
    this.items.splice(target, 0, item);
    this.notify();
    return true;
  }

  /** Puts an item first and lets the queue send again ("Send now"). */
  promote(id: string): boolean {
    const index = this.items.findIndex((i) => i.id === id);
    if (index < 0) return false;
    const [item] = this.items.splice(index, 1);
    this.items.unshift(item);
    this.pausedReason = undefined;
    this.notify();
    return true;
  }

  /** Stops automatic sending until resume(); a no-op on an empty queue (nothing to hold back). */
  pause(reason: string): void {
    if (this.items.length === 0 || this.pausedReason === reason) return;
    this.pausedReason = reason;
    this.notify();
  }

  resume(): void {
    if (this.pausedReason === undefined) return;
    this.pausedReason = undefined;
    this.notify();
  }

  clear(): void {
    if (this.items.length === 0 && this.pausedReason === undefined) return;
    this.items = [];
    this.pausedReason = undefined;
    this.notify();
  }

  private notify(): void {
    this.changed(this.view());
  }
}
