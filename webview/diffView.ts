/**
 * Inline unified diff: file header (click opens the file), line numbers, added/removed/context
 * lines with word highlights, unchanged regions collapsed behind "show more" buttons. Only shown
 * lines get DOM, so a 10,000-line file with a few changes costs a few dozen rows.
 */
import { basename, button, h } from './dom';
import { cachedDiff, gapRows } from './diffModel';
import type { DiffModel, DiffRow } from './diffModel';
import type { Host } from './vscodeApi';

/** Rows rendered per step inside one hunk (a new 10,000-line file is one hunk). */
const ROWS_PER_STEP = 400;
/** Unchanged lines revealed per click on a collapsed region. */
const GAP_STEP = 50;

export interface DiffInput {
  path: string;
  oldText: string | null;
  newText: string;
  entryId: string;
  index: number;
}

export function renderDiff(input: DiffInput, host: Host): HTMLElement {
  const model = cachedDiff(input.oldText, input.newText);
  const isNew = input.oldText === null || input.oldText === '';
  const region = h('div', {
    role: 'region',
    class: 'diff',
    'data-path': input.path,
    'aria-label': `Diff of ${input.path}`,
  });
  const pathButton = button(basename(input.path), () => host.post({ type: 'openLocation', path: input.path, line: model.firstChangedLine }), {
    cls: 'link diff-path',
    icon: 'file',
    title: input.path,
    label: `Open ${input.path}`,
  });
  const stats = h(
    'span',
    { class: 'diff-stats' },
    isNew ? h('span', { class: 'diff-new-file' }, 'New file ') : null,
    h('span', { class: 'diff-stat-added' }, `+${model.added}`),
    ' ',
    h('span', { class: 'diff-stat-removed' }, `−${model.removed}`),
  );
  const open = button('Open diff', () => host.post({ type: 'openDiff', entryId: input.entryId, index: input.index }), {
    cls: 'secondary small',
    icon: 'diff-multiple',
  });
  region.append(h('div', { class: 'diff-header' }, pathButton, stats, open));
  const body = h('div', { class: 'diff-body' });
  if (model.segments.length === 0) body.append(h('div', { class: 'diff-empty' }, 'No changes'));
  for (const segment of model.segments) {
    if (segment.kind === 'rows') {
      // One box per hunk: off-screen hunks skip style, layout and paint (content-visibility in CSS).
      const hunk = h('div', { class: 'diff-hunk' });
      appendRows(hunk, segment.rows);
      body.append(hunk);
    } else body.append(gapElement(model, segment));
  }
  region.append(body);
  return region;
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
  const sign = row.type === 'added' ? '+' : row.type === 'removed' ? '-' : ' ';
  return h(
    'div',
    { class: `diff-line diff-${row.type}`, 'data-line-type': row.type },
    h('span', { class: 'diff-ln', 'aria-hidden': 'true' }, row.oldNo === undefined ? '' : String(row.oldNo)),
    h('span', { class: 'diff-ln', 'aria-hidden': 'true' }, row.newNo === undefined ? '' : String(row.newNo)),
    h('span', { class: 'diff-sign' }, sign),
    code,
  );
}

/** Appends rows, at most ROWS_PER_STEP at a time, with a button for the rest. */
function appendRows(container: HTMLElement, rows: DiffRow[], before: Node | null = null): void {
  const fragment = document.createDocumentFragment();
  const shown = Math.min(rows.length, ROWS_PER_STEP);
  for (let i = 0; i < shown; i++) fragment.append(rowElement(rows[i]));
  if (rows.length > shown) {
    const rest = rows.slice(shown);
    const more = h('div', { class: 'diff-gap' });
    more.append(
      button(`Show ${rest.length} more lines`, () => {
        const next = more.nextSibling;
        more.remove();
        appendRows(container, rest, next);
      }, { cls: 'link', icon: 'unfold' }),
    );
    fragment.append(more);
  }
  container.insertBefore(fragment, before);
}

function gapElement(model: DiffModel, gap: { oldStart: number; newStart: number; count: number }): HTMLElement {
  const element = h('div', { class: 'diff-gap', 'data-hidden-lines': gap.count });
  let shown = 0;
  const label = (): string => {
    const left = gap.count - shown;
    return left > GAP_STEP ? `Show ${GAP_STEP} more of ${left} unchanged lines` : `Show ${left} unchanged line${left === 1 ? '' : 's'}`;
  };
  const more = button(label(), () => {
    const step = Math.min(GAP_STEP, gap.count - shown);
    const fragment = document.createDocumentFragment();
    for (const row of gapRows(model, gap, shown, step)) fragment.append(rowElement(row));
    element.before(fragment);
    shown += step;
    if (shown >= gap.count) {
      // Keep focus somewhere sensible for keyboard users once the button disappears.
      const next = element.nextElementSibling ?? element.previousElementSibling;
      element.remove();
      if (next instanceof HTMLElement) next.focus?.();
      return;
    }
    element.setAttribute('data-hidden-lines', String(gap.count - shown));
    more.querySelector('.button-text')!.textContent = label();
  }, { cls: 'link', icon: 'unfold' });
  element.append(more);
  return element;
}


/**
 * Computes the diffs a host message carries as soon as it arrives, while the page waits for the
 * next frame anyway; the frame's render then finds them cached. Ignores anything malformed.
 */
export function precomputeDiffs(message: unknown): void {
  if (typeof message !== 'object' || message === null) return;
  const m = message as { type?: unknown; messages?: unknown; entry?: { kind?: unknown; content?: unknown } };
  if (m.type === 'batch' && Array.isArray(m.messages)) {
    for (const inner of m.messages) precomputeDiffs(inner);
    return;
  }
  if (m.type !== 'entryUpserted' || m.entry?.kind !== 'tool_call' || !Array.isArray(m.entry.content)) return;
  for (const item of m.entry.content as unknown[]) {
    const d = item as { type?: unknown; oldText?: unknown; newText?: unknown };
    if (d?.type === 'diff' && typeof d.newText === 'string' && (d.oldText === null || typeof d.oldText === 'string')) {
      cachedDiff(d.oldText, d.newText);
    }
  }
}
