/**
 * The changed-files strip above the composer: the files this conversation changed since its review
 * baseline (added / removed lines), each with Open diff, Keep and Undo, and its changes (hunks) on
 * demand, each with Keep or Undo. Keep all / Undo all at the top. Collapsed to one line by default.
 */
import type { ChangedFileView, HunkView } from '../src/protocol/messages';
import { button, h, icon } from './dom';
import type { Store } from './store';
import type { Host } from './vscodeApi';

const STATUS_ICONS: Record<ChangedFileView['status'], [string, string]> = {
  added: ['diff-added', 'added'],
  modified: ['diff-modified', 'modified'],
  deleted: ['diff-removed', 'deleted'],
};

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
    this.list = h('ul', { class: 'changed-list', 'aria-label': 'Changed files' });
    this.element = h('section', { class: 'changed-files', 'aria-label': 'Files changed in this conversation' }, this.summary, this.list);
    this.element.hidden = true;
  }

  render(): void {
    const { files, busy, error } = this.store.review;
    this.element.hidden = files.length === 0 && error === undefined;
    this.element.toggleAttribute('aria-busy', busy === true);
    const total = files.reduce((acc, f) => [acc[0] + f.added, acc[1] + f.removed], [0, 0]);
    const toggle = button('', () => {
      this.expanded = !this.expanded;
      this.render();
    }, { cls: 'icon-button', icon: this.expanded ? 'chevron-down' : 'chevron-right', label: this.expanded ? 'Hide the changed files' : 'Show the changed files' });
    toggle.setAttribute('aria-expanded', String(this.expanded));
    const counts = h('span', { class: 'changed-counts' }, `${files.length} file${files.length === 1 ? '' : 's'} changed `, h('span', { class: 'added' }, `+${total[0]}`), ' ', h('span', { class: 'removed' }, `−${total[1]}`));
    const keepAll = button('Keep all', () => this.host.post({ type: 'reviewKeep' }), { cls: 'small', title: 'Accept every change: the files stay as they are and leave this list' });
    const undoAll = button('Undo all', () => this.host.post({ type: 'reviewUndo' }), { cls: 'small', title: 'Restore every file to how it was (one undoable step)' });
    keepAll.disabled = undoAll.disabled = busy === true || files.length === 0;
    this.summary.replaceChildren(toggle, counts, h('span', { class: 'spacer' }), keepAll, undoAll);
    if (error !== undefined) this.summary.append(h('div', { class: 'changed-error', role: 'alert' }, icon('error'), ` ${error}`));
    this.list.hidden = !this.expanded;
    this.list.replaceChildren(...(this.expanded ? files.map((f) => this.renderFile(f, busy === true)) : []));
  }

  private renderFile(file: ChangedFileView, busy: boolean): HTMLElement {
    const [statusIcon, statusLabel] = STATUS_ICONS[file.status] ?? STATUS_ICONS.modified;
    const post = (type: 'reviewKeep' | 'reviewUndo') => this.host.post({ type, paths: [file.path] });
    const open = button(file.relPath, () => this.host.post({ type: 'reviewOpenDiff', path: file.path }), { cls: 'link changed-path', title: `Open the diff of ${file.relPath}` });
    const hunksOpen = file.hunks !== undefined;
    const hunks = button('', () => this.host.post({ type: 'reviewHunks', path: file.path, open: !hunksOpen }), {
      cls: 'icon-button',
      icon: hunksOpen ? 'fold-up' : 'list-unordered',
      label: hunksOpen ? `Hide the changes in ${file.relPath}` : `Show the changes in ${file.relPath}`,
    });
    hunks.hidden = file.binary;
    const keep = button('', () => post('reviewKeep'), { cls: 'icon-button', icon: 'check', label: `Keep ${file.relPath}` });
    const undo = button('', () => post('reviewUndo'), { cls: 'icon-button', icon: 'discard', label: `Undo ${file.relPath}` });
    keep.disabled = busy;
    undo.disabled = busy || !file.restorable;
    if (!file.restorable) undo.title = 'Its earlier content was too large to record';
    const counts = file.binary ? h('span', { class: 'changed-binary' }, 'binary') : h('span', { class: 'changed-counts' }, h('span', { class: 'added' }, `+${file.added}`), ' ', h('span', { class: 'removed' }, `−${file.removed}`));
    const row = h('li', { class: `changed-file status-${file.status}`, 'data-path': file.path }, h('div', { class: 'changed-row' }, icon(statusIcon), h('span', { class: 'visually-hidden' }, `${statusLabel}: `), open, counts, h('span', { class: 'spacer' }), hunks, keep, undo));
    if (file.hunks) row.append(h('ol', { class: 'hunk-list', 'aria-label': `Changes in ${file.relPath}` }, ...file.hunks.map((hunk) => this.renderHunk(file, hunk, busy))));
    return row;
  }

  private renderHunk(file: ChangedFileView, hunk: HunkView, busy: boolean): HTMLElement {
    const where = hunk.newLines > 0 ? `lines ${hunk.newStart}–${hunk.newStart + hunk.newLines - 1}` : `removed at line ${hunk.newStart}`;
    const act = (action: 'accept' | 'reject') => this.host.post({ type: 'reviewHunk', path: file.path, index: hunk.index, action });
    const keep = button('Keep', () => act('accept'), { cls: 'small', label: `Keep the change at ${where}` });
    const undo = button('Undo', () => act('reject'), { cls: 'small', label: `Undo the change at ${where}` });
    keep.disabled = undo.disabled = busy;
    const code = h('pre', { class: 'hunk-lines' }, ...hunk.lines.map((line) => h('span', { class: line.startsWith('+') ? 'line-added' : line.startsWith('-') ? 'line-removed' : '' }, `${line}\n`)));
    return h('li', { class: 'hunk', 'data-hunk-index': hunk.index }, h('div', { class: 'hunk-head' }, h('span', {}, where), h('span', { class: 'spacer' }), keep, undo), code);
  }
}
