/**
 * Conformance warnings (src/inspector/messageCheck.ts, wireRules.ts, schemaCheck.ts): each message
 * from the agent against the SDK's own zod schemas — what it rejects (errors) and what its lenient
 * parse silently drops (warnings) — and against the wire rules of the spec, with Tandem's messages
 * as context. The monitor checks off the streaming path and counts per agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConformanceMonitor } from '../../src/inspector/conformance';
import { WireStore } from '../../src/inspector/wireStore';
import { feeder, update, type Feeder } from '../support/wireFeed';

function world() {
  const store = new WireStore();
  const monitor = new ConformanceMonitor(store, { startDelayMs: 60_000 });
  const wire = feeder(store, 'Agent');
  const rules = (): string[] => {
    monitor.drain();
    return monitor.allWarnings().map((w) => w.rule);
  };
  const texts = (): string[] => {
    monitor.drain();
    return monitor.allWarnings().map((w) => w.text);
  };
  return { store, monitor, wire, rules, texts };
}

/** initialize, session/new → s1, and a prompt in flight (id 2). */
function openTurn(wire: Feeder): void {
  wire.client({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
  wire.agent({ id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });
  wire.client({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  wire.agent({ id: 1, result: { sessionId: 's1' } });
  wire.client({ id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'go' }] } });
}

test('a well-behaved turn raises nothing', () => {
  const w = world();
  openTurn(w.wire);
  w.wire.agent(update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } }));
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending' }));
  w.wire.agent({
    id: 7,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall: { toolCallId: 't1' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] },
  });
  w.wire.client({ id: 7, result: { outcome: { outcome: 'selected', optionId: 'a' } } });
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }));
  w.wire.agent({ id: 2, result: { stopReason: 'end_turn' } });
  assert.deepEqual(w.rules(), []);
  assert.equal(w.monitor.summary('Agent').checked, 7);
  assert.equal(w.monitor.summary('Agent').warnings, 0);
});

test('schema: what the SDK rejects is an error, what its lenient parse drops is a warning naming the field', () => {
  const w = world();
  openTurn(w.wire);
  w.wire.agent(update('s1', { sessionUpdate: 'agent_message_chunk' }));
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'x', kind: 'banana', status: 'running', colour: 'red' }));
  w.wire.agent({ id: 9, method: 'fs/read_text_file', params: { sessionId: 's1' } });
  const warnings = (w.monitor.drain(), w.monitor.allWarnings());
  const errors = warnings.filter((x) => x.severity === 'error');
  assert.equal(errors.length, 2, JSON.stringify(warnings, null, 1));
  assert.match(errors[0].text, /params\.update\.content/);
  assert.match(errors[1].text, /params\.path/);
  const dropped = warnings.filter((x) => x.rule === 'schema-dropped').map((x) => x.text);
  assert.equal(dropped.length, 3, dropped.join('\n'));
  assert.ok(dropped.some((t) => t.includes('params.update.kind') && t.includes('"banana"')));
  assert.ok(dropped.some((t) => t.includes('params.update.status')));
  assert.ok(dropped.some((t) => t.includes('params.update.colour')));
  assert.equal(w.monitor.summary('Agent').errors, 2);
});

test('an unknown update kind, an unknown method, a request without id and a bad envelope', () => {
  const w = world();
  openTurn(w.wire);
  w.wire.agent(update('s1', { sessionUpdate: 'weather_report', sunny: true }));
  w.wire.agent({ id: 3, method: 'editor/open_file', params: {} });
  w.wire.agent({ id: 4, method: '_vendor/ping', params: {} });
  w.wire.agent({ method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'q' }, options: [] } });
  const noVersion = { method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'plan', entries: [] } } };
  w.store.message('in', JSON.stringify(noVersion), { msg: noVersion, agent: 'Agent', connection: 1 });
  w.wire.agent({ id: 99, result: {} });
  assert.deepEqual(w.rules(), ['unknown-update', 'unknown-method', 'envelope', 'envelope', 'unmatched-response']);
  const texts = w.monitor.allWarnings().map((x) => x.text);
  assert.match(texts[2], /session\/request_permission is a request but came without an id/);
  assert.match(texts[3], /`jsonrpc` is missing/);
});

test('wire rules: tool_call_update for an unknown call, a late tool_call, permission after the turn, end_turn with open calls', () => {
  const w = world();
  openTurn(w.wire);
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress' }));
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call', toolCallId: 'ghost', title: 'Late' }));
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call', toolCallId: 'open1', title: 'Still running', status: 'in_progress' }));
  // Announced by a permission request first (Gemini CLI does): not a warning.
  w.wire.agent({
    id: 5,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall: { toolCallId: 'asked' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] },
  });
  w.wire.client({ id: 5, result: { outcome: { outcome: 'selected', optionId: 'a' } } });
  w.wire.agent(update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'asked', status: 'completed' }));
  w.wire.agent({ id: 2, result: { stopReason: 'end_turn' } });
  w.wire.agent({
    id: 6,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall: { toolCallId: 'after' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] },
  });
  assert.deepEqual(w.rules(), ['unknown-tool-call', 'late-tool-call', 'end-turn-pending', 'permission-after-turn']);
  const pending = w.monitor.allWarnings().find((x) => x.rule === 'end-turn-pending');
  assert.match(pending?.text ?? '', /ghost, open1/);
});

test('wire rules: a stop reason outside the enum, a replay after the load answer, a session nobody opened', () => {
  const w = world();
  openTurn(w.wire);
  w.wire.agent({ id: 2, result: { stopReason: 'done' } });
  w.wire.client({ id: 3, method: 'session/load', params: { sessionId: 'old', cwd: '/w', mcpServers: [] } });
  w.wire.agent(update('old', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'earlier' } }));
  w.wire.agent({ id: 3, result: {} });
  w.wire.agent(update('old', { sessionUpdate: 'available_commands_update', availableCommands: [] }));
  w.wire.agent(update('old', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'tail 1' } }));
  w.wire.agent(update('old', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'tail 2' } }));
  w.wire.agent(update('nobody', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '?' } }));
  assert.deepEqual(w.rules(), ['stop-reason', 'replay-after-load', 'unknown-session']);
  const stop = w.monitor.allWarnings()[0];
  assert.equal(stop.severity, 'error');
  assert.match(stop.text, /"done".*end_turn, max_tokens/);
});

test('updates before the session/new answer are not for an unknown session (agents send commands early)', () => {
  const w = world();
  w.wire.client({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  w.wire.agent(update('s9', { sessionUpdate: 'available_commands_update', availableCommands: [] }));
  w.wire.agent({ id: 1, result: { sessionId: 's9' } });
  assert.deepEqual(w.rules(), []);
});

test('the monitor works later, in slices, and tells listeners; it never blocks the recording', async () => {
  const store = new WireStore();
  const monitor = new ConformanceMonitor(store, { startDelayMs: 5, sliceMs: 1 });
  const told: string[] = [];
  monitor.onWarnings((ws) => told.push(...ws.map((x) => x.rule)));
  const wire = feeder(store);
  openTurn(wire);
  for (let i = 0; i < 3000; i++) wire.agent(update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `c${i}` } }));
  wire.agent(update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'x' }));
  assert.deepEqual(told, [], 'nothing is checked while messages are recorded');
  await new Promise<void>((resolve) => {
    const poll = (): void => (told.length > 0 ? resolve() : void setTimeout(poll, 5));
    poll();
  });
  assert.deepEqual(told, ['unknown-tool-call']);
  assert.equal(monitor.summary('Agent').checked, 3000 + 3);
  monitor.dispose();
});
