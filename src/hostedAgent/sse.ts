/**
 * Server-sent events, parsed incrementally as the bytes arrive (the WHATWG "event stream"
 * interpretation: `event:` / `data:` / `id:` fields, comments, blank line dispatches, CR, LF or
 * CRLF line ends, a UTF-8 BOM). Written here rather than taken from npm because the bridge bundle
 * imports only the ACP SDK and Node built-ins, and this is the whole of what it needs.
 */

export interface SseEvent {
  /** `message` when the server named none. */
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private first = true;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  /** True once a field line arrived since the last dispatch: an event is half received. */
  private partial = false;

  /** Feeds bytes (or text); returns the events they completed, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.first && text !== '') {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (end === cr && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(start, end);
      if (end === cr && this.buffer[end + 1] === '\n') end++;
      start = end + 1;
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /**
   * The stream ended. A line cut off mid-way is dropped with its event (the connection died
   * mid-event); `truncated` tells the caller so it can say so. An event whose lines all arrived
   * but whose closing blank line did not (servers that write `data: …\n` and close) is kept.
   */
  end(): { events: SseEvent[]; truncated: boolean } {
    // A lone CR at the very end was held back as a possible CRLF: it ends its line after all.
    const rest = this.decoder.decode();
    const events = this.push(this.buffer.endsWith('\r') || rest.endsWith('\r') ? `${rest}\n` : rest);
    const truncated = this.buffer.trim() !== '';
    if (!truncated && this.partial) {
      const last = this.dispatch();
      if (last) events.push(last);
    }
    this.buffer = '';
    this.reset();
    return { events, truncated };
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
