// The `tandem` MCP server in a conversation (issue 32): offered in session/new to an agent that
// takes HTTP servers, called by a real MCP client the way an agent's would, every call a tool card,
// edits and commands through the permission prompt, gone with the session. The stub agent stands
// for the agent's ACP side; the MCP client, the HTTP server, the files and the terminal are real.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { EditorPorts } from '../../src/conversation/ports';
import { SILENT_EDITOR } from '../../src/mcp/checkToolsPort';
import type { EditorQueries } from '../../src/mcp/editorToolsPort';
import { MaskedLog } from '../../src/vscode/core/maskedLog';
import type { ToolCallEntry } from '../../src/protocol/messages';
import { flush, stubSession, type StubRig } from '../support/stubSession';

const HTTP_INIT: acp.InitializeResponse = {
  protocolVersion: acp.PROTOCOL_VERSION,
  agentCapabilities: { loadSession: true, mcpCapabilities: { http: true } },
  authMethods: [],
};

/** The editor's answers: one known Problem, the disk for text. */
function queries(dir: string): EditorQueries {
  const at = { start: { line: 2, character: 6 }, end: { line: 2, character: 9 } };
  return {
    diagnostics: async () => [
      { path: join(dir, 'app.ts'), severity: 'error', range: at, message: "Type 'string' is not assignable to type 'number'.", source: 'ts' },
    ],
    ...SILENT_EDITOR,
    readText: async (path) => readFileSync(path, 'utf8'),
  };
}

const rigs: StubRig[] = [];
after(() => rigs.forEach((rig) => rig.manager.dispose()));

type HttpEntry = { type: 'http'; name: string; url: string; headers: Array<{ name: string; value: string }> };

async function offered(
  opts: { enabled?: () => boolean; init?: acp.InitializeResponse; mcpServers?: EditorPorts['mcpServers'] } = {},
): Promise<{ rig: StubRig; entry: HttpEntry | undefined; servers: HttpEntry[] }> {
  const rig = stubSession({
    editor: { editorTools: { queries: queries(''), enabled: opts.enabled ?? (() => true) }, ...(opts.mcpServers ? { mcpServers: opts.mcpServers } : {}) },
  });
  rigs.push(rig);
  rig.agent.behaviour.initialize = opts.init ?? HTTP_INIT;
  await rig.manager.init();
  await rig.conversation.connect();
  const created = rig.agent.received.find((r) => r.method === 'session/new');
  const servers = ((created?.params as { mcpServers?: HttpEntry[] }).mcpServers ?? []) as HttpEntry[];
  return { rig, entry: servers.find((s) => s.name === 'tandem' && s.type === 'http'), servers };
}

async function mcpClient(entry: HttpEntry): Promise<Client> {
  const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
  const client = new Client({ name: 'agent-side', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  return client;
}

const cards = (rig: StubRig) => rig.conversation.snapshot().entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '') as string;

/** Answers the next permission prompt with `optionId` once it shows. */
async function answer(rig: StubRig, optionId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const pending = cards(rig).find((c) => c.permission?.state.kind === 'pending');
    if (pending) {
      assert.ok(rig.conversation.respondPermission(pending.permission!.requestId, optionId));
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail('no permission prompt appeared');
}

test('offered over loopback HTTP with a bearer token; the token is in no log line; 13 tools listed', async () => {
  const { rig, entry } = await offered();
  assert.ok(entry, 'session/new carries the tandem server');
  assert.equal(entry.type, 'http');
  assert.match(entry.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const auth = entry.headers.find((h) => h.name === 'Authorization')?.value ?? '';
  assert.match(auth, /^Bearer tandem_mcp_/);
  const client = await mcpClient(entry);
  const { tools } = await client.listTools();
  assert.equal(tools.length, 13);
  // The editor's log (what the output channel and the inspector get) masks it in the session/new line.
  const token = auth.slice('Bearer '.length);
  const written: string[] = [];
  const channel = { info: (t: string) => void written.push(t), warn: (t: string) => void written.push(t), error: (t: string) => void written.push(t) };
  const log = new MaskedLog(channel, channel);
  log.tee({ message: (_d, raw) => void written.push(raw), stderr: () => undefined });
  log.message('out', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: rig.dir, mcpServers: [entry] } }));
  assert.ok(written.length > 0 && written.every((l) => !l.includes(token)), 'the token is never logged');
  await client.close();
});

test('a read call is a tool card of its own with the kind of the tool, finished with its result', async () => {
  const { rig, entry } = await offered();
  const client = await mcpClient(entry!);
  const result = await client.callTool({ name: 'diagnostics', arguments: {} });
  assert.match(text(result), /not assignable to type 'number'/);
  await flush();
  const card = cards(rig).find((c) => c.toolCallId.startsWith('tandem-mcp-'));
  assert.ok(card, 'the call shows as a card');
  assert.equal(card.status, 'completed');
  assert.equal(card.toolKind, 'read');
  assert.equal(card.title, 'Problems in the workspace', 'the card says what the call did');
  await client.close();
});

test("the agent's own card for the call takes the tool's kind; no second card", async () => {
  const { rig, entry } = await offered();
  const sessionId = rig.conversation.meta.sessionId!;
  writeFileSync(join(rig.dir, 'notes.md'), 'hello\n');
  rig.conversation.prompt('look');
  await flush();
  rig.agent.sendUpdate(sessionId, { sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'mcp__tandem__read_file', kind: 'other', status: 'pending' });
  await flush();
  const client = await mcpClient(entry!);
  const result = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
  assert.match(text(result), /hello/);
  await flush();
  const all = cards(rig);
  assert.equal(all.length, 1, 'one card for the one call');
  assert.equal(all[0].toolCallId, 'toolu_1');
  assert.equal(all[0].toolKind, 'read');
  await client.close();
});

