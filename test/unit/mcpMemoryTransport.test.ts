/**
 * MemoryServerTransport, the wire-less MCP SDK transport under MCP over ACP: answers reach their
 * request, cancelling reaches the server's handler, closing fails what is still pending, and a
 * request the server makes of the client is refused instead of hanging.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, CallToolRequestSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionClosedError, MemoryServerTransport } from '../../src/mcp/memoryTransport';

interface Rig {
  transport: MemoryServerTransport;
  server: Server;
  aborted: Promise<void>;
  release: () => void;
}

async function rig(): Promise<Rig> {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  let markAborted!: () => void;
  const aborted = new Promise<void>((resolve) => (markAborted = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'ask') {
      // The server asks the client something: over MCP over ACP here, nobody answers that.
      const answer = await extra
        .sendRequest({ method: 'elicitation/create', params: { message: 'q', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema)
        .then(
          () => 'answered',
          (err: Error) => `refused: ${err.message}`,
        );
      return { content: [{ type: 'text', text: answer }] };
    }
    extra.signal.addEventListener('abort', () => markAborted(), { once: true });
    await released;
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  const transport = new MemoryServerTransport();
  await server.connect(transport);
  return { transport, server, aborted, release };
}

describe('MemoryServerTransport', () => {
  test('each answer reaches its own request, whatever the order', async () => {
    const { transport, release } = await rig();
    const slow = transport.request('tools/call', { name: 'slow', arguments: {} });
    const fast = await transport.request('tools/list', {});
    assert.deepEqual(fast, { result: { tools: [] } });
    release();
    assert.deepEqual(await slow, { result: { content: [{ type: 'text', text: 'slow done' }] } });
  });

  test('an inner error is an answer, not a rejection', async () => {
    const { transport } = await rig();
    const answer = await transport.request('resources/list', {});
    assert.ok('error' in answer && answer.error.code === -32601, JSON.stringify(answer));
  });

  test('aborting the signal cancels the call in the server and rejects the request', async () => {
    const { transport, aborted } = await rig();
    const controller = new AbortController();
    const call = transport.request('tools/call', { name: 'slow', arguments: {} }, controller.signal);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('stop'));
    await assert.rejects(call, /stop/);
    await aborted;
  });

  test('closing fails the pending requests and refuses new ones', async () => {
    const { transport } = await rig();
    const call = transport.request('tools/call', { name: 'slow', arguments: {} });
    await transport.close();
    await assert.rejects(call, McpConnectionClosedError);
    await assert.rejects(transport.request('tools/list', {}), McpConnectionClosedError);
    assert.equal(transport.isClosed, true);
  });

  test('a request from the server to the client is answered "method not found" at once', async () => {
    const { transport } = await rig();
    const answer = await transport.request('tools/call', { name: 'ask', arguments: {} });
    assert.ok('result' in answer);
    assert.match(JSON.stringify(answer.result), /refused: .*does not answer elicitation\/create/);
  });
});
