/**
 * One HTTP exchange with the hosted server, with the limits a chat stream needs: the request is
 * abortable (Stop), fails after `timeoutMs` of silence (no headers, or no bytes mid-stream), and
 * stops reading past `maxBytes`. The exchange itself (proxy, timeouts, size cap) is the shared core,
 * src/util/httpCore.ts; this file words its failures in the bridge's vocabulary ({@link HttpFailure}).
 */
import type * as http from 'node:http';
import { HttpCoreError, isAbort, openExchange, type Exchange } from '../util/httpCore';

export { isAbort };

export type HttpFailureKind = 'timeout' | 'tooLarge' | 'unreachable' | 'connectionLost';

/** A transport-level failure (no HTTP status to go by). */
export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }
}

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  env?: NodeJS.ProcessEnv;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The body as it arrives, within the size and silence limits. */
  chunks(): AsyncGenerator<Buffer>;
  /** The whole body as text (for JSON answers and error bodies), within `limit` bytes. */
  text(limit?: number): Promise<string>;
  /** Stops reading and drops the connection. */
  close(): void;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export async function send(req: HttpRequest): Promise<HttpResponse> {
  let exchange: Exchange;
  try {
    exchange = await openExchange({
      url: new URL(req.url),
      method: req.method,
      headers: { 'user-agent': 'tandem-hosted-agent', ...req.headers },
      timeoutMs: req.timeoutMs,
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.env ? { proxy: { env: req.env } } : {}),
    });
  } catch (err) {
    throw err instanceof HttpCoreError ? worded(err) : err;
  }
  const res = exchange.response;
  const read = async function* (max: number): AsyncGenerator<Buffer> {
    try {
      yield* exchange.chunks(max);
    } catch (err) {
      throw err instanceof HttpCoreError ? worded(err) : err;
    }
  };
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: res.headers,
    chunks: () => read(req.maxBytes),
    text: async (limit = req.maxBytes) => {
      const parts: Buffer[] = [];
      for await (const chunk of read(limit)) parts.push(chunk);
      return Buffer.concat(parts).toString('utf8');
    },
    close: () => exchange.close(),
  };
}

/** The core's failure in the bridge's words (the bridge's log and the agent's error are English). */
function worded(err: HttpCoreError): HttpFailure {
  const { host, why, proxy, limit = 0 } = err.facts;
  switch (err.kind) {
    case 'timeout':
      return new HttpFailure('timeout', `No answer from ${host} for ${seconds(limit)}: the request was given up (limit set by --timeout-ms).`);
    case 'unreachable': {
      const via = proxy ? ` via proxy ${proxy.display ?? '(invalid proxy URL)'}` : '';
      return new HttpFailure('unreachable', `Could not reach ${host}${via}: ${why ?? ''}.`);
    }
    case 'tooLarge':
      return new HttpFailure('tooLarge', `The server's answer is larger than ${Math.round(limit / 1024 / 1024)} MB; the bridge stopped reading it there.`);
    case 'connectionLost':
      return new HttpFailure(
        'connectionLost',
        why === undefined ? `The connection to ${host} closed before the answer was complete.` : `The connection to ${host} was lost mid-answer (${why}).`,
      );
    case 'redirects':
      // The bridge follows no redirect (a 3xx is an answer like any other); the core cannot say this.
      return new HttpFailure('unreachable', `Too many redirects from ${host}.`);
    default: {
      const never: never = err.kind;
      return never;
    }
  }
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
