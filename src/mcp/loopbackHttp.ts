import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as acp from '@agentclientprotocol/sdk';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import { mcpServerFor, TANDEM_MCP_NAME } from './mcpProtocol';
import type { McpWireLog } from './mcpWireLog';
import type { EditorToolRegistry } from './toolRegistry';

/** The path of the endpoint (anything else is 404). */
export const MCP_PATH = '/mcp';
/** Biggest request body accepted: a write_file of a large file fits, a runaway client does not. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface LoopbackMcpOptions {
  registry: EditorToolRegistry;
  /** Tandem's version, told to the agent's MCP client. */
  version: string;
  /** Where failures go. Lines never carry a header, a token or a body. */
  log?: (line: string) => void;
  /** Where the JSON-RPC of each request goes (the Protocol Inspector's rows); headers never do. */
  wire?: McpWireLog;
}

/** The `mcpServers` entry of the loopback form (ACP's `McpServerHttp`, `type: "http"`). */
export type McpServerHttpEntry = Extract<acp.McpServer, { type: 'http' }>;

/**
 * The `tandem` MCP server for one session over Streamable HTTP on 127.0.0.1, for agents whose MCP
 * client takes URLs. A random port and a random per-session bearer token: only the agent we handed
 * the entry to can call it (other local processes and web pages cannot; the token is compared in
 * constant time and never logged), and the Host header must name the loopback address, so a DNS
 * rebinding page cannot reach it either. Stateless (MCP's `sessionIdGenerator: undefined`): each
 * POST gets its own SDK server and transport, so an agent that restarts its MCP client just
 * reconnects. Disposed with its session: the port closes and open requests are cut.
 *
 * Why not `@agentclientprotocol/sdk/experimental/mcp-http`: that module is the *agent's* bridge
 * (it re-exports `type: "acp"` servers it was given as HTTP endpoints) and speaks only MCP
 * 2026-07-28; a client serving today's agents (MCP 2025-xx clients that `initialize`) needs a
 * server, which the MCP SDK's Streamable HTTP transport is.
 */
export class LoopbackMcpServer implements IDisposable {
  // Prefixed so every log masker knows it for a token (src/util/secretShapes.ts), even outside an Authorization header.
  readonly #token = `tandem_mcp_${randomBytes(32).toString('base64url')}`;
  readonly #tokenDigest = digest(this.#token);
  private readonly open = new Set<StreamableHTTPServerTransport>();
  private disposed = false;
  private readonly closedPromise: Promise<void>;
  private port = 0;

  private constructor(
    private readonly http: HttpServer,
    private readonly opts: LoopbackMcpOptions,
  ) {
    this.closedPromise = new Promise((resolve) => http.once('close', () => resolve()));
  }

  /** Listens on 127.0.0.1 at a port the system picks. */
  static async start(opts: LoopbackMcpOptions): Promise<LoopbackMcpServer> {
    let self: LoopbackMcpServer | undefined;
    const http = createServer((req, res) => {
      if (self) void self.handle(req, res);
      else res.writeHead(503).end();
    });
    self = new LoopbackMcpServer(http, opts);
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    self.port = (http.address() as AddressInfo).port;
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${MCP_PATH}`;
  }

  /** Resolves once the port is closed. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  /** The entry for `session/new`'s `mcpServers` (holds the token: hand it only to the agent). */
  declaration(): McpServerHttpEntry {
    return { type: 'http', name: TANDEM_MCP_NAME, url: this.url, headers: [{ name: 'Authorization', value: `Bearer ${this.#token}` }] };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const transport of this.open) void transport.close().catch(() => undefined);
    this.open.clear();
    this.http.close();
    this.http.closeAllConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (this.disposed) return void reply(res, 503, 'The session is over.');
      // Refusals are logged (a misconfigured agent shows up in the log), never with the header's value.
      if (!this.hostAllowed(req.headers.host)) {
        this.log(`refused a request for Host ${JSON.stringify((req.headers.host ?? '').slice(0, 100))} (only 127.0.0.1 and localhost)`);
        return void reply(res, 403, 'Forbidden host.');
      }
      if (!this.authorized(req.headers.authorization)) {
        this.log(`refused a request ${req.headers.authorization === undefined ? 'without a bearer token' : 'with a wrong bearer token'}`);
        res.setHeader('WWW-Authenticate', 'Bearer realm="tandem"');
        return void reply(res, 401, 'Missing or wrong bearer token.');
      }
      const path = (req.url ?? '').split('?')[0];
      if (path !== MCP_PATH) return void reply(res, 404, 'Not found.');
      if (req.method !== 'POST') {
        // Stateless: no GET stream to resume, no session to DELETE.
        res.setHeader('Allow', 'POST');
        return void reply(res, 405, 'Only POST is supported.');
      }
      const body = await readJson(req);
      if (body === TOO_LARGE) {
        this.log(`refused a request body over ${MAX_BODY_BYTES} bytes`);
        return void reply(res, 413, 'Request body too large.');
      }
      if (body === NOT_JSON) return void reply(res, 400, 'The body is not JSON.', -32700);
      await this.serve(req, res, body);
    } catch (err) {
      this.log(`a request failed: ${errorMessage(err)}`);
      if (!res.headersSent) reply(res, 500, 'Internal error.', -32603);
      else res.end();
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = mcpServerFor(this.opts.registry, this.opts.version);
    server.onerror = (err) => this.log(`protocol error: ${errorMessage(err)}`);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    this.open.add(transport);
    res.once('close', () => {
      this.open.delete(transport);
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(this.opts.wire ? this.opts.wire.wrap(transport) : transport);
    await transport.handleRequest(req, res, body);
  }

  private log(line: string): void {
    this.opts.log?.(`tandem MCP server: ${line}`);
  }

  private hostAllowed(host: string | undefined): boolean {
    return host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`;
  }

  /** Constant-time: both sides are hashed to the same length first, so no early exit leaks a prefix. */
  private authorized(header: string | undefined): boolean {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    const given = digest(match?.[1] ?? '');
    return timingSafeEqual(given, this.#tokenDigest) && match !== null;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const TOO_LARGE = Symbol('tooLarge');
const NOT_JSON = Symbol('notJson');

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Drained to the end rather than cut, so the socket stays open for the 413.
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return TOO_LARGE;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** A JSON-RPC error body with an HTTP status (MCP clients read both). */
function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
