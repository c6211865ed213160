import type * as acp from '@agentclientprotocol/sdk';
import type { ProtocolLog } from './protocolLog';

export interface StreamTapOptions {
  log: ProtocolLog;
  /**
   * Every inbound message, synchronously and in arrival order, before the SDK sees it; `true`
   * consumes it (see NdJsonTransportOptions.onInbound: session/update goes this way).
   */
  onInbound(msg: Record<string, unknown>): boolean;
  /** The inbound side ended (`error` when it failed): called before the SDK hears of it. */
  onEnd(error: unknown): void;
}

/**
 * An `acp.Stream` of already parsed messages (the SDK's WebSocket and HTTP transports) with what
 * the NDJSON transport gives a process: every message logged both ways for the output channel and
 * the protocol inspector, `session/update` tapped in arrival order, and the end of the input seen
 * first, so that pending requests can be told why the connection went.
 */
export function tapStream(inner: acp.Stream, opts: StreamTapOptions): acp.Stream {
  const { log } = opts;
  const reader = inner.readable.getReader();
  let ended = false;
  const end = (error: unknown): void => {
    if (ended) return;
    ended = true;
    opts.onEnd(error);
  };
  const readable = new ReadableStream<acp.AnyMessage>({
    async pull(controller) {
      // Consumed messages (updates) do not reach the SDK: read on until one does, or the end.
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (err) {
          end(err);
          controller.error(err);
          return;
        }
        if (next.done) {
          end(undefined);
          controller.close();
          return;
        }
        const msg = next.value as unknown as Record<string, unknown>;
        log.message('in', JSON.stringify(msg), { msg });
        let consumed = false;
        try {
          consumed = opts.onInbound(msg);
        } catch (err) {
          log.error(`Handling an inbound message failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        }
        if (!consumed) {
          controller.enqueue(next.value);
          return;
        }
      }
    },
    async cancel(reason) {
      ended = true;
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  const writer = inner.writable.getWriter();
  // A write that fails closes the SDK's connection with its error; the writer must not also
  // report it as unhandled.
  writer.closed.catch(() => undefined);
  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      log.message('out', JSON.stringify(message), { msg: message as unknown as Record<string, unknown> });
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable, writable };
}
