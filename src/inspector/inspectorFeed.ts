import type { InspectorHostMessage, WireRowView, WireWarningView } from '../protocol/inspectorMessages';
import type { ConformanceMonitor } from './conformance';
import { rowOf, type WireRecord } from './wireRecord';
import type { WireStore } from './wireStore';

/** Rows per post of a snapshot: under a MB, so no single post holds either side up for long. */
const SNAPSHOT_CHUNK = 2000;
/** Least time between two live posts (about one frame). */
const FRAME_MS = 16;
/** Live rows waiting while the inspector is hidden; beyond this it gets a fresh snapshot when shown. */
const HIDDEN_BACKLOG = 20_000;

export interface FeedOptions {
  /** The first message shown (messages before it were cleared from the view). */
  from: number;
  frameMs?: number;
  chunk?: number;
}

/**
 * What the inspector webview is sent, and when: a snapshot in chunks on `ready`, then the new
 * messages, pairings and warnings gathered into one post per frame — and nothing while it is
 * hidden (a backlog is kept, or, when it grows too big, a fresh snapshot replaces it). The store's
 * recording does not wait for any of this: the listener only pushes to arrays.
 */
export class InspectorFeed {
  private from: number;
  private visible = true;
  private started = false;
  private snapshotting = false;
  private resync = false;
  private rows: WireRowView[] = [];
  private pairs: Array<{ seq: number; pair: number; ms: number }> = [];
  private warnings: WireWarningView[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: Array<{ dispose(): void }>;
  private generation = 0;

  constructor(
    private readonly store: WireStore,
    private readonly monitor: ConformanceMonitor | undefined,
    private readonly post: (message: InspectorHostMessage) => void,
    private readonly opts: FeedOptions,
  ) {
    this.from = opts.from;
    this.subscriptions = [
      store.listen({
        appended: (r) => this.appended(r),
        paired: (req, res) => this.queue(() => this.pairs.push({ seq: req.seq, pair: res.seq, ms: res.ms ?? 0 })),
      }),
      ...(monitor ? [monitor.onWarnings((ws) => this.queue(() => this.warnings.push(...ws.filter((w) => w.seq >= this.from))))] : []),
    ];
  }

  /** The first message the view shows (after a clear, the next one). */
  get firstShown(): number {
    return this.from;
  }

  /** The webview (re)loaded: everything kept since `from`, in chunks, then live. */
  start(): void {
    this.started = true;
    this.resync = false;
    this.rows = [];
    this.pairs = [];
    this.warnings = [];
    void this.snapshot(++this.generation);
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    if (!visible || !this.started) return;
    if (this.resync) this.start();
    else this.schedule();
  }

  /** Forget what was shown: the view starts empty again (the recording itself keeps everything). */
  clear(): void {
    this.from = this.store.next;
    this.rows = [];
    this.pairs = [];
    this.warnings = [];
    this.generation++;
    this.snapshotting = false;
    this.post({ type: 'rows', rows: [], reset: true, dropped: 0 });
  }

  /** The whole text of one message, for "Show all". */
  fetch(seq: number): void {
    this.post({ type: 'message', seq, text: seq >= this.from ? this.store.get(seq)?.raw : undefined });
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }

  private appended(record: WireRecord): void {
    this.queue(() => this.rows.push(rowOf(record)));
    if (!this.visible && this.rows.length > HIDDEN_BACKLOG) {
      this.resync = true;
      this.rows = [];
      this.pairs = [];
      this.warnings = [];
    }
  }

  private queue(add: () => void): void {
    if (!this.started || this.resync) return;
    add();
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.snapshotting || !this.visible) return;
    this.timer = setTimeout(() => this.flush(), this.opts.frameMs ?? FRAME_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (!this.visible || this.snapshotting) return;
    const messages: InspectorHostMessage[] = [];
    if (this.rows.length > 0) messages.push({ type: 'rows', rows: this.rows, dropped: this.droppedSinceFrom() });
    if (this.pairs.length > 0) messages.push({ type: 'paired', pairs: this.pairs });
    if (this.warnings.length > 0) messages.push({ type: 'warnings', warnings: this.warnings });
    this.rows = [];
    this.pairs = [];
    this.warnings = [];
    if (messages.length === 1) this.post(messages[0]);
    else if (messages.length > 1) this.post({ type: 'batch', messages });
  }

  /** Messages after the clear point that the ring has dropped (the view says so). */
  private droppedSinceFrom(): number {
    const first = this.store.size > 0 ? (this.store.since().next().value as WireRecord).seq : this.store.next;
    return Math.max(0, first - this.from);
  }

  private async snapshot(generation: number): Promise<void> {
    this.snapshotting = true;
    const end = this.store.next;
    let batch: WireRowView[] = [];
    let first = true;
    const chunk = this.opts.chunk ?? SNAPSHOT_CHUNK;
    const send = (more: boolean): void => {
      this.post({ type: 'rows', rows: batch, reset: first, dropped: this.droppedSinceFrom(), more });
      first = false;
      batch = [];
    };
    for (const record of this.store.since(this.from)) {
      if (record.seq >= end) break;
      batch.push(rowOf(record));
      if (batch.length >= chunk) {
        send(true);
        // Between chunks the event loop serves everything else (and new messages queue up).
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (generation !== this.generation) return;
      }
    }
    send(false);
    const warnings = this.monitor?.allWarnings().filter((w) => w.seq >= this.from && w.seq < end) ?? [];
    if (warnings.length > 0) this.post({ type: 'warnings', warnings });
    this.snapshotting = false;
    // Live rows recorded during the snapshot that it already carried are not sent twice.
    this.rows = this.rows.filter((r) => r.seq >= end);
    this.warnings = this.warnings.filter((w) => w.seq >= end);
    this.schedule();
  }
}
