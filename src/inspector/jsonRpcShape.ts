/**
 * What a JSON-RPC 2.0 message must look like before the replay agent writes it. A transcript is
 * data and may come from anyone: a line the client's SDK would read as something else than what it
 * looks like (a request with `"id": null`, a batch, a message that is both a request and an
 * answer) must never reach the client, whatever it says. One check, for every message the replay
 * sends; see Replayer.release.
 */
import type { JsonRpcId } from './replayScript';

export type JsonRpcShape = { kind: 'request'; method: string; id: JsonRpcId } | { kind: 'notification'; method: string } | { kind: 'response'; id: JsonRpcId };

export const isJsonRpcId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

const has = (msg: object, key: string): boolean => Object.prototype.hasOwnProperty.call(msg, key);

/** The message's kind, or why it is not a JSON-RPC 2.0 message Tandem may be sent. */
export function jsonRpcShape(msg: unknown): JsonRpcShape | { problem: string } {
  if (Array.isArray(msg)) return { problem: 'a batch (an array); only single messages are sent' };
  if (typeof msg !== 'object' || msg === null) return { problem: 'not a JSON object' };
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return { problem: `"jsonrpc" is ${JSON.stringify(m.jsonrpc) ?? 'missing'}, not "2.0"` };
  if (has(m, 'params') && (typeof m.params !== 'object' || m.params === null)) return { problem: '"params" is neither an object nor an array' };
  if (has(m, 'method')) {
    if (typeof m.method !== 'string' || m.method === '') return { problem: '"method" is not a non-empty string' };
    if (has(m, 'result') || has(m, 'error')) return { problem: 'it has a method and a result or error' };
    if (!has(m, 'id')) return { kind: 'notification', method: m.method };
    if (!isJsonRpcId(m.id)) return { problem: `the request's id ${JSON.stringify(m.id) ?? 'undefined'} is not a string or a number` };
    return { kind: 'request', method: m.method, id: m.id };
  }
  if (!isJsonRpcId(m.id))
    return { problem: `${has(m, 'id') ? `the id ${JSON.stringify(m.id)} is not a string or a number` : 'it has neither a method nor an id'}` };
  if (has(m, 'params')) return { problem: 'an answer with "params"' };
  if (has(m, 'result') === has(m, 'error')) return { problem: 'an answer needs exactly one of "result" and "error"' };
  if (has(m, 'error')) {
    const error = m.error as { code?: unknown; message?: unknown } | null;
    if (typeof error !== 'object' || error === null || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return { problem: '"error" is not an object with an integer code and a message' };
    }
  }
  return { kind: 'response', id: m.id };
}
