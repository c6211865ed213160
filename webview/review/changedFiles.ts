/**
 * The changed-files strip above the composer: the files this conversation changed since its review
 * baseline (added / removed lines), each with Open diff, Keep and Undo, and its changes (hunks) on
 * demand, each with Keep or Undo. Keep all / Undo all at the top. Collapsed to one line by default.
 * A file changed during a turn but not through the agent (a command it ran, another program) is
 * marked "changed outside the agent": it is not counted, and Keep all / Undo all leave it alone (the
 * host decides that; the panel only says it).
 */
import * as l10n from '@vscode/l10n';
import { unifiedHunk, type ChangedFileView, type HunkView } from '../../src/protocol/messages';
import { button, h, icon, keyboardScrollable } from '../core/dom';
import type { Store } from '../store/store';
import { noteBoard } from './reviewNotes';
import type { Host } from '../core/vscodeApi';

function statusOf(status: ChangedFileView['status']): [icon: string, label: string] {
  switch (status) {
    case 'added':
      return ['diff-added', l10n.t('added')];
    case 'deleted':
      return ['diff-removed', l10n.t('deleted')];
    default:
      return ['diff-modified', l10n.t('modified')];
  }
}

export class ChangedFiles {
  readonly element: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLElement;
  private expanded = false;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.summary = h('div', { class: 'changed-summary' });
    this.list = h('ul', { class: 'changed-list', 'aria-label': l10n.t('Changed files') });
    this.element = h('section', { class: 'changed-files', 'aria-label': l10n.t('Files changed in this conversation') }, this.summary, this.list);
    this.element.hidden = true;
  }

  render(): void {
    const { files, busy, error } = this.store.review;
    this.element.hidden = files.length === 0 && error === undefined;
    this.element.toggleAttribute('aria-busy', busy === true);
    const agents = files.filter((f) => f.outside !== true);
    const outside = files.length - agents.length;
    const total = agents.reduce((acc, f) => [acc[0] + f.added, acc[1] + f.removed], [0, 0]);
    const toggle = button(
      '',
      () => {
        this.expanded = !this.expanded;
        this.render();
      },
      {
        cls: 'icon-button',
        icon: this.expanded ? 'chevron-down' : 'chevron-right',
        label: this.expanded ? l10n.t('Hide the changed files') : l10n.t('Show the changed files'),
      },
    );
    toggle.setAttribute('aria-expanded', String(this.expanded));
    const counts = h('span', { class: 'changed-counts' });
    if (agents.length > 0 || outside === 0)
      counts.append(
        `${agents.length === 1 ? l10n.t('1 file changed') : l10n.t('{0} files changed', agents.length)} `,
        h('span', { class: 'added' }, `+${total[0]}`),
        ' ',
        h('span', { class: 'removed' }, `−${total[1]}`),
      );
    if (outside > 0)
      counts.append(
        h(
          'span',
          { class: 'changed-outside-count' },
          outside === 1 ? l10n.t('1 file changed outside the agent') : l10n.t('{0} files changed outside the agent', outside),
        ),
      );
    // Named: "all" is what the strip shows as the agent's, never a file changed outside it.
    const paths = agents.map((f) => f.path);
    const keepAll = button(l10n.t('Keep all'), () => this.host.post({ type: 'reviewKeep', paths }), {
      cls: 'small',
      title: l10n.t('Accept every change: the files stay as they are and leave this list'),
    });
    const undoAll = button(l10n.t('Undo all'), () => this.host.post({ type: 'reviewUndo', paths }), {
      cls: 'small',
      title: l10n.t('Restore every file the agent changed to how it was (one undoable step)'),
    });
    if (outside > 0) for (const all of [keepAll, undoAll]) all.title = `${all.title}. ${l10n.t('Files changed outside the agent stay as they are.')}`;
    keepAll.disabled = undoAll.disabled = busy === true || agents.length === 0;
    this.summary.replaceChildren(toggle, counts, h('span', { class: 'spacer' }), keepAll, undoAll);
    if (error !== undefined) this.summary.append(h('div', { class: 'changed-error', role: 'alert' }, icon('error'), ` ${error}`));
    this.list.hidden = !this.expanded;
    this.list.replaceChildren(...(this.expanded ? files.map((f) => this.renderFile(f, busy === true)) : []));
  }

  private renderFile(file: ChangedFileView, busy: boolean): HTMLElement {
    const [statusIcon, statusLabel] = statusOf(file.status);
    const post = (type: 'reviewKeep' | 'reviewUndo') => this.host.post({ type, paths: [file.path] });
    const open = button(file.relPath, () => this.host.post({ type: 'reviewOpenDiff', path: file.path }), {
      cls: 'link changed-path',
      title: l10n.t('Open the diff of {0}', file.relPath),
    });
    const hunksOpen = file.hunks !== undefined;
    const hunks = button('', () => this.host.post({ type: 'reviewHunks', path: file.path, open: !hunksOpen }), {
      cls: 'icon-button',
      icon: hunksOpen ? 'fold-up' : 'list-unordered',
      label: hunksOpen ? l10n.t('Hide the changes in {0}', file.relPath) : l10n.t('Show the changes in {0}', file.relPath),
    });
    hunks.hidden = file.binary;
    const keep = button('', () => post('reviewKeep'), { cls: 'icon-button', icon: 'check', label: l10n.t('Keep {0}', file.relPath) });
    const undo = button('', () => post('reviewUndo'), { cls: 'icon-button', icon: 'discard', label: l10n.t('Undo {0}', file.relPath) });
    keep.disabled = busy;
    undo.disabled = busy || !file.restorable;
    if (!file.restorable) undo.title = l10n.t('Its earlier content was too large to record');
    const counts = file.binary
      ? h('span', { class: 'changed-binary' }, l10n.t('binary'))
      : h('span', { class: 'changed-counts' }, h('span', { class: 'added' }, `+${file.added}`), ' ', h('span', { class: 'removed' }, `−${file.removed}`));
    const outside = file.outside
      ? h(
          'span',
          { class: 'changed-outside', title: l10n.t('Changed during the turn, but not through the agent: Keep all and Undo all leave it alone') },
          l10n.t('changed outside the agent'),
        )
      : undefined;
    const row = h(
      'li',
      { class: `changed-file status-${file.status}`, 'data-path': file.path, 'data-outside': file.outside ? 'true' : undefined },
      h(
        'div',
        { class: 'changed-row' },
        icon(statusIcon),
        h('span', { class: 'visually-hidden' }, l10n.t('{0}: ', statusLabel)),
        open,
        counts,
        outside,
        h('span', { class: 'spacer' }),
        hunks,
        keep,
        undo,
      ),
    );
    if (file.hunks)
      row.append(
        h('ol', { class: 'hunk-list', 'aria-label': l10n.t('Changes in {0}', file.relPath) }, ...file.hunks.map((hunk) => this.renderHunk(file, hunk, busy))),
      );
    return row;
  }

  private renderHunk(file: ChangedFileView, hunk: HunkView, busy: boolean): HTMLElement {
    const where = hunk.newLines > 0 ? l10n.t('lines {0}–{1}', hunk.newStart, hunk.newStart + hunk.newLines - 1) : l10n.t('removed at line {0}', hunk.newStart);
    const act = (action: 'accept' | 'reject') => this.host.post({ type: 'reviewHunk', path: file.path, index: hunk.index, action });
    const keep = button(l10n.t('Keep'), () => act('accept'), { cls: 'small', label: l10n.t('Keep the change at {0}', where) });
    const undo = button(l10n.t('Undo'), () => act('reject'), { cls: 'small', label: l10n.t('Undo the change at {0}', where) });
    keep.disabled = undo.disabled = busy;
    // Added lines carry their line number in the file, so a note's lines can be picked by clicking.
    let newLine = hunk.newStart;
    const lines = hunk.lines.map((line) => {
      const added = line.startsWith('+');
      return h(
        'span',
        { class: added ? 'line-added' : line.startsWith('-') ? 'line-removed' : '', 'data-new-line': added ? newLine++ : undefined },
        `${line}\n`,
      );
    });
    const code = keyboardScrollable(h('pre', { class: 'hunk-lines' }, ...lines), where);
    const head = h('div', { class: 'hunk-head' }, h('span', {}, where), h('span', { class: 'spacer' }));
    const item = h('li', { class: 'hunk', 'data-hunk-index': hunk.index }, head, code);
    const board = noteBoard();
    if (board) {
      const target = { path: file.path, startLine: hunk.newStart, endLine: hunk.newStart + Math.max(hunk.newLines, 1) - 1, hunk: unifiedHunk(hunk) };
      head.append(board.addButton(target, item, code));
      item.append(board.list(target));
    }
    head.append(keep, undo);
    return item;
  }
}
