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
  /** The session's working folder: the workspace folder, or its place in the conversation's worktree. */
  cwd: string;
  /** The git worktree the conversation works in (its own branch), when it has one. */
  worktree?: WorktreeBinding;
  /** It began as an edit of an earlier prompt of another conversation (src/conversation/branches.ts). */
  branch?: BranchLink;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/**
 * A conversation's git worktree: where it is, its branch, and where it came from. The agent's
 * session works there instead of in the workspace folder; Tandem brings its changes over on request.
 */
export interface WorktreeBinding {
  /** The worktree's folder (absolute), outside the workspace. */
  path: string;
  /** Its branch, without `refs/heads/`. */
  branch: string;
  /** The commit it started from (full id). */
  base: string;
  /** The main working tree's top folder: the repository the workspace folder belongs to. */
  repo: string;
  /** The workspace folder's place inside the repository, `/`-separated ('' for its top). */
  folder: string;
  /**
   * The git dir git made for the worktree (`<repository's .git>/worktrees/<id>`), passed to every git
   * command Tandem runs there so the worktree's own `.git` file is never followed. Absent in bindings
   * from older versions: found again from the repository's side.
   */
  gitDir?: string;
  /** Tree id of the worktree's state last applied to the workspace; absent: nothing applied yet. */
  applied?: string;
  /** The branch still has the name it was created with (renamed once, after the conversation's title). */
  provisional?: boolean;
}

/**
 * Where a branch came from: the user edited prompt `at` of conversation `of`, and this conversation
 * goes on from there. The entries before `at` were copied with their ids, so a prompt among them
 * is the same prompt in both (`shared`).
 */
export interface BranchLink {
  /** The conversation it branched from. */
  of: string;
  /** The user entry of `of` that was edited. */
  at: string;
  /** This conversation's user entry that replaced it (set once the edited prompt is in the thread). */
  entry?: string;
  /** The ids of the user entries copied from `of` (before `at`). */
  shared: string[];
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
