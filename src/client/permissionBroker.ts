import type * as acp from '@agentclientprotocol/sdk';
import { Emitter } from '../util/disposable';
import type { IDisposable } from '../util/disposable';

/** Why a request was answered: the user picked, an "always" choice or hook answered, or it was cancelled. */
export type PermissionAnswerSource = 'user' | 'remembered' | 'hook' | 'cancelled' | 'aborted';

export type PermissionEvent =
  | { kind: 'added'; requestId: string; params: acp.RequestPermissionRequest }
  | {
      kind: 'answered';
      requestId: string;
      params: acp.RequestPermissionRequest;
      outcome: acp.RequestPermissionOutcome;
      source: PermissionAnswerSource;
    };

export interface PermissionBrokerOptions {
  /**
   * Consulted first for every request; return an `optionId` of `params.options` to answer without
   * asking (anything else is ignored and the request is asked as usual).
   */
  autoAnswer?: (params: acp.RequestPermissionRequest) => string | undefined;
  /**
   * The tool kind a request is about, for remembered "always" choices. Defaults to
   * `params.toolCall.kind`; the session layer can pass the kind it already knows from an earlier
   * `tool_call`, since a permission request may carry only the `toolCallId`.
   */
  kindOf?: (params: acp.RequestPermissionRequest) => string | null | undefined;
  /** Remember `allow_always` / `reject_always` answers (default true). */
  rememberAlways?: boolean;
}

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
 * Remembered choices (one simple rule): when the user picks an option of kind `allow_always` or
 * `reject_always`, that choice is remembered for the tool-call kind (e.g. `execute`) for the life
 * of this broker (one per session). A later request for the same kind that offers an option of the
 * same kind is answered with it without asking. Requests whose kind is unknown are never remembered
 * or auto-answered: "always allow anything" is not what the user clicked.
 */
export class PermissionBroker implements IDisposable {
  private readonly open = new Map<string, Pending>();
  private readonly always = new Map<string, acp.PermissionOptionKind>();
  private readonly emitter = new Emitter<PermissionEvent>();
  private nextId = 1;
  private disposed = false;

  constructor(private readonly opts: PermissionBrokerOptions = {}) {}

  onDidChange(listener: (e: PermissionEvent) => void): IDisposable {
    return this.emitter.event(listener);
  }

  request(
    params: acp.RequestPermissionRequest,
    signal?: AbortSignal,
  ): { requestId: string; response: Promise<acp.RequestPermissionResponse> } {
    const requestId = `perm-${this.nextId++}`;
    if (this.disposed || signal?.aborted) {
      return { requestId, response: Promise.resolve(cancelled()) };
    }
    const auto = this.automaticAnswer(params);
    if (auto) {
      const outcome: acp.RequestPermissionOutcome = { outcome: 'selected', optionId: auto.optionId };
      this.emitter.fire({ kind: 'answered', requestId, params, outcome, source: auto.source });
      return { requestId, response: Promise.resolve({ outcome }) };
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
    const option = entry.params.options.find((o) => o.optionId === optionId);
    if (!option) return false;
    if (this.opts.rememberAlways !== false && (option.kind === 'allow_always' || option.kind === 'reject_always')) {
      const kind = this.kindOf(entry.params);
      if (kind) this.always.set(kind, option.kind);
    }
    return this.settle(requestId, { outcome: 'selected', optionId }, 'user');
  }

  /**
   * Answers pending requests with `cancelled` (the spec's MUST on `session/cancel`), only those of
   * `sessionId` when given. Returns the ids that were answered.
   */
  cancelAll(sessionId?: string): string[] {
    const ids = [...this.open.entries()]
      .filter(([, p]) => sessionId === undefined || p.params.sessionId === sessionId)
      .map(([id]) => id);
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

  /** Remembered "always" choices: tool kind → option kind. */
  remembered(): ReadonlyMap<string, acp.PermissionOptionKind> {
    return this.always;
  }

  forgetRemembered(): void {
    this.always.clear();
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

  private automaticAnswer(params: acp.RequestPermissionRequest): { optionId: string; source: PermissionAnswerSource } | undefined {
    let hooked: string | undefined;
    try {
      hooked = this.opts.autoAnswer?.(params);
    } catch {
      hooked = undefined; // a faulty hook must not lose the request: ask the user instead
    }
    if (hooked !== undefined && params.options.some((o) => o.optionId === hooked)) {
      return { optionId: hooked, source: 'hook' };
    }
    if (this.opts.rememberAlways === false) return undefined;
    const kind = this.kindOf(params);
    const remembered = kind ? this.always.get(kind) : undefined;
    const option = remembered ? params.options.find((o) => o.kind === remembered) : undefined;
    return option ? { optionId: option.optionId, source: 'remembered' } : undefined;
  }

  private kindOf(params: acp.RequestPermissionRequest): string | undefined {
    const kind = this.opts.kindOf ? this.opts.kindOf(params) : params.toolCall.kind;
    return kind ?? undefined;
  }
}

function cancelled(): acp.RequestPermissionResponse {
  return { outcome: { outcome: 'cancelled' } };
}
