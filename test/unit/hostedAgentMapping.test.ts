/**
 * The hosted bridge's pure mappings, fed the seed document's own payloads: SSE parsing, tool kinds
 * and titles, the seed's tool events and the AI SDK's UI message stream → ACP updates and kept
 * UIMessages, JSON answers, replay, and how answers end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { ReplyAssembler } from '../../src/hostedAgent/assembler';
import { incompleteMarker, stopFor } from '../../src/hostedAgent/endings';
import { readJsonAnswer, ToolEventsReader } from '../../src/hostedAgent/toolEvents';
import { historyUpdates } from '../../src/hostedAgent/updates';
import { SseParser, type SseEvent } from '../../src/hostedAgent/sse';
import { kindFor, titleFor } from '../../src/hostedAgent/toolCards';
import { UiStreamReader } from '../../src/hostedAgent/uiStream';
import type { ToolPart, UIMessage } from '../../src/hostedAgent/types';
import { uiApprovalRequest, uiToolTurn, type Reply } from '../fixtures/hostedServer/replies';
import { SEED_JSON_ANSWER, SEED_TOOL_EVENTS } from '../fixtures/hostedServer/seedPayloads';
import { toolCards } from '../support/hostedBridge';

function parseAll(text: string, splitEvery = 0): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  const bytes = Buffer.from(text);
  if (splitEvery > 0) for (let i = 0; i < bytes.length; i += splitEvery) out.push(...p.push(bytes.subarray(i, i + splitEvery)));
  else out.push(...p.push(bytes));
  out.push(...p.end().events);
  return out;
}

function assembled(messageIndex = 1) {
  const updates: acp.SessionUpdate[] = [];
  const warnings: string[] = [];
  const message: UIMessage = { id: 'reply', role: 'assistant', parts: [] };
  const asm = new ReplyAssembler(
    message,
    messageIndex,
    (u) => updates.push(u),
    (w) => warnings.push(w),
  );
  return { asm, message, updates, warnings };
}

const texts = (updates: acp.SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk') =>
  updates.map((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : '')).join('');

test('SSE: the seed example parses the same whole, byte by byte (multi-byte characters split), and with CRLF', () => {
  const whole = parseAll(SEED_TOOL_EVENTS);
  assert.equal(whole.length, 7);
  assert.deepEqual(
    whole.map((e) => e.event),
    ['text', 'text', 'tool', 'tool', 'tool', 'text', 'done'],
  );
  assert.deepEqual(parseAll(SEED_TOOL_EVENTS, 1), whole);
  assert.deepEqual(parseAll(SEED_TOOL_EVENTS.replace(/\n/g, '\r\n'), 3), whole);
  assert.deepEqual(parseAll(SEED_TOOL_EVENTS.replace(/\n/g, '\r'), 5), whole);
});

test('SSE: BOM, comments, multi-line data, default event name; an event cut by the end of the stream is dropped and reported', () => {
  const events = parseAll('\uFEFF: keep-alive\n\ndata: a\ndata: b\n\nevent: x\ndata:c\n\n');
  assert.deepEqual(events, [
    { event: 'message', data: 'a\nb' },
    { event: 'x', data: 'c' },
  ]);
  const p = new SseParser();
  assert.deepEqual(p.push('data: {"type":"text.delta","delta":"done"}\n\ndata: {"half'), [{ event: 'message', data: '{"type":"text.delta","delta":"done"}' }]);
  assert.deepEqual(p.end(), { events: [], truncated: true });
});

test('kinds from tool names: the brief table, whole words, camelCase and MCP names', () => {
  const cases: Array<[string, acp.ToolKind]> = [
    ['bash', 'execute'],
    ['run_shell_command', 'execute'],
    ['execCommand', 'execute'],
    ['read_file', 'read'],
    ['get_weather', 'read'],
    ['viewImage', 'read'],
    ['write_file', 'edit'],
    ['str_replace_editor', 'edit'],
    ['apply_patch', 'edit'],
    ['update_record', 'edit'],
    ['delete_file', 'delete'],
    ['removeUser', 'delete'],
    ['move_file', 'move'],
    ['rename', 'move'],
    ['grep', 'search'],
    ['web_search', 'search'],
    ['find_files', 'search'],
    ['list_directory', 'search'],
    ['fetch', 'fetch'],
    ['web_fetch', 'fetch'],
    ['http_get_json', 'read'],
    ['browse_page', 'fetch'],
    ['think', 'think'],
    ['mcp__files__readFile', 'read'],
    ['zhipin_reply_generator', 'other'],
    ['movie_db', 'other'],
    ['settings', 'other'],
  ];
  for (const [name, kind] of cases) assert.equal(kindFor(name), kind, name);
});

test('titles: the name and the most telling input field, on one line and short', () => {
  assert.equal(
    titleFor('zhipin_reply_generator', { candidate_message: '你们薪资待遇怎么样？', brand: '蜀地源冒菜' }),
    'zhipin_reply_generator: 你们薪资待遇怎么样？',
  );
  assert.equal(titleFor('bash', { timeout: 30, command: 'df -h\n | sort' }), 'bash: df -h | sort');
  assert.equal(titleFor('read', { file_path: '/etc/hosts', limit: 10 }), 'read: /etc/hosts');
  assert.equal(titleFor('web_search', { query: 'acp spec', max: 3 }), 'web_search: acp spec');
  assert.equal(titleFor('noop', {}), 'noop');
  assert.equal(titleFor('x', { text: 'y'.repeat(200) }).length, 'x: '.length + 80);
  assert.equal(titleFor('x', { a: 1 }, 'Server title'), 'Server title');
});

test('seed tool events (verbatim): text, one server tool card with live and final output, done', () => {
  const { asm, message, updates } = assembled(3);
  let n = 0;
  const reader = new ToolEventsReader(asm, assert.fail, () => `gen-${++n}`);
  for (const ev of parseAll(SEED_TOOL_EVENTS)) reader.handle(ev);
  assert.equal(reader.ending.finished, true);
  assert.equal(reader.ending.incomplete, undefined);
  assert.equal(texts(updates, 'agent_message_chunk'), '我将为你生成专业的招聘回复已为您生成专业的招聘回复');
  const start = updates.find((u) => u.sessionUpdate === 'tool_call');
  assert.deepEqual(start, {
    sessionUpdate: 'tool_call',
    toolCallId: 'm3:gen-1',
    title: 'zhipin_reply_generator: 你们薪资待遇怎么样？',
    kind: 'other',
    status: 'in_progress',
    rawInput: { candidate_message: '你们薪资待遇怎么样？', brand: '蜀地源冒菜' },
    _meta: { tandem: { ranOn: 'server', toolName: 'zhipin_reply_generator' } },
  });
  const live = updates.filter((u) => u.sessionUpdate === 'tool_call_update')[0];
  assert.deepEqual(live.sessionUpdate === 'tool_call_update' && live.content, [{ type: 'content', content: { type: 'text', text: '生成中...' } }]);
  const card = toolCards(updates).get('m3:gen-1')!;
  assert.equal(card.status, 'completed');
  assert.deepEqual(card.rawOutput, { reply: '您好！我们的薪资范围是4000-6000元...' });
  assert.match(JSON.stringify(card.content), /4000-6000/);
  // The kept message: text, the tool part (dynamic, final output, no live output), text.
  assert.deepEqual(
    message.parts.map((p) => p.type),
    ['text', 'dynamic-tool', 'text'],
  );
  const tool = message.parts[1] as ToolPart;
  assert.deepEqual(
    { state: tool.state, toolName: tool.toolName, output: tool.output },
    { state: 'output-available', toolName: 'zhipin_reply_generator', output: { reply: '您好！我们的薪资范围是4000-6000元...' } },
  );
});

test('seed tool events: output and complete go to the oldest running call of that name (FIFO per name)', () => {
  const { asm, message, updates } = assembled();
  let n = 0;
  const reader = new ToolEventsReader(asm, assert.fail, () => `c${++n}`);
  const ev = (data: unknown): SseEvent => ({ event: 'tool', data: JSON.stringify(data) });
  reader.handle(ev({ type: 'tool.start', name: 'bash', input: { command: 'sleep 2; echo A' } }));
  reader.handle(ev({ type: 'tool.start', name: 'web_search', input: { query: 'q' } }));
  reader.handle(ev({ type: 'tool.start', name: 'bash', input: { command: 'echo B' } }));
  reader.handle(ev({ type: 'tool.output', name: 'bash', output: 'A1' }));
  reader.handle(ev({ type: 'tool.complete', name: 'bash', state: 'output-available', output: 'A' }));
  reader.handle(ev({ type: 'tool.complete', name: 'web_search', state: 'output-error', errorText: 'rate limited' }));
  reader.handle(ev({ type: 'tool.complete', name: 'bash', state: 'output-available', output: 'B' }));
  const cards = toolCards(updates);
  assert.deepEqual([...cards.keys()], ['m1:c1', 'm1:c2', 'm1:c3']);
  assert.deepEqual(
    [...cards.values()].map((c) => [c.kind, c.status, c.rawOutput]),
    [
      ['execute', 'completed', 'A'],
      ['search', 'failed', { error: 'rate limited' }],
      ['execute', 'completed', 'B'],
    ],
  );
  assert.match(JSON.stringify(cards.get('m1:c2')!.content), /rate limited/);
  assert.deepEqual(
    message.parts.map((p) => (p as ToolPart).toolCallId),
    ['c1', 'c2', 'c3'],
  );
});

test('seed tool events: malformed and unknown events are warned once and skipped; incomplete done is read', () => {
  const { asm, updates, warnings } = assembled();
  const reader = new ToolEventsReader(
    asm,
    (w) => warnings.push(w),
    () => 'x',
  );
  reader.handle({ event: 'text', data: '{not json' });
  reader.handle({ event: 'text', data: '{also not' });
  reader.handle({ event: 'tool', data: '{"type":"tool.output","name":"ghost","output":"?"}' });
  reader.handle({ event: 'weird', data: '{"type":"usage.report"}' });
  reader.handle({ event: 'text', data: '{"type":"text.delta","delta":"ok"}' });
  reader.handle({ event: 'done', data: '{"type":"done","incomplete":true,"reason":"max_steps"}' });
  assert.equal(texts(updates, 'agent_message_chunk'), 'ok');
  assert.equal(warnings.length, 3, warnings.join('\n'));
  assert.deepEqual(reader.ending, { finished: true, errors: [], incomplete: 'max_steps' });
});

function feedUi(reply: Reply, asm: ReplyAssembler, warn = assert.fail as (w: string) => void): UiStreamReader {
  const reader = new UiStreamReader(asm, warn);
  for (const step of reply.steps) if ('send' in step) for (const ev of parseAll(step.send)) reader.handle(ev);
  return reader;
}

test('AI SDK stream: reasoning, two server tools (preliminary output, an error), text; the kept message is what useChat would keep', () => {
  const { asm, message, updates } = assembled(5);
  const reader = feedUi(uiToolTurn(), asm);
  assert.equal(reader.ending.finished, true);
  assert.equal(reader.ending.finishReason, 'stop');
  assert.equal(texts(updates, 'agent_thought_chunk'), 'The user wants the disk usage; run df, then read the log.');
  assert.equal(texts(updates, 'agent_message_chunk'), 'The disk is 100G; the log could not be read.');
  const cards = toolCards(updates);
  const df = cards.get('m5:call_df')!;
  assert.deepEqual([df.kind, df.title, df.status], ['execute', 'bash: df -h', 'completed']);
  assert.deepEqual(df.rawOutput, { stdout: 'Filesystem  Size\n/dev/sda1  100G', exitCode: 0 });
  const log = cards.get('m5:call_log')!;
  assert.deepEqual([log.kind, log.title, log.status], ['read', 'readFile: /var/log/syslog', 'failed']);
  assert.match(JSON.stringify(log.content), /EACCES/);
  // The preliminary output was shown while the tool ran…
  assert.ok(
    updates.some(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' && String(JSON.stringify(u.content)).includes('Filesystem  Size"'),
    ),
  );
  // …and the message keeps step boundaries, the static tool's `tool-<name>` type and final states only.
  assert.equal(message.id, 'srv-msg-tools');
  assert.deepEqual(
    message.parts.map((p) => `${p.type}${'state' in p ? `:${String(p.state)}` : ''}`),
    ['step-start', 'reasoning:done', 'dynamic-tool:output-available', 'tool-readFile:output-error', 'step-start', 'text:done'],
  );
});

test('AI SDK stream: an approval request leaves the call waiting; bad chunks are warned and skipped; data parts kept', () => {
  const { asm, message, updates, warnings } = assembled();
  const reader = feedUi(uiApprovalRequest(), asm);
  assert.equal(reader.ending.finishReason, 'tool-calls');
  const [ask] = asm.pendingApprovals();
  assert.deepEqual([ask.acpId, ask.part.approval], ['m1:call_rm', { id: 'appr_1' }]);
  assert.equal(toolCards(updates).get('m1:call_rm')!.kind, 'delete');
  assert.equal(toolCards(updates).get('m1:call_rm')!.status, 'pending');
  const more = new UiStreamReader(asm, (w) => warnings.push(w));
  for (const data of [
    '{"type":"text-delta","id":"t"}',
    'nope',
    '{"type":"data-weather","id":"w1","data":{"c":20}}',
    '{"type":"data-weather","id":"w1","data":{"c":21}}',
    '{"type":"data-progress","data":1,"transient":true}',
    '{"type":"brand-new"}',
  ]) {
    more.handle({ event: 'message', data });
  }
  assert.equal(warnings.length, 3, warnings.join('\n'));
  assert.deepEqual(
    message.parts.filter((p) => p.type.startsWith('data-')),
    [{ type: 'data-weather', id: 'w1', data: { c: 21 } }],
  );
});

test('closeOpen fails calls left running, with the reason, and leaves answered approvals alone', () => {
  const { asm, updates } = assembled();
  asm.toolInputStart('a', 'bash');
  asm.toolInputDelta('a', '{"command":"ls');
  asm.toolInput('b', 'fetch', { url: 'https://x' });
  asm.closeOpen('Stopped before the server reported a result.');
  const cards = toolCards(updates);
  assert.deepEqual([cards.get('m1:a')!.status, cards.get('m1:b')!.status], ['failed', 'failed']);
  assert.equal(cards.get('m1:a')!.rawInput, '{"command":"ls');
  assert.match(JSON.stringify(cards.get('m1:b')!.content), /Stopped before/);
});

test('JSON answer (seed verbatim): the messages become the reply; an echoed history is cut at the last user message', () => {
  const answer = readJsonAnswer(SEED_JSON_ANSWER, assert.fail, () => 'id');
  assert.deepEqual(
    answer.messages.map((m) => m.id),
    ['msg_001', 'msg_002'],
  );
  assert.deepEqual(answer.skipped, []);
  assert.equal(answer.incomplete, undefined);
  const echoed = {
    success: true,
    data: {
      ...SEED_JSON_ANSWER.data,
      messages: [
        { role: 'user', content: 'old' },
        ...SEED_JSON_ANSWER.data.messages.slice(0, 1),
        { role: 'user', content: 'new' },
        ...SEED_JSON_ANSWER.data.messages.slice(1),
      ],
    },
  };
  assert.deepEqual(
    readJsonAnswer(echoed, assert.fail, () => 'id').messages.map((m) => m.id),
    ['msg_002'],
  );
  assert.equal(
    readJsonAnswer({ success: true, data: { messages: [], status: 'incomplete', reason: 'timeout' } }, assert.fail, () => 'id').incomplete,
    'timeout',
  );
  assert.match(readJsonAnswer({ success: false, error: 'Boom', message: 'model overloaded' }, assert.fail, () => 'id').error ?? '', /model overloaded/);
});

test('replay: user text, agent text and thoughts, tool calls once in their final state, notices after their message', () => {
  const answer = readJsonAnswer(SEED_JSON_ANSWER, assert.fail, () => 'id');
  const history: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '候选人问：你们公司地址在哪？' }] }, ...answer.messages];
  const updates = historyUpdates(history, [{ after: 2, kind: 'incomplete', text: 'Incomplete.' }]);
  assert.deepEqual(
    updates.map((u) => u.sessionUpdate),
    ['user_message_chunk', 'tool_call', 'agent_message_chunk', 'agent_message_chunk'],
  );
  const tool = updates[1];
  assert.ok(tool.sessionUpdate === 'tool_call');
  assert.deepEqual([tool.toolCallId, tool.status, tool.kind], ['m1:call_abc123', 'completed', 'other']);
  assert.equal(tool.title, 'zhipin_reply_generator: 你们公司地址在哪？');
  assert.deepEqual(updates[3]._meta, { tandem: { notice: { kind: 'incomplete' } } });
  // A call a finished message left without a result ("input only") is shown ended, not running.
  const inputOnly: UIMessage = {
    id: 'a',
    role: 'assistant',
    parts: [
      { type: 'dynamic-tool', toolName: 'bash', toolCallId: 'c', state: 'input-available', input: { command: 'ls' } },
      { type: 'dynamic-tool', toolName: 'rm', toolCallId: 'd', state: 'approval-requested', approval: { id: 'x' } },
    ],
  };
  const [ran, unanswered] = historyUpdates([inputOnly]);
  assert.ok(ran.sessionUpdate === 'tool_call' && unanswered.sessionUpdate === 'tool_call');
  assert.deepEqual([ran.status, unanswered.status], ['completed', 'failed']);
  assert.match(JSON.stringify(ran.content), /no output/);
});

test('endings: incomplete markings in their usual spellings, finish reasons as stop reasons', () => {
  assert.equal(incompleteMarker({ type: 'done' }), undefined);
  assert.equal(incompleteMarker({ type: 'done', finishReason: 'stop' }), undefined);
  assert.equal(incompleteMarker({ incomplete: true }), 'incomplete');
  assert.equal(incompleteMarker({ partial: true, reason: 'timeout' }), 'timeout');
  assert.equal(incompleteMarker({ status: 'partial' }), 'incomplete');
  assert.equal(incompleteMarker({ finishReason: 'max-steps' }), 'max-steps');
  assert.equal(incompleteMarker({ metadata: { complete: false } }), 'incomplete');
  const none = { finished: true, errors: [] };
  assert.deepEqual(stopFor(none, 0), { stopReason: 'end_turn' });
  assert.equal(stopFor({ ...none, incomplete: 'max_steps' }, 0).stopReason, 'max_turn_requests');
  assert.equal(stopFor({ ...none, finishReason: 'length' }, 0).stopReason, 'max_tokens');
  assert.equal(stopFor({ ...none, finishReason: 'tool-calls' }, 0).stopReason, 'max_turn_requests');
  assert.equal(stopFor({ ...none, finishReason: 'content-filter' }, 0).stopReason, 'refusal');
  assert.equal(stopFor({ ...none, aborted: 'user left' }, 0).notice?.kind, 'serverStopped');
});
