/**
 * The message list: an ARIA grid (one row per message, one gridcell per column) of which only the
 * rows in view exist in the DOM — a pool of row elements moved and refilled as it scrolls — so
 * 100,000 messages cost what 40 do. The grid itself holds the focus and points at the active row
 * with aria-activedescendant; arrows, Page Up/Down, Home/End move it; Enter opens the details.
 */
import * as l10n from '@vscode/l10n';
import type { WireRowView } from '../../src/protocol/inspectorMessages';
import { formatBytes } from '../../src/protocol/displayLanguage';
import { h } from '../core/dom';
import { methodOf, type RowStore } from './rowStore';

export const ROW_HEIGHT = 22;
/** Rows rendered beyond the viewport on each side. */
const OVERSCAN = 8;
const COLUMNS = (): string[] => [
  l10n.t('Time'),
  l10n.t('Direction'),
  l10n.t('Method'),
  l10n.t('Session'),
  l10n.t('Id'),
  l10n.t('Size'),
  l10n.t('Latency'),
  l10n.t('Problems'),
];

export class Grid {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  /** Index in the shown list of the active row (-1: none). */
  active = -1;
  /** True while the view follows new messages (scrolled to the end). */
  private following = true;
  private frame = 0;

  constructor(
    private readonly store: RowStore,
    private readonly onSelect: (row: WireRowView | undefined) => void,
    private readonly onOpen: () => void,
  ) {
    const header = h(
      'div',
      { class: 'grid-row grid-header', role: 'row', 'aria-rowindex': 1 },
      ...COLUMNS().map((c) => h('span', { role: 'columnheader', class: 'cell' }, c)),
    );
    this.spacer = h('div', { class: 'grid-spacer', role: 'presentation' });
    this.viewport = h('div', { class: 'grid-viewport', role: 'rowgroup' }, this.spacer);
    this.element = h(
      'div',
      { class: 'grid', role: 'grid', tabindex: 0, 'aria-label': l10n.t('Protocol messages'), 'aria-colcount': COLUMNS().length },
      h('div', { role: 'rowgroup', class: 'grid-head' }, header),
      this.viewport,
    );
    this.viewport.addEventListener('scroll', () => {
      this.following = this.viewport.scrollTop + this.viewport.clientHeight >= this.store.shown.length * ROW_HEIGHT - ROW_HEIGHT;
      this.schedule();
    });
    this.element.addEventListener('keydown', (e) => this.key(e));
    this.viewport.addEventListener('click', (e) => {
      const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (!rowEl) return;
      this.select(Number(rowEl.dataset.index));
      this.element.focus();
    });
    this.viewport.addEventListener('dblclick', () => this.onOpen());
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
  }

  /** The rows changed (new ones, another filter): size, follow the end, repaint. */
  refresh(): void {
    const count = this.store.shown.length;
    const total = count * ROW_HEIGHT;
    this.spacer.style.height = `${total}px`;
    // Rows placed beyond the new end would keep the old scroll height (transforms count as overflow).
    for (const el of this.pool) if (Number(el.dataset.index) >= count) el.hidden = true;
    this.element.setAttribute('aria-rowcount', String(count + 1));
    if (this.active >= count) this.active = count - 1;
    if (this.following) this.viewport.scrollTop = total;
    this.schedule();
  }

  /** Makes the message with `seq` active and scrolls to it; false when the filters hide it. */
  reveal(seq: number): boolean {
    const index = this.store.shownIndexOf(seq);
    if (index < 0) return false;
    this.select(index);
    return true;
  }

  focus(): void {
    this.element.focus();
  }

  get activeRow(): WireRowView | undefined {
    const index = this.store.shown[this.active];
    return index === undefined ? undefined : this.store.rows[index];
  }

