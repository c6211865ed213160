/**
 * Today's real agents use Tandem's `tandem` MCP server over the loopback HTTP transport (both
 * advertise `mcpCapabilities.http`): a real `LoopbackMcpServer` over the real `EditorToolRegistry`,
 * a small fake editor behind it (test/support/fakeEditorTools.ts: one known Problem, the real disk),
 * its `declaration()` in session/new's `mcpServers` through Tandem's real core, and the real
 * adapters from `.e2e/adapters` against the fake model servers, scripted (test/fixtures/tandemMcp)
 * to load the tools, ask the Problems of `src/app.ts` and fix it with edit_file. The assertions pin
 * what H32WIRE.md reports: the model-side tool names, that the diagnostic reached the model, the
 * agents' ACP tool calls and permission requests for MCP tools, and the key that ties an MCP
 * `tools/call` to the agent's tool call. Where the recording proxy (mcpWireTap) sits in between it
 * forwards the bearer token and changes only the Host header; one run per agent family hands the
 * server's own declaration over unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, startFakeAnthropic, type MessagesBody, type RecordedRequest } from '../fixtures/fakeAnthropic/index';
import { codexAgentEnv, startFakeResponses, type ResponsesBody } from '../fixtures/fakeOpenAi/responses';
import type { ChatRequest } from '../fixtures/fakeOpenAi/index';
import {
  brokenFile,
  BROKEN_MESSAGE,
  BROKEN_RELATIVE,
  CLAUDE_DIAGNOSTICS,
  CLAUDE_EDIT_FILE,
  CODEX_TANDEM_NAMESPACE,
  seedBrokenFile,
  tandemMcpCodexSteps,
  tandemMcpScenario,
  TANDEM_MCP_DONE,
  TANDEM_MCP_PROMPT,
  type BrokenFile,
} from '../fixtures/tandemMcp/index';
import { MemoryProtocolLog } from '../../src/acp/protocolLog';
import type { Entry } from '../../src/protocol/messages';
import { adapterSession, endAdapterSession, inScratch, promptAllowing } from '../support/realAgentRuns';
import { CLAUDE_AGENT_ACP_0101, writeDefaultMode } from '../fixtures/agentPayloads/recordSubagents';
import { repoRoot } from '../support/scriptedSession';
import { fakeEditorTools, startTandemServer, type FakeEditorTools } from '../support/fakeEditorTools';
import { startMcpWireTap, type McpWireTap } from '../support/mcpWireTap';

const CODEX_ACP_26 = join(repoRoot, '.e2e', 'adapters', 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');

type Json = Record<string, unknown>;

/** What one real agent's turn left: the ACP traffic from the agent, the MCP traffic, the disk. */
interface TandemRun {
  /** `session/update` params' `update`, in arrival order. */
  updates: Json[];
  /** `session/request_permission` params, in arrival order. */
  permissions: Json[];
  editor: FakeEditorTools;
  file: BrokenFile;
  /** The file's real path (the scratch folder is gone when the assertions run). */
  realPath: string;
  tap: McpWireTap | undefined;
  /** How often the agent's MCP client asked tools/list, and when it first did (epoch ms; 0: never). */
  listed: number;
  firstListedAt: number;
  /** When session/new was answered and session/prompt sent (epoch ms), to place the MCP traffic. */
  sessionReadyAt: number;
  promptAt: number;
  textOnDisk: string;
  entries: Entry[];
  /** The log lines that hold the bearer token, as `<level> <method>`. */
  tokenLines: string[];
}

interface AgentSetup {
  name: string;
  entry: string;
  env: Record<string, string>;
  fake: { close(): Promise<void> };
}

/**
 * One turn of a real agent in Tandem's core with the tandem server in its session/new; permission
 * prompts are answered allow-once. `tapped`: the agent talks to the server through the recording proxy.
 */
