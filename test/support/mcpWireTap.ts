/**
 * A recording proxy in front of the `tandem` loopback MCP server: the agent's MCP client talks to
 * the tap, the tap forwards every request unchanged (but for the Host header, which the server
 * checks against its own port) and keeps what went by — method, the JSON-RPC body, status and
 * answer — so a test can see the agent's real MCP traffic: when it initialises and lists, which
 * protocol version and client it names, what `_meta` its `tools/call` carries. The Authorization
 * header is kept only as "present or not": the token is never recorded.
 */
import { createServer, request as httpRequest } from 'node:http';
import { listenLocal, readBody } from '../fixtures/fakeHttp';

export interface McpExchange {
  /** When the answer went back (epoch ms), to line up with the ACP log. */
  at: number;
  httpMethod: string;
  /** The JSON-RPC method(s) of the body (`initialize`, `notifications/initialized`, `tools/list`, `tools/call`…). */
  rpcMethods: string[];
  body: unknown;
  status: number;
  answer: unknown;
  bearer: boolean;
  /** The request headers the MCP client chose (no Authorization, no Host). */
  headers: Record<string, string>;
}

export interface McpWireTap {
  url: string;
  exchanges: McpExchange[];
  /** The `params` of every `tools/call` request, in order. */
  toolCalls(): Array<{ name: string; arguments?: unknown; _meta?: unknown }>;
  close(): Promise<void>;
}

const parse = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
};

const methodsOf = (body: unknown): string[] =>
  (Array.isArray(body) ? body : [body]).flatMap((m) =>
    m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string' ? [(m as { method: string }).method] : [],
  );

/** Starts the tap for the server at `target` (its full `/mcp` URL); the tap's URL keeps the path. */
export async function startMcpWireTap(target: string): Promise<McpWireTap> {
  const to = new URL(target);
  const exchanges: McpExchange[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = req.method === 'POST' ? await readBody(req) : '';
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (k !== 'authorization' && k !== 'host' && typeof v === 'string') headers[k] = v;
      const forwarded = { ...req.headers, host: to.host };
      const upstream = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: forwarded }, (up) => {
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const body = parse(raw);
          exchanges.push({
            at: Date.now(),
            httpMethod: req.method ?? '',
            rpcMethods: methodsOf(body),
            body,
            status: up.statusCode ?? 0,
            answer: parse(text),
            bearer: /^Bearer /i.test(req.headers.authorization ?? ''),
            headers,
          });
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(text);
        });
      });
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(raw);
    })();
  });
  const listening = await listenLocal(server);
  return {
    url: `${listening.origin}${to.pathname}`,
    exchanges,
    toolCalls: () =>
      exchanges.flatMap((e) => {
        const body = e.body as { method?: string; params?: { name: string; arguments?: unknown; _meta?: unknown } } | undefined;
        return body?.method === 'tools/call' && body.params ? [body.params] : [];
      }),
    close: listening.close,
  };
}
