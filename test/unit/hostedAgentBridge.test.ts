/**
 * The hosted bridge as a real process over stdio, a real ACP client on one side and the fake
 * hosted server on the other: turns with server tools in both dialects, streaming text and
 * reasoning, JSON answers, history sent back every turn, Stop keeping the partial reply, and
 * session/load after the bridge restarted.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { json, sseText, toolEvents, uiText, uiToolTurn } from '../fixtures/hostedServer/replies';
import { SEED_JSON_ANSWER, SEED_REQUEST, SEED_TOOL_EVENTS } from '../fixtures/hostedServer/seedPayloads';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHostedAgent, startBridge, toolCards } from '../support/hostedBridge';

let server: HostedServer;
before(async () => {
  server = await startHostedServer();
  await buildHostedAgent();
});
after(() => server.close());

const seedArgs = () => ['--url', server.chatUrl, '--format', 'tool-events', '--model', SEED_REQUEST.model];
const uiArgs = () => ['--url', server.uiUrl, '--format', 'ui-message-stream'];

test(
  'seed stream, verbatim: text, a server tool card with kind, title, live and final output; the request is the seed request',
  { timeout: 30_000 },
  async (t) => {
    const body = { allowedTools: SEED_REQUEST.allowedTools, context: SEED_REQUEST.context };
    const b = await startBridge(t, { args: [...seedArgs(), '--body', JSON.stringify(body)] });
    const sid = await b.newSession();
    server.reply(sseText(SEED_TOOL_EVENTS));
    const res = await b.prompt(sid, '候选人问：你们公司地址在哪？');
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(b.text(sid), '我将为你生成专业的招聘回复已为您生成专业的招聘回复');
    const cards = [...toolCards(b.of(sid)).values()];
    assert.equal(cards.length, 1);
    assert.deepEqual([cards[0].kind, cards[0].title, cards[0].status], ['other', 'zhipin_reply_generator: 你们薪资待遇怎么样？', 'completed']);
    assert.deepEqual(cards[0]._meta, { tandem: { ranOn: 'server', toolName: 'zhipin_reply_generator' } });
    assert.ok(
      b.of(sid, 'tool_call_update').some((u) => JSON.stringify(u).includes('生成中...')),
      'live tool.output shown',
    );
    const sent = server.chats().at(-1)!.body!;
    // The seed's request shape: model, messages (role + content), allowedTools, context; plus stream.
    assert.equal(sent.model, SEED_REQUEST.model);
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.allowedTools, SEED_REQUEST.allowedTools);
    assert.deepEqual(sent.context, SEED_REQUEST.context);
    assert.deepEqual(
      (sent.messages as Array<Record<string, unknown>>).map((m) => [m.role, m.content]),
      [['user', '候选人问：你们公司地址在哪？']],
    );
  },
);

test(
  'two server tools in one turn (seed events): kinds, titles, outputs, a failure with its error text; then the history goes back',
  { timeout: 30_000 },
  async (t) => {
    const b = await startBridge(t, { args: seedArgs() });
    const sid = await b.newSession();
    server.reply(
      toolEvents([
        ['text', { type: 'text.delta', delta: 'Checking. ' }],
        ['tool', { type: 'tool.start', name: 'bash', input: { command: 'df -h' } }],
        ['tool', { type: 'tool.output', name: 'bash', output: 'Filesystem Size' }],
        ['tool', { type: 'tool.start', name: 'web_search', input: { query: 'disk full linux' } }],
        ['tool', { type: 'tool.complete', name: 'bash', state: 'output-available', output: 'Filesystem Size\n/dev/sda1 100G' }],
        ['tool', { type: 'tool.complete', name: 'web_search', state: 'output-error', errorText: 'search backend down' }],
        ['text', { type: 'text.delta', delta: 'Done.' }],
        ['done', { type: 'done' }],
      ]),
    );
    assert.equal((await b.prompt(sid, 'disk?')).stopReason, 'end_turn');
    const cards = [...toolCards(b.of(sid)).values()];
    assert.deepEqual(
      cards.map((c) => [c.kind, c.title, c.status]),
      [
        ['execute', 'bash: df -h', 'completed'],
        ['search', 'web_search: disk full linux', 'failed'],
      ],
    );
    assert.deepEqual(cards[0].rawInput, { command: 'df -h' });
    assert.match(JSON.stringify(cards[0].content), /sda1 100G/);
    assert.match(JSON.stringify(cards[1].content), /search backend down/);
    server.reply(sseText(SEED_TOOL_EVENTS));
    await b.prompt(sid, 'and now?');
    const messages = server.chats().at(-1)!.body!.messages as Array<{ role: string; content: string; parts: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(messages[1].content, 'Checking. Done.');
    const tools = messages[1].parts.filter((p) => p.type === 'dynamic-tool');
    assert.deepEqual(
      tools.map((p) => [p.toolName, p.state, p.output ?? p.errorText]),
      [
        ['bash', 'output-available', 'Filesystem Size\n/dev/sda1 100G'],
        ['web_search', 'output-error', 'search backend down'],
      ],
    );
  },
);

test(
  'AI SDK stream: reasoning as thoughts, tool cards, text; the next request carries the UIMessages with their tool parts',
  { timeout: 30_000 },
  async (t) => {
    const b = await startBridge(t, { args: uiArgs() });
    const sid = await b.newSession();
    server.reply(uiToolTurn(), uiText(['Second answer.']));
    assert.equal((await b.prompt(sid, 'disk usage?')).stopReason, 'end_turn');
    const thought = b
      .of(sid, 'agent_thought_chunk')
      .map((u) => (u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text' ? u.content.text : ''))
      .join('');
    assert.equal(thought, 'The user wants the disk usage; run df, then read the log.');
    assert.equal(b.text(sid), 'The disk is 100G; the log could not be read.');
    assert.deepEqual(
      [...toolCards(b.of(sid)).values()].map((c) => [c.kind, c.status]),
      [
        ['execute', 'completed'],
        ['read', 'failed'],
      ],
    );
    await b.prompt(sid, 'thanks');
    const sent = server.chats().at(-1)!.body!;
    assert.equal(sent.id, sid, 'the chat id, as DefaultChatTransport sends it');
    assert.equal(sent.trigger, 'submit-message');
    const messages = sent.messages as Array<{ id: string; role: string; parts: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(messages[1].id, 'srv-msg-tools');
    assert.equal('content' in messages[1], false, 'AI SDK messages are sent as UIMessages, without content');
    assert.deepEqual(
      messages[1].parts.map((p) => p.type),
      ['step-start', 'reasoning', 'dynamic-tool', 'tool-readFile', 'step-start', 'text'],
    );
    assert.deepEqual(messages[2].parts, [{ type: 'text', text: 'thanks' }]);
  },
);

test('non-stream JSON (--no-stream, the seed answer verbatim): the messages render as the turn and join the history', { timeout: 30_000 }, async (t) => {
  const b = await startBridge(t, { args: [...seedArgs(), '--no-stream'] });
  const sid = await b.newSession();
  server.reply(json(SEED_JSON_ANSWER));
  assert.equal((await b.prompt(sid, '候选人问：你们公司地址在哪？')).stopReason, 'end_turn');
  assert.equal(server.chats().at(-1)!.body!.stream, false);
  assert.equal(server.chats().at(-1)!.headers.accept, 'application/json');
  const card = toolCards(b.of(sid)).get('m1:call_abc123')!;
  assert.deepEqual([card.status, card.kind], ['completed', 'other']);
  assert.match(String(JSON.stringify(card.content)), /上海市浦东新区XX路XX号/);
  assert.equal(b.text(sid), '已为您生成专业的回复，内容包含了公司地址信息，并主动询问候选人是否需要路线指引。');
  server.reply(json(SEED_JSON_ANSWER));
  await b.prompt(sid, 'again');
  const ids = (server.chats().at(-1)!.body!.messages as Array<{ id: string }>).map((m) => m.id);
  assert.deepEqual(ids.slice(1, 3), ['msg_001', 'msg_002']);
});

test('Stop mid-stream: the HTTP request is aborted, the turn is cancelled, the partial reply stays in the history', { timeout: 30_000 }, async (t) => {
  const b = await startBridge(t, { args: seedArgs() });
  const sid = await b.newSession();
  server.reply(
    toolEvents([
      ['text', { type: 'text.delta', delta: 'Partial answer ' }],
      ['tool', { type: 'tool.start', name: 'bash', input: { command: 'sleep 100' } }],
      { stall: true },
    ]),
  );
  const turn = b.prompt(sid, 'long job');
  await b.until(() => b.of(sid, 'tool_call').length === 1, 'the tool call');
  const requestsBefore = server.requests.length;
  const closedBefore = server.closedByClient();
  await b.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: sid });
  assert.equal((await turn).stopReason, 'cancelled');
  await b.until(() => server.closedByClient() === closedBefore + 1, 'the server to see the request aborted');
  const card = [...toolCards(b.of(sid)).values()][0];
  assert.equal(card.status, 'failed', 'the running server tool is closed, not left spinning');
  assert.equal(server.requests.length, requestsBefore, 'no retry after a cancel');
  server.reply(sseText(SEED_TOOL_EVENTS));
  await b.prompt(sid, 'go on');
  const messages = server.chats().at(-1)!.body!.messages as Array<{ role: string; content: string }>;
  assert.deepEqual(
    messages.map((m) => [m.role, m.content]),
    [
      ['user', 'long job'],
      ['assistant', 'Partial answer '],
      ['user', 'go on'],
    ],
  );
});

test('restart: session/load on a new bridge process replays the history (final tool states) and the conversation continues', { timeout: 30_000 }, async (t) => {
  const first = await startBridge(t, { args: uiArgs() });
  const sid = await first.newSession('/work/project');
  server.reply(uiToolTurn());
  await first.prompt(sid, 'disk usage?');
  await first.stop();
  const second = await startBridge(t, { args: uiArgs(), stateDir: first.stateDir });
  assert.equal(second.init.agentCapabilities?.loadSession, true);
  const listed = await second.conn.agent.request(acp.methods.agent.session.list, { cwd: '/work/project' });
  assert.deepEqual(
    listed.sessions.map((s) => [s.sessionId, s.title]),
    [[sid, 'disk usage?']],
  );
  assert.deepEqual((await second.conn.agent.request(acp.methods.agent.session.list, { cwd: '/elsewhere' })).sessions, []);
  await second.conn.agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd: '/work/project', mcpServers: [] });
  const replay = second.of(sid);
  assert.deepEqual(
    replay.map((u) => u.sessionUpdate),
    ['user_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call', 'agent_message_chunk'],
  );
  assert.deepEqual(
    replay.filter((u) => u.sessionUpdate === 'tool_call').map((u) => u.sessionUpdate === 'tool_call' && [u.toolCallId, u.status]),
    [
      ['m1:call_df', 'completed'],
      ['m1:call_log', 'failed'],
    ],
  );
  server.reply(uiText(['ok']));
  await second.prompt(sid, 'continue');
  const messages = server.chats().at(-1)!.body!.messages as Array<{ role: string }>;
  assert.deepEqual(
    messages.map((m) => m.role),
    ['user', 'assistant', 'user'],
  );
  const missing = await second.conn.agent.request(acp.methods.agent.session.load, { sessionId: 'hosted-nope', cwd: '/', mcpServers: [] }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(missing instanceof acp.RequestError && missing.code === -32002, 'an unknown session is "not found"');
});

test(
  'a prompt sent while a turn streams supersedes it: the first ends cancelled, the second starts after it, the history stays in order',
  { timeout: 30_000 },
  async (t) => {
    const b = await startBridge(t, { args: seedArgs() });
    const sid = await b.newSession();
    server.reply(toolEvents([['text', { type: 'text.delta', delta: 'First, partly' }], { stall: true }]), sseText(SEED_TOOL_EVENTS));
    const first = b.prompt(sid, 'one');
    await b.until(() => b.text(sid) === 'First, partly', 'the first reply');
    const second = b.prompt(sid, 'two');
    assert.equal((await first).stopReason, 'cancelled');
    assert.equal((await second).stopReason, 'end_turn');
    const messages = server.chats().at(-1)!.body!.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(
      messages.map((m) => [m.role, m.content]),
      [
        ['user', 'one'],
        ['assistant', 'First, partly'],
        ['user', 'two'],
      ],
    );
  },
);

test('a bridge killed mid-reply: what streamed so far was saved, and loads after a restart; delete forgets the session', { timeout: 30_000 }, async (t) => {
  const first = await startBridge(t, { args: seedArgs() });
  const sid = await first.newSession();
  server.reply(toolEvents([['text', { type: 'text.delta', delta: 'Saved while streaming' }], { stall: true }]));
  void first.prompt(sid, 'long').catch(() => undefined);
  const file = join(first.stateDir, `${sid}.json`);
  const saved = () => {
    try {
      return readFileSync(file, 'utf8').includes('Saved while streaming');
    } catch {
      return false;
    }
  };
  await first.until(saved, 'the partial reply on disk');
  first.child.kill('SIGKILL');
  const second = await startBridge(t, { args: seedArgs(), stateDir: first.stateDir });
  await second.conn.agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd: first.stateDir, mcpServers: [] });
  assert.equal(second.text(sid), 'Saved while streaming');
  await second.conn.agent.request(acp.methods.agent.session.delete, { sessionId: sid });
  assert.deepEqual((await second.conn.agent.request(acp.methods.agent.session.list, {})).sessions, []);
});
