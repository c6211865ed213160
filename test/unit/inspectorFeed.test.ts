/**
 * What the inspector webview is sent (src/inspector/inspectorFeed.ts): a snapshot in chunks, then
 * the new messages, pairings and warnings in one post per frame; nothing while it is hidden (a
 * backlog, or a fresh snapshot when the backlog grew too big); a clear that starts the view anew.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConformanceMonitor } from '../../src/inspector/conformance';
import { InspectorFeed } from '../../src/inspector/inspectorFeed';
import { WireStore } from '../../src/inspector/wireStore';
import { isInspectorWebviewMessage, type InspectorHostMessage } from '../../src/protocol/inspectorMessages';
import { feeder, update } from '../support/wireFeed';

const flat = (ms: readonly InspectorHostMessage[]): InspectorHostMessage[] => ms.flatMap((m) => (m.type === 'batch' ? flat(m.messages) : [m]));
const rowsOf = (ms: InspectorHostMessage[]) => flat(ms).flatMap((m) => (m.type === 'rows' ? m.rows.map((r) => r.seq) : []));
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'timed out');
};

test('a snapshot goes out in chunks, then live rows, pairings and warnings in one post per frame', async () => {
  const store = new WireStore();
  const monitor = new ConformanceMonitor(store, { startDelayMs: 1 });
  const wire = feeder(store);
  for (let i = 0; i < 25; i++) wire.agent(update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `c${i}` } }));
  const posted: InspectorHostMessage[] = [];
  const feed = new InspectorFeed(store, monitor, (m) => posted.push(m), { from: 1, chunk: 10, frameMs: 5 });
  feed.start();
  await until(() => posted.some((m) => m.type === 'rows' && m.more === false));
  const snapshot = posted.filter((m) => m.type === 'rows');
  assert.deepEqual(
    snapshot.map((m) => (m.type === 'rows' ? [m.rows.length, m.reset, m.more] : [])),
    [
      [10, true, true],
      [10, false, true],
      [5, false, false],
    ],
  );
  posted.length = 0;
  wire.client({ id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [] } });
  wire.agent(update('s', { sessionUpdate: 'tool_call_update', toolCallId: 'ghost' }));
  wire.agent({ id: 1, result: { stopReason: 'end_turn' } });
  await until(() => flat(posted).some((m) => m.type === 'warnings'));
  assert.deepEqual(rowsOf(posted), [26, 27, 28]);
  assert.deepEqual(
    flat(posted).find((m) => m.type === 'paired'),
    {
      type: 'paired',
      pairs: [
        {
          seq: 26,
          pair: 28,
          ms: flat(posted)
            .flatMap((m) => (m.type === 'rows' ? m.rows : []))
            .find((r) => r.seq === 28)?.ms,
        },
      ],
    },
  );
  assert.ok(posted.length <= 3, `${posted.length} posts`);
  feed.dispose();
  monitor.dispose();
});

test('nothing is posted while hidden; shown again, the backlog follows, or a fresh snapshot when it grew too big', async () => {
  const store = new WireStore();
  const wire = feeder(store);
  const posted: InspectorHostMessage[] = [];
  const feed = new InspectorFeed(store, undefined, (m) => posted.push(m), { from: 1, frameMs: 1 });
  feed.start();
  await until(() => posted.length > 0);
  feed.setVisible(false);
  posted.length = 0;
  for (let i = 0; i < 5; i++) wire.agent(update('s', { sessionUpdate: 'plan', entries: [] }));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(posted.length, 0, 'hidden: nothing posted');
  feed.setVisible(true);
  await until(() => posted.length > 0);
  assert.deepEqual(rowsOf(posted), [1, 2, 3, 4, 5]);
  feed.setVisible(false);
  posted.length = 0;
  for (let i = 0; i < 20_001; i++) wire.agent(update('s', { sessionUpdate: 'plan', entries: [] }));
  feed.setVisible(true);
  await until(() => posted.some((m) => m.type === 'rows' && m.more === false));
  const first = posted[0];
  assert.ok(first.type === 'rows' && first.reset, 'a fresh snapshot replaces the backlog');
  assert.equal(rowsOf(posted).length, store.size);
  feed.dispose();
});

test('clear: the view starts empty from the next message; fetch answers the whole text, or nothing for a cleared one', async () => {
  const store = new WireStore();
  const wire = feeder(store);
  wire.agent(update('s', { sessionUpdate: 'plan', entries: [] }));
  const posted: InspectorHostMessage[] = [];
  const feed = new InspectorFeed(store, undefined, (m) => posted.push(m), { from: 1, frameMs: 1 });
  feed.start();
  await until(() => posted.length > 0);
  feed.clear();
  assert.deepEqual(posted.at(-1), { type: 'rows', rows: [], reset: true, dropped: 0 });
  assert.equal(feed.firstShown, 2);
  wire.agent(update('s', { sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'low', status: 'pending' }] }));
  await until(() => rowsOf(posted).includes(2));
  posted.length = 0;
  feed.fetch(2);
  feed.fetch(1);
  assert.deepEqual(posted, [
    { type: 'message', seq: 2, text: store.get(2)?.raw },
    { type: 'message', seq: 1, text: undefined },
  ]);
  feed.dispose();
});

test('what the inspector page posts is checked before the host acts on it', () => {
  for (const ok of [
    { type: 'ready' },
    { type: 'ready', protocolVersion: 1 },
    { type: 'reloadView' },
    { type: 'clear' },
    { type: 'export' },
    { type: 'fetch', seq: 3 },
    { type: 'copy', seq: 0 },
  ])
    assert.ok(isInspectorWebviewMessage(ok), JSON.stringify(ok));
  for (const bad of [
    null,
    'ready',
    {},
    { type: 'fetch' },
    { type: 'copy', seq: '3' },
    { type: 'fetch', seq: 1.5 },
    { type: 'run', command: 'rm' },
    { type: 'toString' },
  ])
    assert.ok(!isInspectorWebviewMessage(bad), JSON.stringify(bad));
});
