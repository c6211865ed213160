import * as l10n from '@vscode/l10n';
import type { Readable, Writable } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import type { ProtocolLog } from './protocolLog';
import { errorMessage } from '../util/errors';

/** Default cap for one inbound line: generous for big diffs, small enough to never exhaust memory. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How much of a bad line is quoted in the warning. */
const QUOTE_CHARS = 200;
/** Messages the SDK may have queued unread before we stop reading the agent's stdout. */
const READ_HIGH_WATER_MARK = 256;

export interface NdJsonTransportOptions {
  log: ProtocolLog;
  /**
   * Called synchronously for every valid inbound message, in arrival order, before the SDK sees
   * it. Returning `true` consumes the message: it is not handed to the SDK. (The session layer
   * consumes `session/update` this way: the SDK would run handlers concurrently and validate — and
   * drop — updates whose kind it does not know.)
   */
  onInbound?: (msg: Record<string, unknown>) => boolean | void;
  /** Longest accepted inbound line in bytes; longer lines are dropped (default 64 MiB). */
  maxLineBytes?: number;
  /** Masks secrets in text quoted into warnings; applied before quoting cuts the text short. */
  redact?: (text: string) => string;
}

export interface NdJsonTransport {
  stream: acp.Stream;
  /** Resolves when the agent's output has ended (EOF, error or cancel). Never rejects. */
  closed: Promise<void>;
}

/**
 * Newline-delimited JSON ⇄ `acp.Stream`, written here rather than using the SDK's ndJsonStream
 * so that every message is logged both ways, bad lines are logged and dropped (the session goes
 * on), and the session layer can tap messages in strict arrival order.
 */
export function createNdJsonTransport(output: Writable, input: Readable, opts: NdJsonTransportOptions): NdJsonTransport {
  const { log, onInbound } = opts;
  const redact = opts.redact ?? ((text: string) => text);
  const quote = (line: string) => quoteLine(redact(line));
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let inputDone = false;

  // Pending bytes of the line being assembled. Kept as parts so UTF-8 split across chunks is only
  // decoded once the whole line is there.
  let parts: Buffer[] = [];
  let partsBytes = 0;
  /** True while skipping the rest of an oversized line up to its newline. */
  let skipping = false;

  let controller!: ReadableStreamDefaultController<acp.AnyMessage>;
  const readable = new ReadableStream<acp.AnyMessage>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        // The SDK caught up: read again.
        if (!inputDone && input.isPaused()) input.resume();
      },
      cancel() {
        finishInput();
      },
    },
    { highWaterMark: READ_HIGH_WATER_MARK },
  );

  const handleLine = (bytes: Buffer): void => {
    let text = bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const line = text.trim();
    if (!line) return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      log.warn(`Dropped a line from the agent that is not JSON (${errorMessage(err)}): ${quote(line)}`);
      return;
    }
    if (Array.isArray(msg)) {
      log.warn(`Dropped a JSON-RPC batch from the agent (ACP does not use batches): ${quote(line)}`);
      return;
    }
    if (typeof msg !== 'object' || msg === null) {
      log.warn(`Dropped a JSON line from the agent that is not an object: ${quote(line)}`);
      return;
    }
    log.message('in', line, { msg: msg as Record<string, unknown> });
    const record = msg as Record<string, unknown>;
    let consumed = false;
    if (onInbound) {
      try {
        consumed = onInbound(record) === true;
      } catch (err) {
        log.error(`Handling an inbound message failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
    if (consumed || inputDone) return;
    // The SDK validates the JSON-RPC envelope itself (and answers invalid requests).
    controller.enqueue(record as acp.AnyMessage);
  };

  const onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      const end = nl === -1 ? buf.length : nl;
      if (skipping) {
        if (nl !== -1) skipping = false;
      } else if (partsBytes + (end - start) > maxLineBytes) {
        log.warn(`Dropped a message from the agent longer than ${maxLineBytes} bytes (the limit for one line).`);
        parts = [];
        partsBytes = 0;
        skipping = nl === -1;
      } else if (nl === -1) {
        parts.push(buf.subarray(start, end));
        partsBytes += end - start;
      } else {
        const piece = buf.subarray(start, end);
        const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece]);
        parts = [];
        partsBytes = 0;
        handleLine(line);
      }
      if (nl === -1) break;
      start = nl + 1;
    }
    // Backpressure: don't read faster than the SDK consumes (memory stays bounded).
    if (!inputDone && (controller.desiredSize ?? 1) <= 0) input.pause();
  };

  const finishInput = (err?: Error): void => {
    if (inputDone) return;
    if (!err && !skipping && partsBytes > 0) {
      // A last message without a trailing newline still counts.
      const line = Buffer.concat(parts);
      parts = [];
      partsBytes = 0;
      handleLine(line);
    }
    inputDone = true;
    parts = [];
    partsBytes = 0;
    input.off('data', onData);
    if (err) log.warn(`Reading from the agent failed: ${err.message}`);
    try {
      controller.close();
    } catch {
      /* already closed or cancelled */
    }
    resolveClosed();
  };

  input.on('data', onData);
  input.once('end', () => finishInput());
  input.once('close', () => finishInput());
  input.once('error', (err: Error) => finishInput(err));
  // Output that already ended before we were attached will never emit 'end' again.
  if (input.readableEnded || input.destroyed) queueMicrotask(() => finishInput());

  // Keep the output's 'error' (EPIPE after the agent died) from becoming an uncaught exception.
  let outputBroken: Error | undefined;
  output.on('error', (err: Error) => {
    outputBroken ??= err;
  });

  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      const line = JSON.stringify(message);
      log.message('out', line, { msg: message as unknown as Record<string, unknown> });
      return new Promise<void>((resolve, reject) => {
        if (outputBroken || output.destroyed || output.writableEnded) {
          reject(
            new Error(
              outputBroken
                ? l10n.t('Cannot send to the agent: its input is closed ({0}).', outputBroken.message)
                : l10n.t('Cannot send to the agent: its input is closed.'),
            ),
          );
          return;
        }
        output.write(line + '\n', (err) => (err ? reject(err) : resolve()));
      });
    },
    close() {
      if (!output.destroyed && !output.writableEnded) output.end();
    },
    abort() {
      if (!output.destroyed && !output.writableEnded) output.end();
    },
  });

  return { stream: { writable, readable }, closed };
}

function quoteLine(line: string): string {
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}… (${line.length} chars)` : line;
}
