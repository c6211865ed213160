import type { IDisposable } from '../util/disposable';
import type { Transcript } from './conversationFormat';
import { SearchIndex, type SearchHit, type SearchOptions } from './searchIndex';

/** A conversation to search: its id and current title. */
export interface SearchedConversation {
  id: string;
  title: string;
}

export interface ConversationSearchOptions {
  /** A conversation's kept transcript (the store's `loadTranscript`: pending saves are written first). */
  load(id: string): Promise<Pick<Transcript, 'entries'> | undefined>;
  /** Lets the event loop run between two conversations while the index is built; default: a macrotask. */
  pause?: () => Promise<void>;
  /** The index is let go after this long without a search (it holds the text of every conversation); default 5 min. */
  idleMs?: number;
}

/** Rounds of loading in one prepare: a conversation saved during every round is searched as last loaded. */
const MAX_ROUNDS = 3;

/**
 * The search index kept in step with the store, off the streaming path: built lazily, on the first
 * search, from the kept transcripts; a transcript the store saves afterwards is only marked stale
 * (`saved`: nothing is read or parsed then) and read again at the next search; a removed one leaves
 * the index at once. A load that a save overtook is not trusted and is read again.
 */
export class ConversationSearch implements IDisposable {
  private readonly index = new SearchIndex();
  /** Ids whose indexed text is what the store last saved. */
  private readonly fresh = new Set<string>();
  /** Bumped by each save or removal, so a load that raced with one can tell. */
  private readonly generations = new Map<string, number>();
  private building: Promise<void> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: ConversationSearchOptions) {}

  /** The store wrote this conversation's transcript. */
  saved(id: string): void {
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    this.fresh.delete(id);
  }

  /** The conversation and its transcript are gone. */
  removed(id: string): void {
    this.saved(id);
    this.index.remove(id);
  }

  /** How many conversations are indexed, and their characters (bench, tests). */
  stats(): { conversations: number; chars: number } {
    return { conversations: this.index.ids().length, chars: this.index.chars };
  }

  /**
   * Indexes what is missing or stale among `conversations` (and forgets the ones not listed);
   * `progress` hears how many of them are indexed so far. Concurrent calls share one build.
   */
  async prepare(conversations: readonly SearchedConversation[], progress?: (done: number, total: number) => void): Promise<void> {
    this.touch();
    const listed = new Set(conversations.map((c) => c.id));
    for (const id of this.index.ids()) if (!listed.has(id)) this.forget(id);
    for (const c of conversations) this.index.setTitle(c.id, c.title);
    for (let round = 0; round < MAX_ROUNDS && conversations.some((c) => !this.fresh.has(c.id)); round++) {
      // Another caller's build may cover other conversations: wait for it, then build what is still missing.
      while (this.building) await this.building;
      if (!conversations.some((c) => !this.fresh.has(c.id))) break;
      this.building = this.build(conversations, progress).finally(() => (this.building = undefined));
      await this.building;
    }
  }

  /** Hits for `query` in `conversations` (in their order), the index brought up to date first. */
  async search(conversations: readonly SearchedConversation[], query: string, options?: SearchOptions): Promise<SearchHit[]> {
    await this.prepare(conversations);
    return this.index.search(
      query,
      conversations.map((c) => c.id),
      options,
    );
  }

  /**
   * Hits among what is indexed now, without waiting for the rest (the picker shows these while the
   * first build runs, newest conversations first).
   */
  searchIndexed(conversations: readonly SearchedConversation[], query: string, options?: SearchOptions): SearchHit[] {
    return this.index.search(
      query,
      conversations.map((c) => c.id),
      options,
    );
  }

  /** True while the index is being built or brought up to date. */
  get busy(): boolean {
    return this.building !== undefined;
  }

  dispose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.release();
  }

  private async build(conversations: readonly SearchedConversation[], progress?: (done: number, total: number) => void): Promise<void> {
    const pause = this.opts.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    let done = conversations.filter((c) => this.fresh.has(c.id)).length;
    for (const c of conversations) {
      if (this.fresh.has(c.id)) continue;
      const generation = this.generations.get(c.id) ?? 0;
      let transcript: Pick<Transcript, 'entries'> | undefined;
      try {
        transcript = await this.opts.load(c.id);
      } catch {
        // Unreadable: its title can still be found; the store has reported the file.
        transcript = undefined;
      }
      if ((this.generations.get(c.id) ?? 0) === generation) {
        this.index.set(c.id, c.title, transcript);
        this.fresh.add(c.id);
        progress?.(++done, conversations.length);
      }
      await pause();
    }
  }

  private forget(id: string): void {
    this.index.remove(id);
    this.fresh.delete(id);
  }

  /** Re-arms the idle release. */
  private touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.release(), this.opts.idleMs ?? 5 * 60_000);
    // Never what keeps a process (a test, the extension host at shutdown) alive.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }

  private release(): void {
    if (this.building) return;
    for (const id of this.index.ids()) this.forget(id);
  }
}
