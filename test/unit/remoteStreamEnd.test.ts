// Over Streamable HTTP, a session's event stream that ends cleanly mid-turn (a proxy's idle timeout,
// a server's stream limit) is a lost connection, not a failed turn: the turn is marked interrupted,
// the conversation reconnects and resumes the same session. A real ACP server (the SDK's server
// wrapping the scripted agent) behind a small HTTP proxy that ends the session streams on demand.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRemoteServerBuilt, RemoteServer } from '../support/remoteServer';
import { scriptedSession, until } from '../support/scriptedSession';

let server: RemoteServer | undefined;
let proxy: http.Server | undefined;
const dirs: string[] = [];
before(async () => ensureRemoteServerBuilt());
after(async () => {
  proxy?.closeAllConnections();
  proxy?.close();
  await server?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Forwards to `port`; `endSessionStreams()` ends the open session event streams as a proxy would. */
async function sessionStreamCutter(port: number): Promise<{ url: string; endSessionStreams: () => number }> {
  const open = new Set<http.ServerResponse>();
  proxy = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // An event stream's headers go at once (Node would hold them until the first event).
      res.flushHeaders();
      const sessionStream = req.method === 'GET' && req.headers['acp-session-id'] !== undefined;
      if (sessionStream) {
        open.add(res);
        res.once('close', () => open.delete(res));
      }
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  const { port: own } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}/acp`,
    endSessionStreams: () => {
      const n = open.size;
      for (const res of open) res.end();
      return n;
    },
  };
}

test('http: a session stream ended mid-turn — the turn interrupted, the same session resumed, not an error', async () => {
  server = new RemoteServer({
    script: {
      initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
      turns: [{ steps: [{ chunks: { count: 1, text: 'started the long job' } }, { sleep: 60_000 }] }, { steps: [{ recall: true }], stopReason: 'end_turn' }],
    },
  });
  await server.start();
  const cutter = await sessionStreamCutter(server.port);
  const dir = mkdtempSync(join(tmpdir(), 'tandem-remote-cut-'));
  dirs.push(dir);
  const { session } = scriptedSession(dir, {});
  session.updateAgent({ name: 'Scripted', command: '', args: [], env: {}, cwd: dir, remote: { url: cutter.url, headers: {}, clientTools: true } });
  try {
    await session.start();
    const sessionId = session.conversation.meta.sessionId;
    session.conversation.prompt('a long job');
    await until(() => session.snapshotParts().entries.some((e) => e.kind === 'agent' && /started the long job/.test(e.text)), 'the first chunk');
    await until(() => existsSync(server!.statePath) && readFileSync(server!.statePath, 'utf8').includes('a long job'), 'the prompt to be stored');
    assert.ok(cutter.endSessionStreams() > 0, 'a session stream was open');
    await until(() => session.snapshotParts().entries.some((e) => e.kind === 'turn_end'), 'the turn to end');
    const end = session.snapshotParts().entries.find((e) => e.kind === 'turn_end');
    assert.ok(end?.kind === 'turn_end' && end.stopReason === 'interrupted', `the turn is interrupted, not failed (${JSON.stringify(end)})`);
    await until(() => session.status.kind === 'ready', 'reconnected', 20_000);
    assert.equal(session.conversation.meta.sessionId, sessionId, 'the same session');
    assert.ok(
      server.received().some((m) => m.method === 'session/resume'),
      'resumed',
    );
    assert.ok(!session.snapshotParts().entries.some((e) => e.kind === 'error'), 'no error shown');
  } finally {
    session.dispose();
  }
});
