import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage } from '../../src/protocol/messages';
import { describeStartFailure } from '../../src/runtime/startFailure';
import { terminalMetaEvents } from '../../src/thread/agentTerminals';
import { TerminalViews } from '../../src/thread/terminalViews';
import { BatchedPoster } from '../../src/views/batchedPoster';
import { coalesce } from '../../src/views/messageBatch';
import { isWebviewMessage } from '../../src/views/messageGuard';

test('coalesce merges consecutive appends and repeated upserts without changing the result', () => {
  const entry = (text: string): HostMessage => ({ type: 'entryUpserted', entry: { kind: 'agent', id: 'e1', text } });
  const out = coalesce([
    { type: 'textAppended', id: 'e1', text: 'a' },
    { type: 'textAppended', id: 'e1', text: 'b' },
    { type: 'textAppended', id: 'e2', text: 'c' },
    { type: 'terminalAppended', terminalId: 't', text: 'x', truncated: false },
    { type: 'terminalAppended', terminalId: 't', text: 'y', truncated: true },
    entry('1'),
    entry('2'),
    { type: 'textAppended', id: 'e1', text: 'd' },
  ]);
  assert.deepEqual(out, [
    { type: 'textAppended', id: 'e1', text: 'ab' },
    { type: 'textAppended', id: 'e2', text: 'c' },
    { type: 'terminalAppended', terminalId: 't', text: 'xy', truncated: true },
    entry('2'),
    { type: 'textAppended', id: 'e1', text: 'd' },
  ]);
});

test('the webview message guard rejects malformed commands', () => {
  assert.equal(isWebviewMessage({ type: 'prompt', text: 'hi' }), true);
  assert.equal(isWebviewMessage({ type: 'prompt' }), false);
  assert.equal(isWebviewMessage({ type: 'respondPermission', requestId: 'r', optionId: 5 }), false);
  assert.equal(isWebviewMessage({ type: 'eval', code: 'x' }), false);
  assert.equal(isWebviewMessage('ready'), false);
  assert.equal(isWebviewMessage(null), false);
  assert.equal(isWebviewMessage({ type: 'cancel' }), true);
});

test('terminal views keep a bounded tail, report truncation and survive unknown ids', () => {
  const views = new TerminalViews();
  assert.equal(views.apply({ kind: 'output', terminalId: 'nope', text: 'x', truncated: false }), undefined);
  views.apply({ kind: 'created', terminalId: 't1', command: 'yes' });
  const chunk = 'y\n'.repeat(32 * 1024);
  for (let i = 0; i < 40; i++) views.apply({ kind: 'output', terminalId: 't1', text: chunk, truncated: false });
  views.apply({ kind: 'output', terminalId: 't1', text: 'END', truncated: false });
  const view = views.get('t1');
  assert.ok(view);
  assert.ok(view.output.length <= 512 * 1024);
  assert.ok(view.output.endsWith('y\nEND'));
  assert.equal(view.truncated, true);
  const exit = views.apply({ kind: 'exit', terminalId: 't1', exitCode: 0, signal: null });
  assert.equal(exit?.type, 'terminalChanged');
  assert.deepEqual(views.all().t1.exit, { exitCode: 0, signal: null });
});

test('start failures say what to do', () => {
  const notFound = Object.assign(new Error("Command 'x' was not found on PATH."), { code: 'not_found' });
  assert.equal(describeStartFailure(notFound, 'X', '').action, 'retry');
  const sandbox = describeStartFailure(new Error('Internal error'), 'Claude', '--dangerously-skip-permissions cannot be used with root');
  assert.match(sandbox.message, /root/);
  assert.equal(sandbox.detail, '--dangerously-skip-permissions cannot be used with root');
});

test('terminal output an agent carries in _meta becomes a terminal the panel can show', () => {
  const views = new TerminalViews();
  const known = (id: string) => views.get(id) !== undefined;
  const apply = (update: Record<string, unknown>) => terminalMetaEvents(update, () => 'Run ls', known).forEach((e) => views.apply(e));
  apply({ toolCallId: 'c1', _meta: { terminal_output: { terminal_id: 'ext-1', data: 'a.txt\n' } } });
  apply({
    toolCallId: 'c1',
    _meta: { terminal_output: { terminal_id: 'ext-1', data: 'b.txt\n' }, terminal_exit: { terminal_id: 'ext-1', exit_code: 0, signal: null } },
  });
  assert.deepEqual(views.get('ext-1'), {
    terminalId: 'ext-1',
    command: 'Run ls',
    output: 'a.txt\nb.txt\n',
    truncated: false,
    exit: { exitCode: 0, signal: null },
  });
  assert.deepEqual(
    terminalMetaEvents({ _meta: 'nope' }, () => 'x', known),
    [],
  );
  assert.deepEqual(
    terminalMetaEvents({ _meta: { terminal_output: { terminal_id: 5, data: 'x' } } }, () => 'x', known),
    [],
  );
});

