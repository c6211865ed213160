import { RequestError } from '@agentclientprotocol/sdk';
import type { McpOverAcpHandler, McpOverAcpMethod } from '../acp/agentPort';
import { isRecord } from '../protocol/guards';
import { errorMessage } from '../util/errors';
import { AcpMcpTransport, UnknownMcpConnectionError, type AcpMcpOptions } from './acpTransport';
import { McpConnectionClosedError } from './memoryTransport';

/** Outer ACP error codes of MCP over ACP (the SDK's `McpBindingErrorCode`). */
export const MCP_ACP_ERROR = {
  /** No server of that id (never declared here, or its session is over), or no such connection. */
  serverUnavailable: -33001,
  /** The server failed without an MCP answer (its connection closed mid-request). */
  backendFailed: -33002,
} as const;

/**
 * The MCP-over-ACP side of one agent connection: `ClientHandlers.mcpOverAcp`. Each session's
 * server registers here ({@link open}) and the agent's `mcp/*` requests are routed to it by the
 * `serverId` its declaration carries, or by the connection id `mcp/connect` answered — so sessions
 * sharing one agent process never see each other's server, and a server outlives nothing: once its
 * session disposes it, requests to it fail with `serverUnavailable`.
 *
 * The two envelopes agents send (the ACP draft's connections, and the TypeScript SDK 2.4 binding's
 * single requests) are told apart by their params: `connectionId` or `serverId` + `requestId`.
 * Malformed params are a JSON-RPC "invalid params" answer, never a crash.
 */
export class AcpMcpRouter implements McpOverAcpHandler {
  private readonly servers = new Map<string, AcpMcpTransport>();
  private readonly connections = new Map<string, AcpMcpTransport>();

  constructor(private readonly log?: (line: string) => void) {}

  /** A session's server: put its `declaration()` in the session's `mcpServers`, dispose it with the session. */
  open(opts: AcpMcpOptions): AcpMcpTransport {
    const transport = new AcpMcpTransport({ log: this.log, ...opts });
    this.servers.set(transport.serverId, transport);
    transport.onDispose(() => {
      this.servers.delete(transport.serverId);
      for (const [id, owner] of this.connections) if (owner === transport) this.connections.delete(id);
    });
    return transport;
  }

  async request(method: McpOverAcpMethod, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (!isRecord(params)) throw RequestError.invalidParams(undefined, `${method} needs an object of params.`);
    try {
      return await this.serve(method, params, signal);
    } catch (err) {
      if (err instanceof RequestError || signal.aborted) throw err;
      if (err instanceof UnknownMcpConnectionError) throw new RequestError(MCP_ACP_ERROR.serverUnavailable, err.message, { connectionId: err.connectionId });
      if (err instanceof McpConnectionClosedError) throw new RequestError(MCP_ACP_ERROR.backendFailed, err.message);
      throw err;
    }
  }

  notification(_method: 'mcp/message', params: unknown): void {
    // Notifications of the connection-less binding go from the server to the agent only.
    if (!isRecord(params) || typeof params.connectionId !== 'string' || typeof params.method !== 'string') return;
    const inner = innerParams(params);
    const owner = this.connections.get(params.connectionId);
    if (!owner || inner === false) return void this.log?.(`An MCP notification (${params.method}) for no open connection was dropped.`);
    try {
      owner.notify(params.connectionId, params.method, inner);
    } catch (err) {
      this.log?.(`An MCP notification (${params.method}) was dropped: ${errorMessage(err)}`);
    }
  }

  private async serve(method: McpOverAcpMethod, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    switch (method) {
      case 'mcp/connect': {
        const server = this.server(serverIdOf(params));
        const connectionId = await server.connect();
        this.connections.set(connectionId, server);
        return { connectionId };
      }
      case 'mcp/message':
        return this.message(params, signal);
      case 'mcp/disconnect': {
        if (typeof params.connectionId !== 'string') throw RequestError.invalidParams(undefined, 'mcp/disconnect needs a connectionId.');
        const owner = this.connections.get(params.connectionId);
        this.connections.delete(params.connectionId);
        await owner?.disconnect(params.connectionId);
        return {};
      }
      default: {
        const unknown: never = method;
        throw RequestError.methodNotFound(String(unknown));
      }
    }
  }

  private async message(params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const inner = innerParams(params);
    if (typeof params.method !== 'string' || inner === false) throw RequestError.invalidParams(undefined, 'mcp/message needs a method and object params.');
    if (typeof params.connectionId === 'string') {
      const owner = this.connections.get(params.connectionId);
      if (!owner) throw new UnknownMcpConnectionError(params.connectionId);
      // The ACP draft: the answer is the inner result itself; an inner error is the answer's error.
      const answer = await owner.request(params.connectionId, params.method, inner, signal);
      if ('error' in answer) throw new RequestError(answer.error.code, answer.error.message, answer.error.data);
      return answer.result;
    }
    if (typeof params.serverId === 'string' && typeof params.requestId === 'string') {
      // The SDK 2.4 binding: `{result}` or `{error}`, the inner error inside a successful answer.
      return this.server(params.serverId).requestOnce(params.method, inner, signal);
    }
    throw RequestError.invalidParams(undefined, 'mcp/message needs a connectionId, or a serverId and a requestId.');
  }

  private server(serverId: string | undefined): AcpMcpTransport {
    if (serverId === undefined) throw RequestError.invalidParams(undefined, 'mcp/connect needs a serverId.');
    const server = this.servers.get(serverId);
    if (!server) throw new RequestError(MCP_ACP_ERROR.serverUnavailable, `No MCP server ${serverId} on this connection.`, { serverId });
    return server;
  }
}

/** `serverId`, or the earlier drafts' `acpId` / `acpUrl: "acp:<id>"`. */
function serverIdOf(params: Record<string, unknown>): string | undefined {
  if (typeof params.serverId === 'string') return params.serverId;
  if (typeof params.acpId === 'string') return params.acpId;
  if (typeof params.acpUrl === 'string') return params.acpUrl.replace(/^acp:/, '');
  return undefined;
}

/** The inner MCP params: an object, or none (`null` and absent alike); false when neither. */
function innerParams(params: Record<string, unknown>): Record<string, unknown> | undefined | false {
  const inner = params.params;
  if (inner === undefined || inner === null) return undefined;
  return isRecord(inner) && !Array.isArray(inner) ? inner : false;
}
