/**
 * The bar of a conversation that works in its own git worktree, above the changed-files strip: the
 * branch, the commit it started from, what is not applied to the workspace yet, and Apply to
 * workspace, Commit on the branch, Discard, Open the worktree. A worktree deleted by hand says so
 * and offers Recreate. While an action runs the bar is busy; what it did stays as a short notice.
 */
import * as l10n from '@vscode/l10n';
import type { WorktreeView } from '../../src/protocol/messages';
import { button, h, icon } from '../core/dom';
import type { Store } from '../store/store';
import type { Host } from '../core/vscodeApi';

export class WorktreeBar {
  readonly element: HTMLElement;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.element = h('section', { class: 'worktree-bar', 'aria-label': l10n.t('Worktree of this conversation') });
    this.element.hidden = true;
  }

  render(): void {
    const worktree = this.store.worktrees.worktree;
    this.element.hidden = worktree === undefined;
    if (!worktree) {
      this.element.replaceChildren();
      return;
    }
    this.element.toggleAttribute('aria-busy', worktree.busy !== undefined);
    this.element.setAttribute('data-state', worktree.state);
    this.element.setAttribute('data-path', worktree.path);
    const summary = h(
      'div',
      { class: 'worktree-summary' },
      icon('git-branch'),
      h('span', { class: 'worktree-branch', title: worktree.path }, worktree.branch),
      h('span', { class: 'worktree-counts' }, this.counts(worktree)),
    );
    const parts: HTMLElement[] = [h('div', { class: 'worktree-row' }, summary, h('span', { class: 'spacer' }), ...this.actions(worktree))];
    if (worktree.busy !== undefined)
      parts.push(h('div', { class: 'worktree-status', role: 'status' }, icon('loading', 'codicon-modifier-spin'), ` ${worktree.busy}`));
    else if (worktree.error !== undefined) parts.push(h('div', { class: 'worktree-error', role: 'alert' }, icon('error'), ` ${worktree.error}`));
    else if (worktree.notice !== undefined) parts.push(h('div', { class: 'worktree-notice', role: 'status' }, icon('info'), ` ${worktree.notice}`));
    if (worktree.state === 'missing')
      parts.push(
        h(
          'div',
          { class: 'worktree-error', role: 'alert' },
          icon('warning'),
          ` ${l10n.t('Its folder {0} was deleted outside Tandem. Recreate it from the branch to go on.', worktree.path)}`,
        ),
      );
    this.element.replaceChildren(...parts);
  }

  private counts(worktree: WorktreeView): string {
    const from = l10n.t('from {0}', worktree.base);
    if (worktree.state === 'missing') return l10n.t('{0} · missing', from);
    const unapplied =
      worktree.unapplied === 0
        ? l10n.t('nothing to apply')
        : worktree.unapplied === 1
          ? l10n.t('1 file to apply')
          : l10n.t('{0} files to apply', worktree.unapplied);
    const commits = worktree.commits === 0 ? '' : worktree.commits === 1 ? l10n.t(' · 1 commit') : l10n.t(' · {0} commits', worktree.commits);
    return `${from} · ${unapplied}${commits}`;
  }

  private actions(worktree: WorktreeView): HTMLButtonElement[] {
    const busy = worktree.busy !== undefined;
    const open = button('', () => this.host.post({ type: 'worktreeOpen' }), {
      cls: 'icon-button',
      icon: 'empty-window',
      label: l10n.t('Open the worktree in a new window'),
      title: l10n.t('Open the worktree in a new window'),
    });
    if (worktree.state === 'missing') {
      const recreate = button(l10n.t('Recreate'), () => this.host.post({ type: 'worktreeRecreate' }), {
        cls: 'small',
        title: l10n.t('Check the worktree out again from its branch'),
      });
      recreate.disabled = busy;
      return [recreate];
    }
    const apply = button(l10n.t('Apply to workspace'), () => this.host.post({ type: 'worktreeApply' }), {
      cls: 'small primary',
      title: l10n.t('Bring the changes into the workspace (previewed; your own edits are merged, never overwritten)'),
    });
    const commit = button(l10n.t('Commit'), () => this.host.post({ type: 'worktreeCommit' }), {
      cls: 'small',
      label: l10n.t('Commit on the branch'),
      title: l10n.t('Commit everything in the worktree on {0}', worktree.branch),
    });
    const discard = button(l10n.t('Discard'), () => this.host.post({ type: 'worktreeDiscard' }), {
      cls: 'small',
      title: l10n.t('Throw away the changes in the worktree (asks first)'),
    });
    apply.disabled = commit.disabled = discard.disabled = busy;
    return [apply, commit, discard, open];
  }
}
