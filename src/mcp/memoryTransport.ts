import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** What the server answered one request: its result, or its (inner MCP) error. */
export type McpAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** The request was not answered: the connection closed first. */
export class McpConnectionClosedError extends Error {
  constructor() {
    super('The MCP connection closed before the server answered.');
    this.name = 'McpConnectionClosedError';
  }
}

/**
 * An MCP SDK `Transport` with no wire under it: the host side of one MCP connection whose messages
 * arrive some other way (MCP over ACP's `mcp/message`). {@link request} hands the server a request
 * and resolves with its answer; {@link notify} hands it a notification. The ids the server sees are
 * this transport's own, so two agents' (or two connections') ids never meet.
 *
 * What the server sends unasked — a notification, or a request to the MCP client — has nowhere to go
 * here (the tandem server sends neither: its tools never change and it asks the client nothing), so
 * a request is answered "method not found" at once, rather than left to hang the server's call.
 */
export class MemoryServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private nextId = 1;
  private readonly pending = new Map<RequestId, (answer: McpAnswer | McpConnectionClosedError) => void>();
  private closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** From the server: answers go to the request that waits; anything else is dropped (see the class). */
  send(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id;
      const settle = id === undefined ? undefined : this.pending.get(id);
      if (settle && id !== undefined) {
        this.pending.delete(id);
        settle('result' in message ? { result: message.result } : { error: message.error });
      }
    } else if (isJSONRPCRequest(message)) {
      queueMicrotask(() =>
        this.onmessage?.({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `The MCP client here does not answer ${message.method}.` } }),
      );
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const settle of waiting) settle(new McpConnectionClosedError());
    this.onclose?.();
    return Promise.resolve();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * One request to the server. Aborting `signal` tells the server (`notifications/cancelled`, which
   * aborts the tool call's own signal) and rejects with the signal's reason.
   */
  request(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<McpAnswer> {
    if (this.closed) return Promise.reject(new McpConnectionClosedError());
    const id = this.nextId++;
    return new Promise<McpAnswer>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        this.notify('notifications/cancelled', { requestId: id, reason: 'The agent cancelled the request.' });
        reject(signal?.reason instanceof Error ? signal.reason : new Error('The request was cancelled.'));
      };
      this.pending.set(id, (answer) => {
        signal?.removeEventListener('abort', onAbort);
        if (answer instanceof McpConnectionClosedError) reject(answer);
        else resolve(answer);
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.deliver({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    });
  }

  /** One notification to the server (`notifications/initialized`, `notifications/cancelled`…). */
  notify(method: string, params: Record<string, unknown> | undefined): void {
    if (this.closed) return;
    const message: JSONRPCMessage = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    if (isJSONRPCNotification(message)) this.deliver(message);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
