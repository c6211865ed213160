/**
 * Lines of a diff the host did not send with it: a diff view asks (`fetchDiffLines`), the host
 * answers (`diffLines`) with the same request id. The answer goes straight to the view that asked,
 * not through the store: it is no state of the conversation, only what one card shows.
 */
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import type { Host } from '../core/vscodeApi';

export type DiffLinesAnswer = Extract<HostMessage, { type: 'diffLines' }>;
export type DiffLinesRequest = Omit<Extract<WebviewMessage, { type: 'fetchDiffLines' }>, 'type' | 'requestId'>;

const pending = new Map<number, (answer: DiffLinesAnswer) => void>();
let nextRequestId = 1;

/** Asks the host for lines; resolves with its answer (an `error` answer included). */
export function requestDiffLines(host: Host, request: DiffLinesRequest): Promise<DiffLinesAnswer> {
  const requestId = nextRequestId++;
  return new Promise((resolve) => {
    pending.set(requestId, resolve);
    host.post({ type: 'fetchDiffLines', requestId, ...request });
  });
}

/** Hands every `diffLines` answer in a host message (or a batch of them) to the view waiting for it. */
export function receiveDiffLines(message: unknown): void {
  if (typeof message !== 'object' || message === null) return;
  const m = message as { type?: unknown; messages?: unknown; requestId?: unknown };
  if (m.type === 'batch' && Array.isArray(m.messages)) {
    for (const inner of m.messages) receiveDiffLines(inner);
    return;
  }
  if (m.type !== 'diffLines' || typeof m.requestId !== 'number') return;
  const resolve = pending.get(m.requestId);
  if (!resolve) return;
  pending.delete(m.requestId);
  resolve(message as DiffLinesAnswer);
}
