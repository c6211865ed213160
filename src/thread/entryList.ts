import type { ConversationChange, Entry, ErrorEntry, NoticeEntry } from '../protocol/messages';
import type { Draft } from '../protocol/draft';

/**
 * A thread's entries in order, with ids that are never reused (`e1`, `e2`, … continuing after a
 * restored transcript), and the panel change each addition or replacement makes. The session
 * reducer builds on it; other parts of a conversation (sign-in cards, questions, errors) add their
 * own entries through it.
 */
/** Prefix of the warning logged when the reducer itself fails; tests assert it never appears. */
export const INTERNAL_ERROR_PREFIX = 'Session reducer internal error';

export class EntryList {
  protected readonly list: Entry[] = [];
  private nextEntryNumber = 1;

  /** @param report where dropped or malformed input is reported (the protocol log). */
  constructor(private readonly report: (text: string) => void) {}

  /** Reports a problem; bound once so parsing helpers can take it as a plain function. */
  protected readonly warn = (text: string): void => {
    try {
      this.report(text);
    } catch {
      // A failing logger must not break the thread.
    }
  };

  /** Untrusted input must never throw into the connection's handlers; a bug is logged instead. */
  protected guarded(run: () => ConversationChange[]): ConversationChange[] {
    try {
      return run();
    } catch (error) {
      this.warn(`${INTERNAL_ERROR_PREFIX}: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  /** Copies of the thread's entries, in order. */
  entries(): Entry[] {
    return this.list.map((entry) => ({ ...entry }));
  }

  /** The entry with this id as it is kept (not a copy: read it, do not change it). */
  find(id: string): Readonly<Entry> | undefined {
    return this.list.find((e) => e.id === id);
  }

  /** Number of entries, without copying them. */
  get size(): number {
    return this.list.length;
  }

  /** Adds an entry another part of the conversation owns (sign-in card, question); returns it with its id. */
  addEntry<E extends Entry>(build: (id: string) => E): { entry: E; changes: ConversationChange[] } {
    const entry = build(this.newId());
    return { entry, changes: [this.push(entry)] };
  }

  /** Replaces such an entry in place (same id, same position). */
  replaceEntry(entry: Entry): ConversationChange[] {
    const index = this.list.findIndex((e) => e.id === entry.id);
    if (index < 0) return [];
    this.list[index] = entry;
    return [this.upserted(entry)];
  }

  addNotice(level: NoticeEntry['level'], message: string): ConversationChange[] {
    return [this.push({ kind: 'notice', id: this.newId(), level, message })];
  }

  addError(message: string, detail?: string, action?: ErrorEntry['action'], offerCheck = false): ConversationChange[] {
    const entry: Draft<ErrorEntry> = { kind: 'error', id: this.newId(), message };
    if (detail !== undefined) entry.detail = detail;
    if (action !== undefined) entry.action = action;
    if (offerCheck) entry.offerCheck = true;
    return [this.push(entry)];
  }

  /** Appends a new entry at the end of the thread. */
  protected push(entry: Entry): ConversationChange {
    this.list.push(entry);
    this.appended();
    return this.upserted(entry);
  }

  /** Called after every append (the reducer stops streaming into the entry before it). */
  protected appended(): void {
    // Nothing by default.
  }

  protected upserted(entry: Entry): ConversationChange {
    return { type: 'entryUpserted', entry: { ...entry } };
  }

  protected newId(): string {
    return `e${this.nextEntryNumber++}`;
  }

  /** Takes a stored entry as it is; numbering continues after the highest `e<n>` id seen. */
  protected adopt(entry: Entry): void {
    const number = /^e(\d+)$/.exec(entry.id);
    if (number) this.nextEntryNumber = Math.max(this.nextEntryNumber, Number(number[1]) + 1);
    this.list.push(entry);
  }

  /** Empties the thread; numbering continues so no id is ever reused. */
  protected truncate(): void {
    this.list.length = 0;
  }
}
