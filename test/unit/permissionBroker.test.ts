import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { PermissionBroker } from '../../src/client/permissionBroker';
import type { PermissionEvent } from '../../src/client/permissionBroker';
import { bareClient } from '../support/bareClient';

const options: acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Never', kind: 'reject_always' },
];

function req(kind?: acp.ToolKind, sessionId = 's1', toolCallId = 'call_1'): acp.RequestPermissionRequest {
  return { sessionId, toolCall: { toolCallId, kind, title: 'Run ls' }, options };
}

/**
 * Resolves to 'pending' when the promise has not settled after a macrotask: everything already
 * resolved has run its microtasks by then, so no fixed wait is needed.
 */
async function state<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
}

test('respond answers with the chosen option and removes the request', async () => {
  const b = new PermissionBroker();
  const { requestId, response } = b.request(req('edit'));
  assert.deepEqual(b.pending(), [requestId]);
  assert.equal(await state(response), 'pending');
  assert.equal(b.respond(requestId, 'allow-once'), true);
  assert.deepEqual(await response, { outcome: { outcome: 'selected', optionId: 'allow-once' } });
  assert.deepEqual(b.pending(), []);
});

test('an unknown option id is rejected and the request stays pending', async () => {
  const b = new PermissionBroker();
  const { requestId, response } = b.request(req('edit'));
  assert.equal(b.respond(requestId, 'made-up'), false);
  assert.equal(b.respond('perm-404', 'allow-once'), false);
  assert.equal(await state(response), 'pending');
  assert.deepEqual(b.pending(), [requestId]);
  assert.equal(b.respond(requestId, 'reject-once'), true);
  assert.deepEqual(await response, { outcome: { outcome: 'selected', optionId: 'reject-once' } });
});

test('exactly once: racing responds, cancels and aborts — only the first wins', async () => {
  for (let round = 0; round < 50; round++) {
    const b = new PermissionBroker();
    const ac = new AbortController();
    const answered: Array<Extract<PermissionEvent, { kind: 'answered' }>> = [];
    b.onDidChange((e) => {
      if (e.kind === 'answered') answered.push(e);
    });
    const { requestId, response } = b.request(req('execute'), ac.signal);
    const attempts: Array<() => boolean> = [
      () => b.respond(requestId, 'allow-once'),
      () => b.respond(requestId, 'reject-once'),
      () => b.cancelAll().includes(requestId),
      () => (ac.abort(), !b.pending().includes(requestId) && answered.length === 1 && answered[0].source === 'aborted'),
    ];
    // A different order each round, each attempt from its own microtask.
    const order = attempts.map((_, i) => (i + round) % attempts.length);
    const results = await Promise.all(order.map((i) => Promise.resolve().then(attempts[i])));
    const first = order[0];
    assert.equal(answered.length, 1, `round ${round}: one answer event`);
    assert.deepEqual(results.filter(Boolean).length, 1, `round ${round}: one winner, got ${JSON.stringify(results)}`);
    assert.equal(results[0], true, 'the first attempt wins');
    const expected =
      first === 0 ? { outcome: 'selected', optionId: 'allow-once' } : first === 1 ? { outcome: 'selected', optionId: 'reject-once' } : { outcome: 'cancelled' };
    assert.deepEqual((await response).outcome, expected);
    b.dispose();
  }
});

test('a listener responding re-entrantly cannot answer twice', async () => {
  const b = new PermissionBroker();
  let inner: boolean | undefined;
  b.onDidChange((e) => {
    if (e.kind === 'answered') inner = b.respond(e.requestId, 'reject-once');
  });
  const { requestId, response } = b.request(req('edit'));
  assert.equal(b.respond(requestId, 'allow-once'), true);
  assert.equal(inner, false);
  assert.deepEqual((await response).outcome, { outcome: 'selected', optionId: 'allow-once' });
});

test('cancelAll answers every pending request cancelled and returns their ids', async () => {
  const b = new PermissionBroker();
  const one = b.request(req('edit', 's1', 'a'));
  const two = b.request(req('execute', 's1', 'b'));
  const three = b.request(req('read', 's2', 'c'));
  assert.equal(b.respond(two.requestId, 'allow-once'), true);
  assert.deepEqual(b.cancelAll('s1'), [one.requestId]);
  assert.deepEqual(b.pending(), [three.requestId]);
  assert.deepEqual(b.cancelAll(), [three.requestId]);
  assert.deepEqual(b.cancelAll(), []);
  assert.deepEqual((await one.response).outcome, { outcome: 'cancelled' });
  assert.deepEqual((await two.response).outcome, { outcome: 'selected', optionId: 'allow-once' });
  assert.deepEqual((await three.response).outcome, { outcome: 'cancelled' });
  assert.equal(b.respond(one.requestId, 'allow-once'), false);
});

