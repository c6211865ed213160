/**
 * The `tandem` MCP server for agents that take only stdio MCP servers: a tiny process (bundled to
 * dist/mcpStdioBridge.js, run by the editor's own Node) that the agent starts from the session's
 * `mcpServers` entry (src/mcp/stdioDeclaration.ts). It reads newline-delimited MCP JSON-RPC on
 * stdin, POSTs each message to the session's loopback Streamable HTTP endpoint
 * (src/mcp/loopbackHttp.ts) with the session's bearer token, and writes each answer to stdout as one
 * line — so the tools, checks and permission path are exactly the HTTP ones. It exits when stdin
 * ends (the agent closed its MCP client), after the answers still under way.
 *
 * Nothing but Node built-ins (and global fetch): it must start fast and ship as one small file.
 * It writes nothing to stdout but MCP answers; failures go to stderr, never with the token.
 */
import { createInterface } from 'node:readline';
import { TANDEM_MCP_TOKEN_ENV, TANDEM_MCP_URL_ENV } from './stdioBridgeEnv';

const url = process.env[TANDEM_MCP_URL_ENV];
const token = process.env[TANDEM_MCP_TOKEN_ENV];
if (!url || !token) {
  process.stderr.write(`tandem MCP bridge: ${TANDEM_MCP_URL_ENV} and ${TANDEM_MCP_TOKEN_ENV} must be set.\n`);
  process.exit(2);
}
// The bridge's environment was only for it: the agent's other tools never see the token.
delete process.env[TANDEM_MCP_TOKEN_ENV];

/** Negotiated at `initialize`; sent on every later request, as Streamable HTTP clients must. */
let protocolVersion: string | undefined;
/** A stateful server's session (the tandem server is stateless and sends none; kept if one does). */
let sessionId: string | undefined;
const inFlight = new Set<Promise<void>>();

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const done = forward(line).finally(() => inFlight.delete(done));
  inFlight.add(done);
});
lines.on('close', () => {
  // Exit rather than wait for fetch's idle keep-alive sockets; after stdout has taken the last line.
  void Promise.allSettled([...inFlight]).then(() => process.stdout.write('', () => process.exit(0)));
});

async function forward(line: string): Promise<void> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not JSON.' } });
  }
  const id = requestId(message);
  try {
    const res = await fetch(url as string, { method: 'POST', headers: headers(), body: line });
    const session = res.headers.get('mcp-session-id');
    if (session) sessionId = session;
    const answers = await answersOf(res);
    for (const answer of answers) {
      noteProtocolVersion(message, answer);
      write(id !== undefined && isError(answer) && answer.id === null ? { ...answer, id } : answer);
    }
    // A request the server did not answer with JSON-RPC (a proxy's page, an empty 5xx): say so.
    if (id !== undefined && answers.length === 0 && res.status >= 400) {
      write({ jsonrpc: '2.0', id, error: { code: -32603, message: `The tandem MCP server answered HTTP ${res.status}.` } });
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.stderr.write(`tandem MCP bridge: ${reason}\n`);
    // Usually the session is over and its server closed: the agent's call fails, it keeps its turn.
    if (id !== undefined) write({ jsonrpc: '2.0', id, error: { code: -32603, message: `The tandem MCP server cannot be reached (${reason}).` } });
  }
}

function headers(): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    ...(protocolVersion ? { 'MCP-Protocol-Version': protocolVersion } : {}),
    ...(sessionId ? { 'Mcp-Session-Id': sessionId } : {}),
  };
}

/** The JSON-RPC messages of a response: a JSON body (one message or a batch), or SSE `data:` events. */
async function answersOf(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  if (text.trim() === '') return [];
  const bodies = (res.headers.get('content-type') ?? '').includes('text/event-stream') ? sseData(text) : [text];
  const out: Array<Record<string, unknown>> = [];
  for (const body of bodies) {
    try {
      const parsed = JSON.parse(body) as unknown;
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(item)) out.push(item);
    } catch {
      // Not JSON-RPC (an HTML error page): left to the status check of the caller.
    }
  }
  return out;
}

function sseData(text: string): string[] {
  const events: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length > 0) events.push(data.join('\n'));
  }
  return events;
}

function noteProtocolVersion(sent: unknown, answer: Record<string, unknown>): void {
  if (!isObject(sent) || sent.method !== 'initialize' || !isObject(answer.result)) return;
  const version = answer.result.protocolVersion;
  if (typeof version === 'string') protocolVersion = version;
}

/** The id of a request (undefined for a notification, a response, a batch). */
function requestId(message: unknown): string | number | undefined {
  if (!isObject(message) || typeof message.method !== 'string') return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

function isError(answer: Record<string, unknown>): boolean {
  return 'error' in answer;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function write(message: unknown): void {
  process.stdout.write(JSON.stringify(message) + '\n');
}
