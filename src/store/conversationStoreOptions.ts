// What a ConversationStore is told at construction, and where its files go: kept apart so the store
// itself reads as the write/read logic it is.

export const INDEX_FILE = 'conversations.json';
export const TRANSCRIPT_DIR = 'transcripts';
export const DEFAULT_MAX_CONVERSATIONS = 100;
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_DEBOUNCE_MS = 500;
export const DEFAULT_MAX_WAIT_MS = 3000;

export interface ConversationStoreOptions {
  /** The workspace's storage folder (e.g. `ExtensionContext.storageUri`); created on the first write. */
  dir: string;
  /** Reports a problem once (corrupt file set aside, failing writes, rejected id). Must not throw. */
  warn(text: string): void;
  /** Called with the ids evicted by any index save (their transcripts are deleted), so the caller can forget them. */
  onEvicted?(ids: string[]): void;
  /** Cap on stored conversations; default 100. Open tabs are never evicted. */
  maxConversations?: number;
  /** Cap on one transcript's JSON in bytes; default 4 MB. */
  maxTranscriptBytes?: number;
  /** Quiet time before a scheduled save runs; default 500 ms. */
  debounceMs?: number;
  /** Longest a scheduled save waits during a continuous burst; default 3 s. */
  maxWaitMs?: number;
}
