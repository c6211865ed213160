import type { ProtocolLog, WireOrigin } from '../acp/protocolLog';
import { describeMessage, pairKey, type WireRecord } from './wireRecord';

/** Messages kept at most (the oldest go first), and characters of JSON kept at most (≈ 2 bytes each). */
export const DEFAULT_MAX_MESSAGES = 100_000;
export const DEFAULT_MAX_CHARS = 32 * 1024 * 1024;
/** Requests left waiting for an answer that are remembered (an agent may never answer some). */
const MAX_PENDING = 10_000;
const STDERR_LINES = 200;
/** Dropped slots at the front of the ring before it is compacted. */
const COMPACT_AT = 4096;

export interface WireStoreOptions {
  maxMessages?: number;
  maxChars?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Told of every message as it is recorded, synchronously: keep it cheap (queue, do not work). */
export interface WireListener {
  appended(record: WireRecord): void;
  /** A response arrived for `request` (already recorded): both now know each other and the latency. */
  paired?(request: WireRecord, response: WireRecord): void;
}

/** One connection's handshake, kept even after the ring has dropped it (every export starts with it). */
export interface Handshake {
  request?: WireRecord;
  response?: WireRecord;
}

/**
 * Every JSON-RPC message of this window, both ways, in a bounded ring: the last 100,000 messages or
 * 32 M characters, whichever is less; the oldest are dropped and counted. Requests are paired with
 * their responses as they arrive (by connection, direction and id), so latency is known at once.
 * It is a {@link ProtocolLog} tap (messages and stderr), fed by the output log; recording is a
 * push and a map lookup, and all other work (conformance, export) happens elsewhere, later.
 */
export class WireStore implements Pick<ProtocolLog, 'message' | 'stderr'> {
  private items: WireRecord[] = [];
  private head = 0;
  private chars = 0;
  private nextSeq = 1;
  private droppedCount = 0;
  private readonly pending = new Map<string, WireRecord>();
  private readonly handshakes = new Map<number, Handshake>();
  private readonly stderrTails = new Map<string, string[]>();
  private readonly listeners = new Set<WireListener>();
  private readonly maxMessages: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor(opts: WireStoreOptions = {}) {
    this.maxMessages = opts.maxMessages ?? DEFAULT_MAX_MESSAGES;
    this.maxChars = opts.maxChars ?? DEFAULT_MAX_CHARS;
    this.now = opts.now ?? Date.now;
  }

  message(direction: 'in' | 'out', raw: string, origin?: WireOrigin): void {
    const d = describeMessage(origin?.msg);
    const record: WireRecord = {
      seq: this.nextSeq++,
      t: this.now(),
      dir: direction,
      agent: origin?.agent ?? '',
      conn: origin?.connection ?? 0,
      raw,
      kind: d.kind,
      method: d.method,
      update: d.update,
      id: d.id,
      session: d.session,
      ...(origin?.channel ? { channel: origin.channel } : {}),
    };
    const request = this.pairUp(record);
    this.push(record);
    for (const listener of this.listeners) {
      listener.appended(record);
      if (request) listener.paired?.(request, record);
    }
  }

  stderr(agentName: string, line: string): void {
    let tail = this.stderrTails.get(agentName);
    if (!tail) this.stderrTails.set(agentName, (tail = []));
    tail.push(line);
    if (tail.length > STDERR_LINES) tail.splice(0, tail.length - STDERR_LINES);
  }

  /** The last lines an agent wrote to stderr in this window (already redacted of its env values). */
  stderrTail(agentName: string, lines = 80): string[] {
    return (this.stderrTails.get(agentName) ?? []).slice(-lines);
  }

  listen(listener: WireListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Messages dropped from the front of the ring so far. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /** The seq the next message will get. */
  get next(): number {
    return this.nextSeq;
  }

  get(seq: number): WireRecord | undefined {
    if (this.size === 0) return undefined;
    const index = this.head + (seq - this.items[this.head].seq);
    const record = index >= this.head && index < this.items.length ? this.items[index] : undefined;
    return record?.seq === seq ? record : undefined;
  }

  /** The kept messages with a seq of at least `fromSeq`, oldest first. */
  *since(fromSeq = 0): IterableIterator<WireRecord> {
    const first = this.size > 0 ? this.items[this.head].seq : 0;
    for (let i = this.head + Math.max(0, fromSeq - first); i < this.items.length; i++) yield this.items[i];
  }

  /** Each connection's `initialize` request and answer, by connection number. */
  handshake(conn: number): Handshake | undefined {
    return this.handshakes.get(conn);
  }

  /** Records the request of a response (both learn of each other), or registers a request. */
  private pairUp(record: WireRecord): WireRecord | undefined {
    if (record.id === undefined) return undefined;
    if (record.kind === 'request') {
      const key = pairKey(record.conn, record.dir, record.id);
      this.pending.delete(key);
      this.pending.set(key, record);
      if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
      // The ACP handshake only: an MCP client's `initialize` (channel mcp) starts no ACP connection.
      if (record.method === 'initialize' && record.channel === undefined) this.handshakes.set(record.conn, { request: record });
      return undefined;
    }
    const key = pairKey(record.conn, record.dir === 'in' ? 'out' : 'in', record.id);
    const request = this.pending.get(key);
    if (!request) return undefined;
    this.pending.delete(key);
    record.method = request.method;
    record.pair = request.seq;
    request.pair = record.seq;
    record.ms = request.ms = record.t - request.t;
    // A response names its session through its request, or (session/new) in its result.
    if (request.session !== undefined) record.session = request.session;
    else if (record.session !== undefined) request.session = record.session;
    if (request.method === 'initialize') {
      const handshake = this.handshakes.get(record.conn);
      if (handshake?.request === request) handshake.response = record;
    }
    return request;
  }

  private push(record: WireRecord): void {
    this.items.push(record);
    this.chars += record.raw.length;
    while (this.size > 1 && (this.size > this.maxMessages || this.chars > this.maxChars)) {
      const old = this.items[this.head];
      this.chars -= old.raw.length;
      this.head++;
      this.droppedCount++;
    }
    // Dropped records stay referenced until the ring is compacted: at most COMPACT_AT of them.
    if (this.head >= COMPACT_AT) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
