/**
 * The stdio form of the `tandem` MCP server: the built bridge (dist/mcpStdioBridge.js) run by real
 * Node from the entry stdioDeclaration makes, relaying the MCP SDK's own stdio client to a real
 * LoopbackMcpServer — initialize, tools/list and tools/call through it, the token checked by the
 * server, and the process gone once its stdin closes.
 */
import { afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoopbackMcpServer } from '../../src/mcp/loopbackHttp';
import { TANDEM_MCP_TOKEN_ENV, TANDEM_MCP_URL_ENV } from '../../src/mcp/stdioBridgeEnv';
import { stdioDeclaration, type McpServerStdioEntry } from '../../src/mcp/stdioDeclaration';
import { BROKEN_FILE, BROKEN_MESSAGE, BROKEN_TEXT, ensureStdioBridgeBuilt, mcpRig, toolText, type McpRig } from '../support/mcpTransportRig';

let bridge = '';
before(async () => {
  bridge = await ensureStdioBridgeBuilt();
});

const open: Array<{ dispose(): void } | { close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) {
    if ('close' in item) await item.close().catch(() => undefined);
    else item.dispose();
  }
});

async function started(): Promise<{ rig: McpRig; server: LoopbackMcpServer; entry: McpServerStdioEntry }> {
  const rig = mcpRig();
  open.push(rig);
  const server = await LoopbackMcpServer.start({ registry: rig.registry, version: '9.9.9' });
  open.push(server);
  return { rig, server, entry: stdioDeclaration(server, bridge, process.execPath) };
}

function envOf(entry: McpServerStdioEntry): Record<string, string> {
  return Object.fromEntries(entry.env.map((e) => [e.name, e.value]));
}

async function client(entry: McpServerStdioEntry): Promise<{ mcp: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: envOf(entry), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const mcp = new Client({ name: 'stdio-test', version: '1.0.0' });
  open.push(mcp);
  await mcp.connect(transport);
  return { mcp, transport, stderr: () => stderr };
}

describe('stdio bridge', () => {
  test('the declaration: the editor’s Node runs the bridge; URL and token in env; Electron told to be Node', async () => {
    const { server, entry } = await started();
    assert.equal(entry.name, 'tandem');
    assert.equal(entry.command, process.execPath);
    assert.deepEqual(entry.args, [bridge]);
    const env = envOf(entry);
    assert.equal(env.ELECTRON_RUN_AS_NODE, '1');
    assert.equal(env[TANDEM_MCP_URL_ENV], server.url);
    const header = server.declaration().headers[0].value;
    assert.equal(`Bearer ${env[TANDEM_MCP_TOKEN_ENV]}`, header);
    assert.ok(env[TANDEM_MCP_TOKEN_ENV].length >= 32);
  });

  test('initialize, tools/list and tools/call through the bridge reach the session’s loopback server', async () => {
    const { rig, entry } = await started();
    const { mcp } = await client(entry);
    assert.equal(mcp.getServerVersion()?.name, 'tandem');
    assert.equal(mcp.getServerVersion()?.version, '9.9.9');
    const tools = (await mcp.listTools()).tools.map((t) => t.name);
    assert.equal(tools.length, 13);
    assert.ok(tools.includes('diagnostics') && tools.includes('write_file'));

    const problems = JSON.parse(toolText(await mcp.callTool({ name: 'diagnostics', arguments: { path: BROKEN_FILE } }))) as {
      problems: Array<{ message: string }>;
    };
    assert.equal(problems.problems[0].message, BROKEN_MESSAGE);
    assert.ok(toolText(await mcp.callTool({ name: 'read_file', arguments: { path: BROKEN_FILE } })).includes(BROKEN_TEXT.trim()));

    // Several calls at once: each answer reaches its own request.
    const many = await Promise.all([1, 2, 3].map(() => mcp.callTool({ name: 'read_file', arguments: { path: BROKEN_FILE, startLine: 1, endLine: 1 } })));
    for (const r of many) assert.ok(toolText(r).includes('const x'));

    // An unknown tool is the server's protocol error, relayed with the request's id.
    await assert.rejects(mcp.callTool({ name: 'no_such_tool', arguments: {} }), /no_such_tool/);
    assert.deepEqual(rig.events.slice(0, 3), ['listed', 'started:diagnostics', 'ended:diagnostics']);
  });

  test('a wrong token is refused by the server; the client hears an error, not silence', async () => {
    const { entry } = await started();
    const forged: McpServerStdioEntry = { ...entry, env: entry.env.map((e) => (e.name === TANDEM_MCP_TOKEN_ENV ? { ...e, value: 'not-the-token' } : e)) };
    await assert.rejects(client(forged), /token|401|Unauthorized/i);
  });

  test('once the session’s server is gone, calls fail with a message and the bridge keeps serving', async () => {
    const { server, entry } = await started();
    const { mcp } = await client(entry);
    server.dispose();
    await server.closed;
    await assert.rejects(mcp.callTool({ name: 'selection', arguments: {} }), /cannot be reached|fetch failed|ECONNREFUSED/i);
    await assert.rejects(mcp.listTools(), /cannot be reached|fetch failed|ECONNREFUSED/i);
  });

  test('the bridge exits when stdin ends, after answering what it was sent', async () => {
    const { entry } = await started();
    const child = spawn(entry.command, entry.args, { env: { ...process.env, ...envOf(entry) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }) +
        '\n' +
        'not json\n',
    );
    assert.equal(await exited, 0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; result?: { serverInfo: { name: string } }; error?: { code: number } });
    const init = lines.find((l) => l.id === 7);
    assert.equal(init?.result?.serverInfo.name, 'tandem');
    assert.equal(lines.find((l) => l.id === null)?.error?.code, -32700);
  });

  test('without the URL and token it refuses to start (exit 2), saying why on stderr', async () => {
    const child = spawn(process.execPath, [bridge], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    assert.equal(code, 2);
    assert.match(err, new RegExp(TANDEM_MCP_URL_ENV));
  });
});
