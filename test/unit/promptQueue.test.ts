import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { QueueView } from '../../src/protocol/messages';
import { MAX_QUEUED_ITEMS, PromptQueue } from '../../src/conversation/promptQueue';

function queue(): { q: PromptQueue; views: QueueView[] } {
  const views: QueueView[] = [];
  return { q: new PromptQueue((v) => views.push(v)), views };
}

const texts = (q: PromptQueue) => q.view().items.map((i) => i.text);

test('prompts leave in the order they were written, each reported to the panel', () => {
  const { q, views } = queue();
  q.add('one');
  q.add('two');
  q.add('three');
  assert.deepEqual(texts(q), ['one', 'two', 'three']);
  assert.equal(q.takeNext()?.text, 'one');
  assert.equal(q.takeNext()?.text, 'two');
  assert.deepEqual(texts(q), ['three']);
  assert.deepEqual(views.at(-1), q.view(), 'the last report is the current state');
});

test('empty, whitespace-only and over-long prompts are refused; the queue is bounded', () => {
  const { q } = queue();
  assert.equal(q.add(''), undefined);
  assert.equal(q.add('  \n '), undefined);
  assert.equal(q.add('x'.repeat(1_000_001)), undefined);
  for (let i = 0; i < MAX_QUEUED_ITEMS; i++) assert.ok(q.add(`p${i}`));
  assert.equal(q.add('one too many'), undefined);
  assert.equal(q.size, MAX_QUEUED_ITEMS);
});

test('a paused queue sends nothing until resumed; pausing an empty queue holds nothing back', () => {
  const { q } = queue();
  q.pause('The last turn was cancelled.');
  assert.equal(q.paused, false, 'nothing to hold back');
  q.add('after the cancel');
  q.add('and this');
  q.pause('The last turn was cancelled.');
  assert.equal(q.view().paused, 'The last turn was cancelled.');
  assert.equal(q.takeNext(), undefined);
  q.resume();
  assert.equal(q.takeNext()?.text, 'after the cancel');
});

test('edit, remove, move and promote work by id and report no-ops as false', () => {
  const { q } = queue();
  const a = q.add('a')!;
  const b = q.add('b')!;
  const c = q.add('c')!;
  assert.equal(q.edit(b, 'B'), true);
  assert.equal(q.edit(b, '   '), false, 'an edit cannot empty a prompt');
  assert.equal(q.edit('nope', 'x'), false);
  assert.equal(q.move(c, -5), true, 'moves clamp to the front');
  assert.deepEqual(texts(q), ['c', 'a', 'B']);
  assert.equal(q.move(c, -1), false, 'already first');
  assert.equal(q.move(a, 1), true);
  assert.deepEqual(texts(q), ['c', 'B', 'a']);
  q.pause('The last turn failed.');
  assert.equal(q.promote(a), true);
  assert.equal(q.paused, false, 'send now means the user decided');
  assert.deepEqual(texts(q), ['a', 'c', 'B']);
  assert.equal(q.remove(c), true);
  assert.equal(q.remove(c), false);
  assert.deepEqual(texts(q), ['a', 'B']);
});

test('removing the last item lifts the pause; clear empties and unpauses', () => {
  const { q } = queue();
  const a = q.add('a')!;
  q.pause('The last turn failed.');
  q.remove(a);
  assert.equal(q.paused, false);
  q.add('x');
  q.add('y');
  q.pause('stopped');
  q.clear();
  assert.deepEqual(q.view(), { items: [] });
});

test('restored items wait for the user (VS Code closed with prompts unsent)', () => {
  const { q } = queue();
  q.restore([
    { id: 'old1', text: 'first' },
    { id: 'old2', text: '' },
    { id: 'old3', text: 'second' },
  ]);
  assert.deepEqual(texts(q), ['first', 'second']);
  assert.match(q.view().paused ?? '', /waiting when VS Code closed/);
  assert.equal(q.takeNext(), undefined);
});

test('property: any sequence of operations keeps ids unique and never loses or invents a prompt', () => {
  type Op =
    | { kind: 'add'; text: string }
    | { kind: 'take' }
    | { kind: 'remove' | 'promote'; pick: number }
    | { kind: 'move'; pick: number; by: number }
    | { kind: 'pause' | 'resume' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), text: fc.string({ minLength: 1, maxLength: 5 }).filter((t) => t.trim() !== '') }),
    fc.record({ kind: fc.constant('take' as const) }),
    fc.record({ kind: fc.constantFrom('remove' as const, 'promote' as const), pick: fc.nat(10) }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat(10), by: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ kind: fc.constantFrom('pause' as const, 'resume' as const) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const { q } = queue();
      let taken = 0;
      let removed = 0;
      let added = 0;
      for (const o of ops) {
        const ids = q.view().items.map((i) => i.id);
        if (o.kind === 'add') {
          if (q.add(o.text)) added++;
        } else if (o.kind === 'take') {
          if (q.takeNext()) taken++;
        } else if (o.kind === 'remove') {
          if (ids.length && q.remove(ids[o.pick % ids.length])) removed++;
        } else if (o.kind === 'promote') {
          if (ids.length) q.promote(ids[o.pick % ids.length]);
        } else if (o.kind === 'move') {
          if (ids.length) q.move(ids[o.pick % ids.length], o.by);
        } else if (o.kind === 'pause') q.pause('p');
        else q.resume();
        const view = q.view();
        assert.equal(new Set(view.items.map((i) => i.id)).size, view.items.length);
      }
      assert.equal(q.size, added - taken - removed);
    }),
  );
});
