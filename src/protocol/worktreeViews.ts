/**
 * Host ⇄ webview protocol: a conversation's git worktree (its branch, what is not applied to the
 * workspace yet) and the review notes the user leaves on diffs for the agent. Part of the protocol
 * re-exported by messages.ts.
 */

/** The worktree a conversation works in, as the panel shows it (header, tab, the bar above the composer). */
export interface WorktreeView {
  readonly branch: string;
  /** The worktree's folder (absolute). */
  readonly path: string;
  /** Short id of the commit it started from. */
  readonly base: string;
  /** `missing`: its folder was deleted outside Tandem (the bar explains and offers to recreate it). */
  readonly state: 'ready' | 'missing';
  /** Files that differ from what was last applied to the workspace (from the start commit before any apply). */
  readonly unapplied: number;
  /** Commits made on the branch since the start commit. */
  readonly commits: number;
  /** Set while an action runs: what it is doing ("Applying…"). */
  readonly busy?: string;
  /** What the last action did ("Applied 2 files; 1 has conflicts to resolve"). */
  readonly notice?: string;
  /** Why the last action failed, and what to do. */
  readonly error?: string;
}

/** Whether new conversations can get a worktree here, and why not. */
export interface WorktreeOffer {
  readonly available: boolean;
  /** Why not (no git, not a repository, untrusted workspace…); absent when available. */
  readonly reason?: string;
  /** `tandem.newConversationsInWorktree`: the New Conversation button makes one in a worktree. */
  readonly byDefault: boolean;
}

/** A note the user left on a line or range of a diff, for the agent's next prompt. */
export interface ReviewNoteView {
  readonly id: string;
  /** Absolute path of the file (in the conversation's worktree, when it has one). */
  readonly path: string;
  /** Path relative to the conversation's folder, for display. */
  readonly relPath: string;
  /** Lines of the file as changed (1-based, inclusive). */
  readonly startLine: number;
  readonly endLine: number;
  /** The diff hunk the note is about, unified (`@@ … @@` then `-`/`+`/` ` lines), capped. */
  readonly hunk?: string;
  readonly text: string;
  /** `sent`: it went with a prompt (shown resolved). */
  readonly state: 'pending' | 'sent';
}

/** A stored (or received) note with every field of the right type. */
export function isReviewNoteView(v: unknown): v is ReviewNoteView {
  if (typeof v !== 'object' || v === null) return false;
  const n = v as Record<string, unknown>;
  const line = (x: unknown) => Number.isInteger(x) && (x as number) >= 1;
  return (
    typeof n.id === 'string' &&
    typeof n.path === 'string' &&
    typeof n.relPath === 'string' &&
    typeof n.text === 'string' &&
    line(n.startLine) &&
    line(n.endLine) &&
    (n.hunk === undefined || typeof n.hunk === 'string') &&
    (n.state === 'pending' || n.state === 'sent')
  );
}

/** A hunk as unified text (`@@ -a,b +c,d @@` then its `-`/`+`/` ` lines), as a note carries it. */
export function unifiedHunk(hunk: {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}): string {
  return [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n');
}
