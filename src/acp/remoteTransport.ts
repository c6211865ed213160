import type * as acp from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream, type AcpCookieStore, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import { WebSocket } from 'ws';
import { proxyAgentFor } from '../util/httpCore';
import type { IncomingMessage } from 'node:http';
import { redirected, RemoteConnectionError } from './remoteFailure';

/** Limits of one remote connection; tests shorten them. */
export interface RemoteLimits {
  /** Longest accepted message (a WebSocket frame, an SSE event, a JSON answer). */
  maxMessageBytes: number;
  /** How long the server may take to answer a request's headers (or the WebSocket upgrade). */
  answerTimeoutMs: number;
  /** WebSocket pings: a connection that misses a whole interval of pongs is dead (laptop sleep, a dropped route). */
  heartbeatMs: number;
}

export const DEFAULT_REMOTE_LIMITS: RemoteLimits = { maxMessageBytes: 64 * 1024 * 1024, answerTimeoutMs: 30_000, heartbeatMs: 15_000 };

export interface RemoteTransportOptions {
  url: string;
  headers: Record<string, string>;
  /** Kept per agent entry across reconnects: servers route by affinity cookies. */
  cookies: AcpCookieStore;
  limits: RemoteLimits;
  /** A frame that is not a JSON object was dropped (the SDK answers it with a parse error). */
  warn(text: string): void;
}

/** An open stream to a remote agent, and what the transport knows of how it ended. */
export interface RemoteTransport {
  stream: acp.Stream;
  kind: 'websocket' | 'http';
  /** Why the transport failed, when it knows better than the error the stream ended with. */
  failure(): RemoteConnectionError | Error | undefined;
  /** "code 1006", when a WebSocket closed. */
  closeInfo(): string | undefined;
}

/** Opens the transport the URL's scheme names: WebSocket for ws/wss, Streamable HTTP for http/https. */
export function openRemoteTransport(opts: RemoteTransportOptions): RemoteTransport {
  const scheme = new URL(opts.url).protocol;
  return scheme === 'ws:' || scheme === 'wss:' ? openWebSocket(opts) : openHttp(opts);
}

function openWebSocket(opts: RemoteTransportOptions): RemoteTransport {
  let failure: Error | undefined;
  let closed: string | undefined;
  const { limits } = opts;
  // The proxy of the environment (HTTPS_PROXY, NO_PROXY) as for the extension's other requests. Only
  // the agent is shared with src/util/httpCore.ts: the upgrade and its limits are the `ws` library's,
  // and the Streamable HTTP transport below is the SDK's (over fetch), so neither fits the core's exchange.
  const { agent } = proxyAgentFor(opts.url.replace(/^ws/, 'http'));
  // The SDK constructs the socket itself: a subclass adds the limits, the heartbeat and the
  // bookkeeping of how it ended, before the SDK attaches its own listeners.
  class BoundedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) {
      super(address, protocols ?? [], {
        ...options,
        maxPayload: limits.maxMessageBytes,
        handshakeTimeout: limits.answerTimeoutMs,
        // Never: the upgrade carries the configured headers, which must not go where a 3xx says.
        followRedirects: false,
        ...(agent ? { agent } : {}),
      });
      this.on('error', (err) => (failure ??= err));
      this.on('close', (code) => (closed = `code ${code}`));
      this.on('message', (data, isBinary) => checkFrame(data, isBinary, opts.warn));
      this.once('open', () => heartbeat(this, limits.heartbeatMs, (err) => (failure ??= err)));
    }

    // Without a listener for 'unexpected-response', `ws` aborts the handshake itself ("Unexpected
    // server response: 307"); a look at the answer on the way keeps a redirect's Location, so the
    // error can name it. Nothing else changes: the event still has no listener.
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'unexpected-response') {
        const res = args[1] as IncomingMessage | undefined;
        const status = res?.statusCode ?? 0;
        if (status >= 300 && status < 400) failure ??= redirected(opts.url, status, res?.headers.location);
      }
      return super.emit(event, ...args);
    }
  }
  const stream = createWebSocketStream(opts.url, {
    WebSocket: BoundedWebSocket as unknown as WebSocketConstructor,
    headers: opts.headers,
    cookieStore: opts.cookies,
  });
  return { stream, kind: 'websocket', failure: () => failure, closeInfo: () => closed };
}

/** Pings every `intervalMs`; a socket that answered none of the last interval's pings is terminated. */
function heartbeat(socket: WebSocket, intervalMs: number, dead: (err: Error) => void): void {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const timer = setInterval(() => {
    if (!answered) {
      dead(new RemoteConnectionError('timeout', `no answer to pings for ${Math.round(intervalMs / 1000)} s`));
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}

/** The SDK drops frames that are not JSON objects with a parse error to the agent; the log says so too. */
function checkFrame(data: unknown, isBinary: boolean, warn: (text: string) => void): void {
  if (isBinary) return warn('Dropped a binary WebSocket frame from the agent (ACP sends text frames).');
  const text = Buffer.isBuffer(data) ? data.toString('utf8', 0, 200) : '';
  if (!/^\s*\{/.test(text)) warn(`Dropped a WebSocket frame from the agent that is not a JSON object: ${JSON.stringify(text.slice(0, 200))}`);
}

function openHttp(opts: RemoteTransportOptions): RemoteTransport {
  let failure: Error | undefined;
  const timeoutMs = opts.limits.answerTimeoutMs;
  // Node 20's fetch: a deadline on each request's headers (an SSE stream then stays open as long as
  // it likes), and the network error kept, since the SDK only passes on "fetch failed".
  // The first request is initialize, whose answer (headers included) waits for the agent to start:
  // the connection's own initialize deadline bounds it, not the per-request one.
  let first = true;
  const bounded: typeof fetch = async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal;
    const onAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    const deadline = first ? undefined : setTimeout(() => controller.abort(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })), timeoutMs);
    first = false;
    try {
      // A redirect is not followed: the request carries the configured headers (secrets), and
      // fetch would send them on to whatever host the 3xx names.
      const res = await fetch(input, { ...init, redirect: 'manual', signal: controller.signal });
      if (res.status >= 300 && res.status < 400) {
        void res.body?.cancel().catch(() => undefined);
        throw redirected(input instanceof Request ? input.url : String(input), res.status, res.headers.get('location') ?? undefined);
      }
      return res;
    } catch (err) {
      outer?.removeEventListener('abort', onAbort);
      if (!outer?.aborted) failure ??= controller.signal.aborted ? (controller.signal.reason as Error) : (err as Error);
      throw err;
    } finally {
      // The abort stays wired after the headers: the SDK ends an event stream by aborting its request.
      clearTimeout(deadline);
    }
  };
  const stream = createHttpStream(opts.url, { fetch: bounded, headers: opts.headers, cookieStore: opts.cookies, maxMessageBytes: opts.limits.maxMessageBytes });
  return { stream, kind: 'http', failure: () => failure, closeInfo: () => undefined };
}
