// splitSnapshot: what a long thread's first message carries (src/session/snapshotSplit.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationSnapshot, Entry } from '../../src/protocol/messages';
import { FIRST_PAINT_CHARS, FIRST_PAINT_ENTRIES, OlderEntries, splitSnapshot } from '../../src/views/snapshotSplit';

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
  kind: 'tool_call',
  id,
  toolCallId: id,
  title: 'run',
  toolKind: 'execute',
  status: 'completed',
  content: [{ type: 'terminal', terminalId }],
  locations: [],
});

test('a short thread goes whole, in one message', () => {
  const snapshot = conversation(
    Array.from({ length: FIRST_PAINT_ENTRIES }, (_, i) => text(`a${i}`)),
    ['t1'],
  );
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
  assert.deepEqual(
    split.first.entries.map((e) => e.id),
    ['h1'],
    'one huge last entry still goes first',
  );
  assert.deepEqual(
    split.older?.entries.map((e) => e.id),
    ['h0'],
  );
});

test("OlderEntries: a snapshot and a tab switch are split alike; only the shown conversation's part is given, once", () => {
  const keeper = new OlderEntries();
  const long = (id: string): ConversationSnapshot => ({ ...conversation(Array.from({ length: 100 }, (_, i) => text(`${id}-${i}`))), conversationId: id });
  const first = keeper.split(long('c1'));
  assert.equal(first.olderEntries, 100 - FIRST_PAINT_ENTRIES);
  // A tab switch replaces what is kept: the panel asks only for the conversation it shows.
  const shown = keeper.outgoing({ type: 'conversationShown', conversation: long('c2') });
  assert.ok(shown.type === 'conversationShown' && shown.conversation.entries.length === FIRST_PAINT_ENTRIES);
  assert.equal(keeper.take('c1'), undefined, 'c1 is not shown any more');
  const again = keeper.outgoing({ type: 'conversationShown', conversation: long('c2') });
  assert.ok(again.type === 'conversationShown');
  const older = keeper.take('c2');
  assert.deepEqual(
    older?.entries.map((e) => e.id),
    Array.from({ length: 100 - FIRST_PAINT_ENTRIES }, (_, i) => `c2-${i}`),
  );
  assert.equal(keeper.take('c2'), undefined, 'given once');
  const other = { type: 'statusChanged', status: { kind: 'ready', agentName: 'A' } } as const;
  assert.equal(keeper.outgoing(other), other, 'other messages pass unchanged');
});

test('a subagent whose steps fill the first message brings its parent card into it (the panel nests children only under a card it has)', () => {
  const parent: Entry = { ...(withTerminal('p', 'tp') as Extract<Entry, { kind: 'tool_call' }>), content: [], title: 'Agent: explore' };
  const entries: Entry[] = [
    ...Array.from({ length: 20 }, (_, i) => text(`before${i}`)),
    parent,
    ...Array.from({ length: 5 }, (_, i) => text(`between${i}`)),
    ...Array.from({ length: FIRST_PAINT_ENTRIES + 20 }, (_, i): Entry => ({ kind: 'agent', id: `child${i}`, text: 'step', parentId: 'p' })),
  ];
  const { first, older } = splitSnapshot(conversation(entries));
  assert.equal(first.entries[0].id, 'p', 'the split starts at the parent');
  assert.equal(older?.entries.length, 20);
  assert.ok(first.entries.every((e) => !('parentId' in e) || first.entries.some((p) => p.id === e.parentId)));
});
