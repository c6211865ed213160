import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { McpConnectionClosedError, MemoryServerTransport, type McpAnswer } from './memoryTransport';
import { acpDeclaration, type McpServerAcpEntry } from './mcpServerEntry';
import { mcpServerFor } from './mcpProtocol';
import type { EditorToolRegistry } from './toolRegistry';

export interface AcpMcpOptions {
  registry: EditorToolRegistry;
  /** Tandem's version, told to the agent's MCP client. */
  version: string;
  /** Where failures go (never a message's content). */
  log?: (line: string) => void;
}

/** The connection is unknown here (never opened, or already closed). */
export class UnknownMcpConnectionError extends Error {
  constructor(readonly connectionId: string) {
    super(`No open MCP connection ${connectionId}.`);
    this.name = 'UnknownMcpConnectionError';
  }
}

interface Connection {
  server: Server;
  transport: MemoryServerTransport;
}

/**
 * The `tandem` MCP server of one session over MCP over ACP: nothing listens anywhere, the agent
 * sends the MCP messages on the ACP connection itself, addressed to {@link serverId} (in the
 * session's `mcpServers` as {@link declaration}). Each MCP connection the agent opens is an MCP SDK
 * server (mcpServerFor: the same tools, checks and caps as the loopback HTTP one) over an in-memory
 * transport, so the MCP handshake, ids and cancellation are the SDK's, not hand-written.
 *
 * Two envelopes reach it (src/mcp/acpMcpRouter.ts tells them apart):
 * - the ACP draft's connections — `mcp/connect {serverId}` → {@link connect}, `mcp/message
 *   {connectionId, method, params}` → {@link request} / {@link notify}, `mcp/disconnect` → {@link disconnect};
 * - the TypeScript SDK 2.4 binding's single requests (`mcp/message {serverId, requestId, method,
 *   params}`, no handshake: MCP 2026-07-28 is stateless) → {@link requestOnce}, served by one
 *   long-lived server of its own (the low-level SDK server needs no `initialize` before `tools/*`).
 *
 * Lives as long as its session: {@link dispose} closes every connection (pending requests reject).
 */
export class AcpMcpTransport implements IDisposable {
  /** Unguessable and never reused, as the protocol asks: it is the server's address on the connection. */
  readonly serverId = `tandem-${randomUUID()}`;
  private readonly connections = new Map<string, Connection>();
  private stateless: Connection | undefined;
  private disposed = false;
  private readonly disposeListeners: Array<() => void> = [];

  constructor(private readonly opts: AcpMcpOptions) {}

  /** The entry for `session/new`'s `mcpServers`. */
  declaration(): McpServerAcpEntry {
    return acpDeclaration(this.serverId);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Opens an MCP connection (the agent's `mcp/connect`); returns its id. */
  async connect(): Promise<string> {
    if (this.disposed) throw new Error('The session is over.');
    const connectionId = `${this.serverId}/${randomUUID()}`;
    this.connections.set(connectionId, await this.open());
    return connectionId;
  }

  /** The ids of the open connections (the router maps them back to this transport). */
  openConnections(): string[] {
    return [...this.connections.keys()];
  }

  /** One MCP request on a connection; resolves with the server's answer (result or inner error). */
  request(connectionId: string, method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<McpAnswer> {
    return this.connection(connectionId).transport.request(method, params, signal);
  }

  /** One MCP notification on a connection. */
  notify(connectionId: string, method: string, params: Record<string, unknown> | undefined): void {
    this.connection(connectionId).transport.notify(method, params);
  }

  /** Closes a connection (the agent's `mcp/disconnect`). Unknown ids are fine: closing twice is no error. */
  async disconnect(connectionId: string): Promise<void> {
    const connection = this.connections.get(connectionId);
    if (!connection) return;
    this.connections.delete(connectionId);
    await this.close(connection);
  }

  /** One request of the connection-less binding (no handshake, no connection id). */
  async requestOnce(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<McpAnswer> {
    if (this.disposed) throw new Error('The session is over.');
    this.stateless ??= await this.open();
    return this.stateless.transport.request(method, params, signal);
  }

  /** Called once, when the transport is disposed (the router forgets it). */
  onDispose(listener: () => void): void {
    if (this.disposed) listener();
    else this.disposeListeners.push(listener);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.connections.values(), ...(this.stateless ? [this.stateless] : [])];
    this.connections.clear();
    this.stateless = undefined;
    for (const connection of all) void this.close(connection);
    for (const listener of this.disposeListeners.splice(0)) listener();
  }

  private async open(): Promise<Connection> {
    const server = mcpServerFor(this.opts.registry, this.opts.version);
    const transport = new MemoryServerTransport();
    server.onerror = (err) => this.opts.log?.(`tandem MCP server (over ACP): ${errorMessage(err)}`);
    await server.connect(transport);
    return { server, transport };
  }

  private connection(connectionId: string): Connection {
    const connection = this.connections.get(connectionId);
    if (!connection) throw new UnknownMcpConnectionError(connectionId);
    return connection;
  }

  private async close(connection: Connection): Promise<void> {
    try {
      await connection.server.close();
    } catch (err) {
      if (!(err instanceof McpConnectionClosedError)) this.opts.log?.(`tandem MCP server (over ACP): closing failed: ${errorMessage(err)}`);
    }
  }
}
