// Steering (issue 31): a prompt written while a turn runs goes into that turn when the agent
// advertises steering — the adapters' `_session/steering` or the RFD's `session.steering` — and is
// queued when it does not, or when the agent does not take it. Judged by what the stub agent received
// and what the thread and queue show; never a session/cancel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { STEER_TIMEOUT_MS } from '../../src/conversation/steering';
import type { UserEntry } from '../../src/protocol/messages';
import { flush, stubSession, type StubRig } from '../support/stubSession';

const EXTENSION_INIT: acp.InitializeResponse = {
  protocolVersion: acp.PROTOCOL_VERSION,
  agentCapabilities: { loadSession: true },
  authMethods: [],
  _meta: { steering: { supported: true } },
};

/** A conversation with a turn running ('first'), the agent advertising `init`. */
async function running(init: acp.InitializeResponse, answer?: (method: string, params: Record<string, unknown>) => unknown): Promise<StubRig> {
  const rig = stubSession();
  rig.agent.behaviour.initialize = init;
  if (answer) rig.agent.behaviour.extension = answer;
  await rig.manager.init();
  await rig.conversation.connect();
  rig.conversation.prompt('first');
  await flush();
  assert.equal(rig.conversation.status.kind, 'running');
  return rig;
}

const users = (rig: StubRig) => rig.conversation.snapshot().entries.filter((e): e is UserEntry => e.kind === 'user');
const queued = (rig: StubRig) => (rig.conversation.snapshot().queue?.items ?? []).map((i) => i.text);
const prompts = (rig: StubRig) =>
  rig.agent.received.filter((r) => r.method === 'session/prompt').map((r) => (r.params as { prompt: Array<{ text?: string }> }).prompt[0]?.text);
const steers = (rig: StubRig) => rig.agent.received.filter((r) => r.method === '_session/steering');

test('injected: the message joins the running turn, marked steered; the turn goes on and ends once', async () => {
  const rig = await running(EXTENSION_INIT, () => ({ outcome: 'injected' }));
  assert.equal(rig.conversation.snapshot().promptCapabilities?.steering, true, 'the panel is told it may steer');
  rig.agent.sendUpdate(rig.conversation.meta.sessionId!, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } });
  assert.ok(rig.conversation.prompt('use the retry helper'));
  await flush();
  const [steer] = steers(rig);
  assert.ok(steer, '_session/steering was sent');
  const params = steer.params as { sessionId: string; prompt: Array<{ type: string; text?: string }>; _meta: { steering: { idleBehavior: string } } };
  assert.equal(params.sessionId, rig.conversation.meta.sessionId);
  assert.deepEqual(params.prompt, [{ type: 'text', text: 'use the retry helper' }]);
  assert.equal(params._meta.steering.idleBehavior, 'promptRequired', 'Tandem keeps the message when no turn runs');
  assert.deepEqual(
    users(rig).map((u) => [u.text, u.steered]),
    [
      ['first', undefined],
      ['use the retry helper', true],
    ],
  );
  assert.deepEqual(queued(rig), [], 'nothing waits in the queue');
  assert.equal(rig.conversation.status.kind, 'running', 'the turn goes on');
  // The agent's next words come after the steered message, not appended above it.
  rig.agent.sendUpdate(rig.conversation.meta.sessionId!, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'switching' } });
  const kinds = rig.conversation.snapshot().entries.map((e) => e.kind);
  assert.deepEqual(kinds, ['user', 'agent', 'user', 'agent']);
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.deepEqual(prompts(rig), ['first'], 'the steered message was never sent as a prompt of its own');
  assert.ok(!rig.agent.methods().includes('session/cancel'), 'no session/cancel');
  rig.manager.dispose();
});

test('promptRequired: the message was not taken and goes as the next normal prompt after the turn', async () => {
  const rig = await running(EXTENSION_INIT, () => ({ outcome: 'promptRequired', reason: 'noRunningTurn' }));
  rig.conversation.prompt('then do this');
  await flush();
  assert.equal(steers(rig).length, 1);
  assert.deepEqual(queued(rig), ['then do this']);
  assert.ok(
    users(rig).every((u) => u.text !== 'then do this'),
    'not shown as steered',
  );
  assert.match(rig.log.of('warn').join('\n'), /not steered into the turn \(the agent has no running turn \(promptRequired\)\)/);
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first', 'then do this']);
  assert.equal(users(rig).at(-1)?.steered, undefined);
  assert.ok(!rig.agent.methods().includes('session/cancel'));
  rig.manager.dispose();
});

test('startedNewTurn: the agent took it as a turn of its own; shown plain, never sent twice', async () => {
  const rig = await running(EXTENSION_INIT, () => ({ outcome: 'startedNewTurn' }));
  rig.conversation.prompt('and this');
  await flush();
  assert.deepEqual(
    users(rig).map((u) => [u.text, u.steered]),
    [
      ['first', undefined],
      ['and this', undefined],
    ],
  );
  assert.deepEqual(queued(rig), []);
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first']);
  assert.ok(!rig.agent.methods().includes('session/cancel'));
  rig.manager.dispose();
});

