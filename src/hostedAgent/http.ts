/**
 * One HTTP exchange with the hosted server, with the limits a chat stream needs: the request is
 * abortable (Stop), fails after `timeoutMs` of silence (no headers, or no bytes mid-stream), and
 * stops reading past `maxBytes`. node:http rather than fetch: Node 20's fetch cannot use a proxy,
 * and https-proxy-agent (the one the extension already bundles) tunnels through HTTPS_PROXY /
 * HTTP_PROXY with CONNECT.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { proxyFor, proxyForDisplay } from '../util/proxyEnv';

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

export function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR');
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export function send(req: HttpRequest): Promise<HttpResponse> {
  const target = new URL(req.url);
  const proxy = proxyFor(req.url, req.env ? { env: req.env } : {});
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    // Set when the bridge itself ends the exchange, so the socket error that follows says why.
    let failure: HttpFailure | undefined;
    const headers: Record<string, string> = { 'user-agent': 'tandem-hosted-agent', ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = request(target, { method: req.method, headers, agent: proxy ? new HttpsProxyAgent(proxy) : undefined, signal: req.signal });
    const giveUp = (): void => {
      failure = new HttpFailure(
        'timeout',
        `No answer from ${target.host} for ${seconds(req.timeoutMs)}: the request was given up (limit set by --timeout-ms).`,
      );
      r.destroy(failure);
      // A request still waiting for its socket (a proxy's CONNECT) emits no error when destroyed.
      reject(failure);
    };
    r.setTimeout(req.timeoutMs, giveUp);
    // The socket timeout starts only once there is a socket: through a proxy, after its CONNECT is
    // answered. Until the answer's headers, this timer bounds that wait too.
    const untilAnswer = setTimeout(giveUp, req.timeoutMs);
    untilAnswer.unref();
    r.once('response', () => clearTimeout(untilAnswer));
    r.once('close', () => clearTimeout(untilAnswer));
    r.on('error', (err: NodeJS.ErrnoException) => {
      if (isAbort(err) || err instanceof HttpFailure) return reject(err);
      const why = err.code ?? err.message;
      const via = proxy ? ` via proxy ${proxyForDisplay(proxy) ?? '(invalid proxy URL)'}` : '';
      reject(new HttpFailure('unreachable', `Could not reach ${target.host}${via}: ${why}.`));
    });
    r.on('response', (res) => {
      const read = async function* (max: number): AsyncGenerator<Buffer> {
        let size = 0;
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > max) {
              failure = new HttpFailure(
                'tooLarge',
                `The server's answer is larger than ${Math.round(max / 1024 / 1024)} MB; the bridge stopped reading it there.`,
              );
              r.destroy(failure);
              throw failure;
            }
            yield chunk;
          }
        } catch (err) {
          if (failure) throw failure;
          if (isAbort(err) || req.signal?.aborted) throw err;
          throw new HttpFailure(
            'connectionLost',
            `The connection to ${target.host} was lost mid-answer (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
          );
        }
        // A body cut short of its Content-Length also ends "normally" in Node: check.
        if (!res.complete) throw failure ?? new HttpFailure('connectionLost', `The connection to ${target.host} closed before the answer was complete.`);
      };
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: res.headers,
        chunks: () => read(req.maxBytes),
        text: async (limit = req.maxBytes) => {
          const parts: Buffer[] = [];
          for await (const chunk of read(limit)) parts.push(chunk);
          return Buffer.concat(parts).toString('utf8');
        },
        close: () => r.destroy(),
      });
    });
    r.end(req.body);
  });
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
