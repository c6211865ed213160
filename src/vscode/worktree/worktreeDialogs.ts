import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { WorktreeDecision } from '../../conversation/worktreeHost';
import type { WorktreeBinding } from '../../store/conversationMeta';
import type { ApplyPlan, ApplyStep } from '../../worktree/applyPlan';
import type { WorktreeStatus } from '../../worktree/worktreeService';

/** The questions and previews of conversation worktrees, as modal dialogs (keyboard and screen readers get them for free). */

const SHOWN = 20;

function listed(lines: string[]): string {
  const shown = lines.slice(0, SHOWN);
  if (lines.length > SHOWN) shown.push(l10n.t('… and {0} more', lines.length - SHOWN));
  return shown.join('\n');
}

function stepLine(step: ApplyStep): string | undefined {
  switch (step.outcome) {
    case 'create':
      return l10n.t('{0} — created', step.relPath);
    case 'update':
      return l10n.t('{0} — updated', step.relPath);
    case 'delete':
      return l10n.t('{0} — deleted', step.relPath);
    case 'merged':
      return l10n.t('{0} — merged with your changes', step.relPath);
    case 'conflict':
      return l10n.t('{0} — conflicts with your changes: opens in the merge editor', step.relPath);
    case 'skipped':
      return l10n.t('{0} — not applied: {1}', step.relPath, step.reason ?? '');
    case 'same':
      return undefined;
  }
}

/** The Apply preview: every file and what happens to it; true to go ahead. */
export async function confirmApply(plan: ApplyPlan, binding: WorktreeBinding): Promise<boolean> {
  const lines = plan.steps.map(stepLine).filter((l): l is string => l !== undefined);
  const apply = l10n.t('Apply');
  const answer = await vscode.window.showInformationMessage(
    l10n.t('Apply the changes of {0} to the workspace?', binding.branch),
    {
      modal: true,
      detail: `${listed(lines)}\n\n${l10n.t('Nothing you changed is overwritten: files changed on both sides are merged, or marked as conflicts. This is one step you can undo in the editor.')}`,
    },
    apply,
  );
  return answer === apply;
}

export async function commitMessage(suggested: string, binding: WorktreeBinding): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: l10n.t('Commit on {0}', binding.branch),
    prompt: l10n.t('The commit message (everything in the worktree is committed on its branch; the workspace is not touched)'),
    value: suggested,
    validateInput: (v) => (v.trim() === '' ? l10n.t('A commit message cannot be empty') : undefined),
  });
}

function losses(status: WorktreeStatus): string {
  const parts: string[] = [];
  if (status.unapplied.length > 0) parts.push(l10n.t('{0} changed file(s) not applied to the workspace', status.unapplied.length));
  if (status.commits > 0) parts.push(l10n.t('{0} commit(s) on the branch', status.commits));
  return parts.join(l10n.t(' and '));
}

export async function confirmDiscard(binding: WorktreeBinding, status: WorktreeStatus): Promise<boolean> {
  const discard = l10n.t('Discard');
  const lost = losses(status);
  const answer = await vscode.window.showWarningMessage(
    l10n.t('Discard everything in the worktree {0}?', binding.branch),
    {
      modal: true,
      detail: `${lost ? l10n.t('This loses {0}.', lost) : l10n.t('There is nothing to lose.')} ${l10n.t('The worktree goes back to {0}, the commit it started from. This cannot be undone.', binding.base.slice(0, 7))}`,
    },
    discard,
  );
  return answer === discard;
}

/** Closing or deleting: keep or remove; removing unapplied changes is confirmed once more. */
export async function askOnClose(binding: WorktreeBinding, title: string, status: WorktreeStatus, deleting: boolean): Promise<WorktreeDecision> {
  const keep = l10n.t('Keep the Worktree');
  const remove = l10n.t('Remove the Worktree');
  const state =
    status.state === 'missing'
      ? l10n.t('Its folder was already deleted.')
      : losses(status)
        ? l10n.t('It has {0}.', losses(status))
        : l10n.t('Everything in it is applied to the workspace.');
  const answer = await vscode.window.showWarningMessage(
    deleting
      ? l10n.t('The conversation "{0}" worked in the worktree {1}. Keep the worktree, or remove it?', title, binding.branch)
      : l10n.t('Closing "{0}": keep its worktree {1} for later, or remove it?', title, binding.branch),
    { modal: true, detail: `${binding.path}\n${state}` },
    keep,
    remove,
  );
  if (answer === keep) return 'keep';
  if (answer !== remove) return 'cancel';
  if (status.unapplied.length === 0) return 'remove';
  const sure = l10n.t('Remove and Lose Them');
  const again = await vscode.window.showWarningMessage(
    l10n.t('Remove the worktree {0} and lose {1} changed file(s) that are not in the workspace?', binding.branch, status.unapplied.length),
    { modal: true, detail: listed(status.unapplied.map((c) => c.relPath)) },
    sure,
  );
  return again === sure ? 'remove' : 'cancel';
}

export async function confirmForce(binding: WorktreeBinding, message: string): Promise<boolean> {
  const force = l10n.t('Remove Anyway');
  const answer = await vscode.window.showWarningMessage(
    l10n.t('git did not remove the worktree {0}.', binding.branch),
    { modal: true, detail: `${message}\n\n${l10n.t('Remove it anyway? Its folder is deleted with everything in it.')}` },
    force,
  );
  return answer === force;
}
