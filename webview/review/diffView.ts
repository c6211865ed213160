/**
 * Inline unified diff from the host's hunk view: file header (click opens the file), line numbers,
 * added/removed/context lines with word highlights, and collapsed regions behind "Show … lines"
 * buttons that fetch their lines from the host. A diff too large to show inline says so and keeps
 * "Open diff" (VS Code's diff editor). Only shown lines get DOM.
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../../src/protocol/displayLanguage';
import { unifiedHunk, type DiffContentView } from '../../src/protocol/messages';
import { basename, button, h, icon, keyboardScrollable } from '../core/dom';
import { firstChangedLine, numberRows, segmentsOf } from './diffModel';
import type { DiffGap, DiffRow } from './diffModel';
import { requestDiffLines } from './diffRequests';
import { noteBoard, type NoteBoard } from './reviewNotes';
import type { Host } from '../core/vscodeApi';

/** Unchanged lines revealed per click on a collapsed region. */
const GAP_STEP = 50;
/** Lines of a long change revealed per click. */
const CHANGE_STEP = 200;

export interface DiffInput {
  view: DiffContentView;
  entryId: string;
  index: number;
}

export function renderDiff(input: DiffInput, host: Host): HTMLElement {
  const { view } = input;
  const path = String(view.path);
  const region = h('div', { role: 'region', class: 'diff', 'data-path': path, 'aria-label': l10n.t('Diff of {0}', path) });
  const pathButton = button(basename(path), () => host.post({ type: 'openLocation', path, line: firstChangedLine(view) }), {
    cls: 'link diff-path',
    icon: 'file',
    title: path,
    label: l10n.t('Open {0}', path),
  });
  const stats = view.tooLarge
    ? h('span', { class: 'diff-stats' }, h('span', { class: 'diff-new-file' }, l10n.t('Too large to show here')))
    : h(
        'span',
        { class: 'diff-stats' },
        view.isNew ? h('span', { class: 'diff-new-file' }, `${l10n.t('New file')} `) : null,
        h('span', { class: 'diff-stat-added' }, `+${Number(view.added) || 0}`),
        ' ',
        h('span', { class: 'diff-stat-removed' }, `−${Number(view.removed) || 0}`),
      );
  const open = button(l10n.t('Open diff'), () => host.post({ type: 'openDiff', entryId: input.entryId, index: input.index }), {
    cls: 'secondary small',
    icon: 'diff-multiple',
  });
  const observed =
    view.observed === 'disk'
      ? h(
          'span',
          { class: 'diff-observed', title: l10n.t('The agent sent no diff: Tandem saw this change on disk while the tool ran.') },
          l10n.t('seen on disk'),
        )
      : view.observed === 'input'
        ? h(
            'span',
            { class: 'diff-observed', title: l10n.t("The agent sent no diff: this is the change the tool's input asks for.") },
            l10n.t('from the input'),
          )
        : null;
  region.append(h('div', { class: 'diff-header' }, pathButton, stats, observed, open));
  const body = keyboardScrollable(h('div', { class: 'diff-body' }), l10n.t('Lines of {0}', path));
  if (view.tooLarge) {
    body.append(
      h(
        'div',
        { class: 'diff-too-large', role: 'note' },
        icon('info'),
        ` ${l10n.t('This file is {0}, over the {1} limit for diffs shown here. Open diff shows it in the editor.', megabytes(view.tooLarge.bytes), megabytes(view.tooLarge.limit))}`,
      ),
    );
    region.append(body);
    return region;
  }
  const segments = segmentsOf(view);
  if (segments.length === 0) body.append(h('div', { class: 'diff-empty' }, l10n.t('No changes')));
  for (const segment of segments) {
    if (segment.kind === 'rows') {
      // One box per hunk: off-screen hunks skip style, layout and paint (content-visibility in CSS).
      const hunk = h('div', { class: 'diff-hunk' });
      for (const row of segment.rows) hunk.append(rowElement(row));
      body.append(hunk);
      const board = noteBoard();
      if (board) body.append(notesFoot(board, path, segment.rows, hunk));
    } else {
      body.append(gapElement(segment, input, host));
    }
  }
  region.append(body);
  return region;
}

/** Under a hunk: "Note" (a review note on its lines, for the agent) and the notes already there. */
function notesFoot(board: NoteBoard, path: string, rows: readonly DiffRow[], hunk: HTMLElement): HTMLElement {
  const added = rows.filter((r) => r.type === 'added' && r.newNo !== undefined).map((r) => r.newNo!);
  const first = rows.find((r) => r.newNo !== undefined)?.newNo ?? 1;
  const sign = { added: '+', removed: '-', context: ' ' } as const;
  const target = {
    path,
    startLine: added.length > 0 ? Math.min(...added) : first,
    endLine: added.length > 0 ? Math.max(...added) : first,
    hunk: unifiedHunk({
      oldStart: rows.find((r) => r.oldNo !== undefined)?.oldNo ?? 0,
      oldLines: rows.filter((r) => r.type !== 'added').length,
      newStart: first,
      newLines: rows.filter((r) => r.type !== 'removed').length,
      lines: rows.map((r) => `${sign[r.type]}${r.text}`),
    }),
  };
  const foot = h('div', { class: 'diff-hunk-notes' });
  foot.append(board.addButton(target, foot, hunk), board.list(target));
  return foot;
}

