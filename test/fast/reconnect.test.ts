// The fast tier: an agent on another machine drops its connection (StubAgent.drop) and the
// conversation reconnects with backoff under node:test's mock clock: it says so with the attempt,
// marks a running turn interrupted, keeps what was typed meanwhile, reattaches the same session
// (resume, else load without showing the history twice) and, after the last attempt, offers Retry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { RemoteConnectionError } from '../../src/acp/remoteFailure';
import { mayRecover, RECONNECT_ATTEMPTS, reconnectDelay } from '../../src/conversation/reconnect';
import type { ConversationStatus, Entry, NoticeEntry } from '../../src/protocol/messages';
import { REPLAY_QUIET_MS } from '../../src/thread/threadReplay';
import { flush, stubSession, type StubRig } from '../support/stubSession';

const say = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const kinds = (entries: Entry[]) => entries.map((e) => e.kind);
const unreachable = () => new RemoteConnectionError('unreachable', 'Could not reach box:1: connection refused.');
/** The longest wait before attempt n (the delay is ±20 %). */
const longest = (n: number) => Math.ceil(reconnectDelay(n, () => 1));
const shortest = (n: number) => Math.floor(reconnectDelay(n, () => 0));

async function started(rig: StubRig, capabilities: acp.AgentCapabilities = { loadSession: true, sessionCapabilities: { resume: {} } }): Promise<string> {
  rig.agent.behaviour.initialize.agentCapabilities = capabilities;
  await rig.manager.init();
  await rig.conversation.connect();
  const sessionId = rig.conversation.meta.sessionId;
  assert.ok(sessionId, 'a session was opened');
  return sessionId;
}

function notices(rig: StubRig): NoticeEntry[] {
  return rig.conversation.internals.thread.entries().filter((e): e is NoticeEntry => e.kind === 'notice');
}

function reconnecting(status: ConversationStatus): { attempt: number; attempts: number } | undefined {
  return status.kind === 'starting' ? status.reconnecting : undefined;
}

test('the backoff doubles from 0.5 s to at most 30 s, each wait within ±20 %', () => {
  const middle = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => reconnectDelay(n, () => 0.5));
  assert.deepEqual(middle, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(
    reconnectDelay(3, () => 0),
    1600,
  );
  assert.equal(
    reconnectDelay(3, () => 1),
    2400,
  );
});

test('a drop while idle: "Reconnecting…" with the attempt, then the same session is resumed and the notice says so', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  const sessionId = await started(rig);
  const startsBefore = rig.agent.starts;
  rig.agent.drop('lost its connection to box:1 (the connection closed (code 1006))');
  await flush();
  assert.deepEqual(reconnecting(rig.conversation.status), { attempt: 1, attempts: RECONNECT_ATTEMPTS });
  assert.match(notices(rig).at(-1)?.message ?? '', /lost its connection to box:1.*Reconnecting…/);
  t.mock.timers.tick(shortest(1) - 1);
  await flush();
  assert.equal(rig.agent.starts, startsBefore, 'no attempt before the wait is over');
  t.mock.timers.tick(longest(1));
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  const resumes = rig.agent.received.filter((r) => r.method === 'session/resume');
  assert.deepEqual(resumes.at(-1)?.params, { sessionId, cwd: rig.conversation.meta.cwd }, 'the same session, resumed');
  assert.equal(rig.agent.methods().filter((m) => m === 'session/new').length, 1, 'no new session');
  assert.equal(notices(rig).length, 1, 'one notice for the drop, updated in place');
  assert.match(notices(rig)[0].message, /^Reconnected to Stub\.$/);
  rig.manager.dispose();
});

test('a drop mid-turn: the turn is marked interrupted, not cancelled — what waited behind it and what was typed meanwhile go out once, in order, when the session is back', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  const sessionId = await started(rig);
  rig.conversation.prompt('long job');
  await flush();
  rig.agent.sendUpdate(sessionId, say('Working on'));
  rig.conversation.prompt('queued behind it');
  rig.agent.drop();
  await flush();
  assert.deepEqual(kinds(rig.conversation.internals.thread.entries()), ['user', 'agent', 'turn_end', 'notice']);
  const end = rig.conversation.internals.thread.entries()[2];
  assert.ok(end.kind === 'turn_end' && end.stopReason === 'interrupted', 'the turn says it was interrupted');
  assert.equal(rig.conversation.internals.queue.view().paused, undefined, 'an interruption does not pause the queue');
  rig.conversation.prompt('typed meanwhile');
  await flush();
  assert.equal(rig.agent.received.filter((r) => r.method === 'session/prompt').length, 1, 'nothing is sent to a dropped connection');
  t.mock.timers.tick(longest(1));
  await flush();
  assert.match(notices(rig)[0].message, /^Reconnected to Stub\. Sending the 2 messages written meanwhile, in order\.$/);
  assert.equal(rig.conversation.status.kind, 'running', 'the first waiting prompt went out by itself');
  const prompts = () =>
    rig.agent.received.filter((r) => r.method === 'session/prompt').map((r) => r.params as { sessionId: string; prompt: Array<{ text: string }> });
  assert.equal(prompts().at(-1)?.sessionId, sessionId, 'into the same session');
  assert.equal(prompts().at(-1)?.prompt.at(-1)?.text, 'queued behind it');
  rig.agent.endTurn();
  await flush();
  assert.deepEqual(
    prompts().map((p) => p.prompt.at(-1)?.text),
    ['long job', 'queued behind it', 'typed meanwhile'],
    'each once, in the order written',
  );
  rig.manager.dispose();
});

