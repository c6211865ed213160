import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import type { ConversationMeta, WorktreeBinding } from '../store/conversationMeta';
import { errorMessage } from '../util/errors';
import { WorktreeError } from '../worktree/worktreeGit';
import type { WorktreeStatus } from '../worktree/worktreeService';
import type { WorktreeHost } from './worktreeHost';

/**
 * A new conversation in its own git worktree: a new branch from the workspace's HEAD, the session
 * working in the workspace folder's place in it. Rejects with a WorktreeError saying why not.
 * Generic over what the manager makes, so that this file need not import the manager or the
 * conversation (which import it).
 */
export async function newConversationInWorktree<C>(
  manager: { newConversation(agentName: string | undefined, place: Pick<ConversationMeta, 'id' | 'worktree' | 'cwd'>): C },
  host: WorktreeHost,
  folder: string,
  agentName?: string,
): Promise<C> {
  const id = randomUUID();
  const binding = await host.service.create(folder, id);
  return manager.newConversation(agentName, { id, worktree: binding, cwd: host.service.cwdOf(binding) });
}

/**
 * A closed conversation with a worktree is deleted (from History): ask keep or remove, and remove
 * when told to. 'cancel' when the user backed out (nothing is deleted).
 */
export async function forgetWorktree(host: WorktreeHost | undefined, meta: ConversationMeta): Promise<'keep' | 'removed' | 'cancel'> {
  const binding = meta.worktree;
  if (!host || !binding) return 'keep';
  const status = await statusOrMissing(host, binding);
  const decision = await host.askOnClose(binding, meta.title, status, true);
  if (decision !== 'remove') return decision;
  return (await removeWorktree(host, binding, status)) ? 'removed' : 'keep';
}

/**
 * The worktree's status for closing or removing it: `unapplied` is what removing would lose (see
 * WorktreeService.lostOnRemove). One that cannot be read counts as missing (nothing to lose there).
 */
export function statusOrMissing(host: WorktreeHost, binding: WorktreeBinding): Promise<WorktreeStatus> {
  return host.service.lostOnRemove(binding, host.readMain).catch((): WorktreeStatus => ({ state: 'missing', unapplied: [], commits: 0 }));
}

/**
 * Removes the worktree. Forced only when the user already agreed to lose its unapplied changes;
 * otherwise a refusal (submodules, files git would lose) is shown and forcing asked. Says what
 * became of the branch (kept when it has commits). False when it is still there.
 */
export async function removeWorktree(host: WorktreeHost, binding: WorktreeBinding, status: WorktreeStatus): Promise<boolean> {
  const tell = (branchKept: boolean) =>
    host.inform(
      branchKept
        ? l10n.t('Removed the worktree {0}; the branch {1} is kept (it has commits).', binding.path, binding.branch)
        : l10n.t('Removed the worktree {0} and its branch {1}.', binding.path, binding.branch),
    );
  try {
    tell((await host.service.remove(binding, status.unapplied.length > 0)).branchKept);
    return true;
  } catch (err) {
    let failure: unknown = err;
    const refused = err instanceof WorktreeError && err.kind !== 'noGit' && err.kind !== 'lockedIndex';
    if (refused && (await host.confirmForce(binding, err.message))) {
      try {
        tell((await host.service.remove(binding, true)).branchKept);
        return true;
      } catch (again) {
        failure = again;
      }
    }
    host.inform(l10n.t('The worktree {0} was not removed: {1}', binding.path, errorMessage(failure)), true);
    return false;
  }
}
