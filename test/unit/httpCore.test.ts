// The shared HTTP core (src/util/httpCore.ts) against a real server on 127.0.0.1 and the local
// CONNECT proxy: each failure kind with its facts, the size cap, the header deadline through a
// proxy that never answers, the redirect policy, and a body cut short of its Content-Length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpCoreError, openExchange, openFollowing, proxyAgentFor, type CoreRequest, type Exchange } from '../../src/util/httpCore';
import { startConnectProxy } from '../support/registryFixtures';

/** A server whose handler the test writes. */
async function serve(handler: http.RequestListener): Promise<{ url(path: string): string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const request = (url: string, more: Partial<CoreRequest> = {}): CoreRequest => ({
  url: new URL(url),
  method: 'GET',
  headers: {},
  timeoutMs: 2000,
  proxy: { env: {} },
  ...more,
});

async function body(exchange: Exchange, max = 1024): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of exchange.chunks(max)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

async function failure(promise: Promise<unknown>): Promise<HttpCoreError> {
  const err = await promise.then(
    () => assert.fail('should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof HttpCoreError, String(err));
  return err;
}

test('an answer of any status is returned with its body; a POST sends its body with its length', async () => {
  const server = await serve((req, res) => {
    let got = '';
    req.on('data', (c: Buffer) => (got += c.toString()));
    req.on('end', () => res.writeHead(req.method === 'POST' ? 201 : 404, { 'x-len': req.headers['content-length'] ?? '' }).end(`got ${got}`));
  });
  try {
    const posted = await openExchange(request(server.url('/a'), { method: 'POST', body: 'héllo' }));
    assert.equal(posted.response.statusCode, 201);
    assert.equal(posted.response.headers['x-len'], '6');
    assert.equal(await body(posted), 'got héllo');
    const missing = await openExchange(request(server.url('/b')));
    assert.equal(missing.response.statusCode, 404);
    assert.equal(missing.url.pathname, '/b');
    missing.close();
  } finally {
    await server.close();
  }
});

test('through the CONNECT proxy: the request is tunnelled, and the proxy is named when the target is unreachable', async () => {
  const server = await serve((_req, res) => res.end('via proxy'));
  const proxy = await startConnectProxy();
  try {
    const env = { HTTP_PROXY: proxy.url };
    const exchange = await openExchange(request(server.url('/x'), { proxy: { env } }));
    assert.equal(await body(exchange), 'via proxy');
    assert.equal(proxy.targets.length, 1);
    // A port nobody listens on: refused directly, and as a proxy (which the failure then names).
    const closed = await serve(() => undefined);
    const deadUrl = closed.url('/y');
    await closed.close();
    const direct = await failure(openExchange(request(deadUrl)));
    assert.equal(direct.kind, 'unreachable');
    assert.equal(direct.facts.why, 'ECONNREFUSED');
    assert.equal(direct.facts.proxy, undefined);
    const viaBadProxy = await failure(openExchange(request(deadUrl, { proxy: { proxy: deadUrl.replace('/y', '') } })));
    assert.equal(viaBadProxy.kind, 'unreachable');
    assert.ok(viaBadProxy.facts.proxy?.display, 'the proxy is named');
  } finally {
    await proxy.close();
    await server.close();
  }
});

test('a proxy that accepts the connection but never answers CONNECT fails as a timeout, not a hang', async () => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  try {
    const err = await failure(openExchange(request('https://example.invalid/', { timeoutMs: 200, proxy: { proxy: `http://127.0.0.1:${port}` } })));
    assert.equal(err.kind, 'timeout');
    assert.equal(err.facts.limit, 200);
    assert.equal(err.facts.host, 'example.invalid');
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});

test('a server silent after its headers fails mid-body as a timeout', async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200);
    res.write('part');
  });
  try {
    const exchange = await openExchange(request(server.url('/slow'), { timeoutMs: 200 }));
    const err = await failure(body(exchange));
    assert.equal(err.kind, 'timeout');
  } finally {
    await server.close();
  }
});

