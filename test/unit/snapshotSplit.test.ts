// splitSnapshot: what a long thread's first message carries (src/session/snapshotSplit.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationSnapshot, Entry } from '../../src/protocol/messages';
import { FIRST_PAINT_CHARS, FIRST_PAINT_ENTRIES, splitSnapshot } from '../../src/session/snapshotSplit';

function conversation(entries: Entry[], terminals: string[] = []): ConversationSnapshot {
  return {
    conversationId: 'c1',
    title: 't',
    status: { kind: 'ready', agentName: 'A' },
    entries,
    terminals: Object.fromEntries(terminals.map((id) => [id, { terminalId: id, command: 'ls', output: `${id} output`, truncated: false }])),
  };
}

const text = (id: string, size = 10): Entry => ({ kind: 'agent', id, text: 'x'.repeat(size) });
const withTerminal = (id: string, terminalId: string): Entry => ({
  kind: 'tool_call', id, toolCallId: id, title: 'run', toolKind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId }], locations: [],
});

test('a short thread goes whole, in one message', () => {
  const snapshot = conversation(Array.from({ length: FIRST_PAINT_ENTRIES }, (_, i) => text(`a${i}`)), ['t1']);
  const { first, older } = splitSnapshot(snapshot);
  assert.equal(older, undefined);
  assert.equal(first, snapshot);
});

test('a long thread: the last entries first, the rest in order after, each terminal with its entry', () => {
  const entries = [withTerminal('old-run', 'term-old'), ...Array.from({ length: 200 }, (_, i) => text(`a${i}`)), withTerminal('new-run', 'term-new')];
  const { first, older } = splitSnapshot(conversation(entries, ['term-old', 'term-new', 'term-orphan']));
  assert.ok(older);
  assert.equal(first.entries.length, FIRST_PAINT_ENTRIES);
  assert.deepEqual([...older.entries, ...first.entries], entries, 'nothing lost, nothing doubled, order kept');
  assert.equal(first.olderEntries, older.entries.length);
  assert.equal(older.conversationId, 'c1');
  assert.deepEqual(Object.keys(first.terminals), ['term-new']);
  assert.deepEqual(Object.keys(older.terminals).sort(), ['term-old', 'term-orphan']);
});

test('big entries: the first message stays near FIRST_PAINT_CHARS, but always carries the last entry', () => {
  const big = Math.floor(FIRST_PAINT_CHARS / 4);
  const entries = Array.from({ length: 20 }, (_, i) => text(`b${i}`, big));
  const { first, older } = splitSnapshot(conversation(entries));
  assert.ok(older);
  assert.ok(first.entries.length >= 1 && first.entries.length <= 4, `${first.entries.length} entries first`);
  const huge = [text('h0'), text('h1', FIRST_PAINT_CHARS * 3)];
  const split = splitSnapshot(conversation(huge));
  assert.deepEqual(split.first.entries.map((e) => e.id), ['h1'], 'one huge last entry still goes first');
  assert.deepEqual(split.older?.entries.map((e) => e.id), ['h0']);
});
