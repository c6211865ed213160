// The loopback Streamable HTTP endpoint for real: the MCP SDK's own client lists and calls the
// tools over a socket; requests without the token, for another Host, with GET or a huge body are
// refused; the token never reaches the log; only 127.0.0.1 listens, and not after dispose().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoopbackMcpServer, MAX_BODY_BYTES, MCP_PATH } from '../../../src/mcp/loopbackHttp';
import { EditorToolRegistry } from '../../../src/mcp/toolRegistry';
import { fakePort, fakeWorkspace, type FakeWorkspace } from '../../support/fakeToolPort';

interface Rig {
  w: FakeWorkspace;
  server: LoopbackMcpServer;
  token: string;
  logs: string[];
  listed: number;
}

async function rig(t: { after: (fn: () => void | Promise<void>) => void }): Promise<Rig> {
  const w = fakeWorkspace(t);
  w.file('src/a.ts', 'export const a = 1;\n');
  const logs: string[] = [];
  const state = { listed: 0 };
  const registry = new EditorToolRegistry(fakePort(w), { listed: () => state.listed++ });
  const server = await LoopbackMcpServer.start({ registry, version: '0.0.0-test', log: (line) => logs.push(line) });
  t.after(() => server.dispose());
  const auth = server.declaration().headers.find((h) => h.name === 'Authorization');
  assert.ok(auth);
  const token = auth.value.replace(/^Bearer /, '');
  return {
    w,
    server,
    token,
    logs,
    get listed() {
      return state.listed;
    },
  };
}