function megabytes(bytes: number): string {
  return `${formatNumber(Number(bytes) / (1024 * 1024), { maximumFractionDigits: 1 })} MB`;
}

function rowElement(row: DiffRow): HTMLElement {
  const code = h('span', { class: 'diff-code' });
  if (row.words) {
    for (const part of row.words) {
      code.append(part.changed ? h('span', { class: row.type === 'added' ? 'word-added' : 'word-removed' }, part.text) : part.text);
    }
  } else {
    code.textContent = row.text;
  }
  if (row.cut) code.append(h('span', { class: 'diff-note', title: l10n.t('This line is longer than shown: Open diff shows it whole') }, ' …'));
  if (row.noEol) code.append(h('span', { class: 'diff-note', title: l10n.t('No newline at end of file') }, ' ⏎̸'));
  const sign = row.type === 'added' ? '+' : row.type === 'removed' ? '-' : ' ';
  return h(
    'div',
    { class: `diff-line diff-${row.type}`, 'data-line-type': row.type, 'data-new-line': row.newNo },
    h('span', { class: 'diff-ln', 'aria-hidden': 'true' }, row.oldNo === undefined ? '' : String(row.oldNo)),
    h('span', { class: 'diff-ln', 'aria-hidden': 'true' }, row.newNo === undefined ? '' : String(row.newNo)),
    h('span', { class: 'diff-sign' }, sign),
    code,
  );
}

function gapLabel(gap: DiffGap): string {
  const step = gap.changed ? CHANGE_STEP : GAP_STEP;
  if (gap.count > step)
    return gap.changed ? l10n.t('Show {0} more of {1} lines of this change', step, gap.count) : l10n.t('Show {0} more of {1} unchanged lines', step, gap.count);
  if (gap.changed) return gap.count === 1 ? l10n.t('Show 1 more line of this change') : l10n.t('Show {0} more lines of this change', gap.count);
  return gap.count === 1 ? l10n.t('Show 1 unchanged line') : l10n.t('Show {0} unchanged lines', gap.count);
}

/**
 * A collapsed region: each click asks the host for the next lines and puts them above the button;
 * once all are shown the button goes and focus moves to the first line it revealed.
 */
function gapElement(segment: DiffGap, input: DiffInput, host: Host): HTMLElement {
  const gap: DiffGap = { ...segment };
  const element = h('div', { class: `diff-gap${gap.changed ? ' diff-gap-changed' : ''}`, 'data-hidden-lines': gap.count });
  const more = button(gapLabel(gap), () => void reveal(), { cls: 'link', icon: 'unfold' });
  element.append(more);
  let busy = false;
  const reveal = async (): Promise<void> => {
    if (busy || gap.count <= 0) return;
    // Not `disabled`: that would drop keyboard focus to the page while the lines load.
    busy = true;
    more.setAttribute('aria-busy', 'true');
    more.setAttribute('aria-disabled', 'true');
    const step = Math.min(gap.changed ? CHANGE_STEP : GAP_STEP, gap.count);
    const answer = await requestDiffLines(host, {
      entryId: input.entryId,
      index: input.index,
      diffId: input.view.diffId,
      row: gap.row,
      count: step,
      conversationId: host.scope || undefined,
    });
    busy = false;
    more.removeAttribute('aria-busy');
    more.removeAttribute('aria-disabled');
    if (answer.error !== undefined || !Array.isArray(answer.lines) || answer.lines.length === 0) {
      const hadFocus = document.activeElement === more;
      const note = h(
        'span',
        { class: 'diff-gap-error', role: 'status', tabindex: -1 },
        icon('warning'),
        ` ${l10n.t('These lines cannot be shown: {0}', answer.error ?? l10n.t('none came back.'))}`,
      );
      element.replaceChildren(note);
      if (hadFocus) note.focus();
      return;
    }
    const numbered = numberRows(answer.lines, answer.oldLine, answer.newLine);
    const rows = numbered.rows.map(rowElement);
    const fragment = document.createDocumentFragment();
    fragment.append(...rows);
    element.before(fragment);
    gap.row += answer.lines.length;
    gap.count -= answer.lines.length;
    if (gap.count <= 0) {
      // The button goes: keyboard focus moves to the first line it revealed instead of the page.
      const hadFocus = document.activeElement === more;
      element.remove();
      if (hadFocus && rows[0]) {
        rows[0].tabIndex = -1;
        rows[0].focus();
      }
      return;
    }
    element.setAttribute('data-hidden-lines', String(gap.count));
    more.querySelector('.button-text')!.textContent = gapLabel(gap);
  };
  return element;
}