test('no turn was running: what was typed while reconnecting is sent once the session is back', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  await started(rig);
  rig.agent.drop();
  await flush();
  rig.conversation.prompt('when you are back');
  await flush();
  assert.equal(rig.agent.methods().includes('session/prompt'), false, 'nothing is sent to a dropped connection');
  t.mock.timers.tick(longest(1));
  await flush();
  assert.equal(rig.conversation.status.kind, 'running');
  assert.equal(rig.conversation.internals.queue.size, 0);
  rig.manager.dispose();
});

test('attempts that fail wait longer each time and are counted; after the last one the error offers Retry, which connects', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  await started(rig);
  rig.agent.behaviour.connectFailures = Array.from({ length: RECONNECT_ATTEMPTS }, unreachable);
  const startsBefore = rig.agent.starts;
  rig.agent.drop();
  await flush();
  for (let n = 1; n <= RECONNECT_ATTEMPTS; n++) {
    assert.equal(reconnecting(rig.conversation.status)?.attempt, n, `attempt ${n} is shown`);
    t.mock.timers.tick(shortest(n) - 1);
    await flush();
    assert.equal(rig.agent.starts, startsBefore + n - 1, `attempt ${n} waits its backoff`);
    t.mock.timers.tick(longest(n));
    await flush();
    assert.equal(rig.agent.starts, startsBefore + n, `attempt ${n} was made`);
  }
  assert.equal(rig.conversation.status.kind, 'stopped');
  const error = rig.conversation.internals.thread.entries().find((e) => e.kind === 'error');
  assert.ok(error?.kind === 'error' && error.action === 'retry', 'the error offers Retry');
  assert.match(error.message, new RegExp(`Could not reconnect to Stub after ${RECONNECT_ATTEMPTS} attempts: Could not reach box:1`));
  assert.equal(notices(rig).length, 1, 'the attempts were counted in one notice');
  assert.match(notices(rig)[0].message, /stopped after 8 attempts/);
  // Retry (the panel's button) connects again: the server is back.
  rig.conversation.internals.queue.resume();
  await rig.conversation.connect();
  assert.equal(rig.conversation.status.kind, 'ready');
  rig.manager.dispose();
});

test('a refused token while reconnecting stops the attempts and shows the sign-in card', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  await started(rig);
  const method = { id: 'tandem-remote-token', name: 'Enter an access token', type: 'env_var', vars: [{ name: 'TANDEM_REMOTE_TOKEN' }] };
  rig.agent.behaviour.connectFailures = [new acp.RequestError(-32000, 'box:1 refused the connection (401)', { authMethods: [method] })];
  rig.agent.drop();
  await flush();
  t.mock.timers.tick(longest(1));
  await flush();
  assert.equal(rig.conversation.status.kind, 'stopped');
  const card = rig.conversation.internals.thread.entries().find((e) => e.kind === 'auth');
  assert.ok(card?.kind === 'auth' && card.methods[0]?.kind === 'envVar', 'the token card is shown');
  const starts = rig.agent.starts;
  t.mock.timers.tick(60_000);
  await flush();
  assert.equal(rig.agent.starts, starts, 'no attempt after the sign-in was asked for');
  rig.manager.dispose();
});

test('an agent that can only load: the session is loaded again and its replay replaces the thread once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  const sessionId = await started(rig, { loadSession: true });
  rig.conversation.prompt('first');
  await flush();
  rig.agent.sendUpdate(sessionId, say('answer'));
  rig.agent.endTurn();
  await flush();
  rig.agent.behaviour.replay = { before: [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'first' } }, say('answer')], after: [] };
  rig.agent.drop();
  await flush();
  t.mock.timers.tick(longest(1));
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.equal(rig.agent.received.filter((r) => r.method === 'session/load').length, 1);
  t.mock.timers.tick(REPLAY_QUIET_MS);
  await flush();
  const texts = rig.conversation.internals.thread.entries().filter((e) => e.kind === 'agent');
  assert.equal(texts.length, 1, 'the history is shown once');
  rig.manager.dispose();
});

test('closing the conversation while it waits to reconnect: no attempt is made', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const rig = stubSession();
  await started(rig);
  rig.agent.drop();
  await flush();
  await rig.manager.close(rig.conversation.id);
  t.mock.timers.tick(60_000);
  await flush();
  assert.equal(rig.agent.methods().includes('session/resume'), false, 'the closed conversation did not reattach');
  rig.manager.dispose();
});

test('which failures are worth another attempt: drops, timeouts, ssh 255, an HTTP 5xx or 429 of one request; not a 4xx or a refusal', () => {
  assert.equal(mayRecover(new RemoteConnectionError('unreachable', 'down')), true);
  assert.equal(mayRecover(new acp.RequestError(-32603, 'ACP POST failed: 502', { status: 502, body: 'bad gateway' })), true);
  assert.equal(mayRecover(new acp.RequestError(-32603, 'ACP POST failed: 429', { status: 429 })), true);
  assert.equal(mayRecover(new acp.RequestError(-32603, 'ACP POST failed: 400', { status: 400 })), false);
  assert.equal(mayRecover(new acp.RequestError(-32602, 'Invalid params')), false, "the agent's own error");
  assert.equal(mayRecover(new Error('boom')), false);
});
