/**
 * The `tandem` MCP server over MCP over ACP, end to end through a real agent process: the scripted
 * agent (test/fixtures/scriptedAgent/mcpSteps.ts) advertises `mcpCapabilities.acp`, finds the
 * `{type: "acp"}` entry in its session's mcpServers and sends the MCP messages on the ACP stdio
 * connection; ProcessAgentConnection hands them to the AcpMcpRouter (ClientHandlers.mcpOverAcp),
 * whose session transport answers them with the MCP SDK server over the registry.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { ProcessAgentConnection } from '../../src/acp/agentConnection';
import type { ClientHandlers } from '../../src/acp/agentPort';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import { AcpMcpRouter, MCP_ACP_ERROR } from '../../src/mcp/acpMcpRouter';
import { tandemTransportFor } from '../../src/mcp/mcpServerEntry';
import type { AgentScript } from '../fixtures/scriptedAgent';
import { cleanup, ensureScriptedAgentBuilt, prepareScripted, startTracked, trackUnhandledRejections } from '../support/scriptedAgentHarness';
import { BROKEN_FILE, BROKEN_MESSAGE, BROKEN_TEXT, mcpRig, type McpRig } from '../support/mcpTransportRig';

const unhandled = trackUnhandledRejections();
before(async () => {
  await ensureScriptedAgentBuilt();
});
after(async () => {
  await cleanup();
  assert.deepEqual(unhandled.list, [], 'no unhandled rejections');
});

const rigs: McpRig[] = [];
afterEach(() => {
  for (const rig of rigs.splice(0)) rig.dispose();
});

const INITIALIZE = {
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'scripted-agent-mcp', version: '1.0.0' } },
};
const INITIALIZED = { method: 'notifications/initialized', notify: true };
const ACP_CAPS = { mcpCapabilities: { acp: true } } as unknown as NonNullable<AgentScript['initialize']>['agentCapabilities'];

interface Run {
  texts: string[];
  rig: McpRig;
  log: MemoryProtocolLog;
}

/** Starts the agent with the router (or none), opens one session with the tandem entry, runs `prompts` turns. */
async function run(turns: NonNullable<AgentScript['turns']>, opts: { router?: boolean; disposeAfterTurn?: number } = {}): Promise<Run> {
  const rig = mcpRig();
  rigs.push(rig);
  const scripted = prepareScripted({ initialize: { agentCapabilities: ACP_CAPS }, turns });
  const log = new MemoryProtocolLog();
  const router = new AcpMcpRouter((line) => log.warn(line));
  const handlers: ClientHandlers = {
    requestPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }),
    ...(opts.router === false ? {} : { mcpOverAcp: router }),
  };
  const texts: string[] = [];
  const conn = await ProcessAgentConnection.open(startTracked(scripted.cfg, log), handlers, {
    log,
    onUpdate: (_sessionId, update) => {
      if (update.sessionUpdate === 'agent_message_chunk') texts.push((update.content as { text: string }).text);
    },
    clientInfo: { name: 'tandem-test', version: '0.0.1' },
  });
  const init = await conn.initialize();
  assert.equal(tandemTransportFor(init.agentCapabilities?.mcpCapabilities), 'acp');
  const server = router.open({ registry: rig.registry, version: '9.9.9' });
  const { sessionId } = await conn.newSession(rig.dir, [server.declaration() as unknown as acp.McpServer]);
  for (let i = 0; i < turns.length; i++) {
    await conn.prompt(sessionId, `turn ${i}`);
    if (opts.disposeAfterTurn === i) server.dispose();
  }
  conn.dispose();
  await conn.kill();
  return { texts, rig, log };
}

/** The JSON after `MCP_ACP: <method> ` of the n-th answer to `method`. */
function answer(texts: string[], method: string, nth = 0): Record<string, unknown> {
  const lines = texts.filter((t) => t.startsWith(`MCP_ACP: ${method} `));
  assert.ok(lines[nth], `an answer to ${method} (#${nth}) in ${JSON.stringify(texts)}`);
  return JSON.parse(lines[nth].slice(`MCP_ACP: ${method} `.length)) as Record<string, unknown>;
}

function firstText(result: Record<string, unknown>): string {
  return (result.content as Array<{ text: string }>)[0].text;
}