async function runWithTandem(
  prefix: string,
  tapped: boolean,
  setup: (workspace: string, scratch: string) => Promise<AgentSetup>,
  prompt = true,
): Promise<TandemRun> {
  return inScratch(prefix, async (workspace, scratch) => {
    const file = brokenFile(workspace);
    seedBrokenFile(file);
    const editor = fakeEditorTools(workspace, file);
    let firstListedAt = 0;
    const { server, listed } = await startTandemServer(editor.port, { listed: () => void (firstListedAt ||= Date.now()) });
    const tap = tapped ? await startMcpWireTap(server.url) : undefined;
    const declared = server.declaration();
    const token = declared.headers[0].value.replace(/^Bearer /, '');
    const mcp = tap ? { ...declared, url: tap.url } : declared;
    const agent = await setup(workspace, scratch);
    const log = new MemoryProtocolLog();
    const s = adapterSession(workspace, agent.name, agent.entry, agent.env, log, {
      mcpServers: () => [{ name: 'tandem', source: 'test', server: mcp }],
    });
    try {
      await s.session.start();
      if (prompt) await promptAllowing(s, TANDEM_MCP_PROMPT, 90_000);
      else for (let waited = 0; waited < 15_000 && listed() === 0; waited += 50) await new Promise((r) => setTimeout(r, 50));
      const lines = log.lines.flatMap((l) => {
        if (l.level !== 'in' && l.level !== 'out') return [];
        try {
          return [{ level: l.level, time: Date.parse(l.time), msg: JSON.parse(l.text) as Json }];
        } catch {
          return [];
        }
      });
      const fromAgent = lines.filter((l) => l.level === 'in').map((l) => l.msg);
      const newId = lines.find((l) => l.level === 'out' && l.msg.method === 'session/new')?.msg.id;
      return {
        updates: fromAgent.filter((m) => m.method === 'session/update').map((m) => (m.params as Json).update as Json),
        permissions: fromAgent.filter((m) => m.method === 'session/request_permission').map((m) => m.params as Json),
        editor,
        file,
        realPath: realpathSync(file.path),
        tap,
        listed: listed(),
        firstListedAt,
        sessionReadyAt: lines.find((l) => l.level === 'in' && l.msg.id === newId && 'result' in l.msg)?.time ?? 0,
        promptAt: lines.find((l) => l.level === 'out' && l.msg.method === 'session/prompt')?.time ?? 0,
        textOnDisk: readFileSync(file.path, 'utf8'),
        entries: s.session.conversation.snapshot().entries as Entry[],
        tokenLines: log.lines.filter((l) => l.text.includes(token)).map((l) => `${l.level} ${/"method":"([^"]+)"/.exec(l.text)?.[1] ?? '?'}`),
      };
    } finally {
      await endAdapterSession(s, agent.fake);
      await tap?.close();
      server.dispose();
    }
  });
}

/** The `tool_call` updates (first announcements) of the tool calls named `name` (Claude: top-level `name`; codex: the title). */
const toolCallsOf = (run: TandemRun, match: (u: Json) => boolean): Json[] => run.updates.filter((u) => u.sessionUpdate === 'tool_call' && match(u));

/** Everything said about one tool call id, in order. */
const historyOf = (run: TandemRun, id: unknown): Json[] => run.updates.filter((u) => u.toolCallId === id);

/** The shared end state: the edit reached the disk through the editor port, the turn ended, the cards settled. */
function assertFixed(run: TandemRun): void {
  assert.equal(run.textOnDisk, run.file.fixedText, 'edit_file changed the file on disk (through the port)');
  const real = run.realPath;
  assert.deepEqual(run.editor.calls, [`diagnostics ${real}`, `readText ${real}`, `writeText ${real}`], 'the tools called the editor port in order');
  assert.ok(run.listed >= 1, 'the agent listed the tools');
  const said = run.entries.flatMap((e) => (e.kind === 'agent' ? [e.text] : [])).join('\n');
  assert.ok(said.includes(TANDEM_MCP_DONE), `the final text arrived:\n${said}`);
  assert.deepEqual(
    run.entries.flatMap((e) => (e.kind === 'turn_end' ? [e.stopReason] : [])),
    ['end_turn'],
  );
  // The core's log is unmasked (the extension's MaskedLog masks what it is told): the token is in
  // session/new only — no agent echoes it back in an update, a request or on stderr.
  assert.deepEqual(run.tokenLines, ['out session/new'], 'the bearer token travels in session/new only');
}

