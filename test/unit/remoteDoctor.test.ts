// Check Agent for an agent on another machine: it connects and initializes over the entry's own
// transport (the SDK's server wrapping the scripted agent), and when that fails the report says
// why and what to do — sign in, trust the certificate, fix the address, reach the host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import type { AgentLaunchConfig } from '../../src/acp/agentProcess';
import { nextSteps, renderDoctorReport } from '../../src/agents/doctorReport';
import { diagnoseRemote } from '../../src/agents/remoteDiagnosis';
import { ensureRemoteServerBuilt, RemoteServer } from '../support/remoteServer';
import { trackUnhandledRejections } from '../support/scriptedAgentHarness';

const unhandled = trackUnhandledRejections();
const servers: RemoteServer[] = [];
before(async () => {
  await ensureRemoteServerBuilt();
});
after(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const clientInfo = { name: 'tandem-test', version: '0' };

function target(
  url: string,
  env: Record<string, string> = {},
  headers: Record<string, string> = {},
): AgentLaunchConfig & { remote: NonNullable<AgentLaunchConfig['remote']> } {
  return { name: 'Far', command: '', args: [], env, cwd: tmpdir(), remote: { url, headers, clientTools: true } };
}

test('a healthy remote agent: connected over its transport, its capabilities listed, nothing to do', async () => {
  const server = new RemoteServer({ script: { initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } } } } });
  servers.push(server);
  await server.start();
  for (const kind of ['ws', 'http'] as const) {
    const report = await diagnoseRemote(target(server.url(kind), {}, { 'X-Team': 'blue-team-secret' }), { clientInfo, timeoutMs: 20_000 });
    assert.ok(report.start.ok, JSON.stringify(report.start));
    assert.equal(report.remote?.transport, kind === 'ws' ? 'WebSocket' : 'Streamable HTTP');
    const markdown = renderDoctorReport(report);
    assert.match(markdown, /\| Address \| `(ws|http):\/\/127\.0\.0\.1:\d+\/acp` \|/);
    assert.match(markdown, /\| Headers \| `X-Team` \(values hidden\) \|/);
    assert.match(markdown, /session\/resume \| ✅ yes/);
    assert.doesNotMatch(markdown, /blue-team-secret|Runtimes|Found at/);
    assert.deepEqual(nextSteps(report), []);
    assert.equal(report.conformance?.handshake.checked, 1, "the handshake's answer was checked");
  }
});

test('a token refused, an address that is not ACP, a host that does not answer: each says what to do', async () => {
  const guarded = new RemoteServer({ script: {}, token: 'right-token-123' });
  servers.push(guarded);
  await guarded.start();
  const refused = await diagnoseRemote(target(guarded.url('ws'), { TANDEM_REMOTE_TOKEN: 'wrong-token-456' }), { clientInfo, timeoutMs: 10_000 });
  assert.ok(!refused.start.ok && refused.start.remoteKind === 'auth', JSON.stringify(refused.start));
  assert.match(nextSteps(refused)[0], /stored token was refused/);
  assert.doesNotMatch(renderDoctorReport(refused), /wrong-token-456/);

  const html = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>'));
  await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
  const port = (html.address() as { port: number }).port;
  const notAcp = await diagnoseRemote(target(`http://127.0.0.1:${port}/`), { clientInfo, timeoutMs: 10_000 });
  assert.ok(!notAcp.start.ok && notAcp.start.remoteKind === 'notAcp');
  assert.match(nextSteps(notAcp)[0], /must be the ACP endpoint itself/);
  await new Promise((resolve) => html.close(resolve));

  const gone = await diagnoseRemote(target(`ws://127.0.0.1:${port}/acp`), { clientInfo, timeoutMs: 10_000 });
  assert.ok(!gone.start.ok && gone.start.remoteKind === 'unreachable');
  assert.match(nextSteps(gone)[0], /this machine can reach 127\.0\.0\.1:\d+/);
  assert.match(renderDoctorReport(gone), /❌ Could not reach/);
});