test('abort (connection closed) removes the request and answers cancelled', async () => {
  const b = new PermissionBroker();
  const events: PermissionEvent[] = [];
  b.onDidChange((e) => events.push(e));
  const ac = new AbortController();
  const { requestId, response } = b.request(req('edit'), ac.signal);
  ac.abort();
  assert.deepEqual((await response).outcome, { outcome: 'cancelled' });
  assert.deepEqual(b.pending(), []);
  assert.equal(b.respond(requestId, 'allow-once'), false);
  assert.deepEqual(
    events.map((e) => [e.kind, e.kind === 'answered' ? e.source : '']),
    [
      ['added', ''],
      ['answered', 'aborted'],
    ],
  );
  // An already aborted signal never shows a prompt.
  const late = b.request(req('edit'), ac.signal);
  assert.deepEqual((await late.response).outcome, { outcome: 'cancelled' });
  assert.deepEqual(b.pending(), []);
});

test('dispose cancels everything pending and later requests are cancelled at once', async () => {
  const b = new PermissionBroker();
  const { response } = b.request(req('edit'));
  b.dispose();
  b.dispose();
  assert.deepEqual((await response).outcome, { outcome: 'cancelled' });
  assert.deepEqual((await b.request(req('edit')).response).outcome, { outcome: 'cancelled' });
});

test('an "always" answer is passed to the agent and never remembered: the next request of the same kind is asked again', async () => {
  const b = new PermissionBroker();
  const first = b.request(req('execute'));
  assert.equal(b.respond(first.requestId, 'allow-always'), true);
  assert.deepEqual((await first.response).outcome, { outcome: 'selected', optionId: 'allow-always' });
  // "Always allow ls" must not answer "rm -rf build": the broker asks again, whatever the kind.
  const again = b.request(req('execute', 's1', 'call_2'));
  assert.deepEqual(b.pending(), [again.requestId]);
  b.respond(again.requestId, 'reject-always');
  const third = b.request(req('execute', 's1', 'call_3'));
  assert.deepEqual(b.pending(), [third.requestId]);
  b.dispose();
});

test('get returns the params of a pending request only', () => {
  const b = new PermissionBroker();
  const params = req('edit');
  const { requestId } = b.request(params);
  assert.equal(b.get(requestId), params);
  b.respond(requestId, 'allow-once');
  assert.equal(b.get(requestId), undefined);
});

/** A real scripted agent asking for permission through the broker; `answer` reacts to each prompt. */
async function overStdio(
  t: { after: (fn: () => void) => void },
  b: PermissionBroker,
  steps: unknown[],
  onAdded: (requestId: string, conn: acp.ClientConnection) => void,
): Promise<{ said: string[]; prompt: Promise<acp.PromptResponse> }> {
  const client = await bareClient(t, steps, (app) =>
    app.onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => b.request(params, signal).response),
  );
  b.onDidChange((e) => e.kind === 'added' && onAdded(e.requestId, client.conn));
  return { said: client.said, prompt: client.prompt() };
}

test('over stdio: the user answers reach a real agent exactly as chosen', async (t) => {
  const b = new PermissionBroker();
  const step = { permission: { toolCall: { toolCallId: 'c1', kind: 'execute', title: 'Run ls' }, options } };
  const answers = ['reject-once', 'allow-always', 'allow-once'];
  const { said, prompt } = await overStdio(t, b, [step, step, step], (id) => {
    const optionId = answers.shift();
    // Answer from a later task, like a click would, and try a second answer that must be ignored.
    setTimeout(() => {
      assert.equal(b.respond(id, optionId as string), true);
      assert.equal(b.respond(id, 'allow-once'), false);
    }, 5);
  });
  assert.equal((await prompt).stopReason, 'end_turn');
  for (let i = 0; i < 100 && said.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  // The third request was asked again: an "always" answer is the agent's to remember, not Tandem's.
  assert.deepEqual(said, ['PERMISSION: selected reject-once', 'PERMISSION: selected allow-always', 'PERMISSION: selected allow-once']);
  assert.deepEqual(b.pending(), []);
});

test('over stdio: a prompt open when the connection closes is answered cancelled and removed', async (t) => {
  const b = new PermissionBroker();
  const answered: PermissionEvent[] = [];
  b.onDidChange((e) => e.kind === 'answered' && answered.push(e));
  const step = { permission: { toolCall: { toolCallId: 'c1', kind: 'edit' }, options } };
  const { prompt } = await overStdio(t, b, [step], (_id, conn) => setTimeout(() => conn.close(), 5));
  await assert.rejects(prompt);
  for (let i = 0; i < 100 && answered.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(b.pending(), []);
  assert.equal(answered.length, 1);
  assert.equal(answered[0].kind === 'answered' && answered[0].source, 'aborted');
});
