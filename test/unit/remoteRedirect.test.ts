// A remote agent's address that answers with a redirect, over both transports (Streamable HTTP and
// WebSocket), against real local servers: the redirect is not followed — the server it names gets
// no request at all, so the configured headers (secrets from ${env:…} or the token store) never
// reach it — and the error names the new location and says to set the agent's url to it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { MemoryAcpCookieStore } from '@agentclientprotocol/sdk/experimental/ws-client';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { RemoteAgentConnection } from '../../src/acp/remoteConnection';
import { RemoteConnectionError } from '../../src/acp/remoteFailure';
import { trackUnhandledRejections } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
const closers: Array<() => unknown> = [];
after(async () => {
  for (const close of closers.splice(0)) await close();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const SECRET = 'super-secret-env-value-123';

async function listen(server: Server): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** The server a redirect points at: records every request and upgrade it gets, answers none usefully. */
async function elsewhere(): Promise<{ port: number; seen: Array<Record<string, unknown>> }> {
  const seen: Array<Record<string, unknown>> = [];
  const record = (req: IncomingMessage): number => seen.push({ url: req.url, ...req.headers });
  const server = createServer((req, res) => {
    record(req);
    res.writeHead(500).end();
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    record(req);
    socket.destroy();
  });
  return { port: await listen(server), seen };
}

/** The agent's configured address: every request and every WebSocket upgrade is answered 307 to `location`. */
async function redirector(location: string): Promise<number> {
  const server = createServer((_req, res) => res.writeHead(307, { location }).end());
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) =>
    socket.end(`HTTP/1.1 307 Temporary Redirect\r\nLocation: ${location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
  );
  return listen(server);
}

async function initializeFails(url: string): Promise<{ err: unknown; log: string }> {
  const log = new MemoryProtocolLog();
  const conn = await RemoteAgentConnection.open(
    { name: 'Far', command: '', args: [], env: {}, cwd: tmpdir(), remote: { url, headers: { 'x-api-key': SECRET }, clientTools: true } },
    { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    { log, onUpdate: () => undefined, clientInfo: { name: 'tandem-test', version: '0' } },
    { cookies: new MemoryAcpCookieStore() },
  );
  closers.push(() => conn.kill());
  const err = await conn.initialize().then(
    () => assert.fail('initialize should have failed'),
    (e: unknown) => e,
  );
  return { err, log: log.toString() };
}

for (const scheme of ['http', 'ws'] as const) {
  test(`${scheme}: a 307 is not followed; the other server gets nothing and the error names where it pointed`, async () => {
    const other = await elsewhere();
    const target = `${scheme}://127.0.0.1:${other.port}/acp/v2`;
    const port = await redirector(target);
    const { err, log } = await initializeFails(`${scheme}://127.0.0.1:${port}/acp`);
    assert.deepEqual(other.seen, [], 'no request reached the redirect’s target');
    assert.ok(err instanceof RemoteConnectionError, `a RemoteConnectionError (got ${String(err)})`);
    assert.equal(err.kind, 'notAcp', 'the address needs fixing: not worth reconnecting');
    assert.equal(err.status, 307);
    const message = err.message;
    assert.ok(message.includes(`redirected to ${target}`), message);
    assert.match(message, /set the agent's url to the final address/);
    assert.match(message, /no headers were sent there/i);
    assert.equal(message.includes(SECRET) || log.includes(SECRET), false, 'the header value is never shown');
  });
}

test('http: a relative Location is named as the full address, its query values masked', async () => {
  const port = await redirector('/moved/acp?sig=abcdef0123456789');
  const { err } = await initializeFails(`http://127.0.0.1:${port}/acp`);
  assert.ok(err instanceof RemoteConnectionError);
  assert.ok(err.message.includes(`redirected to http://127.0.0.1:${port}/moved/acp?sig=***`), err.message);
  assert.equal(err.message.includes('abcdef0123456789'), false);
});
