/**
 * One HTTP exchange over node:http(s), shared by the registry client (src/agents/httpClient.ts) and
 * the hosted bridge (src/hostedAgent/http.ts): the proxy agent, the timeouts, the body size cap, a
 * redirect policy, and one failure shape. node:http rather than fetch: Node 20's fetch cannot use a
 * proxy, and VS Code's own proxy patching does not reach every host (remote servers, code-server, a
 * plain Node test). https-proxy-agent (TooTallNate's proxy-agents, the one npm uses) tunnels http and
 * https targets through an http(s) proxy with CONNECT and takes credentials in the URL.
 *
 * The core speaks no user's language: a failure carries a kind and the facts (host, proxy, cause);
 * each caller words it in its own vocabulary (l10n for the extension, English for the bridge).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { proxyFor, proxyForDisplay, type ProxySource } from './proxyEnv';

export type HttpCoreFailureKind = 'timeout' | 'unreachable' | 'tooLarge' | 'connectionLost' | 'redirects';

/** Facts about a failure, for the caller's message. */
export interface HttpCoreFacts {
  /** The URL asked (for 'redirects': the last hop). */
  url: string;
  host: string;
  /** The socket error's code (or message) for 'unreachable' and a mid-answer 'connectionLost'. */
  why?: string;
  /** Set when the request went through a proxy; `display` is undefined when the proxy URL is invalid. */
  proxy?: { display: string | undefined };
  /** The limit that was hit ('tooLarge': bytes; 'timeout': ms; 'redirects': hops). */
  limit?: number;
}

/** A transport-level failure of one exchange (an HTTP status is not one: callers judge those). */
export class HttpCoreError extends Error {
  constructor(
    readonly kind: HttpCoreFailureKind,
    readonly facts: HttpCoreFacts,
    options?: { cause?: unknown },
  ) {
    super(`${kind} (${facts.host}${facts.why ? `: ${facts.why}` : ''})`, options);
    this.name = 'HttpCoreError';
  }
}

export function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR');
}

/** The proxy the rules pick for `url`, and the agent that tunnels through it (none when direct). */
export function proxyAgentFor(url: string, source: ProxySource = {}): { proxy: string | undefined; agent: HttpsProxyAgent<string> | undefined } {
  const proxy = proxyFor(url, source);
  return { proxy, agent: proxy ? new HttpsProxyAgent(proxy) : undefined };
}

export interface CoreRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Silence limit: no headers within this time (a proxy's CONNECT included), or no bytes mid-answer. */
  timeoutMs: number;
  /** Where the proxy comes from (the editor's setting, the environment). */
  proxy?: ProxySource;
}

/** An answered request: any status (the caller judges it), the body read within limits. */
export interface Exchange {
  /** What was asked (after redirects, the last hop). */
  readonly url: URL;
  readonly response: http.IncomingMessage;
  /** The body as it arrives; past `maxBytes` the connection is dropped with a 'tooLarge' failure. */
  chunks(maxBytes: number): AsyncGenerator<Buffer>;
  /** Stops reading and drops the connection. */
  close(): void;
}

/** Sends one request; resolves once the answer's headers are in, rejects with {@link HttpCoreError} or an abort. */
export function openExchange(req: CoreRequest): Promise<Exchange> {
  const { url: target } = req;
  const { proxy, agent } = proxyAgentFor(target.toString(), req.proxy);
  const facts = (more: Partial<HttpCoreFacts> = {}): HttpCoreFacts => ({
    url: target.toString(),
    host: target.host,
    ...(proxy ? { proxy: { display: proxyForDisplay(proxy) } } : {}),
    ...more,
  });
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    // Set when the core itself ends the exchange, so the socket error that follows says why.
    let failure: HttpCoreError | undefined;
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = send(target, { method: req.method, headers, agent, signal: req.signal });
    const giveUp = (): void => {
      failure = new HttpCoreError('timeout', facts({ limit: req.timeoutMs }));
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
      if (isAbort(err) || err instanceof HttpCoreError) return reject(err);
      reject(new HttpCoreError('unreachable', facts({ why: err.code ?? err.message }), { cause: err }));
    });
    r.on('response', (res) => {
      const chunks = async function* (maxBytes: number): AsyncGenerator<Buffer> {
        let size = 0;
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > maxBytes) {
              failure = new HttpCoreError('tooLarge', facts({ limit: maxBytes }));
              // The answer first, quietly: destroyed with the request's error it would emit it with
              // no listener left (this loop is being left), an uncaught exception.
              res.destroy();
              r.destroy(failure);
              throw failure;
            }
            yield chunk;
          }
        } catch (err) {
          if (failure) throw failure;
          if (isAbort(err) || req.signal?.aborted) throw err;
          const e = err as NodeJS.ErrnoException;
          throw new HttpCoreError('connectionLost', facts({ why: e.code ?? e.message }), { cause: err });
        }
        // A body cut short of its Content-Length also ends "normally" in Node: check.
        if (!res.complete) throw failure ?? new HttpCoreError('connectionLost', facts());
      };
      resolve({ url: target, response: res, chunks, close: () => r.destroy() });
    });
    r.end(req.body);
  });
}

export interface RedirectPolicy {
  /** Hops followed before a 'redirects' failure. */
  max: number;
  /** Checks each target (the first included) before it is asked; throws to refuse it. */
  allow(target: URL): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * {@link openExchange}, following 3xx answers that name a Location (each hop a GET with the same
 * headers, each checked by the policy). Only for requests that carry nothing secret: a redirect
 * sends the headers wherever it points.
 */
export async function openFollowing(req: CoreRequest, policy: RedirectPolicy): Promise<Exchange> {
  let target = req.url;
  for (let hops = 0; ; hops++) {
    policy.allow(target);
    req.signal?.throwIfAborted();
    const exchange = await openExchange({ ...req, url: target });
    const { statusCode, headers } = exchange.response;
    if (!REDIRECTS.has(statusCode ?? 0) || !headers.location) return exchange;
    exchange.response.resume();
    if (hops >= policy.max) throw new HttpCoreError('redirects', { url: target.toString(), host: target.host, limit: policy.max });
    target = new URL(headers.location, target);
  }
}