test('edit_file asks on its card; allowed, the file changes; rejected, it does not and the model is told', async () => {
  const { rig, entry } = await offered();
  const file = join(rig.dir, 'app.ts');
  writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
  const client = await mcpClient(entry!);
  const allowed = client.callTool({ name: 'edit_file', arguments: { path: 'app.ts', edits: [{ oldText: 'const b = 2;', newText: 'const b = 3;' }] } });
  await answer(rig, 'allow');
  const done = await allowed;
  assert.ok(!(done as { isError?: boolean }).isError, text(done));
  assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 3;\n');
  const card = cards(rig).find((c) => c.toolCallId.startsWith('tandem-mcp-'))!;
  assert.equal(card.toolKind, 'edit');
  assert.ok(
    card.content.some((x) => x.type === 'diff'),
    'the card shows the diff',
  );

  const refused = client.callTool({ name: 'edit_file', arguments: { path: 'app.ts', edits: [{ oldText: 'const a = 1;', newText: 'const a = 9;' }] } });
  await answer(rig, 'reject');
  const no = await refused;
  assert.equal((no as { isError?: boolean }).isError, true);
  assert.match(text(no), /did not allow/);
  assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 3;\n', 'nothing written');
  await client.close();
});

test('run_in_terminal runs only once allowed, in a real terminal shown on the card', async () => {
  const { rig, entry } = await offered();
  const client = await mcpClient(entry!);
  const run = client.callTool({ name: 'run_in_terminal', arguments: { command: 'echo from-the-editor' } });
  await answer(rig, 'allow');
  const result = await run;
  assert.match(text(result), /from-the-editor/);
  assert.match(text(result), /exit code 0|exited with 0|Exit code: 0/i);
  const card = cards(rig).find((c) => c.toolCallId.startsWith('tandem-mcp-'))!;
  assert.equal(card.toolKind, 'execute');
  assert.ok(
    card.content.some((x) => x.type === 'terminal'),
    'the card embeds the terminal',
  );
  await client.close();
});

test('not offered when the setting is off, to an agent without a transport for it, or beside a user server named tandem', async () => {
  assert.equal((await offered({ enabled: () => false })).entry, undefined);
  assert.equal((await offered({ init: { ...HTTP_INIT, agentCapabilities: { loadSession: true } } })).entry, undefined);
  const theirs = await offered({
    mcpServers: () => [{ name: 'tandem', source: 'tandem.mcpServers', server: { name: 'tandem', command: 'node', args: [], env: [] } }],
  });
  assert.deepEqual(
    theirs.servers.map((s) => [s.name, 'command' in s]),
    [['tandem', true]],
    "the user's own server named tandem is kept, and ours not added",
  );
});

test('the server goes with its session: after a restart the old address refuses', async () => {
  const { rig, entry } = await offered();
  await rig.conversation.restart();
  await flush(50);
  const headers = Object.fromEntries(entry!.headers.map((h) => [h.name, h.value]));
  await assert.rejects(fetch(entry!.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }));
});

test('MCP over ACP: an agent that takes acp servers gets {type: "acp"} and calls the tools on its own connection', async () => {
  const init = { ...HTTP_INIT, agentCapabilities: { loadSession: true, mcpCapabilities: { acp: true, http: true } } } as acp.InitializeResponse;
  const rig = stubSession({ editor: { editorTools: { queries: queries(''), enabled: () => true } } });
  rigs.push(rig);
  rig.agent.behaviour.initialize = init;
  await rig.manager.init();
  await rig.conversation.connect();
  const created = rig.agent.received.find((r) => r.method === 'session/new');
  const entry = ((created?.params as { mcpServers?: Array<Record<string, unknown>> }).mcpServers ?? []).find((s) => s.name === 'tandem');
  assert.equal(entry?.type, 'acp', 'no port and no token when the agent takes MCP over ACP');
  const mcp = rig.agent.client.mcpOverAcp!;
  const signal = new AbortController().signal;
  const { connectionId } = (await mcp.request('mcp/connect', { serverId: entry!.serverId }, signal)) as { connectionId: string };
  await mcp.request(
    'mcp/message',
    { connectionId, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stub', version: '1' } } },
    signal,
  );
  mcp.notification('mcp/message', { connectionId, method: 'notifications/initialized' });
  const answer = (await mcp.request('mcp/message', { connectionId, method: 'tools/call', params: { name: 'diagnostics', arguments: {} } }, signal)) as {
    content: Array<{ text: string }>;
  };
  assert.match(answer.content[0].text, /not assignable to type 'number'/);
  await flush();
  assert.ok(
    cards(rig).some((c) => c.toolCallId.startsWith('tandem-mcp-')),
    'the call is a card here too',
  );
});

test('stdio: an agent that takes neither acp nor http gets the bundled bridge, its token only in the env', async () => {
  const rig = stubSession({ editor: { editorTools: { queries: queries(''), enabled: () => true, stdioBridge: '/ext/dist/mcpStdioBridge.js' } } });
  rigs.push(rig);
  rig.agent.behaviour.initialize = { ...HTTP_INIT, agentCapabilities: { loadSession: true } };
  await rig.manager.init();
  await rig.conversation.connect();
  const created = rig.agent.received.find((r) => r.method === 'session/new');
  const entry = ((created?.params as { mcpServers?: acp.McpServerStdio[] }).mcpServers ?? []).find((s) => s.name === 'tandem');
  assert.ok(entry, 'offered over stdio');
  assert.deepEqual(entry.args, ['/ext/dist/mcpStdioBridge.js']);
  assert.ok(entry.env.some((e) => e.name === 'TANDEM_MCP_TOKEN' && e.value.startsWith('tandem_mcp_')));
});
