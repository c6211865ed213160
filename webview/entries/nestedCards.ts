/**
 * Which entries of the thread are a subagent's, shown inside their parent's card rather than in the
 * log: every entry whose `parentId` names a tool call card in the store (the host links a child only
 * to a parent it knew, so there are no cycles; the walks here are bounded anyway). It keeps the
 * children of each parent in order, the groups of the parents whose cards are built, and tells
 * whether a prompt waits anywhere below a card — such a card is always built and its prompt shown.
 */
import type { Entry } from '../../src/protocol/messages';
import type { Store } from '../store/store';
import type { EntryView } from './entryView';

/** What a parent card's group does with its children (subagentGroup.ts). */
export interface ChildGroup {
  childChanged(entry: Entry): void;
}

const MAX_DEPTH = 32;

export function parentIdOf(entry: Entry): string | undefined {
  const id = (entry as { parentId?: unknown }).parentId;
  return typeof id === 'string' && id !== entry.id ? id : undefined;
}

export function awaitsAnswer(entry: Entry | undefined): boolean {
  return entry?.kind === 'tool_call' && entry.permission?.state.kind === 'pending';
}

export class NestedCards {
  private readonly children = new Map<string, string[]>();
  private readonly groups = new Map<string, ChildGroup>();
  /** Built cards without a group yet: called to make one when their first child arrives. */
  private readonly hosts = new Map<string, () => void>();

  constructor(
    private readonly store: Store,
    /** Builds an entry's view (the thread's factory), for the groups. */
    readonly build: (entry: Entry) => EntryView,
  ) {}

  /** True when the entry is shown inside its parent's card. */
  isChild(entry: Entry): boolean {
    const parent = parentIdOf(entry);
    return parent !== undefined && this.store.entry(parent)?.kind === 'tool_call';
  }

  /** A child arrived or changed: recorded in order, and handed to its parent's group when built. */
  changed(entry: Entry): void {
    const parent = parentIdOf(entry);
    if (parent === undefined) return;
    const list = this.children.get(parent) ?? [];
    if (!list.includes(entry.id)) {
      list.push(entry.id);
      this.children.set(parent, list);
    }
    const group = this.groups.get(parent);
    if (group) group.childChanged(entry);
    else this.hosts.get(parent)?.();
    // The groups above see their own child again: whether a prompt waits below it may have changed.
    let child = this.store.entry(parent);
    for (let depth = 0; child !== undefined && depth < MAX_DEPTH; depth++) {
      const up = this.isChild(child) ? parentIdOf(child) : undefined;
      if (up === undefined) break;
      this.groups.get(up)?.childChanged(child);
      child = this.store.entry(up);
    }
  }

  /** A built card that may get children: `makeGroup` runs when the first one arrives. */
  offer(parentId: string, makeGroup: () => void): void {
    this.hosts.set(parentId, makeGroup);
  }

  withdraw(parentId: string, makeGroup: () => void): void {
    if (this.hosts.get(parentId) === makeGroup) this.hosts.delete(parentId);
  }

  childIds(parentId: string): readonly string[] {
    return this.children.get(parentId) ?? [];
  }

  /** The top-level card an entry is shown in (itself when it is not a child). */
  rootOf(entryId: string): string {
    let id = entryId;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const entry = this.store.entry(id);
      const parent = entry && this.isChild(entry) ? parentIdOf(entry) : undefined;
      if (parent === undefined) return id;
      id = parent;
    }
    return id;
  }

  /** A prompt waits on the entry's card or on a subagent's card inside it. */
  asks(entry: Entry): boolean {
    return awaitsAnswer(entry) || this.subtreeAwaits(entry.id);
  }

  /** True when a permission prompt waits on a card below `entryId` (any depth). */
  subtreeAwaits(entryId: string, depth = 0): boolean {
    if (depth > MAX_DEPTH) return false;
    return this.childIds(entryId).some((id) => awaitsAnswer(this.store.entry(id)) || this.subtreeAwaits(id, depth + 1));
  }

  register(parentId: string, group: ChildGroup): void {
    this.groups.set(parentId, group);
  }

  unregister(parentId: string, group: ChildGroup): void {
    if (this.groups.get(parentId) === group) this.groups.delete(parentId);
  }

  /** The entries shown in the log itself, recording the others as children (`fresh`: a snapshot, recorded anew). */
  topLevel(entries: readonly Entry[], fresh: boolean): Entry[] {
    if (fresh) this.children.clear();
    const top: Entry[] = [];
    for (const entry of entries) {
      if (this.isChild(entry)) this.changed(entry);
      else top.push(entry);
    }
    return top;
  }
}
