/**
 * The inspector's rows and filters, without DOM: every row the host sent, the warnings by message,
 * and the list of rows the filters let through. Filtering 100,000 rows runs in slices of a few
 * milliseconds (no long task); rows that arrive meanwhile are judged as they come.
 */
import type { WireRowView, WireWarningView } from '../../src/protocol/inspectorMessages';

export interface Filters {
  /** Case-insensitive text anywhere in the message (its first 4 KB when it is longer). */
  text: string;
  method: string;
  session: string;
  dir: '' | 'in' | 'out';
  problems: boolean;
}

export const NO_FILTERS: Filters = { text: '', method: '', session: '', dir: '', problems: false };

/** Longest a filter pass runs before it lets the page breathe. */
const SLICE_MS = 8;

export class RowStore {
  rows: WireRowView[] = [];
  /** Indexes into `rows` of the rows shown, in order. */
  shown: number[] = [];
  dropped = 0;
  filters: Filters = { ...NO_FILTERS };
  readonly methods = new Map<string, number>();
  readonly sessions = new Map<string, number>();
  private readonly warningsBySeq = new Map<number, WireWarningView[]>();
  /**
   * The text filter as a case-insensitive pattern: tested on each row's own strings, so filtering
   * allocates nothing (a lower-cased copy of 100,000 rows would cost a major collection).
   */
  private pattern: RegExp | undefined;
  private generation = 0;
  /** True while a filter pass is still going through the rows. */
  filtering = false;

  constructor(
    /** Runs `work` in a later task (a test may run it at once). */
    private readonly later: (work: () => void) => void = (work) => void setTimeout(work, 0),
    private readonly changed: () => void = () => undefined,
  ) {}

  get size(): number {
    return this.rows.length;
  }

  reset(): void {
    this.rows = [];
    this.shown = [];
    this.warningsBySeq.clear();
    this.methods.clear();
    this.sessions.clear();
    this.generation++;
    this.filtering = false;
  }

  append(rows: readonly WireRowView[]): void {
    for (const row of rows) {
      // Rows come in seq order (a snapshot, then live ones): anything not newer is a repeat.
      const last = this.rows[this.rows.length - 1];
      if (last && row.seq <= last.seq) continue;
      const index = this.rows.length;
      this.rows.push(row);
      const method = methodOf(row);
      if (method) this.methods.set(method, (this.methods.get(method) ?? 0) + 1);
      if (row.method && method !== row.method) this.methods.set(row.method, (this.methods.get(row.method) ?? 0) + 1);
      if (row.session) this.sessions.set(row.session, (this.sessions.get(row.session) ?? 0) + 1);
      // Judged now even during a filter pass: the pass only goes up to the rows it started with.
      if (!this.filtering && this.passes(index)) this.shown.push(index);
    }
  }

  paired(pairs: ReadonlyArray<{ seq: number; pair: number; ms: number }>): void {
    for (const p of pairs) {
      // Rows are the host's readonly views: a pairing replaces the row with a copy that names its partner.
      const index = this.indexOf(p.seq);
      if (index >= 0) this.rows[index] = { ...this.rows[index], pair: p.pair, ms: p.ms };
    }
  }

  addWarnings(warnings: readonly WireWarningView[]): void {
    for (const w of warnings) {
      const list = this.warningsBySeq.get(w.seq) ?? [];
      if (list.some((x) => x.rule === w.rule && x.text === w.text)) continue;
      list.push(w);
      this.warningsBySeq.set(w.seq, list);
    }
    // A "problems only" view gains rows whose warnings just arrived.
    if (this.filters.problems && warnings.length > 0) this.refilter();
  }

  warningsOf(seq: number): readonly WireWarningView[] {
    return this.warningsBySeq.get(seq) ?? [];
  }

  row(seq: number): WireRowView | undefined {
    const index = this.indexOf(seq);
    return index < 0 ? undefined : this.rows[index];
  }

  /** Position of a message in the shown list, or -1 when it is filtered out. */
  shownIndexOf(seq: number): number {
    const index = this.indexOf(seq);
    return index < 0 ? -1 : search(this.shown.length, (i) => this.shown[i] - index);
  }

  /** Index of a message in `rows` (sorted by seq), or -1. No map: 100,000 entries would cost more to build. */
  private indexOf(seq: number): number {
    return search(this.rows.length, (i) => this.rows[i].seq - seq);
  }

  /** New filters; `refilter` false: only set them (before any row exists). */
  setFilters(filters: Filters, refilter = true): void {
    this.filters = { ...filters, text: filters.text.trim() };
    this.pattern = this.filters.text ? new RegExp(this.filters.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : undefined;
    if (refilter) this.refilter();
  }

  /** Filters every row again, in slices; `changed` is called after each slice and at the end. */
  refilter(): void {
    const generation = ++this.generation;
    const end = this.rows.length;
    const shown: number[] = [];
    this.filtering = true;
    let i = 0;
    const step = (): void => {
      if (generation !== this.generation) return;
      const stop = performance.now() + SLICE_MS;
      for (; i < end; i++) {
        if (this.passes(i)) shown.push(i);
        if ((i & 255) === 255 && performance.now() > stop) {
          i++;
          break;
        }
      }
      if (i < end) {
        this.later(step);
        return;
      }
      // Rows that arrived during the pass are judged now, in order.
      for (let k = end; k < this.rows.length; k++) if (this.passes(k)) shown.push(k);
      this.shown = shown;
      this.filtering = false;
      this.changed();
    };
    step();
  }

  private passes(index: number): boolean {
    const row = this.rows[index];
    const f = this.filters;
    if (f.dir && row.dir !== f.dir) return false;
    if (f.session && row.session !== f.session) return false;
    if (f.method) {
      // "session/update" takes every kind of update; "session/update · plan" only that one.
      const m = methodOf(row);
      if (m !== f.method && !m.startsWith(`${f.method} · `)) return false;
    }
    if (f.problems && row.kind !== 'error' && !this.warningsBySeq.has(row.seq)) return false;
    const p = this.pattern;
    if (!p) return true;
    return p.test(row.text) || p.test(row.method ?? '') || p.test(row.update ?? '') || p.test(row.agent);
  }
}

/** Binary search over 0..n-1; `compare(i)` is negative below the target. */
function search(n: number, compare: (i: number) => number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compare(mid);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The method a row is listed under: a session/update by its kind, a response by its request's method. */
export function methodOf(row: WireRowView): string {
  if (row.method === 'session/update' && row.update) return `session/update · ${row.update}`;
  return row.method ?? '';
}
