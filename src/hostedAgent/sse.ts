/**
 * Server-sent events, parsed incrementally as the bytes arrive (the WHATWG "event stream"
 * interpretation: `event:` / `data:` / `id:` fields, comments, blank line dispatches, CR, LF or
 * CRLF line ends, a UTF-8 BOM). Written here rather than taken from npm because the bridge bundle
 * imports only the ACP SDK and Node built-ins, and this is the whole of what it needs.
 *
 * Linear in its input: each pushed character is looked at once (a line still open keeps its parts
 * until its end arrives, it is not searched again), and one line may hold at most `maxLineChars`,
 * so a server that trickles one endless line costs neither quadratic time nor unbounded memory.
 */
import { HttpFailure } from './http';

export interface SseEvent {
  /** `message` when the server named none. */
  event: string;
  data: string;
  id?: string;
}

/** The longest field line accepted (the SDK's own line buffer stops at 1 MB too). */
export const MAX_SSE_LINE_CHARS = 1024 * 1024;

const LINE_END = /[\r\n]/g;

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose end has not arrived yet, in the pieces it came in. */
  private open: string[] = [];
  private openLength = 0;
  /** The last character pushed was a CR: a LF right after it is the second half of CRLF. */
  private afterCr = false;
  private first = true;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  /** True once a field line arrived since the last dispatch: an event is half received. */
  private partial = false;
  private scannedChars = 0;

  constructor(private readonly maxLineChars = MAX_SSE_LINE_CHARS) {}

  /** Characters searched for line ends so far: each pushed character once (what keeps it linear). */
  get scanned(): number {
    return this.scannedChars;
  }

  /**
   * Feeds bytes (or text); returns the events they completed, in order. Throws a `tooLarge`
   * HttpFailure when one line grows past the limit (the caller stops reading the answer).
   */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.first && text !== '') {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    let pos = 0;
    if (this.afterCr && text !== '') {
      this.afterCr = false;
      if (text.charCodeAt(0) === 0x0a) pos = 1;
    }
    for (;;) {
      LINE_END.lastIndex = pos;
      const found = LINE_END.exec(text);
      if (!found) break;
      const end = found.index;
      this.scannedChars += end + 1 - pos;
      const line = this.close(text.slice(pos, end));
      if (text.charCodeAt(end) === 0x0d) {
        if (end + 1 === text.length) this.afterCr = true;
        pos = text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
      } else pos = end + 1;
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    this.scannedChars += text.length - pos;
    if (pos < text.length) this.keep(text.slice(pos));
    return out;
  }

  /**
   * The stream ended. A line cut off mid-way is dropped with its event (the connection died
   * mid-event); `truncated` tells the caller so it can say so. An event whose lines all arrived
   * but whose closing blank line did not (servers that write `data: …\n` and close) is kept.
   */
  end(): { events: SseEvent[]; truncated: boolean } {
    const events = this.push(this.decoder.decode());
    const truncated = this.open.join('').trim() !== '';
    if (!truncated && this.partial) {
      const last = this.dispatch();
      if (last) events.push(last);
    }
    this.open = [];
    this.openLength = 0;
    this.afterCr = false;
    this.reset();
    return { events, truncated };
  }

  /** Keeps the start of a line until its end arrives. */
  private keep(piece: string): void {
    this.openLength += piece.length;
    if (this.openLength > this.maxLineChars) throw this.tooLong();
    this.open.push(piece);
  }

  /** The whole line ending with `last`. */
  private close(last: string): string {
    const length = this.openLength + last.length;
    if (length > this.maxLineChars) throw this.tooLong();
    const line = this.open.length === 0 ? last : this.open.join('') + last;
    this.open = [];
    this.openLength = 0;
    return line;
  }

  private tooLong(): HttpFailure {
    const mb = Math.round(this.maxLineChars / 1024 / 1024);
    return new HttpFailure('tooLarge', `The server sent an event line longer than ${mb} MB; the bridge stopped reading the answer there.`);
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.partial = true;
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        // `retry` and unknown fields: nothing the bridge uses (it never reconnects on its own).
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const had = this.data.length > 0;
    const ev: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) ev.id = this.id;
    this.reset();
    return had ? ev : undefined;
  }

  private reset(): void {
    this.event = '';
    this.data = [];
    this.partial = false;
  }
}
