/**
 * Public shapes of the checkpoint store (see `checkpointStore.ts` for the behaviour). Paths handed
 * out are absolute (`path`) plus root-relative with `/` separators (`relPath`, for display).
 */

/** A recorded state of the workspace, taken at the start of a turn. */
export interface Checkpoint {
  /** Stable id; pass it (or this object) back to the store. Survives a reload of the store. */
  readonly id: string;
  /** `Date.now()` at capture. */
  readonly createdAt: number;
  /** Free text from `create(label)`, e.g. the turn it belongs to. */
  readonly label: string | undefined;
  /**
   * Root-relative paths present at capture whose content was not recorded because they were larger
   * than `maxFileBytes`. Their changes are still noticed (size/mtime) but cannot be diffed or undone,
   * unless `recordBeforeWrite` recorded them before a client write.
   */
  readonly skipped: readonly string[];
  /**
   * False when the folder backend stopped scanning at `maxFiles`: files it never saw are then not
   * reported as added (the checkpoint cannot tell whether they existed).
   */
  readonly complete: boolean;
}

/** A checkpoint or its id. */
export type CheckpointRef = Checkpoint | string;

/**
 * Which state of a checkpoint to compare with or restore to:
 * - `baseline` (default): the captured state with the user's Keep/accepted hunks applied — what the
 *   review strip ("changed files", Undo, per-hunk reject) works against;
 * - `start`: the state as captured (plus `recordBeforeWrite` fills), ignoring Keep — what "Restore
 *   files to before this turn" restores.
 */
export type CheckpointState = 'baseline' | 'start';

/** One file that differs between a checkpoint and the disk now. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Path relative to the store's root, `/`-separated. */
  relPath: string;
  /** `added`: absent at the checkpoint; `deleted`: absent now; `modified`: content differs. */
  status: 'added' | 'modified' | 'deleted';
  /** Lines added since the checkpoint (0 when `binary`). */
  added: number;
  /** Lines removed since the checkpoint (0 when `binary`). */
  removed: number;
  /**
   * No line counts: one side is binary (a NUL byte in its first 8 KB, as git decides) or larger
   * than `maxFileBytes`, or the earlier content was not recorded.
   */
  binary: boolean;
  /** False when the checkpoint has no content for this file (it was too large), so Undo cannot work. */
  restorable: boolean;
}

/**
 * One step of a restore: the editor adapter applies a whole plan as one undoable edit (save
 * afterwards so the disk matches); `applyPlanOnDisk` applies it without an editor.
 */
export type RestoreStep =
  /** Replace or create the file with this text (it is valid UTF-8; a BOM is kept as U+FEFF). */
  | { kind: 'write'; path: string; relPath: string; text: string }
  /** Replace or create the file with these bytes (binary, or not valid UTF-8). */
  | { kind: 'writeBytes'; path: string; relPath: string; bytes: Uint8Array }
  /** Delete the file (it did not exist at the checkpoint). */
  | { kind: 'delete'; path: string; relPath: string };

/** What `recordBeforeWrite` did. */
export type RecordOutcome =
  /** The capture already knows this path's earlier state (content, or that it did not exist). */
  | 'covered'
  /** The path was outside the capture (ignored, excluded or too large): its state now is recorded. */
  | 'recorded'
  /** Outside the store's root, or not a regular file (a folder, a symlink): not recordable. */
  | 'outside'
  /** Larger than the store's whole `maxBytes`: not recorded. */
  | 'tooLarge';

/** Why a checkpoint cannot answer. */
export type CheckpointErrorKind =
  /** No checkpoint with this id (dropped by the size/count caps, or never created). */
  | 'unknownCheckpoint'
  /** The checkpoint has no content for this path (too large, or outside what it covers). */
  | 'notRecorded'
  /** The content is binary (or not valid UTF-8 where exact text is needed). */
  | 'binary'
  /** The stored content is gone (e.g. pruned by `git gc` in the user's repository). */
  | 'missing';

/** Typed failure of the checkpoint store. */
export class CheckpointError extends Error {
  constructor(
    readonly kind: CheckpointErrorKind,
    readonly target: string,
  ) {
    super(`${kind}: ${target}`);
    this.name = 'CheckpointError';
  }
}

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CHECKPOINTS = 50;

export interface CheckpointStoreOptions {
  /** The folder checkpoints cover (a workspace folder). */
  root: string;
  /** Where checkpoints are kept (the extension's workspace storage); created if missing. */
  storageDir: string;
  /** Cap on the bytes stored; the oldest checkpoints are dropped past it (default 50 MB). */
  maxBytes?: number;
  /** Files larger than this are not recorded by a capture (default 1 MB). */
  maxFileBytes?: number;
  /** Cap on the number of checkpoints kept (default 50). */
  maxCheckpoints?: number;
  /** Non-fatal problems (files skipped, caps reached) for the output channel. */
  warn?: (message: string) => void;
  /** The git executable (default `git`), or `false` to always use the folder backend. */
  gitPath?: string | false;
  /** Folder backend: stop scanning after this many files (default 20,000). */
  maxFiles?: number;
}
