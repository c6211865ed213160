/**
 * Splits a long conversation's snapshot for the first paint. Everything the panel shows crosses a
 * process boundary and is copied twice on its way into the webview, so a 5 MB thread costs a few
 * hundred milliseconds before anything paints. The panel needs only the last screens at first:
 * those go in the snapshot, the older entries right after it in an `olderEntries` message, and the
 * panel places them above what it already shows.
 */
import type { ConversationSnapshot, Entry, HostMessage, TerminalView } from '../protocol/messages';

/** Most entries in the first message (a screen rarely holds more than a few dozen). */
export const FIRST_PAINT_ENTRIES = 60;
/** Most characters of entries in the first message (roughly JSON size); at least one entry goes. */
export const FIRST_PAINT_CHARS = 256 * 1024;

export interface SplitSnapshot<T extends ConversationSnapshot> {
  first: T;
  /** Follows `first` at once; absent when the thread is short enough to go whole. */
  older?: Extract<HostMessage, { type: 'olderEntries' }>;
}

export function splitSnapshot<T extends ConversationSnapshot>(snapshot: T): SplitSnapshot<T> {
  const { entries } = snapshot;
  let start = entries.length;
  let chars = 0;
  while (start > 0 && entries.length - start < FIRST_PAINT_ENTRIES) {
    const size = approximateSize(entries[start - 1]);
    if (chars + size > FIRST_PAINT_CHARS && start < entries.length) break;
    chars += size;
    start--;
  }
  start = withParents(entries, start);
  if (start === 0) return { first: snapshot };
  const tail = entries.slice(start);
  const shown = terminalIdsOf(tail);
  const firstTerminals: Record<string, TerminalView> = {};
  const olderTerminals: Record<string, TerminalView> = {};
  for (const [id, view] of Object.entries(snapshot.terminals)) (shown.has(id) ? firstTerminals : olderTerminals)[id] = view;
  return {
    first: { ...snapshot, entries: tail, terminals: firstTerminals, olderEntries: start },
    older: { type: 'olderEntries', conversationId: snapshot.conversationId, entries: entries.slice(0, start), terminals: olderTerminals },
  };
}

/**
 * Moves the split back so that a subagent's entries in the first message have their parent card
 * there too: the panel nests a child only under a card it already has (older entries placed above
 * later would leave them flat).
 */
function withParents(entries: readonly Entry[], start: number): number {
  if (start === 0) return 0;
  const index = new Map<string, number>();
  entries.forEach((e, i) => index.set(e.id, i));
  for (let i = entries.length - 1; i >= start; i--) {
    const parent = 'parentId' in entries[i] ? (entries[i] as { parentId?: string }).parentId : undefined;
    const at = parent === undefined ? undefined : index.get(parent);
    // Going back to a parent also brings in the entries between, which are checked in turn.
    if (at !== undefined && at < start) start = at;
  }
  return start;
}

/** Characters an entry adds to the message, without serialising it: its texts dominate. */
function approximateSize(entry: Entry): number {
  switch (entry.kind) {
    case 'user':
    case 'agent':
    case 'thought':
      return entry.text.length + 200;
    case 'tool_call': {
      let size = 500 + entry.title.length;
      for (const item of entry.content) {
        if (item.type === 'markdown' || item.type === 'output') size += item.text.length;
        else if (item.type === 'diff') size += item.hunks.reduce((n, h) => n + h.lines.reduce((m, l) => m + l.text.length + 40, 0), 0);
        else size += 200;
      }
      return size;
    }
    default:
      return 1000;
  }
}

function terminalIdsOf(entries: Entry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'tool_call') continue;
    for (const item of entry.content) if (item.type === 'terminal') ids.add(item.terminalId);
  }
  return ids;
}

type OlderEntriesMessage = Extract<HostMessage, { type: 'olderEntries' }>;

/**
 * The panel side of the split, for whoever posts to it (the view provider, the test bridge): splits
 * each conversation the panel is about to show — the snapshot on `ready`, a `conversationShown` on a
 * tab switch — and keeps the older part until the panel asks for it. Only the shown conversation's
 * part is kept: the panel asks only for that one.
 */
export class OlderEntries {
  private pending: OlderEntriesMessage | undefined;

  /** The snapshot to send now (its last screens, or all of a short thread). */
  split<T extends ConversationSnapshot>(snapshot: T): T {
    const { first, older } = splitSnapshot(snapshot);
    this.pending = older;
    return first;
  }

  /** A host message about to be posted, with a shown conversation split the same way. */
  outgoing(message: HostMessage): HostMessage {
    return message.type === 'conversationShown' ? { type: 'conversationShown', conversation: this.split(message.conversation) } : message;
  }

  /** The panel asks (`olderEntriesWanted`): the kept part, if it is that conversation's. */
  take(conversationId: string): OlderEntriesMessage | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending?.conversationId === conversationId ? pending : undefined;
  }

  clear(): void {
    this.pending = undefined;
  }
}
