/**
 * The inspector's recording (src/inspector/wireStore.ts): requests paired with their answers by
 * connection, direction and id, with latency and session; a bounded ring that counts what it drops
 * and keeps each connection's handshake; stderr tails per agent. (Fed through the real tap path —
 * transport, AgentConnection, a scripted agent process — in transcriptReplay.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireStore } from '../../src/inspector/wireStore';
import { rowOf } from '../../src/inspector/wireRecord';
import { ROW_TEXT_CHARS } from '../../src/protocol/inspectorMessages';
import { feeder, update } from '../support/wireFeed';

test('a request and its response are paired both ways, with the latency and the session', () => {
  let now = 1000;
  const store = new WireStore({ now: () => now });
  const paired: Array<[number, number]> = [];
  store.listen({ appended: () => undefined, paired: (req, res) => paired.push([req.seq, res.seq]) });
  const wire = feeder(store);
  wire.client({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  now = 1250;
  wire.agent({ id: 1, result: { sessionId: 's1' } });
  wire.client({ id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } });
  wire.agent(update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }));
  now = 2000;
  wire.agent({ id: 2, result: { stopReason: 'end_turn' } });
  const [newReq, newRes, prompt, chunk, answer] = [...store.since()];
  assert.equal(newRes.pair, newReq.seq);
  assert.equal(newReq.pair, newRes.seq);
  assert.equal(newRes.ms, 250);
  assert.equal(newRes.method, 'session/new', 'a response is labelled with its request method');
  assert.equal(newReq.session, 's1', 'session/new learns its session from the answer');
  assert.equal(chunk.update, 'agent_message_chunk');
  assert.equal(chunk.kind, 'notification');
  assert.equal(answer.session, 's1');
  assert.equal(answer.pair, prompt.seq);
  assert.deepEqual(paired, [
    [newReq.seq, newRes.seq],
    [prompt.seq, answer.seq],
  ]);
});

test("ids are paired per connection and per direction: the agent's request 0 is not Tandem's request 0", () => {
  const store = new WireStore();
  const a = feeder(store, 'A', 1);
  const b = feeder(store, 'A', 2);
  a.client({ id: 0, method: 'initialize', params: {} });
  a.agent({ id: 0, method: 'fs/read_text_file', params: { sessionId: 's', path: '/x' } });
  b.agent({ id: 0, result: { protocolVersion: 1 } });
  a.client({ id: 0, result: { content: '' } });
  a.agent({ id: 0, result: { protocolVersion: 1 } });
  a.agent({ id: '0', result: {} });
  const [init, read, other, readAnswer, initAnswer, stray] = [...store.since()];
  assert.equal(other.pair, undefined, 'another connection answers nothing of this one');
  assert.equal(readAnswer.pair, read.seq);
  assert.equal(initAnswer.pair, init.seq);
  assert.equal(stray.pair, undefined, 'the string id "0" is not the number 0');
  assert.equal(readAnswer.kind, 'response');
  assert.equal(store.handshake(1)?.response, initAnswer);
});

test('the ring keeps the last N messages (or characters), counts the dropped ones, and keeps each handshake', () => {
  const store = new WireStore({ maxMessages: 50, maxChars: 1_000_000 });
  const wire = feeder(store);
  wire.client({ id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  wire.agent({ id: 0, result: { protocolVersion: 1 } });
  for (let i = 0; i < 10_000; i++) wire.agent(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${i}` } }));
  assert.equal(store.size, 50);
  assert.equal(store.dropped, 10_002 - 50);
  const kept = [...store.since()];
  assert.match(kept[49].raw, /chunk 9999/);
  assert.equal(store.get(kept[0].seq), kept[0]);
  assert.equal(store.get(kept[0].seq - 1), undefined, 'dropped messages are gone');
  assert.equal(store.handshake(1)?.request?.method, 'initialize', 'the handshake outlives the ring');
  const bySize = new WireStore({ maxMessages: 1000, maxChars: 10_000 });
  const big = feeder(bySize);
  for (let i = 0; i < 100; i++) big.agent(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(900) } }));
  assert.ok(bySize.size <= 11 && bySize.size >= 9, `kept ${bySize.size} messages of ~1 KB under a 10,000-character cap`);
});

test('a row carries the start of a long message and says it is cut; stderr tails are per agent', () => {
  const store = new WireStore();
  feeder(store).agent(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'y'.repeat(10_000) } }));
  const row = rowOf([...store.since()][0]);
  assert.equal(row.text.length, ROW_TEXT_CHARS);
  assert.equal(row.cut, true);
  assert.ok(row.size > 10_000);
  for (let i = 0; i < 300; i++) store.stderr('A', `line ${i}`);
  store.stderr('B', 'other');
  assert.deepEqual(store.stderrTail('A', 2), ['line 298', 'line 299']);
  assert.equal(store.stderrTail('A', 1000).length, 200);
  assert.deepEqual(store.stderrTail('B'), ['other']);
});