test('a flood of terminal output is posted as the tail the panel keeps', () => {
  const chunk = 'z'.repeat(300 * 1024);
  const out = coalesce([
    { type: 'terminalAppended', terminalId: 't', text: `A${chunk}`, truncated: false },
    { type: 'terminalAppended', terminalId: 't', text: `${chunk}B`, truncated: false },
  ]);
  assert.equal(out.length, 1);
  const only = out[0];
  assert.ok(only.type === 'terminalAppended');
  assert.equal(only.text.length, 512 * 1024);
  assert.ok(only.text.endsWith('B') && !only.text.startsWith('A'));
  assert.equal(only.truncated, true);
});

test('the poster sends an isolated update (and one right after it) on the next tick, and paces a burst to one post per interval', (t) => {
  // A fake clock: the pacing is asserted exactly, never by sleeping and hoping.
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 10_000 });
  const posts: HostMessage[] = [];
  const poster = new BatchedPoster((m) => posts.push(m), 50);
  poster.push({ type: 'textAppended', id: 'e1', text: 'a' });
  poster.push({ type: 'textAppended', id: 'e1', text: 'b' });
  assert.equal(posts.length, 0, 'nothing is posted within the pushing tick');
  t.mock.timers.tick(0);
  assert.deepEqual(posts, [{ type: 'textAppended', id: 'e1', text: 'ab' }], 'same-tick messages merge and go out at once');
  t.mock.timers.tick(5);
  poster.push({ type: 'textAppended', id: 'e1', text: 'c' });
  t.mock.timers.tick(0);
  assert.deepEqual(posts[1], { type: 'textAppended', id: 'e1', text: 'c' }, 'one more right after is not held back (the first chunk after the prompt)');
  t.mock.timers.tick(5);
  poster.push({ type: 'textAppended', id: 'e1', text: 'd' });
  t.mock.timers.tick(5);
  poster.push({ type: 'textAppended', id: 'e1', text: 'e' });
  // Tokens: 2 - 1 (at 0) - 1 (at 5) + 10/50 (refilled by 10) = 0.2; the next one is whole at 5 + 40 = 45.
  t.mock.timers.tick(34);
  assert.equal(posts.length, 2, 'then messages wait for the interval');
  t.mock.timers.tick(1);
  assert.deepEqual(posts[2], { type: 'textAppended', id: 'e1', text: 'de' }, 'and then go out together');
  assert.equal(poster.idle, true);
  poster.push({ type: 'entriesCleared' });
  poster.discard();
  assert.equal(poster.idle, true);
  t.mock.timers.tick(1000);
  assert.equal(posts.length, 3, 'discarded messages are never posted');
});

test('the poster posts a status change at once with what waits, and stretches its interval in a flood', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 10_000 });
  const times: number[] = [];
  const posts: HostMessage[] = [];
  const poster = new BatchedPoster((m) => {
    posts.push(m);
    times.push(Date.now());
  }, 16);
  // A flood: 100 chunks every millisecond for 800 ms.
  for (let ms = 0; ms < 800; ms++) {
    for (let i = 0; i < 100; i++) poster.push({ type: 'textAppended', id: 'e1', text: 'x' });
    t.mock.timers.tick(1);
  }
  const gaps = times.slice(1).map((time, i) => time - times[i]);
  assert.ok(gaps[0] <= 16, `the flood starts at the minimum pace: ${gaps.join(' ')}`);
  assert.deepEqual(gaps.slice(-4), [100, 100, 100, 100], 'a flood is posted every 100 ms');
  const before = posts.length;
  poster.push({ type: 'textAppended', id: 'e1', text: 'last' });
  poster.push({ type: 'statusChanged', status: { kind: 'ready', agentName: 'A' } });
  assert.equal(posts.length, before + 1, 'the status change went out at once');
  const flushed = posts[before];
  assert.ok(flushed.type === 'batch');
  assert.deepEqual(flushed.messages.at(-1), { type: 'statusChanged', status: { kind: 'ready', agentName: 'A' } });
  assert.ok(
    flushed.messages.some((m) => m.type === 'textAppended' && m.text.endsWith('last')),
    'with the text that waited',
  );
  // Calm again: single messages bring the interval back to 16 ms.
  t.mock.timers.tick(1000);
  for (let i = 0; i < 4; i++) {
    poster.push({ type: 'textAppended', id: 'e1', text: 'y' });
    t.mock.timers.tick(16);
  }
  const calm = times.slice(-3);
  assert.deepEqual(
    calm.slice(1).map((time, i) => time - calm[i]),
    [16, 16],
  );
  let text = '';
  for (const post of posts) for (const m of post.type === 'batch' ? post.messages : [post]) if (m.type === 'textAppended') text += m.text;
  assert.equal(text, 'x'.repeat(80_000) + 'last' + 'yyyy', 'nothing lost, nothing doubled, in order');
});
