/**
 * The protocol inspector page: toolbar, message grid and detail pane over a RowStore, fed by the
 * host's messages (src/protocol/inspectorMessages.ts). Rows that arrive while paused wait in a
 * queue; everything the host sends is applied at most once per frame.
 */
import * as l10n from '@vscode/l10n';
import { assertNever } from '../../src/protocol/guards';
import { INSPECTOR_PROTOCOL_VERSION, type InspectorHostMessage, type InspectorWebviewMessage, type WireRowView } from '../../src/protocol/inspectorMessages';
import { isVersionMismatch } from '../../src/protocol/versionHandshake';
import { h } from '../core/dom';
import { versionNotice } from '../core/versionNotice';
import { Detail } from './detail';
import { Grid } from './grid';
import { NO_FILTERS, RowStore, type Filters } from './rowStore';
import { Toolbar } from './toolbar';

interface VsCodeApi {
  postMessage(message: InspectorWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Longest the page spends applying host messages in one frame. */
const DRAIN_MS = 8;

function savedFilters(state: unknown): Filters {
  const f = (state as { filters?: Partial<Filters> } | undefined)?.filters;
  if (!f) return { ...NO_FILTERS };
  return {
    text: typeof f.text === 'string' ? f.text : '',
    method: typeof f.method === 'string' ? f.method : '',
    session: typeof f.session === 'string' ? f.session : '',
    dir: f.dir === 'in' || f.dir === 'out' ? f.dir : '',
    problems: f.problems === true,
  };
}

export class InspectorApp {
  private readonly api = acquireVsCodeApi();
  private readonly store: RowStore;
  private readonly grid: Grid;
  private readonly detail: Detail;
  private readonly toolbar: Toolbar;
  private paused = false;
  private pending: WireRowView[] = [];
  private inbox: InspectorHostMessage[] = [];
  private frame = 0;
  /** The host speaks another version of this contract (the reload notice is shown). */
  private stale = false;

  constructor(private readonly root: HTMLElement) {
    const filters = savedFilters(this.api.getState());
    this.store = new RowStore(undefined, () => this.changed());
    this.store.setFilters(filters, false);
    this.detail = new Detail(this.store, {
      copy: (seq) => this.api.postMessage({ type: 'copy', seq }),
      fetch: (seq) => this.api.postMessage({ type: 'fetch', seq }),
      goTo: (seq) => {
        if (!this.grid.reveal(seq)) this.toolbar.status.textContent = l10n.t('That message is hidden by the filters.');
        this.grid.focus();
      },
    });
    this.grid = new Grid(
      this.store,
      (row) => this.detail.show(row),
      () => this.detail.focus(),
    );
    this.toolbar = new Toolbar(
      this.store,
      {
        filter: (f) => {
          this.api.setState({ filters: f });
          this.store.setFilters(f);
          this.changed();
        },
        pause: (paused) => {
          this.paused = paused;
          if (!paused) {
            const rows = this.pending;
            this.pending = [];
            this.store.append(rows);
          }
          this.changed();
        },
        clear: () => this.api.postMessage({ type: 'clear' }),
        export: () => this.api.postMessage({ type: 'export' }),
      },
      filters,
    );
    const main = h('div', { class: 'inspector-main' }, this.grid.element, this.detail.element);
    this.root.replaceChildren(h('div', { class: 'inspector' }, this.toolbar.element, this.toolbar.status, main));
  }

  start(): void {
    window.addEventListener('message', (e: MessageEvent<unknown>) => {
      if (this.stale) return;
      if (isVersionMismatch(e.data)) {
        // After an update the page and the host may run different builds: one notice, with Reload;
        // nothing the host sends afterwards is applied.
        this.stale = true;
        this.root.replaceChildren(
          versionNotice(() => this.api.postMessage({ type: 'reloadView' }), { hostVersion: e.data.hostVersion, panelVersion: INSPECTOR_PROTOCOL_VERSION }),
        );
        return;
      }
      const m = e.data as InspectorHostMessage | undefined;
      if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
      this.inbox.push(m);
      if (!this.frame) this.frame = requestAnimationFrame(() => this.drain());
    });
    this.api.postMessage({ type: 'ready', protocolVersion: INSPECTOR_PROTOCOL_VERSION });
    this.changed();
  }

  /** Applies what arrived, for at most a slice of the frame; a snapshot of 100,000 rows takes several frames. */
  private drain(): void {
    this.frame = 0;
    const stop = performance.now() + DRAIN_MS;
    let n = 0;
    while (n < this.inbox.length) {
      this.apply(this.inbox[n++]);
      if (performance.now() > stop) break;
    }
    this.inbox.splice(0, n);
    if (this.inbox.length > 0) this.frame = requestAnimationFrame(() => this.drain());
    this.changed();
  }

  private apply(m: InspectorHostMessage): void {
    switch (m.type) {
      case 'rows':
        if (m.reset) {
          this.store.reset();
          this.pending = [];
          this.detail.show(undefined);
        }
        this.store.dropped = m.dropped;
        if (this.paused && !m.reset) this.pending.push(...m.rows);
        else this.store.append(m.rows);
        return;
      case 'paired':
        this.store.paired(m.pairs);
        this.detail.refresh();
        return;
      case 'warnings':
        this.store.addWarnings(m.warnings);
        this.detail.refresh();
        return;
      case 'message':
        this.detail.received(m.seq, m.text);
        return;
      case 'focus':
        this.toolbar.focusSession(m.session);
        return;
      case 'batch':
        for (const inner of m.messages) this.apply(inner);
        return;
      default:
        assertNever(m);
    }
  }

  private changed(): void {
    this.toolbar.updateOptions();
    this.toolbar.render(this.pending.length);
    this.grid.refresh();
  }
}
