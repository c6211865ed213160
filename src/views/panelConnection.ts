import type { HostMessage, PanelSnapshot, ServedBy, WebviewMessage } from '../protocol/messages';
import { PROTOCOL_VERSION, servedBy } from '../protocol/messages';
import { assertNever } from '../protocol/guards';
import { versionMismatchFor, type VersionMismatchMessage } from '../protocol/versionHandshake';
import type { IDisposable } from '../util/disposable';
import { BatchedPoster } from './batchedPoster';
import { isWebviewMessage } from './messageGuard';
import { OlderEntries } from './snapshotSplit';

/** Least time between two posts to the panel while messages stream. */
export const FLUSH_MS = 16;
/** Chips added while the panel loads wait for its snapshot; at most this many. */
const UNCLAIMED_LIMIT = 20;

/** What the panel is served from: the editor host in VS Code, a conversation manager in the tests. */
export interface PanelHost {
  /** Loads what is kept (once); the snapshot is complete afterwards. */
  init(): Promise<void>;
  snapshot(): PanelSnapshot;
  /** Host → panel changes as they happen. */
  onMessage(listener: (message: HostMessage) => void): IDisposable;
  /** A command for the core or the editor; `reply` posts an answer through the batches. */
  handle(message: WebviewMessage, reply: (message: HostMessage) => void): Promise<void>;
}

/** The panel's end: posting into it, and loading its page afresh. */
export interface PanelSink {
  post(message: HostMessage | VersionMismatchMessage): void;
  /** Loads the panel's page again (its Reload button after a version mismatch). */
  reload(): void;
}

export interface PanelConnectionOptions {
  /** A command failed, or the stored conversations could not be loaded. */
  onError(what: 'command' | 'init', err: unknown): void;
  warn(text: string): void;
}

/**
 * The host's side of the panel, vscode-free, used by the view provider and by the tests alike. The
 * host owns the truth: on every `ready` (first load, reload, re-show) the panel gets a full
 * snapshot — a long thread's last screens first, the older entries when it asks — then keyed
 * changes, coalesced into about one post per frame. Until it is ready nothing is posted (the
 * snapshot it will get already holds every change), except chips, which wait for it, and the
 * latest entry to land on (a search match chosen while the panel was closed).
 */
export class PanelConnection implements IDisposable {
  private ready = false;
  private focusedValue = false;
  private readonly older = new OlderEntries();
  private readonly unclaimed: HostMessage[] = [];
  /** A `revealEntry` posted before the panel was ready: it follows the snapshot (only the latest counts). */
  private landing: HostMessage | undefined;
  private readonly poster: BatchedPoster;
  private readonly subscription: IDisposable;

  constructor(
    private readonly host: PanelHost,
    private readonly sink: PanelSink,
    private readonly opts: PanelConnectionOptions,
  ) {
    this.poster = new BatchedPoster((message) => sink.post(message), FLUSH_MS);
    this.subscription = host.onMessage((message) => this.enqueue(message));
  }

  /** Whether the panel has keyboard focus (a permission prompt then needs no notification). */
  get focused(): boolean {
    return this.focusedValue;
  }

  /** True when nothing waits to be posted. */
  get idle(): boolean {
    return this.poster.idle;
  }

  /** One message the panel posted (untrusted until checked). */
  receive(raw: unknown): void {
    if (!isWebviewMessage(raw)) {
      this.opts.warn(`Ignored a malformed message from the panel: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const message: WebviewMessage = raw;
    const by = servedBy(message.type);
    if (by === 'connection') return this.serve(message as Extract<WebviewMessage, { type: ServedBy<'connection'> }>);
    this.host.handle(message, (reply) => this.enqueue(reply)).catch((err: unknown) => this.opts.onError('command', err));
  }

  /** The panel went away (hidden, disposed, reloading): nothing is posted until its next `ready`. */
  detach(): void {
    this.ready = false;
    this.focusedValue = false;
    this.poster.discard();
  }

  /** A host message for the panel, through the batches (dropped until the panel is ready). */
  enqueue(message: HostMessage): void {
    if (!this.ready) {
      if (message.type === 'mentionsAdded' && this.unclaimed.length < UNCLAIMED_LIMIT) this.unclaimed.push(message);
      if (message.type === 'revealEntry') this.landing = message;
      return;
    }
    // A tab switch to a long conversation: its last screens first, like a snapshot.
    this.poster.push(this.older.outgoing(message));
  }

  dispose(): void {
    this.poster.discard();
    this.subscription.dispose();
  }

  private serve(message: Extract<WebviewMessage, { type: ServedBy<'connection'> }>): void {
    switch (message.type) {
      case 'focusChanged':
        this.focusedValue = message.focused;
        return;
      case 'reloadView':
        this.detach();
        this.sink.reload();
        return;
      case 'olderEntriesWanted': {
        const older = this.older.take(message.conversationId);
        // Through the batches, after any change already queued: those were made after the snapshot too.
        if (older && this.ready) this.poster.push(older);
        return;
      }
      case 'ready':
        return this.onReady(message.protocolVersion);
      default:
        assertNever(message);
    }
  }

  private onReady(protocolVersion: unknown): void {
    this.older.clear();
    this.ready = false;
    this.poster.discard();
    const mismatch = versionMismatchFor({ protocolVersion });
    if (mismatch) {
      // A panel of another version would misread the snapshot: it gets the reload notice instead.
      this.opts.warn(`The panel speaks protocol ${String(protocolVersion)}, the extension ${PROTOCOL_VERSION}; the panel asks to be reloaded.`);
      this.sink.post(mismatch);
      return;
    }
    // The stored conversations load on the first ready; the snapshot then carries everything so far.
    void this.host
      .init()
      .catch((err: unknown) => this.opts.onError('init', err))
      .then(() => {
        this.ready = true;
        this.sink.post({ type: 'snapshot', snapshot: this.older.split(this.host.snapshot()) });
        // Chips added while the panel was loading (Add Selection opened it) follow the snapshot.
        for (const added of this.unclaimed.splice(0)) this.poster.push(added);
        if (this.landing) this.poster.push(this.landing);
        this.landing = undefined;
      });
  }
}
