import type { RestoreStep } from '../review/checkpointTypes';
import type { WorktreeBinding } from '../store/conversationMeta';
import type { IDisposable } from '../util/disposable';
import type { ApplyPlan, ApplyStep, MainReader } from '../worktree/applyPlan';
import type { WorktreeService, WorktreeStatus } from '../worktree/worktreeService';
import type { ReviewHost } from './conversationReview';

/** What a conversation does with its worktree when it is closed or deleted. */
export type WorktreeDecision = 'keep' | 'remove' | 'cancel';

/**
 * What conversations in their own git worktree need from the editor: the git side (vscode-free,
 * `WorktreeService`), the workspace's files as the editor has them, and every question and preview
 * the user sees (the apply preview, the merge editor, keep-or-remove on close). Undefined in
 * EditorPorts: no worktrees (tests, a window without a folder).
 */
export interface WorktreeHost {
  service: WorktreeService;
  /** Why no conversation may get a worktree now (an untrusted workspace); undefined: they may, if git can. */
  blocked(): string | undefined;
  /** A workspace file's content now (the editor's text, unsaved changes included); undefined: no such file. */
  readMain: MainReader;
  /** The review of a conversation working in `root`: its checkpoints kept apart from the workspace's. */
  reviewFor(conversationId: string, root: string): ReviewHost | undefined;
  /** Shows what Apply would do, file by file; true to go ahead. */
  confirmApply(plan: ApplyPlan, binding: WorktreeBinding): Promise<boolean>;
  /** Writes into the workspace as one undoable edit, and saves; refused when a target would leave `repo` (see assertTargets). */
  apply(steps: readonly RestoreStep[], label: string, repo: string): Promise<void>;
  /** Opens VS Code's merge editor on each conflicted file (start / workspace / agent, result in the file). */
  resolveConflicts(conflicts: readonly ApplyStep[], binding: WorktreeBinding): Promise<void>;
  /** The commit message, prefilled with `suggested`; undefined: the user cancelled. */
  commitMessage(suggested: string, binding: WorktreeBinding): Promise<string | undefined>;
  /** Discarding loses these changes (and commits on the branch): true to go ahead. */
  confirmDiscard(binding: WorktreeBinding, status: WorktreeStatus): Promise<boolean>;
  /**
   * The conversation is being closed or deleted: keep its worktree, remove it (confirmed again when
   * it has unapplied changes), or not close at all.
   */
  askOnClose(binding: WorktreeBinding, title: string, status: WorktreeStatus, deleting: boolean): Promise<WorktreeDecision>;
  /** git refused to remove it (`message` says why, e.g. submodules with changes): remove it anyway? */
  confirmForce(binding: WorktreeBinding, message: string): Promise<boolean>;
  /** A message for after the conversation is gone (no thread to show it in). */
  inform(message: string, error?: boolean): void;
  /** Calls `changed` when files under the worktree change (agents that write the disk themselves). */
  watch(root: string, changed: () => void): IDisposable;
}
