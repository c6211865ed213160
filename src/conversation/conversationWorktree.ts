import * as l10n from '@vscode/l10n';
import * as nodePath from 'node:path';
import type { WorktreeView } from '../protocol/messages';
import type { WorktreeBinding } from '../store/conversationMeta';
import type { Thread } from '../thread/thread';
import { Disposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { applySteps, samePlan, type ApplyPlan } from '../worktree/applyPlan';
import type { WorktreeStatus } from '../worktree/worktreeService';
import type { ConversationReview } from './conversationReview';
import type { ConversationState } from './ports';
import { removeWorktree, statusOrMissing } from './worktreeLifecycle';
import type { WorktreeDecision, WorktreeHost } from './worktreeHost';
import type { Draft } from '../protocol/draft';

/** What the part uses besides the conversation's state. */
export interface WorktreeParts {
  host: WorktreeHost;
  thread: Pick<Thread, 'addNotice'>;
  review: Pick<ConversationReview, 'keep' | 'refresh'>;
  /** The bar changed. */
  changed(view: WorktreeView): void;
  /** The binding changed (applied state, branch name): the index must be saved. */
  saved(): void;
  /** The worktree is back (recreated): the conversation may connect again. */
  recreated(): void;
}

const REFRESH_MS = 500;

/** "Applied 3 files; 1 has conflicts to resolve; 1 was skipped (…)". */
function applySummary(plan: ApplyPlan): string {
  const done = plan.steps.filter((s) => s.outcome !== 'same' && s.outcome !== 'skipped');
  const conflicts = plan.steps.filter((s) => s.outcome === 'conflict');
  const skipped = plan.steps.filter((s) => s.outcome === 'skipped');
  const parts = [done.length === 1 ? l10n.t('Applied 1 file to the workspace') : l10n.t('Applied {0} files to the workspace', done.length)];
  if (conflicts.length > 0)
    parts.push(
      conflicts.length === 1
        ? l10n.t('{0} has conflicts to resolve in the merge editor', conflicts[0].relPath)
        : l10n.t('{0} have conflicts to resolve in the merge editor', conflicts.map((c) => c.relPath).join(', ')),
    );
  for (const step of skipped) parts.push(l10n.t('{0} was not applied: {1}', step.relPath, step.reason ?? ''));
  return `${parts.join('; ')}.`;
}

/**
 * A conversation's git worktree: what the bar above the composer shows (branch, unapplied files,
 * commits), and its actions — Apply to the workspace (previewed; merged three-way so the user's
 * uncommitted edits stay; conflicts go to the merge editor), Commit on the branch, Discard,
 * Recreate after it was deleted by hand, and keep-or-remove when the conversation goes.
 */
export class ConversationWorktree extends Disposable {
  private status: WorktreeStatus | undefined;
  private busy: string | undefined;
  private notice: string | undefined;
  private error: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshes = 0;
  /** The refresh whose status is shown. */
  private shown = 0;
  private toldMissing = false;

  constructor(
    private readonly c: ConversationState,
    readonly binding: WorktreeBinding,
    private readonly parts: WorktreeParts,
  ) {
    super();
    this.register(parts.host.watch(binding.path, () => this.refreshSoon()));
    void this.refresh();
  }

  /** True while the worktree's folder is gone: the agent cannot work there. */
  get missing(): boolean {
    return !this.parts.host.service.exists(this.binding);
  }

  view(): WorktreeView {
    const { binding, status } = this;
    const view: Draft<WorktreeView> = {
      branch: binding.branch,
      path: binding.path,
      base: binding.base.slice(0, 7),
      state: this.missing ? 'missing' : 'ready',
      unapplied: status?.unapplied.length ?? 0,
      commits: status?.commits ?? 0,
    };
    if (this.busy !== undefined) view.busy = this.busy;
    if (this.notice !== undefined) view.notice = this.notice;
    if (this.error !== undefined) view.error = this.error;
    return view;
  }

  refreshSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
    this.timer.unref?.();
  }

  async refresh(): Promise<void> {
    const generation = ++this.refreshes;
    let status: WorktreeStatus | undefined;
    try {
      status = await this.parts.host.service.status(this.binding);
    } catch (err) {
      this.c.log.warn(`The worktree ${this.binding.path} could not be read: ${errorMessage(err)}`);
    }
    // Results land in the order their refreshes started: an older one never replaces a newer one, but
    // one overtaken by a refresh still running is shown meanwhile (an action's own refresh included).
    if (generation < this.shown || this.isDisposed) return;
    if (status) {
      this.status = status;
      this.shown = generation;
    }
    if (status?.state === 'missing' && !this.toldMissing) {
      this.toldMissing = true;
      this.parts.thread.addNotice(
        'warning',
        l10n.t(
          'The worktree {0} was deleted outside Tandem: its uncommitted changes are gone (commits on {1} are kept). Recreate it to go on.',
          this.binding.path,
          this.binding.branch,
        ),
      );
      this.c.setStatus({ kind: 'stopped', agentName: this.c.agentName, reason: l10n.t('The worktree is missing') });
    }
    this.emit();
  }

  /** Brings the worktree's changes since the last apply into the workspace, after a preview. */
  async apply(): Promise<void> {
    const { host } = this.parts;
    await this.run(l10n.t('Applying…'), async () => {
      let plan = await host.service.planApply(this.binding, host.readMain);
      for (;;) {
        if (plan.steps.every((s) => s.outcome === 'same')) {
          this.markApplied(plan.tree);
          return l10n.t('Nothing to apply: the workspace already has these changes.');
        }
        if (!(await host.confirmApply(plan, this.binding))) return undefined;
        // The preview waits for the user while agents, terminals and formatters go on: the plan is
        // made again, and one that changed meanwhile is shown again rather than written over them.
        const again = await host.service.planApply(this.binding, host.readMain);
        if (samePlan(plan, again)) break;
        this.parts.thread.addNotice('info', l10n.t('The files changed while the preview was open: here are the changes again.'));
        plan = again;
      }
      const steps = applySteps(plan);
      if (steps.length > 0) await host.apply(steps, l10n.t('Apply the changes of {0}', this.binding.branch), this.binding.repo);
      this.markApplied(plan.tree);
      // What was brought over is reviewed: it leaves the changed-files strip.
      const applied = plan.steps.filter((s) => s.outcome !== 'skipped').map((s) => nodePath.join(this.binding.path, ...s.relPath.split('/')));
      if (applied.length > 0) await this.parts.review.keep(applied);
      const summary = applySummary(plan);
      this.parts.thread.addNotice('info', summary);
      const conflicts = plan.steps.filter((s) => s.outcome === 'conflict');
      if (conflicts.length > 0) await host.resolveConflicts(conflicts, this.binding);
      return summary;
    });
  }

  /** Commits everything in the worktree on its branch (the message asked, prefilled with the title). */
  async commit(): Promise<void> {
    const { host } = this.parts;
    await this.run(l10n.t('Committing…'), async () => {
      const message = await host.commitMessage(this.c.meta.title, this.binding);
      if (message === undefined || message.trim() === '') return undefined;
      const id = await host.service.commit(this.binding, message.trim());
      return id === undefined ? l10n.t('Nothing to commit.') : l10n.t('Committed {0} on {1}.', id, this.binding.branch);
    });
  }

  /** Back to the start commit, after a confirmation. */
  async discard(): Promise<void> {
    const { host } = this.parts;
    await this.run(l10n.t('Discarding…'), async () => {
      const status = await host.service.status(this.binding);
      if (!(await host.confirmDiscard(this.binding, status))) return undefined;
      await host.service.discard(this.binding);
      this.parts.saved();
      await this.parts.review.refresh();
      return l10n.t('The worktree is back at {0}.', this.binding.base.slice(0, 7));
    });
  }

  /** A worktree deleted by hand, checked out again (from its branch when that still exists). */
  async recreate(): Promise<void> {
    await this.run(l10n.t('Recreating…'), async () => {
      await this.parts.host.service.recreate(this.binding);
      this.toldMissing = false;
      this.parts.saved();
      this.parts.recreated();
      return l10n.t('The worktree is back at {0}.', this.binding.path);
    });
  }

  /** The conversation got its title: a provisional branch takes it (once). */
  async titled(title: string): Promise<void> {
    if (!this.binding.provisional || this.missing) return;
    try {
      if (await this.parts.host.service.rename(this.binding, title)) {
        this.parts.saved();
        this.emit();
      }
    } catch (err) {
      this.c.log.warn(`The branch ${this.binding.branch} was not renamed: ${errorMessage(err)}`);
    }
  }

  /** Closing or deleting: keep or remove the worktree ('cancel': the conversation stays open). */
  async ask(deleting: boolean): Promise<{ decision: WorktreeDecision; status: WorktreeStatus }> {
    const status = await statusOrMissing(this.parts.host, this.binding);
    return { decision: await this.parts.host.askOnClose(this.binding, this.c.meta.title, status, deleting), status };
  }

  /** Removes it (after `ask` said so, once the agent's session is closed). */
  remove(status: WorktreeStatus): Promise<boolean> {
    return removeWorktree(this.parts.host, this.binding, status);
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }

  private markApplied(tree: string): void {
    this.binding.applied = tree;
    this.parts.saved();
  }

  /** Runs an action with the bar busy; its result (a sentence) becomes the bar's notice, a failure its error. */
  private async run(busy: string, work: () => Promise<string | undefined>): Promise<void> {
    if (this.busy !== undefined) return;
    this.busy = busy;
    this.error = undefined;
    this.emit();
    try {
      const notice = await work();
      if (notice !== undefined) this.notice = notice;
    } catch (err) {
      this.error = errorMessage(err);
    } finally {
      this.busy = undefined;
    }
    await this.refresh();
  }

  private emit(): void {
    this.parts.changed(this.view());
  }
}