  private select(index: number): void {
    const count = this.store.shown.length;
    if (count === 0) return;
    this.active = Math.max(0, Math.min(count - 1, index));
    this.following = this.active === count - 1;
    const top = this.active * ROW_HEIGHT;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > this.viewport.scrollTop + this.viewport.clientHeight) this.viewport.scrollTop = top + ROW_HEIGHT - this.viewport.clientHeight;
    this.render();
    this.onSelect(this.activeRow);
  }

  private key(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number | undefined> = {
      ArrowDown: this.active + 1,
      ArrowUp: this.active - 1,
      PageDown: this.active + page,
      PageUp: this.active - page,
      Home: 0,
      End: this.store.shown.length - 1,
    };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      this.select(this.active < 0 && e.key !== 'End' ? 0 : target);
    } else if (e.key === 'Enter' && this.active >= 0) {
      e.preventDefault();
      this.onOpen();
    }
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const count = this.store.shown.length;
    const height = this.viewport.clientHeight || 400;
    const scrollTop = Math.min(this.viewport.scrollTop, Math.max(0, count * ROW_HEIGHT - height));
    const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    const needed = last - first;
    while (this.pool.length < needed) {
      const el = h('div', { class: 'grid-row', role: 'row' }, ...COLUMNS().map(() => h('span', { role: 'gridcell', class: 'cell' })));
      this.pool.push(el);
      this.viewport.append(el);
    }
    for (let k = 0; k < this.pool.length; k++) {
      const el = this.pool[k];
      const i = first + k;
      if (i >= last) {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      const row = this.store.rows[this.store.shown[i]];
      if (el.dataset.seq !== String(row.seq) || el.dataset.version !== version(row, this.store)) this.fill(el, row);
      el.dataset.index = String(i);
      el.style.transform = `translateY(${i * ROW_HEIGHT}px)`;
      el.setAttribute('aria-rowindex', String(i + 2));
      el.setAttribute('aria-selected', String(i === this.active));
      el.classList.toggle('active', i === this.active);
    }
    const activeEl = this.pool.find((el) => !el.hidden && Number(el.dataset.index) === this.active);
    if (activeEl) this.element.setAttribute('aria-activedescendant', activeEl.id);
    else this.element.removeAttribute('aria-activedescendant');
  }

  private fill(el: HTMLElement, row: WireRowView): void {
    const warnings = this.store.warningsOf(row.seq);
    const errors = row.kind === 'error' || warnings.some((w) => w.severity === 'error');
    el.id = `msg-${row.seq}`;
    el.dataset.seq = String(row.seq);
    el.dataset.version = version(row, this.store);
    el.dataset.dir = row.dir;
    el.dataset.kind = row.kind;
    el.classList.toggle('has-error', errors);
    el.classList.toggle('has-warning', !errors && warnings.length > 0);
    const cells = el.children as HTMLCollectionOf<HTMLElement>;
    cells[0].textContent = clock(row.t);
    cells[1].textContent = row.dir === 'in' ? l10n.t('← from agent') : l10n.t('→ to agent');
    cells[2].textContent = `${methodOf(row) || l10n.t('(response)')}${row.kind === 'response' || row.kind === 'error' ? ` ${row.kind === 'error' ? l10n.t('error') : l10n.t('result')}` : ''}`;
    cells[2].title = cells[2].textContent;
    cells[3].textContent = row.session ?? '';
    cells[3].title = row.session ?? '';
    cells[4].textContent = row.id ?? '';
    cells[5].textContent = formatBytes(row.size);
    cells[6].textContent = row.ms !== undefined && (row.kind === 'response' || row.kind === 'error') ? l10n.t('{0} ms', row.ms) : '';
    cells[7].textContent = warnings.length > 0 ? `⚠ ${warnings.length}` : row.kind === 'error' ? '✖' : '';
    cells[7].setAttribute(
      'aria-label',
      warnings.length > 0 ? l10n.t('{0} warnings', warnings.length) : row.kind === 'error' ? l10n.t('error response') : l10n.t('no problems'),
    );
  }
}

/** What a row's rendering depends on besides its seq: its pairing and its warnings may come later. */
function version(row: WireRowView, store: RowStore): string {
  return `${row.ms ?? ''}|${store.warningsOf(row.seq).length}`;
}

function clock(t: number): string {
  const d = new Date(t);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