/** The MCP traffic facts both agents share: initialise, list, then the calls carry the agent's tool call id. */
function assertMcpWire(tap: McpWireTap, idKey: string, expected: Array<{ name: string; toolCallId: unknown }>): void {
  const rpc = tap.exchanges.flatMap((e) => e.rpcMethods);
  const list = rpc.indexOf('tools/list');
  assert.ok(rpc.indexOf('initialize') >= 0 && rpc.indexOf('initialize') < list, `initialize, then tools/list: ${rpc.join(', ')}`);
  assert.ok(list < rpc.indexOf('tools/call'), 'the tools were listed before the first call');
  assert.ok(
    tap.exchanges.every((e) => e.bearer),
    'every request carried the bearer token',
  );
  assert.deepEqual(
    tap.toolCalls().map((c) => ({ name: c.name, toolCallId: (c._meta as Json | undefined)?.[idKey] })),
    expected,
    `tools/call names the bare tool and carries the agent's tool call id in _meta["${idKey}"]`,
  );
}

function report(t: { diagnostic(message: string): void }, run: TandemRun): void {
  const tap = run.tap;
  if (!tap) return;
  for (const e of tap.exchanges) {
    const when = e.at < run.sessionReadyAt ? 'before session/new answered' : e.at < run.promptAt ? 'before session/prompt' : 'after session/prompt';
    t.diagnostic(`MCP ${e.httpMethod} ${e.rpcMethods.join(',') || '-'} → ${e.status} (${when})`);
  }
}

// ── claude-agent-acp 0.101 (Claude Code 2.1.318) ────────────────────────────────────────────────

/** Claude's messages: the id of the tool_use named `name`, and the tool_result for it, from any later request. */
function claudeToolResult(requests: RecordedRequest[], name: string): { id: string; result: unknown } {
  for (const r of requests) {
    const messages = (r.body as MessagesBody).messages ?? [];
    const use = messages
      .flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? (m.content as Json[]) : []))
      .find((b) => b.type === 'tool_use' && b.name === name);
    if (!use) continue;
    const result = messages
      .flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? (m.content as Json[]) : []))
      .find((b) => b.type === 'tool_result' && b.tool_use_id === use.id);
    if (result) return { id: String(use.id), result };
  }
  assert.fail(`no tool_result for ${name} reached the model`);
}

const toolNames = (body: unknown): string[] => ((body as MessagesBody).tools ?? []).map((t) => String((t as Json).name));

function assertClaudeModelSide(requests: RecordedRequest[]): { diagnosticsId: string; editId: string } {
  const main = requests.filter((r) => r.mainLoop);
  // The first request lists no tandem tool: their names come only as deferred tools, in a system message.
  assert.ok(!toolNames(main[0].body).some((n) => n.startsWith('mcp__tandem__')), `first tools: ${toolNames(main[0].body).join(', ')}`);
  assert.ok(toolNames(main[0].body).includes('ToolSearch'));
  const system = JSON.stringify(((main[0].body as MessagesBody).messages ?? []).filter((m) => m.role === 'system'));
  assert.ok(system.includes('deferred tools') && system.includes(CLAUDE_DIAGNOSTICS) && system.includes(CLAUDE_EDIT_FILE), 'the deferred list names the tools');
  // After ToolSearch the tools are in the list, deferred, and the result holds tool_reference blocks.
  const loaded = main.find((r) => toolNames(r.body).includes(CLAUDE_DIAGNOSTICS));
  assert.ok(loaded, 'a later request carries the tandem tools');
  const diagTool = ((loaded.body as MessagesBody).tools ?? []).find((t) => (t as Json).name === CLAUDE_DIAGNOSTICS) as Json;
  assert.equal(diagTool.defer_loading, true);
  const search = claudeToolResult(requests, 'ToolSearch');
  assert.deepEqual((search.result as Json).content, [
    { type: 'tool_reference', tool_name: CLAUDE_DIAGNOSTICS },
    { type: 'tool_reference', tool_name: CLAUDE_EDIT_FILE },
  ]);
  // The diagnostic reached the model.
  const diagnostics = claudeToolResult(requests, CLAUDE_DIAGNOSTICS);
  assert.ok(JSON.stringify(diagnostics.result).includes(BROKEN_MESSAGE), 'the Problem reached the model');
  const shown = JSON.parse(((diagnostics.result as { content: Array<{ text: string }> }).content[0] ?? { text: '{}' }).text) as Json;
  assert.deepEqual(shown.problems, [
    { path: BROKEN_RELATIVE, severity: 'error', line: 3, character: 9, endLine: 3, endCharacter: 14, source: 'ts', code: '2322', message: BROKEN_MESSAGE },
  ]);
  const edit = claudeToolResult(requests, CLAUDE_EDIT_FILE);
  assert.match(JSON.stringify(edit.result), /Edited src\/app\.ts \(1 replacement\)/);
  return { diagnosticsId: diagnostics.id, editId: edit.id };
}