test('past the size cap the connection is dropped as tooLarge; a body cut short of its length is connectionLost', async () => {
  const server = await serve((req, res) => {
    if (req.url === '/big') return res.end('x'.repeat(5000));
    res.writeHead(200, { 'content-length': '100' });
    res.write('only some');
    setTimeout(() => res.destroy(), 20);
  });
  try {
    const big = await failure(body(await openExchange(request(server.url('/big'))), 1000));
    assert.equal(big.kind, 'tooLarge');
    assert.equal(big.facts.limit, 1000);
    const short = await failure(body(await openExchange(request(server.url('/short')))));
    assert.equal(short.kind, 'connectionLost');
  } finally {
    await server.close();
  }
});

test('an abort is passed on as itself, not as a failure kind', async () => {
  const server = await serve(() => undefined);
  try {
    const controller = new AbortController();
    const pending = openExchange(request(server.url('/never'), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const err = await pending.then(
      () => assert.fail('should have been aborted'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error && err.name === 'AbortError', String(err));
  } finally {
    await server.close();
  }
});

test('redirects: followed within the limit, each hop checked by the policy, too many is a redirects failure', async () => {
  const server = await serve((req, res) => {
    const n = Number((req.url ?? '').slice(1));
    if (n > 0) return res.writeHead(302, { location: `/${n - 1}` }).end();
    res.end('landed');
  });
  try {
    const seen: string[] = [];
    const policy = { max: 3, allow: (u: URL) => void seen.push(u.pathname) };
    const landed = await openFollowing(request(server.url('/3')), policy);
    assert.equal(await body(landed), 'landed');
    assert.equal(landed.url.pathname, '/0');
    assert.deepEqual(seen, ['/3', '/2', '/1', '/0']);
    const tooMany = await failure(openFollowing(request(server.url('/5')), policy));
    assert.equal(tooMany.kind, 'redirects');
    assert.equal(tooMany.facts.limit, 3);
    const refused = await openFollowing(request(server.url('/2')), {
      max: 5,
      allow: (u) => {
        if (u.pathname === '/1') throw new Error('refused /1');
      },
    }).then(
      () => assert.fail('the policy should have refused'),
      (e: unknown) => e,
    );
    assert.equal((refused as Error).message, 'refused /1');
  } finally {
    await server.close();
  }
});

test('proxyAgentFor: an agent only when the rules pick a proxy', () => {
  assert.deepEqual(proxyAgentFor('https://a.example/', { env: {} }), { proxy: undefined, agent: undefined });
  const picked = proxyAgentFor('https://a.example/', { env: { HTTPS_PROXY: 'http://127.0.0.1:9' } });
  assert.equal(picked.proxy, 'http://127.0.0.1:9');
  assert.ok(picked.agent);
  assert.equal(proxyAgentFor('https://a.example/', { env: { HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: 'a.example' } }).agent, undefined);
});

test('the callers word the core: the registry client in its HttpError, the bridge in its HttpFailure', async () => {
  const { downloadFile, getText, HttpError } = await import('../../src/agents/httpClient');
  const { HttpFailure, send } = await import('../../src/hostedAgent/http');
  const server = await serve((req, res) => {
    if (req.url === '/big') return res.end('x'.repeat(5000));
    res.writeHead(200, { 'content-length': '100' });
    res.write('part');
  });
  const dir = mkdtempSync(join(tmpdir(), 'tandem-http-core-'));
  try {
    const file = join(dir, 'f');
    await assert.rejects(
      getText(server.url('/silent'), { env: {}, idleTimeoutMs: 200 }),
      (err: unknown) => err instanceof HttpError && /^No answer from 127\.0\.0\.1:\d+ \(timed out\)\.$/.test(err.message),
    );
    // A download cut off mid-body fails (as the stream's own error) and leaves no partial file.
    await assert.rejects(downloadFile(server.url('/silent'), file, { env: {}, idleTimeoutMs: 200 }));
    assert.equal(existsSync(file), false, 'the partial file is removed');
    await assert.rejects(
      getText(server.url('/big'), { env: {}, maxBytes: 1000 }),
      (err: unknown) => err instanceof HttpError && err.message === `${server.url('/big')} is larger than 1000 bytes.`,
    );
    await assert.rejects(
      send({ url: server.url('/silent'), method: 'GET', headers: {}, timeoutMs: 200, maxBytes: 1000, env: {} }).then((r) => r.text()),
      (err: unknown) => err instanceof HttpFailure && err.kind === 'timeout' && err.message.includes('limit set by --timeout-ms'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});
