/**
 * The `tandem` MCP server's traffic in the Protocol Inspector (src/mcp/mcpWireLog.ts): a real
 * loopback server, the MCP SDK's own client over real HTTP, recorded into the inspector's real
 * WireStore and ConformanceMonitor — rows with their methods, on a connection of their own, no
 * ACP warnings, no bearer token, and no MCP lines in an (ACP) transcript.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectionLog, type ProtocolLog } from '../../src/acp/protocolLog';
import { ConformanceMonitor } from '../../src/inspector/conformance';
import { exportTranscript } from '../../src/inspector/transcriptExport';
import { WireStore } from '../../src/inspector/wireStore';
import { checkToolsPort } from '../../src/mcp/checkToolsPort';
import { LoopbackMcpServer } from '../../src/mcp/loopbackHttp';
import { McpWireLog, mcpWireLabel } from '../../src/mcp/mcpWireLog';
import { EditorToolRegistry } from '../../src/mcp/toolRegistry';

function storeLog(store: WireStore): ProtocolLog {
  return {
    message: (d, raw, origin) => store.message(d, raw, origin),
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    stderr: () => undefined,
  };
}

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-mcpwire-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('MCP traffic in the Protocol Inspector', () => {
  test('each message is a row with its method, paired, on its own connection, never checked as ACP, token-free', async () => {
    const store = new WireStore();
    const monitor = new ConformanceMonitor(store, { startDelayMs: 0 });
    const log = storeLog(store);
    // The agent's own ACP connection, first: a bad ACP message there must still be flagged.
    const acpLog = connectionLog(log, 'Claude');
    acpLog.message('out', '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}', {
      msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } },
    });
    acpLog.message('in', '{"jsonrpc":"2.0","method":"tools/list","id":7}', { msg: { jsonrpc: '2.0', method: 'tools/list', id: 7 } });

    const server = await LoopbackMcpServer.start({
      registry: new EditorToolRegistry(checkToolsPort(dir)),
      version: '9.9.9',
      wire: new McpWireLog(log, 'Claude'),
    });
    const declaration = server.declaration();
    const token = declaration.headers[0].value.replace(/^Bearer /, '');
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(declaration.url), {
          requestInit: { headers: Object.fromEntries(declaration.headers.map((h) => [h.name, h.value])) },
        }),
      );
      const { tools } = await client.listTools();
      assert.equal(tools.length, 13);
      const diagnostics = await client.callTool({ name: 'diagnostics', arguments: {} });
      assert.notEqual(diagnostics.isError, true);
      const write = await client.callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } });
      assert.equal(write.isError, true);
      assert.match(JSON.stringify(write.content), /not available during Check Agent/);
    } finally {
      await client.close();
      server.dispose();
    }

    const records = [...store.since()];
    const mcp = records.filter((r) => r.agent === mcpWireLabel('Claude'));
    assert.equal(mcpWireLabel('Claude'), 'Claude · tandem MCP');
    assert.ok(mcp.length >= 7, `initialize, its answer, initialized, two lists of requests and answers: ${mcp.length}`);
    assert.ok(mcp.every((r) => r.channel === 'mcp'));
    const acpConn = records[0].conn;
    assert.ok(
      mcp.every((r) => r.conn === mcp[0].conn && r.conn !== acpConn),
      'one connection of its own',
    );
    const requests = mcp.filter((r) => r.kind === 'request');
    assert.deepEqual(
      requests.map((r) => [r.dir, r.method]),
      [
        ['in', 'initialize'],
        ['in', 'tools/list'],
        ['in', 'tools/call'],
        ['in', 'tools/call'],
      ],
    );
    assert.ok(mcp.some((r) => r.kind === 'notification' && r.method === 'notifications/initialized' && r.dir === 'in'));
    for (const request of requests) {
      const answer = mcp.find((r) => r.seq === request.pair);
      assert.ok(answer, `${request.method} is paired with its answer`);
      assert.equal(answer.dir, 'out');
      assert.equal(answer.method, request.method, 'the answer row shows its request’s method');
    }
    assert.equal(store.handshake(mcp[0].conn), undefined, 'an MCP initialize is no ACP handshake');
    for (const r of mcp) {
      assert.ok(!r.raw.includes(token), 'the bearer token never reaches the log');
      assert.doesNotMatch(r.raw, /authorization|bearer/i, 'no header is copied');
    }

    monitor.drain();
    assert.equal(monitor.summary(mcpWireLabel('Claude')).checked, 0, 'MCP messages are not checked as ACP');
    const flagged = monitor.allWarnings().map((w) => store.get(w.seq)?.agent);
    assert.ok(flagged.length > 0, 'the ACP connection’s bad message is still flagged');
    assert.ok(
      flagged.every((agent) => agent === 'Claude'),
      `only ACP rows carry warnings: ${JSON.stringify(monitor.allWarnings())}`,
    );

    const { text } = await exportTranscript(store, monitor, { scope: {}, tandemVersion: '9.9.9', protocolVersion: 1, secrets: [] });
    assert.doesNotMatch(text, /tools\/call|notifications\/initialized/, 'a transcript is ACP only: the replay plays its lines as an agent');
    monitor.dispose();
  });

  test('a log that throws never fails the call it records', async () => {
    const throwing: ProtocolLog = {
      message: () => {
        throw new Error('disk full');
      },
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      stderr: () => undefined,
    };
    const server = await LoopbackMcpServer.start({ registry: new EditorToolRegistry(checkToolsPort(dir)), version: '1', wire: new McpWireLog(throwing, 'A') });
    const declaration = server.declaration();
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(declaration.url), {
          requestInit: { headers: Object.fromEntries(declaration.headers.map((h) => [h.name, h.value])) },
        }),
      );
      assert.equal((await client.listTools()).tools.length, 13);
    } finally {
      await client.close();
      server.dispose();
    }
  });
});