describe('MCP over ACP: the ACP draft envelope (mcp/connect, mcp/message, mcp/disconnect)', () => {
  test('the agent connects, initializes, lists the tools and calls them; the answers are the server’s', async () => {
    const outside = path.join(path.parse(process.cwd()).root, 'etc', 'hostname');
    const { texts, rig } = await run([
      {
        steps: [
          {
            mcpOverAcp: {
              messages: [
                INITIALIZE,
                INITIALIZED,
                { method: 'tools/list', params: {} },
                { method: 'tools/call', params: { name: 'diagnostics', arguments: { path: BROKEN_FILE } } },
                { method: 'tools/call', params: { name: 'read_file', arguments: { path: BROKEN_FILE } } },
                { method: 'tools/call', params: { name: 'read_file', arguments: { path: outside } } },
                { method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
              ],
            },
          },
        ],
      },
    ]);
    assert.equal(texts[0], 'MCP_ACP_CONNECTED: true');
    const init = answer(texts, 'initialize');
    assert.equal((init.serverInfo as { name: string; version: string }).name, 'tandem');
    assert.equal((init.serverInfo as { version: string }).version, '9.9.9');
    assert.deepEqual(Object.keys(init.capabilities as object), ['tools']);

    const tools = (answer(texts, 'tools/list').tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(tools.includes('diagnostics') && tools.includes('edit_file') && tools.includes('run_in_terminal'), tools.join(','));

    const problems = JSON.parse(firstText(answer(texts, 'tools/call', 0))) as { problems: Array<{ message: string; path: string }> };
    assert.equal(problems.problems[0].message, BROKEN_MESSAGE);
    assert.equal(problems.problems[0].path, BROKEN_FILE);
    assert.ok(firstText(answer(texts, 'tools/call', 1)).includes(BROKEN_TEXT.trim()));
    // Outside the workspace the session's own PathPolicy refuses; the model reads why, the turn goes on.
    const refused = answer(texts, 'tools/call', 2);
    assert.equal(refused.isError, true);
    assert.match(firstText(refused), /outside/i);
    // An unknown tool is a protocol error: the inner MCP error is the mcp/message answer's error.
    assert.ok(
      texts.some((t) => t.startsWith('MCP_ACP_ERROR: tools/call -32602') && t.includes('no_such_tool')),
      JSON.stringify(texts),
    );
    assert.equal(texts.at(-1), 'MCP_ACP_DISCONNECTED');
    assert.deepEqual(rig.events, [
      'listed',
      'started:diagnostics',
      'ended:diagnostics',
      'started:read_file',
      'ended:read_file',
      'started:read_file',
      'ended:read_file',
    ]);
  });

  test('edit_file goes through the port (the session’s write path) and lands on disk', async () => {
    const { texts, rig } = await run([
      {
        steps: [
          {
            mcpOverAcp: {
              messages: [
                INITIALIZE,
                INITIALIZED,
                { method: 'tools/call', params: { name: 'edit_file', arguments: { path: BROKEN_FILE, edits: [{ oldText: '"one"', newText: '1' }] } } },
              ],
            },
          },
        ],
      },
    ]);
    const edited = answer(texts, 'tools/call');
    assert.notEqual(edited.isError, true, firstText(edited));
    assert.deepEqual(rig.writes, [{ path: path.join(rig.dir, BROKEN_FILE), text: 'const x: number = 1;\n' }]);
  });

  test('a connection is closed by mcp/disconnect; using it afterwards fails with serverUnavailable', async () => {
    const { texts } = await run([{ steps: [{ mcpOverAcp: { messages: [INITIALIZE], reuseAfterDisconnect: true } }] }]);
    assert.equal(answer(texts, 'initialize').protocolVersion, '2025-06-18');
    assert.equal(texts.at(-2), 'MCP_ACP_DISCONNECTED');
    assert.ok(texts.at(-1)?.startsWith(`MCP_ACP_ERROR: initialize ${MCP_ACP_ERROR.serverUnavailable}`), JSON.stringify(texts));
  });

  test('once the session disposes its server, the agent can no longer connect to it', async () => {
    const { texts } = await run(
      [{ steps: [{ mcpOverAcp: { messages: [INITIALIZE], keepOpen: true } }] }, { steps: [{ mcpOverAcp: { messages: [INITIALIZE] } }] }],
      {
        disposeAfterTurn: 0,
      },
    );
    assert.equal(texts[0], 'MCP_ACP_CONNECTED: true');
    assert.ok(texts.at(-1)?.startsWith(`MCP_ACP_CONNECT_ERROR: ${MCP_ACP_ERROR.serverUnavailable}`), JSON.stringify(texts));
  });

  test('a serverId that was never declared is refused, not crashed on', async () => {
    const { texts } = await run([{ steps: [{ mcpOverAcp: { serverId: 'someone-else', messages: [INITIALIZE] } }] }]);
    assert.ok(texts[0].startsWith(`MCP_ACP_CONNECT_ERROR: ${MCP_ACP_ERROR.serverUnavailable}`), texts[0]);
  });

  test('without the hook (no mcpOverAcp handler) mcp/connect is "method not found"', async () => {
    const { texts } = await run([{ steps: [{ mcpOverAcp: { messages: [INITIALIZE] } }] }], { router: false });
    assert.ok(texts[0].startsWith('MCP_ACP_CONNECT_ERROR: -32601'), texts[0]);
  });
});

describe('MCP over ACP: the TypeScript SDK 2.4 envelope (mcp/message {serverId, requestId})', () => {
  test('the SDK’s own McpOverAcpCaller lists and calls the tools; inner errors come back in the carrier', async () => {
    const { texts } = await run([
      {
        steps: [
          {
            mcpOverAcp: {
              envelope: 'request',
              messages: [
                { method: 'tools/list', params: {} },
                { method: 'tools/call', params: { name: 'diagnostics', arguments: {} } },
                { method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
              ],
            },
          },
        ],
      },
    ]);
    const listed = answer(texts, 'tools/list') as { result: { tools: Array<{ name: string }> } };
    assert.equal(listed.result.tools.length, 13);
    const called = answer(texts, 'tools/call', 0) as { result: Record<string, unknown> };
    assert.ok(firstText(called.result).includes(BROKEN_MESSAGE));
    const failed = answer(texts, 'tools/call', 1) as { error: { code: number; message: string } };
    assert.equal(failed.error.code, -32602);
    assert.match(failed.error.message, /no_such_tool/);
  });
});
