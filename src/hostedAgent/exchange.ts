/**
 * One request to the hosted server and the reading of its answer: headers with the key, one
 * automatic retry when the server asks for a short wait (429 / 503 with Retry-After ≤ 5 s), the
 * error for any other non-2xx status, and the SSE loop that feeds a reader and flushes updates
 * after each network read.
 */
import { apiKey, resolveHeaders } from './secrets';
import type { SecretRedactor } from '../util/redactor';
import { API_KEY_ENV, type HostedConfig } from './config';
import { failure, retryAfterSeconds, statusFailure } from './failures';
import { HttpFailure, send, sleep, type HttpResponse } from './http';
import { SseParser, type SseEvent } from './sse';
import type { Ending } from './endings';
import type { UpdateSink } from './updates';
import type { Warn } from './types';

/** Longest Retry-After the bridge waits out by itself before retrying once. */
const AUTO_RETRY_MAX_SECONDS = 5;
/** Error bodies are read this far (they are shown in one line). */
const ERROR_BODY_BYTES = 64 * 1024;

export interface ExchangeEnv {
  cfg: HostedConfig;
  env: NodeJS.ProcessEnv;
  warn: Warn;
  /** Header values that are secrets are registered with it as they are filled in. */
  secrets: SecretRedactor;
}

export function hostOf(url: string): string {
  return new URL(url).host;
}

/** Headers for a request, or the error that stops it before it goes out. */
export function requestHeaders(x: ExchangeEnv, accept: string): Record<string, string> {
  const resolved = resolveHeaders(x.cfg.headers, x.env, x.secrets);
  if (resolved.keyMissing) {
    throw failure('auth', `The agent's headers use \${apiKey}, but no API key is set. Sign in with the key for ${hostOf(x.cfg.url)} (${API_KEY_ENV}).`, {
      envVar: API_KEY_ENV,
    });
  }
  if (resolved.missingEnv.length > 0) {
    throw failure('config', `The agent's headers use \${env:${resolved.missingEnv[0]}}, but that environment variable is not set.`, {
      missingEnv: resolved.missingEnv,
    });
  }
  return { accept, ...resolved.headers };
}

/** Sends a request; resolves with a 2xx response or rejects with the error to show. */
export async function exchange(
  x: ExchangeEnv,
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  signal: AbortSignal | undefined,
  accept: string,
): Promise<HttpResponse> {
  const headers = requestHeaders(x, accept);
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const res = await send({
      url,
      method,
      headers,
      ...(text !== undefined ? { body: text } : {}),
      ...(signal ? { signal } : {}),
      timeoutMs: x.cfg.timeoutMs,
      maxBytes: x.cfg.maxBodyBytes,
      env: x.env,
    });
    if (res.status >= 200 && res.status < 300) return res;
    const bodyText = await res.text(ERROR_BODY_BYTES).catch(() => '');
    const retry = retryAfterSeconds(res.headers['retry-after']);
    if (attempt === 0 && (res.status === 429 || res.status === 503) && retry !== undefined && retry <= AUTO_RETRY_MAX_SECONDS) {
      x.warn(`The server answered ${res.status}; retrying once in ${retry} s, as its Retry-After asks.`);
      await sleep(retry * 1000, signal);
      continue;
    }
    throw statusFailure(res.status, res.statusText, res.headers, bodyText, { host: hostOf(url), keySent: apiKey(x.env) !== undefined });
  }
}

export type BodyKind = 'sse' | 'json' | 'other';

export function bodyKind(res: HttpResponse): BodyKind {
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('text/event-stream')) return 'sse';
  if (type.includes('json')) return 'json';
  return 'other';
}

/** The error for an answer that is neither an event stream nor JSON (an HTML login page, a proxy's error page). */
export async function notEventStream(res: HttpResponse, host: string): Promise<Error> {
  const type = String(res.headers['content-type'] ?? 'no content type');
  // A body that stalls or breaks is that failure, not a wrong content type.
  const text = await res.text(ERROR_BODY_BYTES).catch((err: unknown) => {
    if (err instanceof HttpFailure && err.kind !== 'tooLarge') throw err;
    return '';
  });
  const start = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return failure(
    'notEventStream',
    `The server at ${host} answered with ${type} instead of an event stream or JSON${start ? `: "${start}"` : ''}. Check the agent's url and format.`,
    { contentType: type },
  );
}

/**
 * Reads an SSE body into `handle` until the reader's ending says finished (or the body ends),
 * flushing the updates it produced after every network read (then `afterRead`).
 */
export async function readEvents(
  res: HttpResponse,
  handle: (ev: SseEvent) => void,
  ending: Ending,
  sink: UpdateSink,
  warn: Warn,
  afterRead: () => void = () => undefined,
): Promise<void> {
  const parser = new SseParser();
  try {
    reading: for await (const chunk of res.chunks()) {
      for (const ev of parser.push(chunk)) {
        handle(ev);
        if (ending.finished) break reading;
      }
      await sink.flush();
      afterRead();
    }
    if (!ending.finished) {
      const { events, truncated } = parser.end();
      for (const ev of events) handle(ev);
      if (truncated) warn('The stream ended in the middle of an event; that event was dropped.');
    }
  } finally {
    res.close();
  }
}