test('a failed, malformed or codex "failed" answer queues the message with a log line; nothing is lost', async () => {
  const answers: Array<() => unknown> = [
    () => {
      throw new acp.RequestError(-32603, 'Internal error', { details: 'boom' });
    },
    () => ({ outcome: 42 }),
    () => ({ outcome: 'failed' }),
  ];
  const rig = await running(EXTENSION_INIT, () => answers.shift()!());
  rig.conversation.prompt('one');
  rig.conversation.prompt('two');
  rig.conversation.prompt('three');
  await flush();
  assert.equal(steers(rig).length, 3, 'each was tried, in order');
  assert.deepEqual(queued(rig), ['one', 'two', 'three']);
  assert.match(rig.log.of('warn').join('\n'), /_session\/steering failed: Internal error/);
  assert.match(rig.log.of('warn').join('\n'), /_session\/steering answered \{"outcome":42\}/);
  assert.match(rig.log.of('warn').join('\n'), /_session\/steering answered \{"outcome":"failed"\}/);
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first', 'one']);
  assert.ok(!rig.agent.methods().includes('session/cancel'));
  rig.manager.dispose();
});

test('no answer in time: queued; a late "injected" takes it back out of the queue', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let answer: (value: unknown) => void = () => undefined;
  const rig = await running(EXTENSION_INIT, () => new Promise((resolve) => (answer = resolve)));
  rig.conversation.prompt('slow');
  await flush();
  assert.deepEqual(queued(rig), []);
  t.mock.timers.tick(STEER_TIMEOUT_MS);
  await flush();
  assert.deepEqual(queued(rig), ['slow']);
  assert.match(rig.log.of('warn').join('\n'), /did not answer within 15 s/);
  answer({ outcome: 'injected' });
  await flush();
  assert.deepEqual(queued(rig), [], 'taken back out');
  assert.equal(users(rig).at(-1)?.steered, true);
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first']);
  rig.manager.dispose();
});

test('the RFD form (session.steering): the message goes as session/prompt during the turn, steered, no cancel', async () => {
  const rfd = {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, session: { steering: {} } },
    authMethods: [],
  } as unknown as acp.InitializeResponse;
  const rig = await running(rfd);
  rig.conversation.prompt('steer me');
  await flush();
  assert.deepEqual(prompts(rig), ['first', 'steer me'], 'a second session/prompt while the first runs');
  assert.equal(steers(rig).length, 0);
  assert.equal(users(rig).at(-1)?.steered, true);
  rig.agent.answerPrompt(1, { stopReason: 'end_turn' });
  await flush();
  assert.equal(rig.conversation.status.kind, 'running', "the steer's answer does not end the turn");
  rig.agent.endTurn('end_turn');
  await flush();
  assert.equal(rig.conversation.status.kind, 'ready');
  assert.ok(!rig.agent.methods().includes('session/cancel'));
  rig.manager.dispose();
});

test('the RFD form: a refused steer is queued as the next prompt, with a notice', async () => {
  const rfd = {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, sessionCapabilities: { steering: {} } },
    authMethods: [],
  } as unknown as acp.InitializeResponse;
  const rig = await running(rfd);
  rig.conversation.prompt('refused');
  await flush();
  rig.agent.answerPrompt(1, new acp.RequestError(-32600, 'too many pending'));
  await flush();
  assert.deepEqual(queued(rig), ['refused']);
  assert.ok(rig.conversation.snapshot().entries.some((e) => e.kind === 'notice' && /did not take the steered message/.test(e.message)));
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first', 'refused', 'refused']);
  rig.manager.dispose();
});

test('an agent without steering keeps the queue: the prompt waits for the turn, Send now still cancels for it', async () => {
  const rig = stubSession();
  await rig.manager.init();
  await rig.conversation.connect();
  rig.conversation.prompt('first');
  await flush();
  assert.equal(rig.conversation.snapshot().promptCapabilities?.steering, undefined);
  rig.conversation.prompt('later');
  await flush();
  assert.deepEqual(queued(rig), ['later']);
  assert.equal(steers(rig).length, 0);
  assert.deepEqual(prompts(rig), ['first']);
  const [item] = rig.conversation.snapshot().queue?.items ?? [];
  rig.conversation.sendNow(item!.id);
  await flush();
  assert.ok(rig.agent.methods().includes('session/cancel'));
  assert.deepEqual(prompts(rig), ['first', 'later']);
  rig.manager.dispose();
});

test('steering is only for a running turn: when idle a prompt is a normal prompt', async () => {
  const rig = stubSession();
  rig.agent.behaviour.initialize = EXTENSION_INIT;
  rig.agent.behaviour.extension = () => ({ outcome: 'injected' });
  await rig.manager.init();
  await rig.conversation.connect();
  rig.conversation.prompt('idle prompt');
  await flush();
  assert.equal(steers(rig).length, 0);
  assert.deepEqual(prompts(rig), ['idle prompt']);
  rig.manager.dispose();
});

test('Send now on a queued prompt steers it into the running turn for an agent that takes steering: nothing is stopped', async () => {
  const answers = [{ outcome: 'promptRequired', reason: 'noRunningTurn' }, { outcome: 'injected' }];
  const rig = await running(EXTENSION_INIT, () => answers.shift());
  rig.conversation.prompt('held back');
  await flush();
  assert.deepEqual(queued(rig), ['held back']);
  const [item] = rig.conversation.snapshot().queue?.items ?? [];
  rig.conversation.sendNow(item!.id);
  await flush();
  assert.equal(steers(rig).length, 2);
  assert.deepEqual(queued(rig), []);
  assert.equal(users(rig).at(-1)?.text, 'held back');
  assert.equal(users(rig).at(-1)?.steered, true);
  assert.equal(rig.conversation.status.kind, 'running');
  assert.ok(!rig.agent.methods().includes('session/cancel'), 'Send now stopped nothing');
  rig.agent.endTurn('end_turn');
  await flush();
  assert.deepEqual(prompts(rig), ['first']);
  rig.manager.dispose();
});
