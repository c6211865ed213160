// The fast tier, one test per group of intents: what a click or an editor command asks of a
// Conversation (src/conversation/conversationIntents.ts), driven against the in-memory StubAgent and
// judged by what the agent received and what the panel is told — never by reaching into the parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { flush, stubSession, type StubRig } from '../support/stubSession';

async function started(rig: StubRig): Promise<string> {
  await rig.manager.init();
  await rig.conversation.connect();
  const sessionId = rig.conversation.meta.sessionId;
  assert.ok(sessionId, 'a session was opened');
  return sessionId;
}

const queueOf = (rig: StubRig) => rig.conversation.snapshot().queue ?? { items: [] };
const queued = (rig: StubRig) => queueOf(rig).items.map((i) => i.text);
const lastError = (rig: StubRig) =>
  rig.conversation
    .snapshot()
    .entries.filter((e) => e.kind === 'error')
    .at(-1);

test('connect / disconnect / queries: a session opens and closes; a fresh conversation is untouched until spoken to', async () => {
  const rig = stubSession();
  await rig.manager.init();
  assert.ok(rig.conversation.untouched);
  assert.ok(!rig.conversation.hasHistory);
  const sessionId = await started(rig);
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.ok(rig.conversation.agentRuntime?.alive);
  rig.conversation.prompt('hello');
  await flush();
  rig.agent.endTurn('end_turn');
  await flush();
  assert.ok(!rig.conversation.untouched);
  assert.ok(rig.conversation.hasHistory);
  const user = rig.conversation.snapshot().entries.find((e) => e.kind === 'user');
  assert.equal(user && rig.conversation.entry(user.id)?.kind, 'user');
  await rig.conversation.disconnect();
  assert.equal(rig.conversation.agentRuntime, undefined, 'the runtime is let go');
  // The agent is told only when it offers session/close.
  assert.ok(!rig.agent.methods().includes('session/close'));
  assert.equal(rig.conversation.meta.sessionId, sessionId, 'the session is kept, to resume later');
  rig.manager.dispose();
});

test('queue intents: edit, move, remove, send now and clear act on the queued prompts', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('running');
  await flush();
  rig.conversation.prompt('one');
  rig.conversation.prompt('two');
  rig.conversation.prompt('three');
  const [one, two, three] = queueOf(rig).items;
  assert.ok(one && two && three);
  assert.ok(rig.conversation.editQueued(one.id, 'one, edited'));
  assert.ok(rig.conversation.moveQueued(three.id, -2));
  assert.deepEqual(queued(rig), ['three', 'one, edited', 'two']);
  assert.ok(rig.conversation.removeQueued(two.id));
  assert.deepEqual(queued(rig), ['three', 'one, edited']);
  // Send now stops the running turn for it.
  rig.conversation.sendNow(one.id);
  await flush();
  assert.ok(rig.agent.methods().includes('session/cancel'));
  const sent = rig.agent.received.filter((r) => r.method === 'session/prompt').at(-1)?.params as { prompt: Array<{ text?: string }> };
  assert.equal(sent.prompt[0]?.text, 'one, edited');
  rig.conversation.clearQueue();
  assert.deepEqual(queued(rig), []);
  rig.manager.dispose();
});

test('stop and resumeQueue: a stopped turn pauses the queue; resuming sends what waits', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('first');
  await flush();
  rig.conversation.prompt('second');
  rig.conversation.stop();
  await flush();
  assert.ok(queueOf(rig).paused, 'the queued prompt waits for the user');
  const before = rig.agent.methods().filter((m) => m === 'session/prompt').length;
  rig.conversation.resumeQueue();
  await flush();
  assert.equal(rig.agent.methods().filter((m) => m === 'session/prompt').length, before + 1);
  assert.deepEqual(queued(rig), []);
  rig.manager.dispose();
});

test('retry: after a failed turn the queue goes again; after a crash the session opens again first', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('first');
  await flush();
  rig.conversation.prompt('second');
  rig.agent.failTurn(new acp.RequestError(-32603, 'Internal error'));
  await flush();
  assert.ok(lastError(rig), 'the failure is shown');
  await rig.conversation.retry();
  await flush();
  assert.deepEqual(queued(rig), [], 'the queue went again');
  rig.agent.endTurn('end_turn');
  await flush();
  rig.agent.crash();
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  await rig.conversation.retry();
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  rig.manager.dispose();
});

