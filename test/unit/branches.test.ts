// Pure logic of edited prompts: where a fork cuts (src/conversation/forkPoint.ts) and which version of
// a prompt a conversation shows (src/conversation/branches.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Entry } from '../../src/protocol/messages';
import { editedEntryIn, nodesOf, origin, staleMarks, versionAt, versions, type BranchNode } from '../../src/conversation/branches';
import { entriesBefore, forkMeta, forkPointBefore } from '../../src/conversation/forkPoint';
import { parseIndex } from '../../src/store/conversationFormat';

const user = (id: string): Entry => ({ kind: 'user', id, text: id });
const agent = (id: string, messageId?: string, parentId?: string): Entry => ({
  kind: 'agent',
  id,
  text: id,
  ...(messageId ? { messageId } : {}),
  ...(parentId ? { parentId } : {}),
});

test('forkPointBefore: the last reply of the turn before, not a subagent’s, none before the first prompt or after a silent turn', () => {
  const entries: Entry[] = [
    user('u1'),
    agent('a1', 'm1'),
    agent('a1b', 'm1b'),
    agent('sub', 'ms', 'tool'),
    user('u2'),
    { kind: 'turn_end', id: 't', stopReason: 'end_turn' },
    user('u3'),
  ];
  assert.equal(forkPointBefore(entries, 'u2'), 'm1b');
  assert.equal(forkPointBefore(entries, 'u1'), undefined, 'nothing before the first prompt');
  assert.equal(forkPointBefore(entries, 'u3'), undefined, 'the turn before said nothing with an id');
  assert.equal(forkPointBefore([user('u1'), agent('a1'), user('u2')], 'u2'), undefined, 'an agent that sends no ids');
  assert.equal(forkPointBefore(entries, 'a1'), undefined, 'only prompts are edited');
  assert.deepEqual(forkMeta('m1'), { jetbrains: { air: { fork: { version: 1, messageId: 'm1' } } } });
});

test('entriesBefore: what a branch copies, without subagent entries whose card is not copied', () => {
  const entries: Entry[] = [user('u1'), agent('a1', 'm1'), agent('orphan', undefined, 'later-card'), user('u2'), agent('a2')];
  assert.deepEqual(
    entriesBefore(entries, 'u2').map((e) => e.id),
    ['u1', 'a1'],
  );
  assert.deepEqual(entriesBefore(entries, 'missing'), []);
});

test('versions: a branch’s edited prompt is a version of the one it replaced; copied prompts are their parent’s; nested edits join the same family', () => {
  const metas: BranchNode[] = [
    { id: 'c1', createdAt: 1 },
    // c2: u2 of c1 edited; u1 copied.
    { id: 'c2', createdAt: 2, branch: { of: 'c1', at: 'u2', entry: 'v2', shared: ['u1'] } },
    // c3: the edit of c2's edit (v2): a third version of u2.
    { id: 'c3', createdAt: 3, branch: { of: 'c2', at: 'v2', entry: 'w2', shared: ['u1'] } },
    // c4: u1 edited from within c2 (where u1 is c1's, copied).
    { id: 'c4', createdAt: 4, branch: { of: 'c2', at: 'u1', shared: [] } },
  ];
  const nodes = nodesOf(metas);
  assert.deepEqual(origin(nodes, 'c3', 'w2'), { conversation: 'c1', entry: 'u2' });
  assert.deepEqual(origin(nodes, 'c2', 'u1'), { conversation: 'c1', entry: 'u1' });
  assert.deepEqual(
    versions(nodes, 'c2', 'v2').map((v) => v.conversation),
    ['c1', 'c2', 'c3'],
  );
  assert.deepEqual(
    versions(nodes, 'c2', 'u1').map((v) => [v.conversation, v.entry]),
    [
      ['c1', 'u1'],
      ['c4', undefined],
    ],
    'the version not sent yet is listed without its entry',
  );
  assert.equal(versionAt(nodes, 'c1', 'u2', 1)?.conversation, 'c2');
  assert.equal(versionAt(nodes, 'c3', 'w2', -2)?.conversation, 'c1');
  assert.equal(versionAt(nodes, 'c3', 'w2', 1), undefined);
  // c2 shows c1's u1 (copied): it is version 1 of 2, and › goes to c4.
  assert.equal(versionAt(nodes, 'c2', 'u1', 1)?.conversation, 'c4');

  const marks = staleMarks(nodes, 'c2', [user('u1'), agent('a1'), { kind: 'user', id: 'v2', text: 'v2', branch: { index: 9, count: 9 } }, user('u3')]);
  assert.deepEqual(
    marks.map((e) => [e.id, e.kind === 'user' ? e.branch : undefined]),
    [
      ['u1', { index: 1, count: 2 }],
      ['v2', { index: 2, count: 3 }],
    ],
    'only the marks that differ are replaced; a single version shows none',
  );
  const cleared = staleMarks(nodesOf([{ id: 'c1', createdAt: 1 }]), 'c1', [{ kind: 'user', id: 'u2', text: '', branch: { index: 1, count: 2 } }]);
  assert.equal(cleared[0]?.kind === 'user' && cleared[0].branch, undefined, 'a branch deleted from History: the mark goes');
});

test('versions hold against a damaged index: a missing parent ends the walk, a cycle is bounded', () => {
  const nodes = nodesOf([
    { id: 'a', createdAt: 1, branch: { of: 'b', at: 'x', entry: 'y', shared: ['s'] } },
    { id: 'b', createdAt: 2, branch: { of: 'a', at: 'y', entry: 'x', shared: ['s'] } },
    { id: 'orphan', createdAt: 3, branch: { of: 'gone', at: 'x', entry: 'z', shared: [] } },
  ]);
  assert.ok(origin(nodes, 'a', 's'));
  assert.deepEqual(origin(nodes, 'orphan', 'z'), { conversation: 'orphan', entry: 'z' });
  assert.equal(versions(nodes, 'orphan', 'z').length, 1);
});

test('editedEntryIn: the first user entry of a branch that was not copied', () => {
  const link = { of: 'c1', at: 'u2', shared: ['u1'] };
  assert.equal(
    editedEntryIn(link, [
      { type: 'entryUpserted', entry: user('u1') },
      { type: 'entryUpserted', entry: user('e9') },
    ]),
    'e9',
  );
  assert.equal(editedEntryIn({ ...link, entry: 'e9' }, [{ type: 'entryUpserted', entry: user('e10') }]), undefined, 'set once');
});

test('the index keeps a branch link, and drops a damaged one (the conversation then stands alone)', () => {
  const base = { agentName: 'A', title: 't', titleSource: 'prompt', cwd: '/w', createdAt: 1, updatedAt: 2 };
  const text = JSON.stringify({
    version: 1,
    openIds: [],
    conversations: [
      { ...base, id: 'c2', branch: { of: 'c1', at: 'u2', entry: 'v2', shared: ['u1'] } },
      { ...base, id: 'c3', branch: { of: '../x', at: 'u2', shared: [] } },
      { ...base, id: 'c4', branch: { of: 'c1', at: 'u2', shared: [3] } },
    ],
  });
  const parsed = parseIndex(text);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value.conversations[0]?.branch, { of: 'c1', at: 'u2', entry: 'v2', shared: ['u1'] });
  assert.equal(parsed.value.conversations[1]?.branch, undefined);
  assert.equal(parsed.value.conversations[2]?.branch, undefined);
});
