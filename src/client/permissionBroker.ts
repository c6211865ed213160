import type * as acp from '@agentclientprotocol/sdk';
import { Emitter } from '../util/disposable';
import type { IDisposable } from '../util/disposable';

/** Why a request was answered: the user picked, or it was cancelled (Stop, or the agent withdrew it). */
export type PermissionAnswerSource = 'user' | 'cancelled' | 'aborted';

export type PermissionEvent =
  | { kind: 'added'; requestId: string; params: acp.RequestPermissionRequest }
  | {
      kind: 'answered';
      requestId: string;
      params: acp.RequestPermissionRequest;
      outcome: acp.RequestPermissionOutcome;
      source: PermissionAnswerSource;
    };

interface Pending {
  params: acp.RequestPermissionRequest;
  resolve: (r: acp.RequestPermissionResponse) => void;
  cleanup: () => void;
}

/**
 * Owns every open `session/request_permission`: the reply handle lives here, on the host, and each
 * request is answered exactly once — the first of respond / cancel / abort / dispose wins and every
 * later attempt is a no-op returning false.
 *
 * It remembers nothing. An "always" answer goes to the agent as the user chose it (the agent keeps
 * its own, scoped, "always"); the client must never widen it — remembering it per tool kind once
 * let "always allow `ls`" answer `rm -rf build`. Standing answers are explicit permission rules,
 * judged before a request reaches the broker (see PermissionDesk).
 */
export class PermissionBroker implements IDisposable {
  private readonly open = new Map<string, Pending>();
  private readonly emitter = new Emitter<PermissionEvent>();
  private nextId = 1;
  private disposed = false;

  onDidChange(listener: (e: PermissionEvent) => void): IDisposable {
    return this.emitter.event(listener);
  }

  request(params: acp.RequestPermissionRequest, signal?: AbortSignal): { requestId: string; response: Promise<acp.RequestPermissionResponse> } {
    const requestId = `perm-${this.nextId++}`;
    if (this.disposed || signal?.aborted) {
      return { requestId, response: Promise.resolve(cancelled()) };
    }
    let resolve!: (r: acp.RequestPermissionResponse) => void;
    const response = new Promise<acp.RequestPermissionResponse>((r) => (resolve = r));
    const onAbort = (): void => {
      this.settle(requestId, { outcome: 'cancelled' }, 'aborted');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.open.set(requestId, {
      params,
      resolve,
      cleanup: () => signal?.removeEventListener('abort', onAbort),
    });
    this.emitter.fire({ kind: 'added', requestId, params });
    return { requestId, response };
  }

  /** The user's answer. False when the request is unknown or already answered, or the option is not offered. */
  respond(requestId: string, optionId: string): boolean {
    const entry = this.open.get(requestId);
    if (!entry) return false;
    if (!entry.params.options.some((o) => o.optionId === optionId)) return false;
    return this.settle(requestId, { outcome: 'selected', optionId }, 'user');
  }

  /**
   * Answers pending requests with `cancelled` (the spec's MUST on `session/cancel`), only those of
   * `sessionId` when given. Returns the ids that were answered.
   */
  cancelAll(sessionId?: string): string[] {
    const ids = [...this.open.entries()].filter(([, p]) => sessionId === undefined || p.params.sessionId === sessionId).map(([id]) => id);
    return ids.filter((id) => this.settle(id, { outcome: 'cancelled' }, 'cancelled'));
  }

  /** Ids of the requests still waiting for an answer, oldest first. */
  pending(): string[] {
    return [...this.open.keys()];
  }

  /** The request behind a pending id (for rendering it again after a webview reload). */
  get(requestId: string): acp.RequestPermissionRequest | undefined {
    return this.open.get(requestId)?.params;
  }

  /** Cancels everything pending; later requests are answered `cancelled` at once. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelAll();
    this.emitter.dispose();
  }

  private settle(requestId: string, outcome: acp.RequestPermissionOutcome, source: PermissionAnswerSource): boolean {
    const entry = this.open.get(requestId);
    if (!entry) return false;
    // Delete before resolving or notifying, so a listener that calls back in sees it answered.
    this.open.delete(requestId);
    entry.cleanup();
    entry.resolve({ outcome });
    this.emitter.fire({ kind: 'answered', requestId, params: entry.params, outcome, source });
    return true;
  }
}

function cancelled(): acp.RequestPermissionResponse {
  return { outcome: { outcome: 'cancelled' } };
}