async function connect(t: { after: (fn: () => void | Promise<void>) => void }, server: LoopbackMcpServer, authorization?: string): Promise<Client> {
  const entry = server.declaration();
  const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
  if (authorization !== undefined) headers.Authorization = authorization;
  const client = new Client({ name: 'tandem-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  t.after(() => client.close());
  return client;
}

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One request with exactly these headers (fetch would not let a test set Host). */
function raw(server: LoopbackMcpServer, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string }): Promise<RawReply> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: opts.path ?? MCP_PATH,
        method: opts.method ?? 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...opts.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('the MCP SDK client lists the 13 tools and calls one over HTTP, with the declared Authorization header', async (t) => {
  const r = await rig(t);
  const entry = r.server.declaration();
  assert.equal(entry.type, 'http');
  assert.equal(entry.name, 'tandem');
  assert.match(entry.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.deepEqual(
    entry.headers.map((h) => h.name),
    ['Authorization'],
  );
  assert.ok(r.token.length >= 40, 'a long random token');

  const client = await connect(t, r.server);
  assert.equal(client.getServerVersion()?.name, 'tandem');
  const { tools } = await client.listTools();
  assert.equal(tools.length, 13);
  assert.equal(r.listed, 1);
  const readFile = tools.find((tool) => tool.name === 'read_file');
  assert.ok(readFile);
  assert.deepEqual(readFile.inputSchema.required, ['path']);
  assert.equal(readFile.annotations?.readOnlyHint, true);
  assert.equal(tools.find((tool) => tool.name === 'edit_file')?.annotations?.destructiveHint, true);

  assert.deepEqual(await client.callTool({ name: 'read_file', arguments: { path: 'src/a.ts' } }), {
    content: [{ type: 'text', text: 'export const a = 1;\n' }],
  });
  assert.deepEqual(await client.callTool({ name: 'read_file', arguments: { path: 'src/a.ts', startLine: 0 } }), {
    content: [{ type: 'text', text: 'Invalid arguments for read_file: `startLine` must be ≥ 1, got 0.' }],
    isError: true,
  });
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
});

test('a cut result carries the truncated flag in _meta', async (t) => {
  const r = await rig(t);
  r.w.file('big.txt', 'b'.repeat(60_000));
  const client = await connect(t, r.server);
  const result = await client.callTool({ name: 'read_file', arguments: { path: 'big.txt' } });
  assert.deepEqual(result._meta, { 'tandem/truncated': true });
});

test('no token or a wrong token is 401, for the SDK client and for a raw request', async (t) => {
  const r = await rig(t);
  await assert.rejects(connect(t, r.server, `Bearer ${r.token}x`), /401|Missing or wrong bearer token/);
  await assert.rejects(connect(t, r.server, ''), /401|Missing or wrong bearer token/);
  for (const authorization of [undefined, 'Bearer', `Basic ${r.token}`, `Bearer ${r.token.slice(0, -1)}`, `Bearer ${r.token} extra`]) {
    const reply = await raw(r.server, { headers: authorization === undefined ? {} : { Authorization: authorization }, body: INITIALIZE });
    assert.equal(reply.status, 401, String(authorization));
    assert.equal(reply.headers['www-authenticate'], 'Bearer realm="tandem"');
    assert.deepEqual(JSON.parse(reply.body), { jsonrpc: '2.0', error: { code: -32000, message: 'Missing or wrong bearer token.' }, id: null });
  }
  const right = await raw(r.server, { headers: { Authorization: `Bearer ${r.token}` }, body: INITIALIZE });
  assert.equal(right.status, 200, right.body);
  assert.equal((JSON.parse(right.body) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, 'tandem');
});

test('a Host header that is not the loopback is refused, even with the token (DNS rebinding)', async (t) => {
  const r = await rig(t);
  const port = new URL(r.server.url).port;
  const auth = { Authorization: `Bearer ${r.token}` };
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.evil.example:${port}`, `[::1]:${port}`]) {
    const reply = await raw(r.server, { headers: { ...auth, Host: host }, body: INITIALIZE });
    assert.equal(reply.status, 403, host);
    assert.match(reply.body, /Forbidden host/);
  }
  const local = await raw(r.server, { headers: { ...auth, Host: `localhost:${port}` }, body: INITIALIZE });
  assert.equal(local.status, 200, 'localhost names the loopback too');
});

test('GET and DELETE are not allowed (stateless: no stream, no session); another path is 404', async (t) => {
  const r = await rig(t);
  const auth = { Authorization: `Bearer ${r.token}` };
  for (const method of ['GET', 'DELETE']) {
    const reply = await raw(r.server, { method, headers: auth });
    assert.equal(reply.status, 405, method);
    assert.equal(reply.headers.allow, 'POST');
  }
  assert.equal((await raw(r.server, { path: '/other', headers: auth, body: INITIALIZE })).status, 404);
  assert.equal((await raw(r.server, { path: `${MCP_PATH}?x=1`, headers: auth, body: INITIALIZE })).status, 200, 'a query string is the same path');
});

test('a body over MAX_BODY_BYTES is 413, a body that is not JSON is 400', async (t) => {
  const r = await rig(t);
  const auth = { Authorization: `Bearer ${r.token}` };
  const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
  const reply = await raw(r.server, { headers: auth, body: big });
  assert.equal(reply.status, 413);
  assert.match(reply.body, /Request body too large/);
  const notJson = await raw(r.server, { headers: auth, body: '{"jsonrpc": "2.0", ' });
  assert.equal(notJson.status, 400);
  assert.equal((JSON.parse(notJson.body) as { error: { code: number } }).error.code, -32700);
  // A body just at the limit is read (it is whitespace around a valid request).
  const atLimit = Buffer.alloc(MAX_BODY_BYTES, 0x20);
  atLimit.write(INITIALIZE, 0);
  assert.equal((await raw(r.server, { headers: auth, body: atLimit })).status, 200);
});

test('refusals are logged, and no log line carries the token', async (t) => {
  const r = await rig(t);
  const port = new URL(r.server.url).port;
  await raw(r.server, { body: INITIALIZE });
  await raw(r.server, { headers: { Authorization: `Bearer ${r.token}x` }, body: INITIALIZE });
  await raw(r.server, { headers: { Authorization: `Bearer ${r.token}`, Host: `evil.example:${port}` }, body: INITIALIZE });
  await raw(r.server, { headers: { Authorization: `Bearer ${r.token}` }, body: Buffer.alloc(MAX_BODY_BYTES + 10, 0x20) });
  const client = await connect(t, r.server);
  await client.callTool({ name: 'read_file', arguments: { path: 'missing.ts' } });
  assert.deepEqual(r.logs, [
    'tandem MCP server: refused a request without a bearer token',
    'tandem MCP server: refused a request with a wrong bearer token',
    `tandem MCP server: refused a request for Host "evil.example:${port}" (only 127.0.0.1 and localhost)`,
    `tandem MCP server: refused a request body over ${MAX_BODY_BYTES} bytes`,
  ]);
  for (const line of r.logs) assert.ok(!line.includes(r.token) && !line.includes(r.token.slice(0, 12)), line);
});

test('it listens on 127.0.0.1 only', async (t) => {
  const r = await rig(t);
  const port = Number(new URL(r.server.url).port);
  assert.equal(await connects('127.0.0.1', port), true);
  const others = Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
    .map((a) => a!.address);
  for (const address of [...others, '::1']) assert.equal(await connects(address, port), false, address);
});

test('after dispose() the port refuses connections and an open client fails', async (t) => {
  const r = await rig(t);
  const port = Number(new URL(r.server.url).port);
  const client = await connect(t, r.server);
  await client.listTools();
  r.server.dispose();
  await r.server.closed;
  assert.equal(await connects('127.0.0.1', port), false);
  await assert.rejects(client.listTools());
  r.server.dispose(); // twice is fine
});

test('every session gets its own token: one server’s token does not open another', async (t) => {
  const a = await rig(t);
  const b = await rig(t);
  assert.notEqual(a.token, b.token);
  assert.notEqual(a.server.url, b.server.url);
  const reply = await raw(b.server, { headers: { Authorization: `Bearer ${a.token}` }, body: INITIALIZE });
  assert.equal(reply.status, 401);
});
