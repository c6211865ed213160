// A remote agent's bad input, against real local servers: an address that is not ACP (an HTML
// page, 404), a certificate that is not trusted, 401/403, a session the server answers 409 for, a
// connection it forgets (410), oversized frames, frames that are not JSON, a server that accepts and
// never answers (the upgrade, a request, initialize, pings). Each ends in a clear sentence, the
// right kind (sign-in, retry later, fix the address), nothing unhandled, no secret in the log.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { createNodeHttpHandler } from '@agentclientprotocol/sdk/experimental/node';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { MemoryAcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import { WebSocketServer, type WebSocket } from 'ws';
import { AgentExitedError } from '../../src/acp/agentConnection';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { RemoteAgentConnection } from '../../src/acp/remoteConnection';
import { RemoteConnectionError } from '../../src/acp/remoteFailure';
import type { RemoteLimits } from '../../src/acp/remoteTransport';
import { trackUnhandledRejections } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
const closers: Array<() => unknown> = [];
after(async () => {
  for (const close of closers.splice(0)) await close();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  closers.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function http(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  return listen(createHttpServer(handler));
}

/** A WebSocket server that answers `initialize` itself, so a test can misbehave after it. */
async function plainWs(
  opts: { autoPong?: boolean; onMessage?: (msg: Record<string, unknown>, socket: WebSocket) => boolean; onHeaders?: (req: IncomingMessage) => void } = {},
): Promise<number> {
  const server = createHttpServer();
  const sockets = new WebSocketServer({ server, autoPong: opts.autoPong ?? true });
  sockets.on('connection', (socket, req) => {
    opts.onHeaders?.(req);
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Record<string, unknown>;
      if (opts.onMessage?.(msg, socket)) return;
      if (msg.method === 'initialize')
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} } }));
    });
  });
  closers.push(() => sockets.close());
  return listen(server);
}

interface Connected {
  conn: RemoteAgentConnection;
  log: MemoryProtocolLog;
  exits: Array<{ description: string; lost: boolean }>;
}

async function connect(
  url: string,
  opts: { headers?: Record<string, string>; env?: Record<string, string>; limits?: Partial<RemoteLimits>; initializeTimeoutMs?: number } = {},
): Promise<Connected> {
  const log = new MemoryProtocolLog();
  const exits: Connected['exits'] = [];
  const conn = await RemoteAgentConnection.open(
    { name: 'Far', command: '', args: [], env: opts.env ?? {}, cwd: tmpdir(), remote: { url, headers: opts.headers ?? {}, clientTools: true } },
    { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    { log, onUpdate: () => undefined, clientInfo: { name: 'tandem-test', version: '0' } },
    { cookies: new MemoryAcpCookieStore(), limits: opts.limits, initializeTimeoutMs: opts.initializeTimeoutMs },
  );
  conn.onExit((description, lost) => exits.push({ description, lost }));
  closers.push(() => conn.kill());
  return { conn, log, exits };
}

async function failure(url: string, opts: Parameters<typeof connect>[1] = {}): Promise<{ err: unknown; log: MemoryProtocolLog }> {
  const { conn, log } = await connect(url, opts);
  const err = await conn.initialize().then(
    () => assert.fail('initialize should have failed'),
    (e: unknown) => e,
  );
  return { err, log };
}

function kindOf(err: unknown): string | undefined {
  return err instanceof RemoteConnectionError ? err.kind : undefined;
}

const waitFor = async (check: () => boolean, what: string): Promise<void> => {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('an HTML page is not an ACP endpoint (HTTP and WebSocket), and 404 says to check the address', async () => {
  const html = await http((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Welcome</body></html>'));
  const overHttp = await failure(`http://127.0.0.1:${html}/`);
  assert.equal(kindOf(overHttp.err), 'notAcp');
  assert.match(String((overHttp.err as Error).message), /answered, but not as an ACP endpoint .*missing Acp-Connection-Id/);
  const overWs = await failure(`ws://127.0.0.1:${html}/`);
  assert.equal(kindOf(overWs.err), 'notAcp');
  const missing = await http((_req, res) => res.writeHead(404).end('not found'));
  const notFound = await failure(`http://127.0.0.1:${missing}/wrong`);
  assert.equal(kindOf(notFound.err), 'notAcp');
  assert.match(String((notFound.err as Error).message), /Nothing answers ACP at this address .*\(404\).*ends in \/acp/);
});

test('401 asks for a token through the sign-in card; with an Authorization header configured, 403 says the credentials were refused', async () => {
  const guarded = await http((req, res) => res.writeHead(req.headers.authorization ? 403 : 401).end());
  const { err } = await failure(`http://127.0.0.1:${guarded}/acp`);
  assert.ok(err instanceof acp.RequestError && err.code === -32000, 'an auth-required error');
  const methods = (err.data as { authMethods: Array<{ id: string; type: string; vars: Array<{ name: string }> }> }).authMethods;
  assert.equal(methods[0]?.type, 'env_var');
  assert.equal(methods[0]?.vars[0]?.name, 'TANDEM_REMOTE_TOKEN');
  const configured = await failure(`ws://127.0.0.1:${guarded}/acp`, { headers: { Authorization: 'Bearer wrong-token-1234' } });
  assert.equal(kindOf(configured.err), 'auth');
  assert.match(String((configured.err as Error).message), /refused the connection \(403\)/);
  assert.equal(configured.log.toString().includes('wrong-token-1234'), false);
});

test('a certificate that is not trusted says which error and how to trust a private authority', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-tls-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')],
      {
        stdio: 'ignore',
      },
    );
  } catch {
    t.skip('openssl is not available to make a certificate');
    return;
  }
  const port = await listen(createHttpsServer({ key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) }, (_req, res) => res.end('{}')));
  for (const scheme of ['https', 'wss']) {
    const { err } = await failure(`${scheme}://127.0.0.1:${port}/acp`);
    assert.equal(kindOf(err), 'tls', scheme);
    assert.match(
      String((err as Error).message),
      /TLS certificate of 127\.0\.0\.1:\d+ was not accepted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/,
    );
    assert.match(String((err as Error).message), /NODE_EXTRA_CA_CERTS/);
  }
});

