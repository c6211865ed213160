/**
 * What Tandem remembers about a conversation besides its transcript (the index entry), and the
 * rules for its title. Kept apart from the store so the conversation and the store agree on one
 * shape without depending on each other.
 */
import * as l10n from '@vscode/l10n';

/** Where a title came from; a later title replaces an earlier one only from an equal or better source. */
export type TitleSource = 'none' | 'prompt' | 'agent' | 'user';

export interface ConversationMeta {
  /** Tandem's own id (stable across restarts; used in file names). */
  id: string;
  agentName: string;
  /** The agent's ACP session id, once it answered session/new (or the session Tandem loaded). */
  sessionId?: string;
  title: string;
  titleSource: TitleSource;
  cwd: string;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt: number;
}

const RANK: Record<TitleSource, number> = { none: 0, prompt: 1, agent: 2, user: 3 };

/** Longest title kept (tabs and history show one line). */
export const MAX_TITLE_LENGTH = 80;

/** True when a title from `next` may replace one from `current`. */
export function titleMayChange(current: TitleSource, next: TitleSource): boolean {
  return RANK[next] >= RANK[current];
}

/** One line, trimmed and bounded, from a prompt or an agent's title. */
export function cleanTitle(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  const single = (line ?? '').replace(/\s+/g, ' ');
  return single.length > MAX_TITLE_LENGTH ? `${single.slice(0, MAX_TITLE_LENGTH - 1)}…` : single;
}

/** A new conversation's meta; `now` is injectable for tests. */
export function newMeta(id: string, agentName: string, cwd: string, now = Date.now()): ConversationMeta {
  return { id, agentName, title: l10n.t('New conversation'), titleSource: 'none', cwd, createdAt: now, updatedAt: now };
}

/** The user renamed a conversation that is not open; false when the title is blank. */
export function renameMeta(meta: ConversationMeta, title: string): boolean {
  if (title.trim() === '') return false;
  meta.title = title.trim().slice(0, 80);
  meta.titleSource = 'user';
  return true;
}