test('restart: the agent process is stopped, started again and the session resumed', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  assert.equal(rig.agent.starts, 1);
  await rig.conversation.restart();
  await flush();
  assert.equal(rig.agent.starts, 2);
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.equal(rig.conversation.meta.sessionId, sessionId);
  rig.manager.dispose();
});

test('startFresh: a new session for the same conversation', async () => {
  const rig = stubSession();
  const first = await started(rig);
  await rig.conversation.startFresh();
  await flush();
  assert.notEqual(rig.conversation.meta.sessionId, first);
  assert.equal(rig.agent.methods().filter((m) => m === 'session/new').length, 2);
  rig.manager.dispose();
});

test('respondPermission: the agent gets the chosen option; an unknown request is refused', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('do it');
  await flush();
  const answer = rig.agent.requestPermission({
    sessionId,
    toolCall: { toolCallId: 't1', title: 'Run ls', kind: 'execute' },
    options: [{ optionId: 'y', name: 'Allow', kind: 'allow_once' }],
  });
  await flush();
  const call = rig.conversation.snapshot().entries.find((e) => e.kind === 'tool_call');
  const requestId = call?.kind === 'tool_call' ? call.permission?.requestId : undefined;
  assert.ok(requestId, 'the prompt shows');
  assert.ok(rig.conversation.respondPermission(requestId, 'y'));
  assert.deepEqual(await answer, { outcome: { outcome: 'selected', optionId: 'y' } });
  assert.ok(!rig.conversation.respondPermission(requestId, 'y'), 'answered once');
  rig.manager.dispose();
});

test('setMode and setConfigOption reach the agent', async () => {
  const rig = stubSession();
  await started(rig);
  await rig.conversation.setMode('plan');
  await rig.conversation.setConfigOption('model', 'fast');
  // A session without those modes or options refuses them here, saying so: nothing half-sent.
  const sent = rig.agent.methods().filter((m) => m === 'session/set_mode' || m === 'session/set_config_option' || m === 'session/set_model');
  const warned = rig.log.lines.some((l) => /not set|not changed/.test(l.text));
  assert.ok(sent.length > 0 || warned);
  rig.manager.dispose();
});

test('signIn and authenticate: the card’s method runs authenticate, then the session opens', async () => {
  const rig = stubSession();
  rig.agent.behaviour.initialize = { ...rig.agent.behaviour.initialize, authMethods: [{ id: 'login', name: 'Log in' }] };
  rig.agent.behaviour.newSessionError = acp.RequestError.authRequired();
  await rig.manager.init();
  await rig.conversation.connect();
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  const card = rig.conversation.snapshot().entries.find((e) => e.kind === 'auth');
  assert.ok(card, 'the sign-in card shows');
  await rig.conversation.signIn();
  await flush();
  assert.ok(rig.agent.methods().includes('authenticate'));
  assert.equal(rig.conversation.status.kind, 'ready');
  // A method of the card by id (the card's own buttons) is the same door.
  await rig.conversation.authenticate('login');
  rig.manager.dispose();
});

test('signOut: the agent’s logout when it advertises it, keys forgotten restart it; otherwise it says it cannot', async () => {
  const rig = stubSession();
  await started(rig);
  let outcome = await rig.conversation.signOut(async () => false);
  assert.deepEqual(outcome, { kind: 'unsupported', running: true, forgotKeys: false });
  assert.ok(!rig.conversation.canSignOut);
  await rig.conversation.disconnect();
  rig.manager.dispose();

  const out = stubSession();
  out.agent.behaviour.initialize = { ...out.agent.behaviour.initialize, agentCapabilities: { loadSession: true, auth: { logout: {} } } };
  await started(out);
  assert.ok(out.conversation.canSignOut);
  outcome = await out.conversation.signOut(async () => true);
  assert.deepEqual(outcome, { kind: 'signedOut', forgotKeys: true });
  assert.ok(out.agent.methods().includes('logout'));
  assert.equal(out.agent.starts, 2, 'the agent started again without the keys');
  out.manager.dispose();
});

test('rewind: nothing recorded before a turn (no review here) is refused, not guessed', async () => {
  const rig = stubSession();
  await started(rig);
  assert.equal(await rig.conversation.rewind('no-such-entry'), false);
  rig.manager.dispose();
});