test('nothing listening: unreachable, and worth another attempt later', async () => {
  const port = await listen(createNetServer());
  closers.pop()?.();
  const { err } = await failure(`ws://127.0.0.1:${port}/acp`);
  assert.equal(kindOf(err), 'unreachable');
  assert.ok((err as RemoteConnectionError).transient);
  assert.match(String((err as Error).message), /Could not reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
});

test('a server that accepts and never answers: the upgrade, the request and initialize each time out', async () => {
  const silent = await listen(createNetServer(() => undefined));
  const limits = { answerTimeoutMs: 200 };
  // The WebSocket upgrade has the per-request deadline; over HTTP the first request is initialize,
  // which the initialize deadline bounds (an agent behind a gateway may take long to start).
  for (const [scheme, said] of [
    ['ws', /accepted the connection but did not answer in time/],
    ['http', /accepted the connection but did not answer initialize within 1 s/],
  ] as const) {
    const { err } = await failure(`${scheme}://127.0.0.1:${silent}/acp`, { limits, initializeTimeoutMs: 1000 });
    assert.equal(kindOf(err), 'timeout', scheme);
    assert.match(String((err as Error).message), said);
  }
  const mute = await plainWs({ onMessage: () => true });
  const { err } = await failure(`ws://127.0.0.1:${mute}/acp`, { initializeTimeoutMs: 200 });
  assert.equal(kindOf(err), 'timeout');
  assert.match(String((err as Error).message), /did not answer initialize within/);
});

test('a connection that stops answering pings is lost (laptop sleep, a dropped route), its request told why', async () => {
  const port = await plainWs({ autoPong: false, onMessage: (msg) => msg.method === 'session/new' });
  const { conn, exits } = await connect(`ws://127.0.0.1:${port}/acp`, { limits: { heartbeatMs: 100 } });
  await conn.initialize();
  const pending = conn.newSession('/tmp').catch((e: unknown) => e);
  await waitFor(() => exits.length > 0, 'the heartbeat to give up');
  assert.equal(exits[0].lost, true);
  assert.match(exits[0].description, /lost its connection to 127\.0\.0\.1:\d+ .*did not answer in time|no answer to pings/);
  const err = await pending;
  assert.ok(err instanceof AgentExitedError, 'the pending request names the loss');
});

test('an oversized frame closes the connection with a clear message; a frame that is not JSON is logged and skipped', async () => {
  const port = await plainWs({
    onMessage: (msg, socket) => {
      if (msg.method === 'initialize') socket.send('hello, not json');
      if (msg.method === 'session/new') socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { big: 'x'.repeat(4096) } }));
      return msg.method === 'session/new';
    },
  });
  const { conn, log, exits } = await connect(`ws://127.0.0.1:${port}/acp`, { limits: { maxMessageBytes: 1024 } });
  await conn.initialize();
  assert.ok(log.of('warn').some((w) => /not a JSON object: "hello, not json"/.test(w)));
  const err = await conn.newSession('/tmp').catch((e: unknown) => e);
  assert.ok(err instanceof AgentExitedError);
  assert.match(exits[0]?.description ?? '', /over the size limit/);
  assert.equal(exits[0]?.lost, true);
});

