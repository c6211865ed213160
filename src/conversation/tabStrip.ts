import type { HostMessage, TabView } from '../protocol/messages';
import type { Conversation } from './conversation';

/**
 * The conversations open as tabs: their order, the shown one, and which wait for the user (a
 * permission prompt is a state that shows as long as it waits). Owned by the manager; it decides
 * nothing about the conversations themselves.
 */
export class TabStrip {
  private readonly open = new Map<string, Conversation>();
  private order: string[] = [];
  private activeIdValue = '';
  private readonly waiting = new Map<string, boolean>();

  get activeId(): string {
    return this.activeIdValue;
  }

  get active(): Conversation | undefined {
    return this.open.get(this.activeIdValue);
  }

  get(id: string): Conversation | undefined {
    return this.open.get(id);
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  /** Open conversations in tab order. */
  conversations(): Conversation[] {
    return this.order.map((id) => this.open.get(id)!);
  }

  /** Ids in tab order (the index keeps them). */
  ids(): readonly string[] {
    return this.order;
  }

  isShown(id: string): boolean {
    return id === this.activeIdValue;
  }

  add(conversation: Conversation): void {
    this.open.set(conversation.id, conversation);
    this.order.push(conversation.id);
  }

  /** Takes the tab away; returns the tab that should be shown next when it was the shown one. */
  remove(id: string): { wasShown: boolean; next: string | undefined } {
    const index = this.order.indexOf(id);
    if (index >= 0) this.order.splice(index, 1);
    this.open.delete(id);
    this.waiting.delete(id);
    return { wasShown: this.activeIdValue === id, next: this.order[Math.min(index, this.order.length - 1)] };
  }

  /** `conversation` takes the tab of `oldId` (its place and, when shown, the front); the old one leaves the strip. */
  replace(oldId: string, conversation: Conversation): void {
    const order = this.order.filter((id) => id !== conversation.id);
    const at = order.indexOf(oldId);
    if (at >= 0) order[at] = conversation.id;
    else order.push(conversation.id);
    this.order = order;
    this.open.delete(oldId);
    this.waiting.delete(oldId);
    this.open.set(conversation.id, conversation);
    if (this.activeIdValue === oldId) this.activeIdValue = conversation.id;
  }

  show(id: string): void {
    this.activeIdValue = id;
  }

  /** True when whether `conversation` waits on a permission prompt changed since last asked (its badge changes). */
  waitingChanged(conversation: Conversation): boolean {
    const waiting = conversation.internals.thread.hasPendingPermission;
    if (waiting === (this.waiting.get(conversation.id) ?? false)) return false;
    this.waiting.set(conversation.id, waiting);
    return true;
  }

  tabs(): TabView[] {
    return this.conversations().map((c) => c.tab());
  }

  message(): Extract<HostMessage, { type: 'tabsChanged' }> {
    return { type: 'tabsChanged', tabs: this.tabs(), activeId: this.activeIdValue };
  }

  clear(): Conversation[] {
    const all = [...this.open.values()];
    this.open.clear();
    this.order = [];
    return all;
  }
}
