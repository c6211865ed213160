/**
 * Everything that can go wrong with a hosted request, as the JSON-RPC error `session/prompt`
 * answers with. The message is written for the user (it is what a client shows); `data.tandem`
 * carries the same facts structured, so an editor can offer the right button. That contract with
 * the host is declared in src/protocol/bridgeFailure.ts (both programs import it).
 */
import * as acp from '@agentclientprotocol/sdk';
import { bridgeFailureCode, bridgeFailureData, type BridgeFailureDetails, type BridgeFailureKind } from '../protocol/bridgeFailure';
import { isRecord } from '../protocol/guards';
import { API_KEY_ENV } from './config';
import { errorTextOf } from './toolEvents';

export type FailureKind = BridgeFailureKind;

/** A RequestError with `data.tandem.kind`; redacted where it leaves the bridge (agentApp.ts). */
export function failure(kind: FailureKind, message: string, details: BridgeFailureDetails = {}): acp.RequestError {
  return new acp.RequestError(bridgeFailureCode(kind), message, bridgeFailureData(kind, details));
}

/** `Retry-After` in seconds from now: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Math.ceil(Number(value)));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A server message fit for one line of an error. */
function short(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const line = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? undefined : line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function whenText(seconds: number, now: number): string {
  const at = new Date(now + seconds * 1000);
  const clock = at.toISOString().slice(11, 19);
  return seconds < 90 ? `in ${seconds} s (at ${clock} UTC)` : `in about ${Math.round(seconds / 60)} min (at ${clock} UTC)`;
}

export interface StatusContext {
  host: string;
  /** An API key was sent. */
  keySent: boolean;
  now?: number;
}

/** The error for a non-2xx answer, from its status, headers and (JSON or text) body. */
export function statusFailure(
  status: number,
  statusText: string,
  headers: Record<string, string | string[] | undefined>,
  bodyText: string,
  ctx: StatusContext,
): acp.RequestError {
  const now = ctx.now ?? Date.now();
  const body = parseBody(bodyText);
  const serverMessage = short(errorTextOf(body) ?? (typeof body === 'string' ? body : undefined));
  const said = serverMessage ? ` The server said: ${serverMessage}` : '';
  const base = serverMessage ? { status, serverMessage } : { status };
  const details = isRecord(body) && isRecord(body.details) ? body.details : undefined;
  const missingContext = strings(details?.missingContext);
  const tools = strings(details?.tools);
  if (status === 400 && (missingContext.length > 0 || tools.length > 0)) {
    const keys = missingContext.length > 0 ? missingContext.join(', ') : '(not named)';
    const forTools = tools.length > 0 ? ` for the tool${tools.length > 1 ? 's' : ''} ${tools.join(', ')}` : '';
    return failure(
      'missingContext',
      `The server needs context this agent does not send: ${keys}${forTools}. Add ${missingContext.length > 1 ? 'them' : 'it'} under "body" → "context" in the agent's settings, or set "contextStrategy": "skip" to run without ${tools.length > 1 ? 'those tools' : 'that tool'}.`,
      { ...base, missingContext, tools },
    );
  }
  if (status === 401 || status === 403) {
    const what = ctx.keySent
      ? `The server at ${ctx.host} rejected the API key (${status}${statusText ? ` ${statusText}` : ''}). Sign in again with a valid key (${API_KEY_ENV}).`
      : `The server at ${ctx.host} needs an API key (${status}${statusText ? ` ${statusText}` : ''}). Sign in with one (${API_KEY_ENV}).`;
    return failure('auth', `${what}${said}`, { ...base, envVar: API_KEY_ENV });
  }
  const retry = retryAfterSeconds(headers['retry-after'], now);
  const retryFields = retry === undefined ? {} : { retryAfterSeconds: retry, retryAt: new Date(now + retry * 1000).toISOString() };
  if (status === 429) {
    const when = retry === undefined ? 'Wait a moment and try again.' : `Try again ${whenText(retry, now)}.`;
    return failure('rateLimited', `The server at ${ctx.host} is limiting requests (429 Too Many Requests). ${when}${said}`, { ...base, ...retryFields });
  }
  if (status >= 500) {
    const when = retry === undefined ? 'Try again later.' : `Try again ${whenText(retry, now)}.`;
    return failure('server', `The server at ${ctx.host} failed (${status}${statusText ? ` ${statusText}` : ''}). ${when}${said}`, { ...base, ...retryFields });
  }
  if (status >= 300 && status < 400) {
    const location = Array.isArray(headers.location) ? headers.location[0] : headers.location;
    return failure(
      'http',
      `The server at ${ctx.host} redirected the request (${status})${location ? ` to ${location}` : ''}; set the agent's url to the final address.`,
      { ...base, location },
    );
  }
  if (status === 404) return failure('http', `Nothing answers at this URL on ${ctx.host} (404 Not Found): check the agent's url.${said}`, base);
  return failure('http', `The server at ${ctx.host} refused the request (${status}${statusText ? ` ${statusText}` : ''}).${said}`, base);
}