/** Claude's ACP tool call for an MCP tool: a bare card (title = the model-side name, kind other), filled by updates. */
function assertClaudeToolCall(run: TandemRun, name: string, id: string, input: Json): void {
  const announced = toolCallsOf(run, (u) => u.name === name);
  assert.equal(announced.length, 1, `one tool_call for ${name}`);
  assert.deepEqual(announced[0], {
    _meta: { claudeCode: { toolName: name } },
    toolCallId: id,
    sessionUpdate: 'tool_call',
    name,
    rawInput: {},
    status: 'pending',
    title: name,
    kind: 'other',
    content: [],
  });
  const history = historyOf(run, id);
  assert.ok(
    history.some((u) => JSON.stringify(u.rawInput) === JSON.stringify(input)),
    'a tool_call_update fills rawInput with the arguments',
  );
  const done = history.find((u) => u.status === 'completed');
  assert.ok(done, `${name} completed`);
  assert.equal(((done.content as Json[])[0] as { content: { type: string } }).content.type, 'text', 'the result comes back as text content');
  assert.ok(!history.some((u) => u.kind !== undefined && u.kind !== 'other'), 'the kind stays other');
}

test(
  'the real claude-agent-acp 0.101 loads the tandem tools through ToolSearch, gets the Problem, asks permission and edits over loopback HTTP',
  { timeout: 150_000 },
  async (t) => {
    assert.ok(existsSync(CLAUDE_AGENT_ACP_0101), 'claude-agent-acp 0.101 is installed in .e2e/adapters (scripts/setupE2e.sh)');
    let requests: RecordedRequest[] = [];
    const run = await runWithTandem('tandem-mcp-claude-', true, async (_workspace, scratch) => {
      const fake = await startFakeAnthropic(tandemMcpScenario());
      requests = fake.requests;
      const env = agentEnv(fake.url, scratch);
      // Mode `default` ("Manual"): Claude asks the client before each MCP call.
      writeDefaultMode(env);
      return { name: 'claude-agent-acp', entry: CLAUDE_AGENT_ACP_0101, env, fake };
    });
    report(t, run);
    assertFixed(run);
    const ids = assertClaudeModelSide(requests);
    const editInput = { path: BROKEN_RELATIVE, edits: [{ oldText: run.file.oldText, newText: run.file.newText }] };
    assertClaudeToolCall(run, CLAUDE_DIAGNOSTICS, ids.diagnosticsId, { path: BROKEN_RELATIVE });
    assertClaudeToolCall(run, CLAUDE_EDIT_FILE, ids.editId, editInput);
    // Claude asks for every MCP tool in this mode, the read-only one too; the request is complete.
    const asked = (name: string, id: string, input: Json, label: string): Json => ({
      toolCall: {
        toolCallId: id,
        name,
        status: 'pending',
        rawInput: input,
        title: name,
        kind: 'other',
        content: [],
        _meta: { claudeCode: { toolName: name, mcpServer: { name: 'tandem', source: 'dynamic' } } },
      },
      options: [
        { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
        { optionId: 'allow-with-updates', name: `Yes, and don't ask again for ${label} commands`, kind: 'allow_always' },
        { optionId: 'reject', name: 'No', kind: 'reject_once' },
      ],
    });
    assert.deepEqual(
      run.permissions.map(({ sessionId: _s, ...rest }) => rest),
      [asked(CLAUDE_DIAGNOSTICS, ids.diagnosticsId, { path: BROKEN_RELATIVE }, 'Diagnostics'), asked(CLAUDE_EDIT_FILE, ids.editId, editInput, 'Edit File')],
    );
    assertMcpWire(run.tap!, 'claudecode/toolUseId', [
      { name: 'diagnostics', toolCallId: ids.diagnosticsId },
      { name: 'edit_file', toolCallId: ids.editId },
    ]);
    // Its MCP client: Claude Code 2.1.318 on MCP 2025-11-25, after probing the 2026-07-28 `server/discover`.
    const init = run.tap!.exchanges.find((e) => e.rpcMethods.includes('initialize'))!;
    assert.equal(((init.body as Json).params as Json).protocolVersion, '2025-11-25');
    assert.equal((((init.body as Json).params as Json).clientInfo as Json).name, 'claude-code');
    const probe = run.tap!.exchanges.find((e) => e.rpcMethods.includes('server/discover'));
    if (probe) assert.equal(probe.status, 400, 'the draft-protocol probe is refused, and the client falls back to initialize');
    // Tandem's own cards for the agent's calls settled.
    for (const id of [ids.diagnosticsId, ids.editId]) {
      const card = run.entries.find((e) => e.kind === 'tool_call' && e.toolCallId === id);
      assert.ok(card && card.kind === 'tool_call' && card.status === 'completed', `Tandem shows ${id} completed`);
    }
  },
);

test(
  "the real claude-agent-acp 0.101 in its default mode (auto) asks its classifier, not the user, about MCP calls; the server's own declaration, unchanged",
  { timeout: 150_000 },
  async () => {
    assert.ok(existsSync(CLAUDE_AGENT_ACP_0101), 'claude-agent-acp 0.101 is installed in .e2e/adapters (scripts/setupE2e.sh)');
    let requests: RecordedRequest[] = [];
    const run = await runWithTandem('tandem-mcp-claude-auto-', false, async (_workspace, scratch) => {
      const fake = await startFakeAnthropic(tandemMcpScenario({ autoModeSeverity: 5 }));
      requests = fake.requests;
      return { name: 'claude-agent-acp', entry: CLAUDE_AGENT_ACP_0101, env: agentEnv(fake.url, scratch), fake };
    });
    assertFixed(run);
    assertClaudeModelSide(requests);
    assert.deepEqual(run.permissions, [], 'auto mode sends no session/request_permission for MCP tools');
    const classified = requests.filter((r) => !r.mainLoop && JSON.stringify((r.body as Json).system ?? '').includes('<severity>N</severity>'));
    const judged = (name: string): boolean => classified.some((r) => JSON.stringify((r.body as MessagesBody).messages).includes(name));
    assert.ok(judged(CLAUDE_DIAGNOSTICS) && judged(CLAUDE_EDIT_FILE), 'the classifier judged both MCP calls, the read-only one too');
  },
);

// ── codex-acp 2.6 (codex 0.166) ────────────────────────────────────────────────────────────────

const inputOf = (r: ChatRequest): Json[] => ((r.body as ResponsesBody).input ?? []) as Json[];
const mainLoopOf = (requests: ChatRequest[]): ChatRequest[] =>
  requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses') && ((r.body as ResponsesBody).tools ?? []).some((t) => t.type === 'tool_search'));

function assertCodexModelSide(requests: ChatRequest[]): void {
  const main = mainLoopOf(requests);
  assert.ok(main.length >= 3, `main-loop requests: ${main.length}`);
  const tools = (main[0].body as ResponsesBody).tools ?? [];
  assert.ok(!JSON.stringify(tools.map((t) => t.name)).includes('tandem'), 'no tandem tool is listed up front');
  const search = tools.find((t) => t.type === 'tool_search') as Json;
  assert.equal(search.execution, 'client');
  assert.match(String(search.description), /- tandem: Tandem's tools answer from the user's editor/);
  // The tool search's answer: the tandem tools in a namespace `mcp__tandem`, as functions with their bare names.
  const output = main.flatMap(inputOf).find((i) => i.type === 'tool_search_output');
  assert.ok(output, 'codex answered the tool search');
  const namespace = (output.tools as Json[]).find((n) => n.type === 'namespace' && n.name === CODEX_TANDEM_NAMESPACE);
  assert.ok(namespace, `a namespace ${CODEX_TANDEM_NAMESPACE}: ${JSON.stringify(output.tools).slice(0, 300)}`);
  const names = (namespace.tools as Json[]).map((f) => f.name);
  assert.ok(names.includes('diagnostics') && names.includes('edit_file'), `loaded: ${names.join(', ')}`);
  // The diagnostic reached the model.
  const result = main.flatMap(inputOf).find((i) => i.type === 'function_call_output' && i.call_id === 'call_step1_0');
  assert.ok(result && JSON.stringify(result.output).includes(BROKEN_MESSAGE), `the Problem reached the model: ${JSON.stringify(result)}`);
  const edited = main.flatMap(inputOf).find((i) => i.type === 'function_call_output' && i.call_id === 'call_step2_0');
  assert.match(JSON.stringify(edited?.output), /Edited src\/app\.ts \(1 replacement\)/);
}

/** codex's ACP tool call for an MCP tool: kind execute, title `mcp.<server>.<tool>`, rawInput {server, tool, arguments}. */
function assertCodexToolCall(run: TandemRun, tool: string, id: string, args: Json): void {
  const announced = toolCallsOf(run, (u) => u.toolCallId === id);
  assert.deepEqual(announced, [
    {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      kind: 'execute',
      title: `mcp.tandem.${tool}`,
      status: 'in_progress',
      rawInput: { server: 'tandem', tool, arguments: args },
      _meta: { is_mcp_tool_call: true },
    },
  ]);
  const done = historyOf(run, id).find((u) => u.status === 'completed');
  assert.ok(done, `${tool} completed`);
  assert.deepEqual(Object.keys(done.rawOutput as Json).sort(), ['error', 'result'], 'the result comes back only as rawOutput {result, error}');
  assert.equal(done.content, undefined, 'no content on the completed update');
}

function codexSetup(mode: string, reviewer?: 'allow') {
  return async (_workspace: string, scratch: string, sink: { requests: ChatRequest[] }): Promise<AgentSetup> => {
    const fake = await startFakeResponses(tandemMcpCodexSteps(), undefined, reviewer ? { reviewer } : {});
    sink.requests = fake.requests;
    const env = { ...codexAgentEnv(fake.url, scratch), INITIAL_AGENT_MODE: mode };
    return { name: 'codex-acp', entry: CODEX_ACP_26, env, fake };
  };
}

test(
  'the real codex-acp 2.6 finds the tandem tools with its tool search, gets the Problem, asks permission for the edit only, over loopback HTTP',
  { timeout: 150_000 },
  async (t) => {
    assert.ok(existsSync(CODEX_ACP_26), 'codex-acp 2.6 is installed in .e2e/adapters (scripts/setupE2e.sh)');
    const sink = { requests: [] as ChatRequest[] };
    const setup = codexSetup('read-only');
    const run = await runWithTandem('tandem-mcp-codex-', true, (w, s) => setup(w, s, sink));
    report(t, run);
    assertFixed(run);
    assertCodexModelSide(sink.requests);
    const editArgs = { path: BROKEN_RELATIVE, edits: [{ oldText: run.file.oldText, newText: run.file.newText }] };
    assertCodexToolCall(run, 'diagnostics', 'call_step1_0', { path: BROKEN_RELATIVE });
    assertCodexToolCall(run, 'edit_file', 'call_step2_0', editArgs);
    // read-only mode: the destructive tool (MCP destructiveHint) is asked about; the read-only one is not.
    assert.deepEqual(
      run.permissions.map(({ sessionId: _s, ...rest }) => rest),
      [
        {
          toolCall: { toolCallId: 'call_step2_0', kind: 'execute', status: 'pending' },
          _meta: { is_mcp_tool_approval: true },
          options: [
            { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
            { optionId: 'allow_session', name: 'Allow for this session', kind: 'allow_always' },
            { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'cancel', name: 'Cancel', kind: 'reject_once' },
          ],
        },
      ],
    );
    assertMcpWire(run.tap!, 'callId', [
      { name: 'diagnostics', toolCallId: 'call_step1_0' },
      { name: 'edit_file', toolCallId: 'call_step2_0' },
    ]);
    const init = run.tap!.exchanges.find((e) => e.rpcMethods.includes('initialize'))!;
    assert.equal(((init.body as Json).params as Json).protocolVersion, '2025-06-18');
    assert.equal((((init.body as Json).params as Json).clientInfo as Json).name, 'codex-mcp-client');
    // codex connects while it creates the session: initialize may come before session/new is answered.
  },
);

test(
  "the real codex-acp 2.6 in its default mode (agent) lets its reviewer model approve the edit; the server's own declaration, unchanged",
  { timeout: 150_000 },
  async () => {
    assert.ok(existsSync(CODEX_ACP_26), 'codex-acp 2.6 is installed in .e2e/adapters (scripts/setupE2e.sh)');
    const sink = { requests: [] as ChatRequest[] };
    const setup = codexSetup('agent', 'allow');
    const run = await runWithTandem('tandem-mcp-codex-agent-', false, (w, s) => setup(w, s, sink));
    assertFixed(run);
    assertCodexModelSide(sink.requests);
    assert.deepEqual(run.permissions, [], 'no session/request_permission: the reviewer decided');
    const reviews = sink.requests.filter((r) => JSON.stringify((r.body as Json).text ?? '').includes('codex_output_schema'));
    assert.ok(reviews.length >= 1, 'the reviewer model was asked');
    // The planned action each review was about (its JSON, quoted in the reviewer's input).
    const planned = new Set(reviews.flatMap((r) => [...JSON.stringify(inputOf(r)).matchAll(/tool_name\\+"\s*:\s*\\+"(\w+)/g)].map((m) => m[1])));
    assert.deepEqual([...planned], ['edit_file'], 'only the edit went to review, not the read-only tool');
  },
);

// ── When the tools are listed (Check Agent) ───────────────────────────────────────────────────

for (const agent of ['claude-agent-acp', 'codex-acp'] as const) {
  test(`the real ${agent} lists the tandem tools around session/new, with no prompt and no model request`, { timeout: 90_000 }, async (t) => {
    const entry = agent === 'codex-acp' ? CODEX_ACP_26 : CLAUDE_AGENT_ACP_0101;
    assert.ok(existsSync(entry), `${agent} is installed in .e2e/adapters (scripts/setupE2e.sh)`);
    const sink = { requests: [] as Array<ChatRequest | RecordedRequest> };
    const run = await runWithTandem(
      `tandem-mcp-list-${agent}-`,
      false,
      async (_workspace, scratch) => {
        if (agent === 'codex-acp') {
          const fake = await startFakeResponses(tandemMcpCodexSteps());
          sink.requests = fake.requests;
          return { name: agent, entry, env: codexAgentEnv(fake.url, scratch), fake };
        }
        const fake = await startFakeAnthropic(tandemMcpScenario());
        sink.requests = fake.requests;
        return { name: agent, entry, env: agentEnv(fake.url, scratch), fake };
      },
      false,
    );
    // Within 15 s of session/new (runWithTandem waits no longer); around its answer, before or after.
    assert.equal(run.listed, 1, 'one tools/list, without a prompt');
    t.diagnostic(`tools/list ${run.firstListedAt - run.sessionReadyAt} ms after session/new was answered`);
    assert.deepEqual(
      sink.requests.filter((r) => r.method === 'POST'),
      [],
      'no model request was needed',
    );
    assert.deepEqual(run.editor.calls, [], 'no tool was called');
  });
}
