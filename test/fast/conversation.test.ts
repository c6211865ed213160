// The fast tier: a whole conversation (manager, conversation, thread, runtime routing, queue,
// permissions, sign-in) driven against the in-memory StubAgent, with node:test's mock clock for the
// waits. What took seconds against a real process, and depended on timing, takes milliseconds here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import type { Entry } from '../../src/protocol/messages';
import { REPLAY_QUIET_MS } from '../../src/thread/threadReplay';
import { flush, stubSession, type StubRig } from '../support/stubSession';

const say = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const kinds = (entries: Entry[]) => entries.map((e) => e.kind);

async function started(rig: StubRig): Promise<string> {
  await rig.manager.init();
  await rig.conversation.connect();
  const sessionId = rig.conversation.meta.sessionId;
  assert.ok(sessionId, 'a session was opened');
  return sessionId;
}

test('a turn: the prompt goes out, the streamed reply shows, and the turn ends with its stop reason', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('hello');
  await flush();
  assert.equal(rig.conversation.status.kind, 'running');
  rig.agent.sendUpdate(sessionId, say('Hi '));
  rig.agent.sendUpdate(sessionId, say('there.'));
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.deepEqual(kinds(rig.conversation.internals.thread.entries()), ['user', 'agent', 'turn_end']);
  assert.equal((rig.conversation.internals.thread.entries()[1] as { text: string }).text, 'Hi there.');
  assert.ok(
    rig.messages.some((m) => m.type === 'textAppended'),
    'the second chunk streamed into the first',
  );
  rig.manager.dispose();
});

test('Stop: session/cancel, the pending permission answered cancelled, the turn ends cancelled and the queue pauses', async () => {
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('do it');
  await flush();
  const answer = rig.agent.requestPermission({
    sessionId,
    toolCall: { toolCallId: 't1', title: 'Run rm', kind: 'execute' },
    options: [{ optionId: 'y', name: 'Allow', kind: 'allow_once' }],
  });
  await flush();
  assert.ok(rig.conversation.internals.thread.hasPendingPermission);
  rig.conversation.internals.queue.add('next one');
  rig.conversation.stop();
  assert.deepEqual(await answer, { outcome: { outcome: 'cancelled' } });
  await flush();
  assert.ok(rig.agent.methods().includes('session/cancel'));
  assert.equal(rig.conversation.status.kind, 'ready');
  const end = rig.conversation.internals.thread.entries().at(-1);
  assert.equal(end?.kind === 'turn_end' && end.stopReason, 'cancelled');
  assert.ok(!rig.conversation.internals.thread.entries().some((e) => e.kind === 'error'), 'a cancelled turn is no error');
  assert.ok(rig.conversation.internals.queue.paused, 'the queued prompt waits for the user');
  rig.manager.dispose();
});

test('an agent that ignores the cancel: after the grace the turn is ended here, with an error that offers Restart', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession({ cancelGraceMs: 10_000 });
  rig.agent.behaviour.honourCancel = false;
  await started(rig);
  rig.conversation.prompt('long job');
  await flush();
  rig.conversation.stop();
  await flush();
  assert.equal(rig.conversation.status.kind, 'cancelling');
  t.mock.timers.tick(9_999);
  await flush();
  assert.equal(rig.conversation.status.kind, 'cancelling', 'still waiting just before the grace ends');
  t.mock.timers.tick(1);
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  const error = rig.conversation.internals.thread.entries().find((e) => e.kind === 'error');
  assert.ok(error && error.kind === 'error' && /did not confirm the cancellation within 10 s/.test(error.message) && error.action === 'restart');
  rig.manager.dispose();
});

test('sign-in: session/new needs it, the card shows the methods, authenticating opens the session and sends the queued prompt', async () => {
  const rig = stubSession();
  rig.agent.behaviour.initialize.authMethods = [{ id: 'login', name: 'Log in', description: 'With your account' }];
  rig.agent.behaviour.newSessionError = acp.RequestError.authRequired();
  await rig.manager.init();
  rig.conversation.prompt('after signing in');
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  const card = rig.conversation.internals.thread.entries().find((e) => e.kind === 'auth');
  assert.ok(card && card.kind === 'auth' && card.methods[0]?.id === 'login');
  assert.ok(rig.conversation.internals.queue.paused);
  await rig.conversation.authenticate('login');
  await flush();
  assert.deepEqual(
    rig.agent.methods().filter((m) => m !== 'initialize'),
    ['session/new', 'authenticate', 'session/new', 'session/prompt'],
  );
  assert.equal(rig.conversation.status.kind, 'running');
  rig.manager.dispose();
});

test('a load replay, part of it after the answer: shown once, replacing the transcript; a call it leaves open is settled when it goes quiet', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  rig.agent.behaviour.initialize.agentCapabilities = { loadSession: true };
  await rig.manager.init();
  const conversation = rig.conversation;
  conversation.setSessionId('old-session');
  conversation.restore({ entries: [{ kind: 'user', id: 'e1', text: 'from the transcript' }], terminals: {} });
  rig.agent.behaviour.replay = {
    before: [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'replayed question' } }],
    after: [say('replayed answer'), { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', status: 'in_progress' }],
  };
  const connecting = conversation.connect();
  await flush();
  t.mock.timers.tick(0);
  await connecting;
  await flush();
  assert.deepEqual(kinds(conversation.internals.thread.entries()), ['user', 'agent', 'tool_call'], 'the replay replaced the transcript, nothing twice');
  assert.equal((conversation.internals.thread.entries()[0] as { text: string }).text, 'replayed question');
  assert.equal(rig.messages.filter((m) => m.type === 'entriesCleared').length, 1 + 1, 'the restore, then one swap');
  const open = () => conversation.internals.thread.entries().find((e) => e.kind === 'tool_call') as { status: string };
  assert.equal(open().status, 'in_progress');
  t.mock.timers.tick(REPLAY_QUIET_MS);
  await flush();
  assert.equal(open().status, 'cancelled', 'no spinner outlives the replay');
  rig.manager.dispose();
});

test('the agent crashes mid-turn: the error names it with its stderr, the queue pauses, Retry starts it again', async () => {
  const rig = stubSession();
  await started(rig);
  rig.conversation.prompt('work');
  await flush();
  rig.conversation.internals.queue.add('again');
  rig.agent.crash('was killed by SIGKILL');
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  const error = rig.conversation.internals.thread.entries().find((e) => e.kind === 'error');
  assert.ok(
    error &&
      error.kind === 'error' &&
      /was killed by SIGKILL during the turn/.test(error.message) &&
      error.detail === 'stub stderr' &&
      error.action === 'restart',
  );
  assert.ok(rig.conversation.internals.queue.paused, 'the queued prompt waits');
  rig.conversation.internals.queue.resume();
  await rig.conversation.connect();
  await flush();
  assert.equal(rig.agent.starts, 2, 'a new agent was started');
  assert.equal(rig.conversation.status.kind, 'running', 'the queued prompt went to it');
  rig.manager.dispose();
});