test('HTTP: a session the server answers 409 for is given up as lost (to be reattached); 410 loses the connection', async () => {
  let refuse: number | undefined;
  const agent = acp
    .agent({ name: 'inproc' })
    .onRequest(acp.methods.agent.initialize, async () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(acp.methods.agent.session.new, async () => ({ sessionId: `s${Date.now()}` }))
    .onRequest(acp.methods.agent.session.prompt, async () => ({ stopReason: 'end_turn' as const }));
  const acpServer = new AcpServer({ agent });
  closers.push(() => acpServer.close());
  const handler = createNodeHttpHandler(acpServer);
  const port = await http((req, res) => {
    if (refuse !== undefined && (refuse === 410 || req.headers['acp-session-id'])) return void res.writeHead(refuse).end('refused');
    handler(req, res);
  });
  for (const status of [409, 410]) {
    refuse = undefined;
    const { conn, exits } = await connect(`http://127.0.0.1:${port}/acp`);
    await conn.initialize();
    const { sessionId } = await conn.newSession('/tmp');
    refuse = status;
    const err = await conn.prompt(sessionId, 'hi').catch((e: unknown) => e);
    assert.ok(err instanceof AgentExitedError, `${status}: the prompt names the loss`);
    await waitFor(() => exits.length > 0, 'the exit');
    assert.equal(exits[0].lost, true, `${status}: lost, so the conversation reattaches`);
    assert.match(exits[0].description, status === 409 ? /no longer routes this session here \(409\)/ : /HTTP 410/);
  }
});

test('header values: ${env:NAME} is resolved here and ${token} takes the stored token; neither reaches the log', async () => {
  const seen: Array<Record<string, unknown>> = [];
  const port = await plainWs({ onHeaders: (req) => seen.push({ ...req.headers }) });
  process.env.TANDEM_TEST_REMOTE_KEY = 'env-secret-value-77';
  try {
    const { conn, log } = await connect(`ws://127.0.0.1:${port}/acp`, {
      headers: { 'X-Team': '${env:TANDEM_TEST_REMOTE_KEY}', 'X-Api-Key': 'key ${token}', 'X-Missing': '${env:TANDEM_TEST_NOT_SET}' },
      env: { TANDEM_REMOTE_TOKEN: 'stored-token-value-88' },
    });
    await conn.initialize();
    assert.equal(seen[0]['x-team'], 'env-secret-value-77');
    assert.equal(seen[0]['x-api-key'], 'key stored-token-value-88');
    assert.equal(seen[0].authorization, undefined, 'the token went where ${token} said, not as a bearer token');
    assert.ok(log.of('warn').some((w) => /X-Missing uses \$\{env:TANDEM_TEST_NOT_SET\}/.test(w)));
    const text = log.toString();
    assert.equal(text.includes('env-secret-value-77') || text.includes('stored-token-value-88'), false);
  } finally {
    delete process.env.TANDEM_TEST_REMOTE_KEY;
  }
});

test('HTTP: a failed request whose answer echoes the token says the failure without the token', async () => {
  const token = 'tok-echoed-by-the-proxy-7731';
  let fail = false;
  const agent = acp
    .agent({ name: 'inproc' })
    .onRequest(acp.methods.agent.initialize, async () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(acp.methods.agent.session.new, async () => ({ sessionId: 's-echo' }))
    .onRequest(acp.methods.agent.session.setMode, async () => ({}));
  const acpServer = new AcpServer({ agent });
  closers.push(() => acpServer.close());
  const handler = createNodeHttpHandler(acpServer);
  const port = await http((req, res) => {
    // A proxy in front answers 502 with what it was sent, Authorization included.
    if (fail && req.method === 'POST') return void res.writeHead(502, { 'content-type': 'text/plain' }).end(`bad gateway for ${req.headers.authorization}`);
    handler(req, res);
  });
  const { conn } = await connect(`http://127.0.0.1:${port}/acp`, { env: { TANDEM_REMOTE_TOKEN: token } });
  await conn.initialize();
  const { sessionId } = await conn.newSession('/tmp');
  fail = true;
  const err = await conn.setMode(sessionId, 'plan').catch((e: unknown) => e);
  assert.ok(err instanceof acp.RequestError, String(err));
  assert.match(err.message, /502/);
  assert.doesNotMatch(err.message, new RegExp(token), 'the token is masked');
});
